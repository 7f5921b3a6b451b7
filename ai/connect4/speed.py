"""The nodes the level-6 search visits in a given time on fixed positions (`termarena bench`)."""
from __future__ import annotations

import time

from ai.connect4.book import BENCH_POSITIONS
from ai.connect4.search import Searcher


def search_speed(seconds: float = 2.0) -> tuple[int, float]:
    """Nodes the level-6 search visits on a fixed set of middle-game positions in about `seconds`."""
    positions = BENCH_POSITIONS
    total = 0
    start = time.perf_counter()
    end = start + seconds
    i = 0
    while True:
        cur, mask = positions[i % len(positions)]
        s = Searcher()
        res = s.search(cur, mask, deadline=time.monotonic() + max(0.01, min(0.5, end - time.perf_counter())))
        total += res.nodes
        i += 1
        if time.perf_counter() >= end:
            break
    return total, time.perf_counter() - start
