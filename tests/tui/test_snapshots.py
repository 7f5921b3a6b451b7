"""What each board looks like: the start position and a position in mid-game (fixed moves and seeds,
hot-seat so no AI is involved), at 80x24 and, for the larger drawings, at 120x40.

After an intended change of the drawing: `pytest tests/tui/test_snapshots.py --snapshot-update`, then
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
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_mid_game(game, size, snap_compare):
    seed, moves, keys = MID_GAME[game]
    assert snap_compare(make_app(game, seed=seed or 1, moves=moves), press=keys, terminal_size=size)


def test_connect4_won_game_shows_the_winning_four(snap_compare):
    app = make_app("connect4", moves=["0", "0", "1", "1", "2", "2"])
    assert snap_compare(app, press=["4", "escape"], terminal_size=(80, 24))
