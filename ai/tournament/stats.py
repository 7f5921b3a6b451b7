"""The statistics of a tournament's results: scores, Elo differences with their error, answer times."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence


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


def points(winner: int | None, seat: int) -> float:
    """What a finished game is worth to `seat`: 1 won, 0.5 drawn (no winner), 0 lost."""
    return 0.5 if winner is None else float(winner == seat)


@dataclass
class AnswerTimes:
    """One player's answer times in ms over a match, and the games it lost on time."""

    times_ms: list[float] = field(default_factory=list)
    timeouts: int = 0

    def summary(self) -> dict:
        t = sorted(self.times_ms)
        if not t:
            return {"turns": 0, "mean_ms": None, "p95_ms": None, "max_ms": None, "timeouts": self.timeouts}
        return {"turns": len(t), "mean_ms": round(sum(t) / len(t), 1), "p95_ms": round(percentile(t, 95), 1),
                "max_ms": round(t[-1], 1), "timeouts": self.timeouts}


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile by the nearest-rank method: the smallest value with at least q% at or below it."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


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


def one_sided_elo_bound(score: Score) -> float | None:
    """Where every game went one way the Elo estimate is unbounded; what the games do show is a bound:
    with n games and no loss, the win rate is at least 1 - 3/n at 95% (the rule of three).  Returns the
    Elo bound (a minimum after all wins, a maximum after all losses), None for mixed results or fewer
    than 10 games (the rule is rough below that, and says nothing below 7)."""
    n = score.games
    if n < 10 or score.draws or (score.wins and score.losses):
        return None
    p = 1 - 3 / n
    return elo_from_fraction(p) if score.wins else -elo_from_fraction(p)
