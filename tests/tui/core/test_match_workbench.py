"""`termarena match` as a bot author's workbench: real bot processes, openings played once per colour,
an SPRT that stops early and reports its bounds, results by seat and answer times."""
from __future__ import annotations

import json
import sys

import pytest

from ai.sprt import Sprt
from ai.tournament import Opening
from ai.tournament.outputs import EachGame, to_json
from tests.helpers.cli import run_cli
from tests.helpers.paths import FIRST_MOVE_BOT as BOT
from tui.core.match import run_tournament
from tui.core.specs import parse_spec


def bot(game: str, mode: str = "first"):
    return parse_spec(f"cmd:{sys.executable} {BOT} {game} {mode}")


@pytest.mark.slow  # ten games, two bot processes each
def test_an_sprt_accepts_h1_early_for_a_clearly_stronger_player():
    # A bot that plays legal moves against one whose every answer is refused: every pair 2-0.
    strong, weak = bot("connect4"), bot("connect4", "junk")
    t = run_tournament("connect4", [strong, weak], 200, seed=5, jobs=2, time_limits=False, sprt=Sprt(0, 400))
    assert t.sprt is not None and t.sprt.result == "H1"
    j = to_json(t)["sprt"]
    assert (j["lower"], j["upper"]) == (-2.944, 2.944) and j["llr"] >= j["upper"]
    assert j["pairs"] == [0, 0, 0, 0, 5]  # stopped after the fifth pair, not the 100th
    assert len(t.games) < t.planned == 200


@pytest.mark.slow  # games until the SPRT decides, two bot processes each
def test_an_sprt_accepts_h0_for_a_player_that_loses_every_game():
    junk, good = bot("connect4", "junk"), bot("connect4")
    t = run_tournament("connect4", [junk, good], 200, seed=1, jobs=2, time_limits=False, sprt=Sprt(0, 400))
    assert t.sprt.result == "H0" and t.sprt.counts[0] == sum(t.sprt.counts) >= 2
    rows = to_json(t)["by_player"]
    assert rows[0]["as_seat_0"]["losses"] > 0 and rows[0]["as_seat_1"]["losses"] > 0
    assert all(e["reason"] == "invalid" for e in to_json(t)["games"])


@pytest.mark.slow  # real bot processes
@pytest.mark.parametrize("game, opening", [("connect4", ("4", "STEAL", "3")), ("lines-of-action", ("b1b3", "a2c2"))])
def test_bots_take_over_after_an_opening_in_both_colours(game, opening):
    # The bots are started after the opening's moves and told the whole position: their moves are legal.
    t = run_tournament(game, [bot(game), bot(game)], 2, seed=3, jobs=2, time_limits=False,
                       openings=[Opening(opening)])
    assert [p.a_seat for p, _ in t.games] == [0, 1]
    for p, res in t.games:
        assert tuple(res.moves[:len(opening)]) == opening and res.turns > len(opening)
        assert res.error is None
        assert p.opening_index == 0


@pytest.mark.slow  # real bot processes
def test_results_by_seat_and_answer_times_per_player():
    t = run_tournament("connect4", [bot("connect4", "silent"), bot("connect4")], 2, seed=1, jobs=2,
                       time_limits=True)
    rows = to_json(t)["by_player"]
    silent, first = rows
    assert silent["answer_times"]["timeouts"] == 2 and first["answer_times"]["timeouts"] == 0
    assert first["as_seat_0"]["wins"] + first["as_seat_1"]["wins"] == 2
    times = first["answer_times"]
    assert times["turns"] >= 1 and 0 <= times["mean_ms"] <= times["p95_ms"] <= times["max_ms"]


@pytest.mark.slow  # games until the SPRT decides, two bot processes each
def test_the_cli_reports_sprt_openings_and_refuses_bad_settings_in_one_line(tmp_path, monkeypatch, capsys):
    from tui import cli

    book = tmp_path / "book.txt"
    book.write_text("4\n3\n")
    monkeypatch.setattr(sys, "argv", ["termarena", "match", "c4", f"cmd:{sys.executable} {BOT} connect4",
                                      f"cmd:{sys.executable} {BOT} connect4 junk", "--openings", str(book),
                                      "--json", "--sprt", "0", "300", "--no-time-limit"])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code in (0, None)
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["sprt"]["result"] == "H1" and out["openings"] == 2
    assert [g["opening"] for g in out["games"][:4]] == [0, 0, 1, 1]
    assert [g["moves"][0] for g in out["games"][:4]] == ["4", "4", "3", "3"]
    assert "SPRT [0, 300]" in captured.err and "H1 accepted" in captured.err
    for args, words in [(["--sprt", "10", "0"], "below"), (["--sprt", "0", "10", "--alpha", "0.9"], "alpha"),
                        (["--openings", str(tmp_path / "none.txt")], "none.txt")]:
        code, err = run_cli(monkeypatch, capsys, "match", "c4", "ai:1", "ai:2", *args)
        assert code == 2 and words in err and err.count("\n") <= 2 and "Traceback" not in err


@pytest.mark.slow  # real bot processes
def test_a_recorded_game_after_an_opening_loads_with_the_openings_turns(tmp_path):
    from tui.core.record import RecordFolder
    from tui.core.storage import load_game

    folder = RecordFolder(tmp_path)
    run_tournament("connect4", [bot("connect4"), bot("connect4")], 2, seed=3, jobs=2, time_limits=False,
                   openings=[Opening(("4", "STEAL"))], record=True,
                   outputs=[EachGame(lambda report, _: folder.write(report.result, report.pairing.index))])
    assert len(folder.written) == 2
    for path in folder.written:
        saved, _ = load_game(path)
        assert saved.moves[:2] == ["4", "STEAL"] and len(saved.record) == len(saved.moves)
        assert [(t.output, t.ms, t.stderr) for t in saved.record[:2]] == [("4", 0, ([], [])), ("STEAL", 0, ([], []))]
        assert any(t.stderr[t.seat] for t in saved.record[2:])  # the bots' own turns carry their stderr


def test_the_tables_at_80_columns_show_a_long_bot_command_whole():
    # a spec cut to `cmd:/work/pool/bin/…` hid which bot played; folded over lines it is all there
    import io

    from rich.console import Console

    from ai.tournament.loop import Standings
    from ai.tournament.stats import AnswerTimes, Score
    from tui.core.match import print_table

    label = "cmd:/home/someone/codingame/paper-soccer/bin/rank_4_jacek_hybrid"
    t = Standings("paper-soccer", ["ai:6", label], {(0, 1): Score(1, 0, 1, [])}, [],
                  {(n, s): Score() for n in (0, 1) for s in (0, 1)}, [AnswerTimes(), AnswerTimes()])
    out = io.StringIO()
    print_table(t, Console(file=out, width=80, color_system=None, force_terminal=False))
    tables = out.getvalue().split("by seat")
    for text in tables:
        cells = "".join(line.split("│")[2 if text is tables[0] else 1].strip() for line in text.splitlines()
                        if line.count("│") >= 3)
        assert label in cells, text
