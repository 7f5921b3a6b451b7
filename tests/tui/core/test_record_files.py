"""Recorded games as files: the versioned format 2 examples (tests/data/saves/v2) keep loading with their
record, a recorded game round-trips through a file, `referee --record` and `match --record` write one
file a game that is never written over, and `--record` / `replay FILE` refuse what they cannot use in
one line.  No Textual here."""
from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engines.record import TurnRecord
from engines.referee import run_match
from engines.savefile import dump, parse
from tui.core.record import RecordFolder, recorded_save
from tui.core.storage import list_saves, load_game
from tests.helpers.paths import ROOT

V2 = ROOT / "tests" / "data" / "saves" / "v2"
CHATTY = f"{sys.executable} {ROOT / 'tests' / 'tui' / 'bots' / 'first_move_bot.py'}"

# file: (moves, recorded turns, result, reason, players)
V2_FACTS = {
    "connect4-recorded-timeout.txt": (5, 6, "1-0", "timeout",
                                      ("cmd:python3 first_move_bot.py connect4", "cmd:python3 first_move_bot.py connect4 sleep 3")),
    "lines-of-action-recorded.txt": (30, 30, "0-1", "connected", ("ai:1", "ai:2")),
}


def test_every_format_2_reference_file_is_listed_here():
    assert {p.name for p in V2.glob("*.txt")} == set(V2_FACTS)


@pytest.mark.parametrize("name", sorted(V2_FACTS))
def test_a_format_2_file_loads_with_its_record_and_is_written_back_the_same(name):
    moves, turns, result, reason, players = V2_FACTS[name]
    path = V2 / name
    assert path.read_text(encoding="utf-8").splitlines()[2] == "format = 2"
    saved, final = load_game(path)
    assert (len(saved.moves), len(saved.record), saved.result, saved.reason, saved.players) == \
        (moves, turns, result, reason, players)
    assert [t.turn for t in saved.record] == list(range(1, turns + 1))
    assert all(t.output == m for t, m in zip(saved.record, saved.moves))
    again, state = parse(dump(saved, final))
    assert again.record == saved.record and again.moves == saved.moves and state.key() == final.key()
    assert again.detail == saved.detail


def test_the_timeout_example_keeps_what_the_bots_printed_exactly():
    saved, _ = load_game(V2 / "connect4-recorded-timeout.txt")
    first, last = saved.record[0], saved.record[-1]
    assert first.stderr[1] == ["hello", "tab\there \x1b[2J [final] \\ back "]
    assert last == TurnRecord(6, 1, None, 100, ([], ["turn 3: about to sleep"]))
    assert saved.detail.endswith("no answer within 100 ms")


def test_the_load_screen_lists_a_recorded_game_with_its_record():
    entries = {e.path.name: e for e in list_saves(V2)}
    assert entries["connect4-recorded-timeout.txt"].recorded == 6 and entries["connect4-recorded-timeout.txt"].error is None


def test_a_recorded_game_round_trips_save_load_same_moves_stderr_and_times(tmp_path):
    result = run_match("connect4", [CHATTY + " connect4", CHATTY + " connect4 junk 4"], seed=2,
                       time_limits=False, record=True)
    folder = RecordFolder(tmp_path)
    path = folder.write(result, 0)
    saved, final = load_game(path)
    assert saved.moves == result.moves and saved.record == result.record and saved.seed == 2
    assert (saved.result, saved.reason, saved.detail) == ("1-0", "invalid", result.error)
    assert saved.record[-1].output == "hello" and final.outcome() is None


def test_opening_a_record_folder_removes_what_killed_writes_left(tmp_path):
    from tests.helpers.saves import dead_pid, make_temp

    stale = make_temp(tmp_path, f".connect4-20261126-130501-game0-seed7.txt.{dead_pid()}.abcdefgh.tmp")
    assert RecordFolder(tmp_path).check() is None and not stale.exists()


def test_games_are_never_written_over(tmp_path):
    result = run_match("connect4", [CHATTY + " connect4 crash 1", CHATTY + " connect4"], seed=2, record=True,
                       time_limits=False)
    started = dt.datetime(2026, 11, 26, 13, 0, 0)
    paths = [RecordFolder(tmp_path, started).write(result, 0) for _ in range(3)]
    assert [p.name for p in paths] == ["connect4-20261126-130000-game0-seed2.txt",
                                       "connect4-20261126-130000-game0-seed2-2.txt",
                                       "connect4-20261126-130000-game0-seed2-3.txt"]
    assert all(load_game(p)[0].reason == "crash" for p in paths)
    assert not list(tmp_path.glob(".*.tmp"))


def cli(*args: str):
    from tui.cli import app

    return CliRunner().invoke(app, list(args))


def words(output: str) -> str:
    """typer draws the error in a box that wraps with the terminal's width: compare the words only."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


@pytest.mark.slow  # real bot processes
def test_referee_record_writes_one_loadable_file_a_game(tmp_path):
    out = tmp_path / "rec"
    result = cli("referee", "c4", "--p1", f"cmd:{CHATTY} connect4", "--p2", f"cmd:{CHATTY} connect4 junk 3",
                 "--seed", "4", "--games", "2", "--swap", "--no-time-limit", "--record", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.txt"))
    assert [f.name.split("-game")[1] for f in files] == ["0-seed4.txt", "1-seed5.txt"]
    for f in files:
        saved, _ = load_game(f)
        assert saved.reason == "invalid" and saved.record[-1].output == "hello"
    assert result.output.count("recorded in") == 2


@pytest.mark.slow  # real bot processes
def test_match_record_writes_every_game(tmp_path):
    result = cli("match", "c4", f"cmd:{CHATTY} connect4", f"cmd:{CHATTY} connect4 crash 2", "-n", "2",
                 "--no-time-limit", "--seed", "1", "--record", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.txt"))
    assert len(files) == 2 and "2 games recorded in" in result.output
    assert {load_game(f)[0].reason for f in files} == {"crash"}


def test_record_refuses_a_folder_it_cannot_write_in_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("referee", "c4", "--p1", "ai:1", "--p2", "ai:1", "--record", str(blocker))
    assert result.exit_code == 2 and "is not a folder" in words(result.output) and "Traceback" not in result.output


def hostile_record() -> str:
    """The timeout example with a raw escape character in a stderr line, as no writer makes it."""
    return TIMEOUT_TEXT.replace("1 p2 err hello", "1 p2 err \x1b[2Jhello")


TIMEOUT_TEXT = (V2 / "connect4-recorded-timeout.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("content, reason", [("not a save\n", "not a termarena save"),
                                             (hostile_record(), "unescaped control character"),
                                             (TIMEOUT_TEXT.replace("3 p1 out 2 0", "3 p1 out 2 4"),
                                              "line 42: in [record]: turn 3's answer '4' is another move")],
                         ids=["not-a-save", "raw-escape-in-the-record", "an-answer-that-is-not-the-move"])
@pytest.mark.slow  # termarena as a real process
def test_replay_refuses_a_bad_file_in_one_line_without_starting_the_app(tmp_path, content, reason):
    import subprocess

    bad = tmp_path / "bad.txt"
    bad.write_text(content, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "tui", "replay", str(bad)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and str(bad) in done.stderr and reason in done.stderr, done.stderr


def test_replay_opens_the_app_on_the_file(monkeypatch):
    import tui.app

    calls = []
    monkeypatch.setattr(tui.app, "run_app", lambda **kw: calls.append(kw) or 0)
    result = cli("replay", str(V2 / "connect4-recorded-timeout.txt"))
    assert result.exit_code == 0 and calls[0]["replay"].record and calls[0]["replay_title"] == "connect4-recorded-timeout"
