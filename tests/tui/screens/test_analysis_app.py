"""The analysis key: a panel with the evaluation and the best moves, the best one marked on the board,
started again on every change of position and stopped when toggled off, without blocking the UI."""
from __future__ import annotations

import json
import sys

import pytest

from engines.savefile import SavedGame, dump, parse
from tests.helpers.app import SIZE, make_app, screen_text, wait_until
from tui.screens.replay import ReplayScreen
from tui.widgets.analysis_panel import AnalysisPanel
from tests.helpers.paths import ROOT
from tui import cli

GAME = ROOT / "tests" / "data" / "analysis" / "connect4-level1-blunders.txt"
FEW_NODES = 5_000  # Connect 4's own budget (100,000) where the test is not about the budget


def panel_text(screen) -> str:
    return str(screen.query_one(AnalysisPanel).render())


async def test_analysis_follows_the_position_and_stops_when_toggled_off():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        app.analyst.nodes = FEW_NODES
        screen = app.screen
        panel = screen.query_one(AnalysisPanel)
        assert not panel.display
        await pilot.press("A")
        assert panel.display and app.analyst.search is not None
        first = app.analyst.search
        await wait_until(pilot, lambda: "1. " in panel_text(screen))
        assert screen.board.analysis_move is not None and "%" in panel_text(screen)
        await pilot.press("5")  # the position changes while the analysis runs: it starts again on the new one
        assert screen.session.ply == 1
        assert app.analyst.search is not first and screen.analysed_ply == 1
        await wait_until(pilot, lambda: app.analyst.search is None or app.analyst.search.lines != ())
        await pilot.press("A")
        assert not panel.display and app.analyst.search is None and screen.board.analysis_move is None
        await pilot.press("4")  # off: moves start nothing
        assert screen.session.ply == 2 and app.analyst.search is None


async def test_analysis_in_replay_is_about_the_move_shown():
    saved, _ = parse(GAME.read_text(encoding="utf-8"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.analyst.nodes = FEW_NODES
        app.push_screen(ReplayScreen(saved, "test"))
        await pilot.pause()
        screen = app.screen
        await pilot.press("end", "A")
        assert "game is over" in panel_text(screen) and app.analyst.search is None
        await pilot.press("left")
        assert screen.analysed_ply == 9
        await wait_until(pilot, lambda: "1. " in panel_text(screen))
        # the winning drop, proven: column 3 as the panel writes it, CodinGame's 2 on the board's mark
        assert "1. 3" in panel_text(screen) and "wins" in panel_text(screen)
        await wait_until(pilot, lambda: app.analyst.search is None)
        assert "played: the best move" in panel_text(screen)  # the move played next was that drop
        assert screen.board.analysis_move == "2"


async def test_the_best_line_is_listed_and_numbered_on_the_board():
    app = make_app("c4")
    async with app.run_test(size=(100, 30)) as pilot:
        app.analyst.nodes = FEW_NODES
        screen = app.screen
        await pilot.press("5", "4", "A")
        await wait_until(pilot, lambda: len(screen.board.analysis_line) > 1)
        line = screen.board.analysis_line
        assert line[0] == screen.board.analysis_move and "line 1." in panel_text(screen)
        game = screen.session.game.copy()
        for move in line:  # a line of moves legal one after the other from the position shown
            game.play(move)
        # the board draws the later moves numbered, each in the position it is played in
        assert [move for move, _ in screen.board.line_positions()] == list(line[1:])
        assert all(pos.ply == screen.session.game.ply + k for k, (_, pos) in enumerate(screen.board.line_positions(), 1))
        await pilot.press("A")
        assert screen.board.analysis_line == ()


@pytest.fixture
def panel_shows(monkeypatch) -> list[str]:
    """Every text the analysis panel shows, in order (its reports come and go between two looks)."""
    shown: list[str] = []
    original = AnalysisPanel.show_lines

    def recording(panel, *args, **kwargs):
        original(panel, *args, **kwargs)
        shown.append(panel.render().plain)

    monkeypatch.setattr(AnalysisPanel, "show_lines", recording)
    return shown


def listed_chances(text: str) -> list[float]:
    """The chances of the panel's numbered moves, in the order listed ("wins" 101, "loses" -1)."""
    import re

    words = re.findall(r"^\d\. \S+\s+(\d+%|wins|loses)$", text, re.M)
    return [101.0 if w == "wins" else -1.0 if w == "loses" else float(w[:-1]) for w in words]


async def test_every_list_of_best_moves_the_panel_shows_is_best_first(panel_shows):
    """Issue 26: `1. 4 56%` was listed above `2. 3 58%`; every report of the search is checked."""
    shown = panel_shows
    app = make_app("c4", moves=["4", "STEAL", "3", "5"])
    async with app.run_test(size=SIZE) as pilot:
        app.analyst.nodes = FEW_NODES
        await pilot.press("A")
        await wait_until(pilot, lambda: app.analyst.search is None and shown)
    listed = [listed_chances(text) for text in shown if "searching" not in text]  # the progress lists none
    assert listed and all(len(chances) >= 2 for chances in listed), shown
    assert all(chances == sorted(chances, reverse=True) for chances in listed), shown


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_the_panel_gives_analyses_best_move_evaluation_and_verdict_with_progress_meanwhile(
        monkeypatch, capsys, tmp_path, panel_shows):
    """Issue 26: the in-app analysis gave other verdicts than `analyse`.  The position before the blunder
    of move 7 in a replay: the panel's best move, its chance and the mark of the move played are the
    command's (`analyse --json`, the same node budget), and before them it shows how far the search is."""
    whole, _ = parse(GAME.read_text(encoding="utf-8"))
    before = whole.start_position()
    for move in whole.moves[:6]:
        before.play(move)
    # the position before the blunder and the blunder: the command has one position to analyse
    saved = SavedGame(whole.game, moves=whole.moves[6:7], start=before.to_text(), players=whole.players)
    final = saved.start_position()
    final.play(saved.moves[0])
    blunder = tmp_path / "blunder.txt"
    blunder.write_text(dump(saved, final), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["termarena", "analyse", str(blunder), "--json"])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    out = capsys.readouterr()
    assert ended.value.code in (0, None), out.err
    (seventh,) = json.loads(out.out)["moves"]
    assert seventh["label"] == "blunder" and seventh["move"] == "4"

    progress = panel_shows
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReplayScreen(saved, "test"))
        await pilot.pause()
        screen = app.screen
        await pilot.press("end", "left", "A")
        await wait_until(pilot, lambda: app.analyst.search is None and "✓" in panel_text(screen))
        text = screen.query_one(AnalysisPanel).render().plain
        screen_text_of_panel = screen_text(app)  # the panel's lines whole on the 80x24 screen
    best_row = text.splitlines()[1].split()
    assert best_row == ["1.", seventh["best"], f"{100 * seventh['best_eval']:.0f}%"], text
    rows = text.splitlines()
    played = next(n for n, row in enumerate(rows) if row.startswith("played"))
    assert rows[played].split() == ["played", seventh["move"], "loses"], text
    given_away = round(100 * (seventh["best_eval"] - seventh["eval"]))
    assert rows[played + 1] == f"?? blunder: -{given_away}%", text  # the chart's mark, the command's label
    assert "…" not in screen_text_of_panel, text
    assert any(" of 100k nodes" in shown for shown in progress), progress  # Connect 4's budget, searched so far
