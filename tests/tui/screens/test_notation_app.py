"""One notation on the screen: in each game the hint's move, typed as the hint writes it, plays that move,
and the move list writes it the same way (Connect 4's columns 1-9, Paper Soccer's keypad digits)."""
from __future__ import annotations

import re

import pytest

from engines import get_game
from tests.helpers.app import SIZE, make_app, message, session, wait_until
from tui.core.opponents import HINT_LEVEL
from tui.widgets.move_list import MoveList

HINTED = re.compile(rf"Hint(?: \(AI level {HINT_LEVEL}\))?: (\S+)")  # Paper Soccer's board says "Hint: 896 = N NE E" after it
# a few moves first, so that the hint is not the start position's (CodinGame notation, as saved)
OPENINGS = {"connect4": ["4", "4"], "paper-soccer": ["0"], "lines-of-action": ["b1b3"],
            "cultist-wars": []}


def move_lines(app) -> list[str]:
    return str(app.screen.query_one(MoveList).query_one("#move-lines").render()).splitlines()


def hinted(app) -> str:
    """The hint's move as the message line writes it."""
    return HINTED.search(message(app)).group(1) if " = " in message(app) else message(app).split(": ", 1)[1]


# typed: at the `:` prompt; keys: one key a character, where a move is that (a column, a turn's steps)
CASES = [(game_id, "typed") for game_id in OPENINGS] + [("connect4", "keys"), ("paper-soccer", "keys")]


@pytest.mark.parametrize(("game_id", "how"), CASES)
async def test_the_hints_move_typed_as_shown_plays_it_and_the_move_list_agrees(game_id, how):
    cls = get_game(game_id)
    app = make_app(game_id, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        for move in OPENINGS[game_id]:
            session(app).play(move)
        app.screen.board.position_changed()
        await pilot.pause()
        await pilot.press("H")
        await wait_until(pilot, lambda: HINTED.search(message(app)), timeout=30)
        shown = hinted(app)
        ply = session(app).ply
        if how == "keys":
            await pilot.press(*shown)  # Connect 4: the column's key; Paper Soccer: one key a step
        else:
            await pilot.press("colon", *shown, "enter")
        await wait_until(pilot, lambda: session(app).ply == ply + 1, timeout=5)
        played = session(app).notation[-1]
        assert played == cls.player_to_output(shown)  # the move the hint meant, in CodinGame's notation
        assert shown in message(app)  # "Red played 5"
        last = move_lines(app)[-1].split()
        assert last[0] == str(ply + 1) and shown in " ".join(last[2:])


async def test_connect4_hint_five_is_the_fifth_column_from_the_left():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        assert session(app).notation == ["4"]  # CodinGame's column 4
        assert move_lines(app)[-1].split()[-1] == "5"


async def test_typed_text_outside_the_notation_says_how_moves_are_written():
    app = make_app("ps")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"05", "enter")
        await pilot.pause()
        assert session(app).ply == 0 and "keypad digits" in message(app)
