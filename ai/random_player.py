"""The weakest possible opponent: a uniformly random legal move (a baseline, and the bot until levels exist)."""
from __future__ import annotations

import random

from engines.base import Game


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: Game, deadline: float | None = None, on_info=None):
        moves = game.legal_moves()
        return moves[self.rng.randrange(len(moves))]
