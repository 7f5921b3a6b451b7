"""The side panel's status numbers turns one way in every game: "Turn N" is the move list's number of the
turn to play, and a board that shows the turn limit counts the turns left, which add up with it (Cultist
Wars' board once said "turn 8/150", its turns played, beside "Turn 9")."""
from __future__ import annotations

import re

import pytest

from engines import get_game
from tests.helpers.app import SIZE, make_app, status
from tests.helpers.scripted_games import MID_GAME


@pytest.mark.parametrize("game", list(MID_GAME))
async def test_the_status_numbers_the_turn_to_play_as_the_move_list_does_and_the_turns_left_add_up(game):
    seed, moves, _keys = MID_GAME[game]
    app = make_app(game, seed=seed or 1, moves=moves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = status(app)
        turn = len(moves) + 1
        assert f"Turn {turn}: " in text, text
        others = [line for line in text.splitlines() if "turn" in line.lower() and not line.startswith("Turn ")]
        for line in others:
            left = re.fullmatch(r"(\d+) turns? left", line)
            assert left and int(left[1]) == get_game(game).max_turns - turn + 1, text
