"""The weak levels' noise: a move drawn by softmax over the root moves' scores."""
from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import TypeVar

M = TypeVar("M")


def noisy_pick(rng: random.Random, scores: Iterable[tuple[M, int]], temperature: float, proven: int, *,
               margin: int = 0, top_k: int = 0) -> M:
    """A move drawn with weight exp((score - best) / temperature), never one proven lost (score at or
    below -proven) while another is not.  `margin` keeps only moves within that many units of the best
    and `top_k` only the first k (give `scores` best first then); 0 turns either off.

    The order of `scores` decides which move a given random number draws, so each game keeps its own
    order for its seeds to replay the same games."""
    items = list(scores)
    best = max(s for _, s in items)
    cands = [(m, s) for m, s in items
             if (not margin or s >= best - margin) and (s > -proven or best <= -proven)]
    if top_k:
        cands = cands[:top_k]
    # the floor keeps exp() from underflowing to a weight of 0 far below the best
    weights = [math.exp(max(-50.0, (s - best) / temperature)) for _, s in cands]
    return rng.choices([m for m, _ in cands], weights)[0]
