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


async def test_a_position_loaded_at_its_turn_59_numbers_its_moves_from_59_in_the_status_and_the_move_list():
    """The endgame save of saves/ is Lines of Action at turn 59 of 150: its first move here is turn 59
    on the status line, in the move list and in the game's length, not 59 in one place and 1 in another."""
    from tests.helpers.paths import ROOT

    app = make_app(load=str(ROOT / "saves" / "lines-of-action-endgame.txt"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Turn 59: Black to move" in status(app) and "92 turns left" in status(app)
        await pilot.press("colon", *"b4b2", "enter")  # a quiet move: the game goes on
        await pilot.pause()
        lines = str(app.screen.query_one("#move-lines").render()).splitlines()
        assert lines[1].split()[0] == "59" and lines[1].endswith("b4b2"), lines
        assert "Turn 60: White to move" in status(app) and "91 turns left" in status(app)


@pytest.mark.parametrize(("seed", "first_lines"), [(1829611051, ["Cultist Wars", "seed 1829611051"]),
                                                  (7, ["Cultist Wars  seed 7"])])
async def test_the_seed_stays_whole_beside_the_title_or_on_its_own_line(seed, first_lines):
    # in the side panel's 25 columns "Cultist Wars  seed 1829611051" was wrapped between "seed" and its number
    app = make_app("cultist-wars", seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [line.strip() for line in status(app).splitlines()[:len(first_lines)]] == first_lines
