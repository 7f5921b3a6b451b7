"""What each board looks like: the start position and a position in mid-game (fixed moves and seeds,
hot-seat so no AI is involved), at 80x24 (the smallest drawing, whole) and, as the drawings grow with the
terminal, at 120x40 and 160x48.

After an intended change of the drawing: `pytest tests/tui/widgets/test_snapshots.py --snapshot-update`, then
look at the new SVG files (and the report pytest-textual-snapshot writes for failed comparisons).
"""
from __future__ import annotations

import pytest

from tests.helpers.app import make_app
from tests.helpers.scripted_games import MID_GAME

SEEDS = {"cultist-wars": 1}


@pytest.mark.parametrize("game", list(MID_GAME))
def test_start_position(game, snap_compare):
    assert snap_compare(make_app(game, seed=SEEDS.get(game, 1)), terminal_size=(80, 24))


@pytest.mark.parametrize("game", list(MID_GAME))
# 120x40: 0.4 s; the inner loop keeps the other two sizes
@pytest.mark.parametrize("size", [(80, 24), pytest.param((120, 40), marks=pytest.mark.slow), (160, 48)],
                         ids=["80x24", "120x40", "160x48"])
def test_mid_game(game, size, snap_compare):
    seed, moves, keys = MID_GAME[game]
    assert snap_compare(make_app(game, seed=seed or 1, moves=moves), press=keys, terminal_size=size)


def test_connect4_won_game_shows_the_winning_four(snap_compare):
    app = make_app("connect4", moves=["0", "0", "1", "1", "2", "2"])
    assert snap_compare(app, press=["4", "escape"], terminal_size=(80, 24))


@pytest.mark.parametrize("game", list(MID_GAME))
async def test_each_board_is_whole_at_80x24_and_uses_the_space_at_160x48(game):
    """Nothing of the drawing is cut at 80x24; at 160x48 it fills most of the board's area one way
    (cells keep their shape, so the other way may keep a margin)."""
    for (width, height), share in (((80, 24), 0.0), ((160, 48), 0.8)):
        app = make_app(game, seed=SEEDS.get(game, 1))
        async with app.run_test(size=(width, height)) as pilot:
            await pilot.pause()
            board = app.screen.query_one("#board")
            room = board.content_size
            drawn = board.draw(*room)
            assert drawn.width <= room.width and drawn.height <= room.height, (game, width, tuple(room))
            assert max(drawn.width / room.width, drawn.height / room.height) >= share, (game, width, tuple(room))
