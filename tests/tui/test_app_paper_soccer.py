"""Paper Soccer in the app: turns built step by step from the keyboard (keypad digits, letters, arrows),
bounces, taking steps back, clicks on the points next to the ball."""
from __future__ import annotations

import pytest

from tests.helpers.app import SIZE, FakeAhead, click, game_screen, make_app, message, session, wait_until
from tui.screens.dialogs import GameOverScreen
from tui.widgets.boards.paper_soccer import PaperSoccerBoard

TOWARDS_THE_TOP = [0, 1, 7, 2, 6, 3, 5, 4]  # N first: Red attacks the top goal
DIRECTION_KEYS = {0: "8", 1: "9", 2: "6", 3: "3", 4: "2", 5: "1", 6: "4", 7: "7"}


async def test_hot_seat_game_to_an_own_goal():
    app = make_app("ps")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(game_screen(app).board, PaperSoccerBoard)
        # Both walk north one fresh point at a time, with the three keys for N; Red ends on the
        # goal mouth (4,0) and Blue steps NW into its own goal.
        await pilot.press("w", "8", "up", "w", "w")
        assert session(app).notation == ["0", "0", "0", "0", "0"]
        await pilot.press("7")  # Blue: NW from (4,0) into (3,-1), its own goal
        await pilot.pause()
        out = session(app).outcome()
        assert out.winner == 0 and out.reason == "own_goal"
        assert isinstance(app.screen, GameOverScreen)
        assert "Red wins" in str(app.screen.query_one("#result-headline").render())
        assert "own goal" in str(app.screen.query_one("#result-reason").render())
        # the length, not the referee's "score -1:1"
        assert str(app.screen.query_one("#result-length").render()) == "6 moves"


async def test_a_bounce_continues_the_turn_and_backspace_takes_a_step_back():
    app = make_app("ps")
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        await pilot.press("w")  # Red to (4,4)
        await pilot.press("d")  # Blue to (5,4)
        await pilot.press("x")  # Red S to (5,5): a fresh point, the turn ends
        assert session(app).notation == ["0", "2", "4"]
        # Blue at (5,5): NW to (4,4) touches drawn lines, so it bounces and the turn goes on.
        await pilot.press("q")
        assert board.path == "7" and session(app).ply == 3 and "Bounce" in message(app)
        await pilot.press("backspace")
        assert board.path == "" and session(app).ply == 3
        await pilot.press("7")
        await pilot.press("escape")
        assert board.path == ""
        await pilot.press("7", "w")  # NW (bounce at (4,4)), then N to (4,3): fresh, the turn ends
        assert session(app).notation == ["0", "2", "4", "70"]


async def test_a_step_along_a_drawn_line_is_refused_with_the_referees_reason():
    app = make_app("ps")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")  # Red (4,5) -> (4,4)
        await pilot.press("x")  # Blue S: back along the line just drawn
        assert session(app).ply == 1
        assert "Trying to move on already existing edge" in message(app)


async def test_clicking_a_point_next_to_the_ball_steps_there():
    app = make_app("ps")
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        await pilot.pause()
        await click(pilot, board, board.point_offset(5, 4))  # NE of the centre spot
        assert session(app).notation == ["1"]
        await click(pilot, board, board.point_offset(2, 2))  # not next to the ball
        assert session(app).ply == 1 and "next to the ball" in message(app)


@pytest.mark.slow  # a whole game, each AI turn in its worker process
async def test_against_the_ai_a_whole_game_and_undo():
    app = make_app("ps", "human", "ai:1", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        board = game_screen(app).board
        await pilot.press("w")
        await wait_until(pilot, lambda: s.human_to_move() or s.is_over())
        if not s.is_over():
            assert s.ply == 2
            await pilot.press("u")
            assert s.ply == 0
        while not s.is_over():
            d = next(d for d in TOWARDS_THE_TOP if board.builder.can_step(d))
            await pilot.press(DIRECTION_KEYS[d])
            await wait_until(pilot, lambda: s.human_to_move() or s.is_over())
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


@pytest.mark.slow  # a real bot process
async def test_an_external_bot_gets_paper_soccers_protocol_and_answers():
    from tests.helpers.paths import FIRST_MOVE_BOT, PY

    app = make_app("ps", "human", f"cmd:{PY} {FIRST_MOVE_BOT} paper-soccer")
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await pilot.press("w")
        await wait_until(pilot, lambda: s.ply == 2 or s.is_over())
        assert s.ply == 2 and not s.is_over() and s.human_to_move()


async def test_the_status_names_the_ai_search_in_use_and_the_fast_ones_compiling():
    from tui.screens.picker import PickerScreen
    from tui.widgets.status import StatusPanel

    app = make_app("ps", "ai:3", "human", seed=4)  # the tests keep to the pure-Python tree (conftest.py)
    async with app.run_test(size=SIZE) as pilot:
        status = game_screen(app).query_one(StatusPanel)
        await wait_until(pilot, lambda: session(app).human_to_move())
        assert str(status.render()).endswith("\nAI search: pure Python")
        app.follow_compile_ahead(FakeAhead())
        app.preparing = "compiling… 40%"  # what the app shows while compiling the fast one ahead
        await pilot.pause()
        assert str(status.render()).endswith("\nAI search: pure Python · fast one compiling… 40%")
        app.show_picker()
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        assert "Paper Soccer's fast search: compiling… 40%" in str(app.screen.query_one("#preparing").render())
