"""The nodes level 6's search visits in a given time on fixed positions (`termarena bench`): the
alpha-beta tree with `value:selfplay` in pure Python, best-first with level 6's `fast_net` compiled (the
`fast` extra), each as level 6 plays it, so the two figures are of different searches."""
from __future__ import annotations

import time


BENCH_LINES = (
    "",
    "1 3 1 36 1616 444 75 0",
    "1 4 1 3 17 0 25270 255 2500 34",
    "1 4 1 3 17 0 25270 255 2500 34 6616 0 7 13 03052503665 3065",
)


def bench_positions():
    from engines.paper_soccer import PaperSoccer

    out = []
    for line in BENCH_LINES:
        g = PaperSoccer.new()
        for m in line.split():
            g.push(m)
        out.append(g)
    return out


def search_speed(seconds: float = 2.0, fast: bool = False) -> tuple[int, float]:
    """Nodes level 6's search visits on a fixed set of positions in about `seconds`: with the
    pure-Python tree, or the compiled one (`fast`, loaded before the clock starts)."""
    from ai.paper_soccer.player import LEVEL_TABLE, searcher_options  # the package imports this module
    from ai.paper_soccer.search import Searcher

    options = searcher_options(LEVEL_TABLE[6])  # its value and nets read before the clock starts
    positions = bench_positions()
    total = 0
    start = time.perf_counter()
    end = start + seconds
    i = 0
    while True:
        g = positions[i % len(positions)]
        s = Searcher(fast=fast, **options)
        left = end - time.perf_counter()
        res = s.search(g, deadline=time.monotonic() + max(0.01, min(0.5, left)))
        total += res.nodes
        i += 1
        if time.perf_counter() >= end:
            break
    return total, time.perf_counter() - start


def compiled_search_speed(seconds: float = 2.0) -> tuple[int, float] | None:
    """`search_speed` with the compiled tree (the `fast` extra), or None when it is not installed."""
    from ai.paper_soccer.accelerator import compiled_tree

    if compiled_tree(wait=True) is None:
        return None
    return search_speed(seconds, fast=True)
