"""In-process matches between Paper Soccer AI configurations (for tuning and strength estimates).

Faster than `termarena match` (no processes, no referee I/O) and with budgets the CLI does not offer.
A spec is `level:N` (optionally `level:N,ms=...` or other `Level` fields, e.g. `level:5,nodes=600`),
`ab:KEY=V,...` (keys: nodes, ms, eps, noise, the `Searcher` options such as near_ply and parity, and
the evaluation weights of `search.Weights` by name) or `mcts:KEY=V,...` (ms, iterations, c, solve).
With --cg every player gets `termarena bot`'s deadlines (what `termarena match` plays with too).
Each opening (a few random turns from the start) is played twice with colours swapped.

    python -m ai.paper_soccer.arena "ab:nodes=3000" "ab:nodes=3000,mouth=20" -n 40 -j 2
"""
from __future__ import annotations

import argparse
import random
import time

from engines.paper_soccer import PaperSoccer

from ai.arena import run_colour_swapped
from ai.tournament import Score


def parse_spec(spec: str) -> tuple[str, dict]:
    kind, _, rest = spec.partition(":")
    opts: dict = {}
    for part in filter(None, rest.split(",")):
        k, _, v = part.partition("=")
        if not v:
            opts["level"] = int(k)
            continue
        try:
            opts[k] = int(v)
        except ValueError:
            opts[k] = float(v)
    return kind, opts


class _AbPlayer:
    def __init__(self, opts: dict, seed: int):
        from ai.paper_soccer.search import Searcher, Weights

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.ms = opts.pop("ms", None)
        self.eps = opts.pop("eps", 0.0)  # how often a random turn among those leaving no goal open
        self.noise = opts.pop("noise", 0)  # tie noise at the root (Searcher.search)
        self.rng = random.Random(seed)
        search_keys = ("visits", "per_end", "states", "root_visits", "root_per_end", "root_states",
                       "near_ply", "near_visits", "near_per_end", "near_states", "parity")
        sopts = {k: opts.pop(k) for k in search_keys if k in opts}
        self.searcher = Searcher(Weights(**opts), **sopts)

    def choose(self, game, deadline=None, on_info=None):
        dl = None if self.ms is None else time.monotonic() + self.ms / 1000
        if deadline is not None:
            dl = deadline if dl is None else min(dl, deadline)
        r = self.searcher.search(game, node_limit=self.nodes, deadline=dl, tie_noise=self.noise, rng=self.rng)
        if self.eps and r.safe and r.score < 900_000 and self.rng.random() < self.eps:
            return self.rng.choice(r.safe)
        return r.move


def make(spec: str, seed: int):
    kind, opts = parse_spec(spec)
    if kind == "level":
        from ai.paper_soccer import make_player

        from dataclasses import replace

        p = make_player(opts.pop("level"), seed=seed, think_ms=opts.pop("ms", None))
        if opts:  # other keys override the level's fields (Level), e.g. level:5,nodes=600
            p.cfg = replace(p.cfg, **opts)
            p.searcher.near_ply = p.cfg.near_ply
            p.searcher.parity = p.cfg.parity
        return p
    if kind == "ab":
        return _AbPlayer(opts, seed)
    if kind == "mcts":
        from ai.paper_soccer.mcts import Mcts

        return Mcts(iterations=opts.get("iterations"), ms=opts.get("ms"), c=opts.get("c", 2.0),
                    solve=bool(opts.get("solve", 1)), seed=seed)
    raise ValueError(f"unknown spec {spec!r}")


def opening(index: int, turns: int = 2) -> list[str]:
    """A few random turns from the start that neither end the game nor leave a goal in one open."""
    rng = random.Random(1000 + index)
    while True:
        g = PaperSoccer.new()
        for _ in range(turns):
            moves = g.legal_turns_by_effect(500)
            g.push(rng.choice(moves))
            if g.is_over():
                break
        if not g.is_over() and g.scoring_turn() is None:
            return list(g.move_stack)


def play_one(args) -> tuple[int, int | None, int, float, float]:
    """(game index, winner seat or None, turns, seconds used by seat 0, by seat 1)."""
    index, spec0, spec1, turns, cg = args
    players = [make(spec0, 2 * index), make(spec1, 2 * index + 1)]
    first = [True, True]
    g = PaperSoccer.new()
    for m in opening(index // 2, turns):
        g.push(m)
    used = [0.0, 0.0]
    while g.outcome() is None:
        seat = g.current_player()
        t = time.perf_counter()
        deadline = None
        if cg:  # as `termarena bot` plays: 60% of CodinGame's 1000 ms first turn, then 200 ms
            deadline = time.monotonic() + (0.6 if first[seat] else 0.12)
            first[seat] = False
        m = players[seat].choose(g, deadline)
        used[seat] += time.perf_counter() - t
        if not g.is_legal(m):
            raise RuntimeError(f"{[spec0, spec1][seat]} played an illegal move {m}")
        g.push(m)
    return index, g.outcome().winner, len(g.move_stack), used[0], used[1]


def run(spec_a: str, spec_b: str, n: int, jobs: int = 2, turns: int = 2, quiet: bool = False,
        cg: bool = False) -> Score:
    return run_colour_swapped(play_one, spec_a, spec_b, n, jobs, (turns, cg), quiet, unit="turns")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-n", type=int, default=40, help="games (even: colour-swapped pairs)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--turns", type=int, default=2, help="random opening turns")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--cg", action="store_true", help="CodinGame time limits: 600 ms first turn, then 120 ms")
    args = ap.parse_args(argv)
    run(args.a, args.b, args.n, args.jobs, args.turns, args.quiet, args.cg)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
