"""Small random Paper Soccer value nets, for the inference tests (pure Python, numpy, compiled)."""
from __future__ import annotations

import random

from ai.paper_soccer import net as NN


def tiny_net(seed: int, hidden: int = 4, distances: bool = False) -> NN.Net:
    rng = random.Random(seed)
    w = NN.MAX_WEIGHT
    rows = NN.N_INPUTS_DIST if distances else NN.N_INPUTS
    return NN.Net([[rng.randint(-w // 8, w // 8) for _ in range(hidden)] for _ in range(rows)],
                  [rng.randint(-w, w) for _ in range(hidden)], [rng.randint(-3000, 3000) for _ in range(hidden)],
                  rng.randint(-50_000, 50_000), distances)
