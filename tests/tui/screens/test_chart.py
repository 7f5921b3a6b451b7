"""The advantage chart of the replay: filled in by the analysis, the mistakes marked on it and in the
move list, a click on a column jumps to that move."""
from __future__ import annotations

from pathlib import Path

import pytest

from ai.analysis import analyse_game, analysis_player
from engines.savefile import parse
from tests.helpers.app import SIZE, make_app, message, wait_until
from tui.screens import chart as chart_module
from tui.screens.replay import ReplayScreen
from tui.widgets.advantage_chart import AdvantageChart
from tui.widgets.move_list import MoveList
from tests.helpers.paths import ROOT

GAME = ROOT / "tests" / "data" / "analysis" / "connect4-level1-blunders.txt"


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
    monkeypatch.setattr(chart_module, "CHART_NODES", 2_000)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, chart = await replay_with_chart(app, pilot)
        assert chart.verdicts[6].label == "blunder"  # move 7, level 1's: a proven loss
        # the chart's process gives exactly `termarena analyse`'s verdicts at the same budget
        saved = saved_game()
        assert chart.verdicts == analyse_game(saved.start_position(), saved.moves, nodes=2_000).moves
        marks = {v.ply: v.label for v in chart.verdicts if v.label}
        assert screen.query_one(MoveList).labels == marks
        assert "7 ● 4??" in str(screen.query_one("#move-lines").render())
        width = chart.content_size.width
        x = next(x for x in range(width) if chart.ply_at(x, width) == 7)
        await pilot.click(AdvantageChart, offset=(x, 4))
        assert screen.ply == 7
        assert "move 7 of 10" in str(screen.query_one("#replay-info").render())
        await pilot.press("c")
        assert not chart.display


def analysed(saved):
    """The verdicts `analyse` gives at a small budget, and a stand-in for the chart's finished search."""
    verdicts = analyse_game(saved.start_position(), saved.moves, nodes=2_000).moves
    return type("Done", (), {"verdicts": verdicts})()


async def open_analysed_chart(app, pilot, saved, ply: int):
    """The replay with its chart shown (by the key, as a user would) and filled in without a process."""
    screen = ReplayScreen(saved, "of a level 1 game")
    screen._chart_search = analysed(saved)  # as if analysed: the key starts no search
    app.push_screen(screen)
    await pilot.pause()
    await pilot.press("c")
    screen.jump_to(ply)
    await pilot.pause()
    return screen


# 0.35-0.65 s each: the inner loop keeps the first case
@pytest.mark.parametrize("size", [SIZE, pytest.param((160, 48), marks=pytest.mark.slow)], ids=["80x24", "160x48"])
def test_the_chart(size, snap_compare):
    """A strip in the side panel at 80x24; half the screen at 160x48, with move numbers; a legend of
    the marks in both."""
    saved = saved_game()
    app = make_app()

    async def run_before(pilot):
        await open_analysed_chart(app, pilot, saved, 7)

    assert snap_compare(app, run_before=run_before, terminal_size=size)


# 0.35-0.65 s each: the inner loop keeps the first case
@pytest.mark.parametrize("size", [SIZE, *(pytest.param(s, marks=pytest.mark.slow) for s in ((120, 40), (160, 48)))])
async def test_from_120_columns_the_chart_takes_half_the_width_or_more(size):
    saved = saved_game()
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_analysed_chart(app, pilot, saved, 7)
        chart = screen.query_one(AdvantageChart)
        text = str(chart.render())
        assert "?! inaccuracy" in text and "blunder" in text  # the legend
        if size[0] >= 120:
            assert chart.size.width >= size[0] // 2 - 2 and chart.size.height >= size[1] // 3
            assert " 5 " in text.splitlines()[-3] + " "  # move numbers under the columns
        await pilot.press("c")  # hidden: the side panel is narrow again
        assert not chart.display and screen.query_one("#side").size.width < size[0] // 2


async def test_the_bracket_keys_jump_from_mark_to_mark_and_say_when_there_is_none():
    saved = saved_game()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_analysed_chart(app, pilot, saved, 0)
        marks = screen.query_one(AdvantageChart).marked_plies()
        assert 7 in marks
        for ply in marks:
            await pilot.press("right_square_bracket")
            assert screen.ply == ply
            assert f"move {ply} of 10" in str(screen.query_one("#replay-info").render())
        await pilot.press("right_square_bracket")
        assert screen.ply == marks[-1] and f"No inaccuracy, mistake or blunder after move {marks[-1]}" in message(app)
        await pilot.press("left_square_bracket")
        assert screen.ply == (marks[-2] if len(marks) > 1 else marks[-1])


async def test_c_on_the_game_over_dialog_opens_the_chart_at_the_last_move(monkeypatch):
    monkeypatch.setattr(chart_module, "CHART_NODES", 2_000)
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
    monkeypatch.setattr(chart_module, "CHART_NODES", 2_000)
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


def test_a_game_longer_than_the_chart_is_wide_spreads_over_it_and_its_legend_names_the_marks_drawn():
    from ai.analysis import MoveVerdict
    chart = AdvantageChart(("Red", "Blue"), ("red", "blue"))
    labels = ["inaccuracy", "mistake", "blunder", None]
    verdicts = [MoveVerdict(ply, "1", ply % 2, 0.3, "1", 0.3, labels[ply % 4], 0.0) for ply in range(1, 41)]
    chart.show(verdicts, 40, 3)
    assert [chart.ply_at(x, 26) for x in (0, 25, 26)] == [1, 40, None]  # the whole width, the whole game
    assert all(chart.plies_at(chart.first_x(ply, 26), 26).count(ply) for ply in range(1, 41))
    rows = chart.draw(26, 8).to_text().plain.splitlines()
    marks, legend = rows[5], "\n".join(rows[6:])
    assert set(marks) - {" "} == {"·", "?", "X"} and "?!" not in marks and "??" not in marks
    assert "· inaccuracy" in legend and "? mistake" in legend and "X blunder" in legend
    chart.style_name = "ascii"
    assert chart.draw(26, 8).to_text().plain.isascii()


async def test_a_game_from_a_position_is_charted_and_replayed_in_the_game_s_turns():
    # the Lines of Action endgame of saves/ starts at turn 59: its two moves here are 59 and 60 on the
    # chart's axis, in the replay's "move … of …", the move list's count and what the bracket keys say,
    # as in the move list's rows
    from tui.core.session import Session
    from tui.core.specs import parse_spec

    endgame = parse((ROOT / "saves" / "lines-of-action-endgame.txt").read_text(encoding="utf-8"))[0]
    session = Session("lines-of-action", (parse_spec("human"), parse_spec("human")), start=endgame.start)
    assert session.start_ply == 58
    for move in ("b4b2", "d6c6"):
        session.play(move)
    saved = session.to_saved()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_analysed_chart(app, pilot, saved, 2)
        assert "move 60 of 60" in str(screen.query_one("#replay-info").render())
        assert str(screen.query_one("#move-lines").render()).startswith("Moves  60/60")
        chart = screen.query_one(AdvantageChart)
        rows = chart.draw(40, 12).to_text().plain.splitlines()  # tall enough for the move numbers
        axis = next(row for row in rows if row.strip()[:1].isdigit())
        assert axis.split()[0] == "59", rows
        await pilot.press("right_square_bracket")
        assert "after move 60" in message(app)
        screen.jump_to(0)
        await pilot.pause()
        assert "move 58 of 60" in str(screen.query_one("#replay-info").render())
