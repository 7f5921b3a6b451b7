"""Lines of Action in the app: cursor and selection by keys, moves by clicks, the typed-move prompt."""
from __future__ import annotations

import pytest

from engines.lines_of_action import parse_square
from tests.helpers.app import SIZE, click, game_screen, make_app, message, session, wait_until
from tests.helpers.scripted_games import SHORT_GAME
from tui.screens.dialogs import GameOverScreen
from tui.widgets.boards.lines_of_action import LinesOfActionBoard


async def click_move(pilot, board, move: str) -> None:
    for name in (move[:2], move[2:4]):
        await click(pilot, board, board.square_offset(parse_square(name)))


def spread(game, seat: int) -> float:
    squares = [s for s in range(64) if game.piece_at(s) == "bw"[seat]]
    cx = sum(s % 8 for s in squares) / len(squares)
    cy = sum(s // 8 for s in squares) / len(squares)
    return sum(max(abs(s % 8 - cx), abs(s // 8 - cy)) for s in squares)


def greedy_move(game) -> str:
    """The move that best gathers the mover's checkers (a win first)."""
    seat = game.current_player()
    best = None
    for move in game.legal_moves():
        game.push(move)
        out = game.outcome()
        score = (0 if out and out.winner == seat else 2 if out else 1, spread(game, seat))
        game.pop()
        if best is None or score < best[0]:
            best = (score, move)
    return game.move_to_str(best[1])


@pytest.mark.slow  # a whole game by keys and clicks
async def test_hot_seat_game_to_the_end_first_move_by_keys_then_by_clicks():
    app = make_app("loa")
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        assert isinstance(board, LinesOfActionBoard)
        # g1e3 by keys: the cursor starts on d1; right to g1, select, up twice and left twice, move.
        await pilot.press("right", "right", "l", "enter")
        assert board.selected == parse_square("g1")
        assert set(board.game.moves_from(board.selected)) == {parse_square(s) for s in ("a1", "g3", "e3")}
        await pilot.press("up", "k", "left", "h", "space")
        assert session(app).notation == ["g1e3"]
        for move in SHORT_GAME[1:]:
            await click_move(pilot, board, move)
        assert session(app).notation == SHORT_GAME
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Black wins" in str(app.screen.query_one("#result-headline").render())


async def test_an_illegal_destination_is_refused_with_the_referees_reason():
    app = make_app("loa")
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        await pilot.press("enter")  # select d1
        await pilot.press("up", "enter")  # d2 is not a destination
        assert session(app).ply == 0
        assert "Action was not valid" in message(app) and "d1d2" in message(app)
        await pilot.press("escape")
        assert board.selected is None
        await pilot.press("right", "enter")  # e2: empty, nothing selected
        assert "Select one of your (black) checkers first" in message(app)
        await pilot.press("p")  # pass is not offered while moves exist
        assert session(app).ply == 0


async def test_the_typed_move_prompt_plays_a_move_and_refuses_a_bad_one():
    app = make_app("loa")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"b1d3", "enter")
        assert session(app).notation == ["b1d3"]
        await pilot.press("colon", *"a2a9", "enter")
        assert session(app).ply == 1 and "Action was not valid" in message(app)


@pytest.mark.slow  # a whole game, each AI turn in its worker process
async def test_against_the_ai_a_whole_game_and_undo_back_to_my_turn():
    app = make_app("loa", "human", "ai:1", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        board = game_screen(app).board
        await click_move(pilot, board, "b1d3")
        await wait_until(pilot, lambda: s.human_to_move())
        assert s.ply == 2
        await pilot.press("u")
        assert s.ply == 0 and s.human_to_move()
        while not s.is_over():
            await click_move(pilot, board, greedy_move(s.game))
            await wait_until(pilot, lambda: s.human_to_move() or s.is_over())
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
