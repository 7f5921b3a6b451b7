"""Measure the level-6 search on the bench positions at a fixed node budget:
`python -m ai.connect4.speed_digest [NODES] [--cprofile]`.

It prints each search's nodes, move, score and depth, a digest of them (a speed-up of the search must
leave it unchanged), and the nodes per second of process time (noisy on a busy machine: compare
instruction counts from `valgrind --tool=callgrind` for small differences).  With --cprofile it
prints the functions' shares of the time instead.
"""
from __future__ import annotations

import cProfile
import hashlib
import pstats
import sys
import time

from ai.connect4.book import BENCH_POSITIONS
from ai.connect4.search import Searcher


def run(node_limit: int) -> tuple[list[tuple], float]:
    results = []
    t0 = time.process_time()
    for cur, mask in BENCH_POSITIONS:
        r = Searcher().search(cur, mask, node_limit=node_limit)
        results.append((r.nodes, r.move, r.score, r.depth, sorted(r.scores.items())))
    return results, time.process_time() - t0


def main(argv: list[str]) -> None:
    node_limit = next((int(a) for a in argv if a.isdigit()), 200_000)
    if "--cprofile" in argv:
        prof = cProfile.Profile()
        prof.runcall(run, node_limit)
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)
        return
    results, seconds = run(node_limit)
    for nodes, move, score, depth, _ in results:
        print(f"nodes {nodes:7d}  move {move:2d}  score {score:8d}  depth {depth:2d}")
    total = sum(r[0] for r in results)
    print(f"digest {hashlib.sha1(repr(results).encode()).hexdigest()[:12]}  "
          f"{total} nodes in {seconds:.2f} s process time = {total / seconds:,.0f} nodes/s")


if __name__ == "__main__":
    main(sys.argv[1:])
