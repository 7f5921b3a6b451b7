"""Small random Paper Soccer value nets, for the inference tests (pure Python, numpy, compiled)."""
from __future__ import annotations

import random

from ai.paper_soccer import net as NN


def tiny_net(seed: int, hidden: int = 4, distances: bool = False, hidden2: int = 0) -> NN.Net:
    """A net of random weights; with `hidden2`, a second hidden layer of that many units (its sums spread
    over the whole clipped range and beyond, so that every branch of the clamp is taken)."""
    rng = random.Random(seed)
    w = NN.MAX_WEIGHT
    rows = NN.N_INPUTS_DIST if distances else NN.N_INPUTS
    w1 = [[rng.randint(-w // 8, w // 8) for _ in range(hidden)] for _ in range(rows)]
    b1 = [rng.randint(-w, w) for _ in range(hidden)]
    w2 = [rng.randint(-3000, 3000) for _ in range(hidden2 or hidden)]
    b2 = rng.randint(-50_000, 50_000)
    if not hidden2:
        return NN.Net(w1, b1, w2, b2, distances)
    h2w = [[rng.randint(-w // 16, w // 16) for _ in range(hidden2)] for _ in range(hidden)]
    h2b = [rng.randint(-2 * NN.ONE * NN.ONE, 2 * NN.ONE * NN.ONE) for _ in range(hidden2)]
    return NN.Net(w1, b1, w2, b2, distances, h2w, h2b)
