"""Throughput figures: random playouts per game (games/s, plies/s)."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engines import get_game


@dataclass(frozen=True)
class PlayoutFigures:
    game: str
    games: int
    plies: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def plies_per_s(self) -> float:
        return self.plies / self.seconds if self.seconds else 0.0


def random_playouts(game_id: str, seconds: float = 2.0, seed: int = 1) -> PlayoutFigures:
    """Play random games (`Game.random_move`) from the start for about `seconds`; count games and plies."""
    cls = get_game(game_id)
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while True:
        game = cls.new(rng.randrange(1 << 31))
        while game.outcome() is None:
            game.push(game.random_move(rng))
            plies += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return PlayoutFigures(cls.id, games, plies, elapsed)


def search_speed(game_id: str, seconds: float = 2.0) -> tuple[int, float] | None:
    """Nodes the game's top-level search visits in about `seconds`, or None if the game has no AI yet."""
    from ai.levels import ai_module

    mod = ai_module(game_id)
    return None if mod is None else mod.search_speed(seconds)
