"""The sequential probability ratio test of `termarena match --sprt`: stop a match as soon as its
results say which of two Elo hypotheses holds.

This is the generalised SPRT (GSPRT) that fishtest, fastchess and OpenBench use, after Michel Van den
Bergh, "Comments on Normalized Elo" (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf):

- The results are counted as a pentanomial: termarena plays every opening (or seed) once with each
  colour, and the two games of such a pair are scored together (0, ½, 1, 1½ or 2 points, divided by 2
  here), which takes out the bias of an opening favouring one colour.  A single game can be counted as
  a trinomial (loss, draw, win) with the same functions.
- H0: Elo <= elo0 against H1: Elo >= elo1.  The log-likelihood ratio is
  LLR = N * sum_i p̂_i * (log p1_i - log p0_i), where p̂ is the observed distribution over the outcomes
  and p0, p1 are the distributions closest to it (maximum likelihood) whose expectations match the two
  hypotheses.
- Model "logistic" (the default, the Elo of `match`'s table): expected score s = 1 / (1 + 10^(-elo/400)),
  and the closest distribution is p_i = p̂_i / (1 + θ (a_i - s)), θ the root of
  sum_i p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0  (the paper's proposition 1.1).
- Model "normalized" (fastchess's default): elo is normalized Elo, t = elo / (800 / ln 10) (times √2
  for pairs); the closest distribution with (mu - ½) / sigma = t is found by the fixed-point iteration
  of the paper's section 4.1.
- Bounds (Wald): lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha); H1 is accepted when
  LLR >= upper, H0 when LLR <= lower.  With alpha = beta = 0.05 that is (-2.94, 2.94).

Empty outcome counts are replaced by 1e-3, as fastchess does, so that the LLR is defined from the first
result on and the figures match fastchess's for the same counts.

Pure functions and plain data.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

MODELS = ("logistic", "normalized")
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
_NELO_SCALE = 800.0 / math.log(10.0)
# Beyond these the hypotheses say "one side always wins", where no test is needed, and the normalized
# model's fixed-point iteration no longer converges for every count.
MAX_ELO = {"logistic": 1000.0, "normalized": 200.0}


@dataclass(frozen=True)
class Sprt:
    """The test's settings: the two hypotheses (Elo), the error rates and the Elo model."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"ELO0 ({self.elo0:g}) must be below ELO1 ({self.elo1:g})")
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < v < 1:
                raise ValueError(f"{name} must lie between 0 and 1, not {v:g}")
        if self.alpha + self.beta >= 1:
            raise ValueError("alpha + beta must be below 1")
        if self.model not in MODELS:
            raise ValueError(f"unknown SPRT model {self.model!r} (one of {', '.join(MODELS)})")
        bound = MAX_ELO[self.model]
        if max(abs(self.elo0), abs(self.elo1)) > bound:
            raise ValueError(f"the {self.model} model takes hypotheses within ±{bound} Elo")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        """The LLR of outcome counts: 3 (loss, draw, win) or 5 (pairs scoring 0, ½, 1, 1½, 2 points)."""
        return llr(counts, self.elo0, self.elo1, self.model)

    def decide(self, llr_value: float) -> str:
        if llr_value >= self.upper:
            return "H1"
        if llr_value <= self.lower:
            return "H0"
        return "inconclusive"


def _scores(n: int) -> Sequence[float]:
    if n == 3:
        return TRINOMIAL_SCORES
    if n == 5:
        return PENTANOMIAL_SCORES
    raise ValueError("counts are 3 (loss, draw, win) or 5 (pair scores 0 to 2)")


def llr(counts: Sequence[int], elo0: float, elo1: float, model: str = "logistic") -> float:
    scores = _scores(len(counts))
    if sum(counts) == 0:
        return 0.0
    regular = [c if c > 0 else 1e-3 for c in counts]
    total = sum(regular)
    observed = [c / total for c in regular]
    if model == "logistic":
        p0 = _closest_with_mean(scores, observed, logistic_score(elo0))
        p1 = _closest_with_mean(scores, observed, logistic_score(elo1))
    elif model == "normalized":
        factor = math.sqrt(2.0) if len(counts) == 5 else 1.0
        p0 = _closest_with_t(scores, observed, factor * elo0 / _NELO_SCALE)
        p1 = _closest_with_t(scores, observed, factor * elo1 / _NELO_SCALE)
    else:
        raise ValueError(f"unknown SPRT model {model!r}")
    return total * sum(q * (math.log(a) - math.log(b)) for q, a, b in zip(observed, p1, p0))


def logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _root_of_weighted_sum(observed: Sequence[float], x: Sequence[float]) -> float:
    """θ with sum_i observed_i * x_i / (1 + θ x_i) = 0.  The sum falls strictly with θ, from +inf just
    above -1/max(x) to -inf just below -1/min(x) (max(x) > 0 > min(x)), so bisection finds the root."""
    lo, hi = -1.0 / max(x), -1.0 / min(x)
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        f = sum(q * xi / (1.0 + mid * xi) for q, xi in zip(observed, x))
        if f > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _closest_with_mean(scores: Sequence[float], observed: Sequence[float], s: float) -> list[float]:
    x = [a - s for a in scores]
    theta = _root_of_weighted_sum(observed, x)
    return [q / (1.0 + theta * xi) for q, xi in zip(observed, x)]


def _closest_with_t(scores: Sequence[float], observed: Sequence[float], t: float) -> list[float]:
    p = [1.0 / len(scores)] * len(scores)
    for _ in range(1000):
        mu = sum(a * q for a, q in zip(scores, p))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in scores]
        theta = _root_of_weighted_sum(observed, phi)
        new = [q / (1.0 + theta * f) for q, f in zip(observed, phi)]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-9
        p = new
        if done:
            break
    return p


def pair_bucket(points_a: float) -> int:
    """The pentanomial bucket of a colour-swapped pair in which player A scored `points_a` (0 to 2)."""
    return round(points_a * 2)
