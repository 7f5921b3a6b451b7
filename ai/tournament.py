"""Tournament bookkeeping: the schedule of colour-swapped games and the statistics of the results.

Pure functions and plain data; `termarena match` runs the games (as bot processes) and draws the table.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pairing:
    """One game to play: `seats[0]` moves first; `a`/`b` index the players of the tournament."""

    index: int
    a: int
    b: int
    a_seat: int  # seat of player a in this game
    seed: int

    @property
    def seats(self) -> tuple[int, int]:
        return (self.a, self.b) if self.a_seat == 0 else (self.b, self.a)


def schedule(n_players: int, games_per_pair: int, seed: int) -> list[Pairing]:
    """Round robin; each pair plays `games_per_pair` games (rounded up to even) in colour-swapped pairs
    on the same seed, so a map or opening favouring a seat is played from both sides."""
    pairs = list(itertools.combinations(range(n_players), 2))
    rounds = (games_per_pair + 1) // 2
    out = []
    for r in range(rounds):
        for a, b in pairs:
            for a_seat in (0, 1):
                out.append(Pairing(len(out), a, b, a_seat, seed + r))
    return out


@dataclass
class Score:
    """Results of player a against player b, from a's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def fraction(self) -> float:
        return self.points / self.games if self.games else 0.5

    def add(self, result: float) -> None:
        if result == 1:
            self.wins += 1
        elif result == 0:
            self.losses += 1
        else:
            self.draws += 1


def elo_from_fraction(p: float) -> float:
    """The Elo difference that predicts a score fraction p (clamped so 0% and 100% stay finite)."""
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_with_error(score: Score, z: float = 1.96) -> tuple[float, float]:
    """Elo difference and the half-width of its ~95% interval, from the per-game score variance."""
    n = score.games
    if n == 0:
        return 0.0, float("inf")
    p = score.fraction
    w, d, l = score.wins / n, score.draws / n, score.losses / n
    var = w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * (0 - p) ** 2
    se = math.sqrt(var / n)
    lo, hi = elo_from_fraction(p - z * se), elo_from_fraction(p + z * se)
    return elo_from_fraction(p), (hi - lo) / 2
