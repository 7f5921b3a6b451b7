"""The analysis key: a panel with the evaluation and the best moves, the best one marked on the board,
started again on every change of position and stopped when toggled off, without blocking the UI."""
from __future__ import annotations

from pathlib import Path

from engines.savefile import parse
from tests.helpers.app import SIZE, make_app, wait_until
from tui.screens.replay import ReplayScreen
from tui.widgets.analysis_panel import AnalysisPanel
from tests.helpers.paths import ROOT

GAME = ROOT / "tests" / "data" / "analysis" / "connect4-level1-blunders.txt"


def panel_text(screen) -> str:
    return str(screen.query_one(AnalysisPanel).render())


async def test_analysis_follows_the_position_and_stops_when_toggled_off():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        app.analyst.think_ms = 300
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
        app.analyst.think_ms = 300
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
        assert screen.board.analysis_move == "2"


async def test_the_best_line_is_listed_and_numbered_on_the_board():
    app = make_app("c4")
    async with app.run_test(size=(100, 30)) as pilot:
        app.analyst.think_ms = 300
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


def listed_chances(text: str) -> list[float]:
    """The chances of the panel's numbered moves, in the order listed ("wins" 101, "loses" -1)."""
    import re

    words = re.findall(r"^\d\. \S+\s+(\d+%|wins|loses)$", text, re.M)
    return [101.0 if w == "wins" else -1.0 if w == "loses" else float(w[:-1]) for w in words]


async def test_every_list_of_best_moves_the_panel_shows_is_best_first(monkeypatch):
    """Issue 26: `1. 4 56%` was listed above `2. 3 58%`; every step of the deepening is checked."""
    shown: list[str] = []
    original = AnalysisPanel.show_lines

    def recording(panel, *args, **kwargs):
        original(panel, *args, **kwargs)
        shown.append(str(panel.render()))

    monkeypatch.setattr(AnalysisPanel, "show_lines", recording)
    app = make_app("c4", moves=["4", "STEAL", "3", "5"])
    async with app.run_test(size=SIZE) as pilot:
        app.analyst.think_ms = 300
        await pilot.press("A")
        await wait_until(pilot, lambda: app.analyst.search is None and shown)
    assert all(len(listed_chances(text)) >= 2 for text in shown), shown
    assert all(listed_chances(text) == sorted(listed_chances(text), reverse=True) for text in shown), shown
