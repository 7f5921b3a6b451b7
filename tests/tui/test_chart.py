"""The advantage chart of the replay: filled in by the analysis, the mistakes marked on it and in the
move list, a click on a column jumps to that move."""
from __future__ import annotations

from pathlib import Path

import pytest

from ai.analysis import analyse_game, analysis_player
from engines.savefile import parse
from tests.helpers.app import SIZE, make_app, wait_until
from tui.screens import chart as chart_module
from tui.screens.replay import ReplayScreen
from tui.widgets.advantage_chart import AdvantageChart
from tui.widgets.move_list import MoveList

GAME = Path(__file__).resolve().parent.parent / "data" / "analysis" / "connect4-level1-blunders.txt"


def saved_game():
    return parse(GAME.read_text(encoding="utf-8"))[0]


async def replay_with_chart(app, pilot):
    """The replay of the game, its chart shown and filled in; (screen, chart)."""
    app.push_screen(ReplayScreen(saved_game(), "test"))
    await pilot.pause()
    screen = app.screen
    chart = screen.query_one(AdvantageChart)
    assert not chart.display
    await pilot.press("c")
    assert chart.display
    await wait_until(pilot, lambda: len(chart.verdicts) == 10)
    return screen, chart


async def test_the_chart_fills_in_marks_the_blunder_and_a_click_jumps_to_its_move(monkeypatch):
    monkeypatch.setattr(chart_module, "CHART_MS", 60)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, chart = await replay_with_chart(app, pilot)
        assert chart.verdicts[6].label == "blunder"  # move 7, level 1's: a proven loss
        assert "7 ● 3??" in str(screen.query_one("#move-lines").render())
        width = chart.content_size.width
        x = next(x for x in range(width) if chart.ply_at(x, width) == 7)
        await pilot.click(AdvantageChart, offset=(x, 4))
        assert screen.ply == 7
        assert "move 7 of 10" in str(screen.query_one("#replay-info").render())
        await pilot.press("c")
        assert not chart.display


def test_the_chart_at_80x24(snap_compare):
    saved = saved_game()
    verdicts = analyse_game(saved.start_position(), saved.moves, analysis_player("connect4", nodes=2_000)).moves
    app = make_app()

    async def open_replay(pilot):
        screen = ReplayScreen(saved, "of a level 1 game")
        app.push_screen(screen)
        await pilot.pause()
        screen.query_one(AdvantageChart).display = True
        screen._chart_search = type("Done", (), {"verdicts": verdicts})()  # as if analysed: no process
        screen.jump_to(7)
        screen.query_one(MoveList).show(screen.session, screen.board_cls, replay=True)
        await pilot.pause()

    assert snap_compare(app, run_before=open_replay, terminal_size=SIZE)


async def test_c_on_the_game_over_dialog_opens_the_chart_at_the_last_move(monkeypatch):
    monkeypatch.setattr(chart_module, "CHART_MS", 60)
    app = make_app("c4", moves=["0", "0", "1", "1", "2", "2"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")  # Red connects four in columns 0-3: the game-over dialog
        await wait_until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen")
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        chart = screen.query_one(AdvantageChart)
        assert chart.display and screen.ply == 7
        await wait_until(pilot, lambda: len(chart.verdicts) == 7)


@pytest.mark.slow  # a whole game analysed, then the AI
async def test_from_the_blunder_on_the_chart_play_on_against_the_ai(monkeypatch):
    """A new user's way through: a finished game between two AIs, the chart, the move before the
    blunder, then play on from there against the AI, taking over the side that blundered."""
    monkeypatch.setattr(chart_module, "CHART_MS", 60)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, chart = await replay_with_chart(app, pilot)
        blunder = next(v.ply for v in chart.verdicts if v.label == "blunder")
        screen.post_message(AdvantageChart.Jump(blunder - 1))  # the column before it
        await pilot.pause()
        await pilot.press("p")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "GameScreen")
        game = app.screen
        assert game.session.ply == blunder - 1
        assert [s.kind for s in game.session.specs] == ["human", "ai"]  # Red (level 1's seat) is yours now
        assert game.board.accepting


def test_the_ascii_chart_is_ascii_and_keeps_half_bars_apart_from_full_ones():
    from ai.analysis import MoveVerdict
    chart = AdvantageChart(("Red", "Blue"), ("red", "blue"))
    # the first seat well ahead, then a quarter ahead (a half bar), then a blunder by the second seat
    evals = [(0, 0.95), (1, 0.35), (0, 0.5), (1, 0.1)]
    verdicts = [MoveVerdict(ply, "1", seat, p, "1", p, "blunder" if ply == 4 else None, 0.0)
                for ply, (seat, p) in enumerate(evals, 1)]
    chart.show(verdicts, 4, 1)
    chart.style_name = "ascii"
    text = chart.draw(40).to_text().plain
    assert text.isascii(), text
    assert "#" in text and "_" in text and "^" in text  # full bars, a half bar up, the title's ▲
    chart.style_name = "unicode"
    assert "█" in chart.draw(40).to_text().plain
