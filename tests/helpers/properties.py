"""Random games of any registered game, and the hypothesis settings of the engine properties."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, settings

from engines import get_game

PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(game_id: str, seed: int, plies: int | None = None):
    """A game after random legal moves: `plies` of them, or a random number up to the end."""
    rng = random.Random(seed)
    cls = get_game(game_id)
    game = cls.new(rng.randrange(1 << 31))
    limit = plies if plies is not None else rng.randrange(cls.max_turns + 1)
    while game.ply < limit and game.outcome() is None:
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    return game, rng
