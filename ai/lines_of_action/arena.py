"""In-process matches between Lines of Action AI configurations (for tuning and strength estimates).

Faster than `termarena match` (no processes, no referee I/O) and with budgets the CLI does not offer.
A spec is `level:N[,ms=M]`, `ab:KEY=V,...` (keys: nodes, depth, ms, and evaluation weights by name) or
`mcts:KEY=V,...` (ms, iterations, c, solve).  Each opening (a few random plies from the start) is
played twice with colours swapped.

    python -m ai.lines_of_action.arena "ab:nodes=3000" "ab:nodes=3000,conc=20" -n 40 -j 2
"""
from __future__ import annotations

import argparse
import random
import time

from engines.lines_of_action import LinesOfAction

from ai.arena import parse_spec, run_colour_swapped
from ai.tournament import Score


class _AbPlayer:
    def __init__(self, opts: dict, seed: int):
        from ai.lines_of_action.search import Searcher

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.depth = opts.pop("depth", 60)
        self.ms = opts.pop("ms", None)
        search_opts = {k: opts.pop(k) for k in ("threats", "threat_groups") if k in opts}
        self.searcher = Searcher(opts or None, **search_opts)

    def choose(self, game, deadline=None, on_info=None):
        from engines.lines_of_action import PASS, Move

        black, white, stm, turns = game.key()
        own, opp = (black, white) if stm == 0 else (white, black)
        dl = None if self.ms is None else time.monotonic() + self.ms / 1000
        r = self.searcher.search(own, opp, turns, max_depth=self.depth, max_nodes=self.nodes, deadline=dl)
        return PASS if r.move < 0 else Move(r.move >> 6, r.move & 63)


def make(spec: str, seed: int):
    kind, opts = parse_spec(spec)
    if kind == "level":  # level:N or level:N,ms=THINK_MS
        from ai.lines_of_action import make_player

        level = int(spec.split(":")[1].split(",")[0])
        return make_player(level, seed=seed, think_ms=opts.get("ms")), None
    if kind == "ab":
        return _AbPlayer(opts, seed), None
    if kind == "mcts":
        from ai.lines_of_action.mcts import Mcts

        return Mcts(iterations=opts.get("iterations"), ms=opts.get("ms"), c=opts.get("c", 2.0),
                    solve=bool(opts.get("solve", 1)), seed=seed), None
    raise ValueError(f"unknown spec {spec!r}")


def opening(index: int, plies: int = 3) -> list:
    rng = random.Random(1000 + index)
    g = LinesOfAction.new(0)
    while True:
        g = LinesOfAction.new(0)
        for _ in range(plies):
            g.push(rng.choice(g.legal_moves()))
        if g.outcome() is None:
            return list(g.move_stack)


def play_one(args) -> tuple[int, int | None, int, float, float]:
    """(game index, winner seat or None, plies, seconds used by seat 0, by seat 1)."""
    index, spec0, spec1, plies = args
    players = [make(spec0, 2 * index)[0], make(spec1, 2 * index + 1)[0]]
    g = LinesOfAction.new(0)
    for m in opening(index // 2, plies):
        g.push(m)
    used = [0.0, 0.0]
    while g.outcome() is None:
        seat = g.current_player()
        t = time.perf_counter()
        m = players[seat].choose(g, None)
        used[seat] += time.perf_counter() - t
        if m not in g.legal_moves():
            raise RuntimeError(f"{[spec0, spec1][seat]} played an illegal move {m}")
        g.push(m)
    return index, g.outcome().winner, len(g.move_stack), used[0], used[1]


def run(spec_a: str, spec_b: str, n: int, jobs: int = 2, plies: int = 3, quiet: bool = False) -> Score:
    return run_colour_swapped(play_one, spec_a, spec_b, n, jobs, (plies,), quiet, unit="plies")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-n", type=int, default=40, help="games (even: colour-swapped pairs)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--plies", type=int, default=3, help="random opening plies")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    run(args.a, args.b, args.n, args.jobs, args.plies, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
