"""Elo per level: level 1 is the reference, each level stronger than the one below, error bars grow."""
from __future__ import annotations

import pytest

from ai.ratings import describe_elo, level_elo
from engines import GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_levels_climb_from_1000_with_growing_error_bars(game):
    ratings = [level_elo(game, n) for n in range(1, 7)]
    assert ratings[0] == (1000, 0)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(ratings, ratings[1:]))
    assert describe_elo(game, 2).startswith("Elo ") and "±" in describe_elo(game, 2)
