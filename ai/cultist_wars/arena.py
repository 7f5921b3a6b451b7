"""In-process matches between Cultist Wars AI configurations (for tuning and strength estimates).

Faster than `termarena match` (no processes, no referee I/O) and with budgets the CLI does not offer.
A spec is `level:N[,ms=MS]`, `ab:KEY=V,...` (keys: nodes, depth, ms, first, stop, and evaluation
weights by name), `mcts:KEY=V,...` (ms, iterations, c) or `greedy`.  Each map seed is played twice
with colours swapped.
`ms` budgets are per turn (the first turn of each player too, unless `first=MS` is given).

    python -m ai.cultist_wars.arena "ab:nodes=1000" "ab:nodes=1000,tempo=50" -n 40 -j 2
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import time

from engines.cultist_wars import CultistWars

from ai.arena import parse_spec
from ai.tournament import Score, elo_with_error


class _AbPlayer:
    def __init__(self, opts: dict, seed: int):
        from ai.cultist_wars.search import Searcher

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.depth = opts.pop("depth", 64)
        self.ms = opts.pop("ms", None)
        self.first = opts.pop("first", self.ms)
        self.stop = opts.pop("stop", 0.5)
        self.searcher = Searcher(opts or None)
        self.turns = 0

    def choose(self, game, deadline=None, on_info=None):
        from ai.cultist_wars.state import State, to_engine_move

        ms = self.first if self.turns == 0 else self.ms
        self.turns += 1
        dl = None if ms is None else time.monotonic() + ms / 1000
        st = State.from_game(game)
        r = self.searcher.search(st, max_depth=self.depth, max_nodes=self.nodes, deadline=dl,
                                 stop_fraction=self.stop)
        return to_engine_move(r.move)


class _LevelPlayer:
    def __init__(self, level: int, opts: dict, seed: int):
        from ai.cultist_wars import make_player

        self.ms = opts.get("ms")
        self.first = opts.get("first", self.ms)
        self.p = make_player(level, seed=seed)
        self.turns = 0

    def choose(self, game, deadline=None, on_info=None):
        ms = self.first if self.turns == 0 else self.ms
        self.turns += 1
        dl = None if ms is None else time.monotonic() + ms / 1000
        return self.p.choose(game, dl)


def make(spec: str, seed: int):
    kind, opts = parse_spec(spec)
    if kind == "level":
        level = int(spec.split(":")[1].split(",")[0])
        opts.pop(str(level), None)
        return _LevelPlayer(level, opts, seed)
    if kind == "ab":
        return _AbPlayer(opts, seed)
    if kind == "mcts":
        from ai.cultist_wars.mcts import Mcts

        return Mcts(iterations=opts.get("iterations"), ms=opts.get("ms"), c=opts.get("c", 2.0),
                    first_ms=opts.get("first"), seed=seed)
    if kind == "greedy":
        from ai.cultist_wars.mcts import Greedy

        return Greedy(seed=seed)
    raise ValueError(f"unknown spec {spec!r}")


def play_game(args) -> tuple[int, int, int | None, tuple[int, int], int, float, float]:
    """(map seed, seat of spec A, winner seat or None, scores, turns, seconds A, seconds B)."""
    spec_a, spec_b, map_seed, a_seat = args
    players = [None, None]
    players[a_seat] = make(spec_a, map_seed * 2 + a_seat)
    players[1 - a_seat] = make(spec_b, map_seed * 2 + 1 - a_seat + 7)
    game = CultistWars.new(map_seed)
    spent = [0.0, 0.0]
    while game.outcome() is None:
        p = game.current_player()
        t = time.perf_counter()
        m = players[p].choose(game)
        spent[p] += time.perf_counter() - t
        if not game.is_legal(m):
            raise RuntimeError(f"illegal move {m} from seat {p} at turn {game.turn}")
        game.push(m)
    o = game.outcome()
    return map_seed, a_seat, o.winner, o.scores, game.turn, spent[a_seat], spent[1 - a_seat]


def run(spec_a: str, spec_b: str, n: int, jobs: int = 1, first_seed: int = 1000,
        verbose: bool = False) -> Score:
    tasks = [(spec_a, spec_b, first_seed + i // 2, i % 2) for i in range(n + n % 2)]
    score = Score()
    ta = tb = 0.0
    turns = 0
    pool = mp.get_context("fork").Pool(jobs) if jobs > 1 else None
    it = pool.imap_unordered(play_game, tasks) if pool else map(play_game, tasks)
    margin = 0
    for map_seed, a_seat, winner, scores, nturns, sa, sb in it:
        score.add(0.5 if winner is None else 1.0 if winner == a_seat else 0.0)
        margin += scores[a_seat] - scores[1 - a_seat]
        ta += sa
        tb += sb
        turns += nturns
        if verbose:
            print(f"seed {map_seed} A seat {a_seat}: winner {winner} scores {scores} turns {nturns}",
                  flush=True)
    if pool:
        pool.close()
    elo, err = elo_with_error(score)
    half = max(1, turns // 2)
    print(f"{spec_a} vs {spec_b}: +{score.wins} ={score.draws} -{score.losses}  {100 * score.fraction:.1f}%  "
          f"Elo {elo:+.0f} ± {err:.0f}  margin {margin / max(1, score.games):+.2f}  "
          f"ms/turn A {1000 * ta / half:.1f} B {1000 * tb / half:.1f}", flush=True)
    return score


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    run(args.a, args.b, args.n, args.j, args.seed, args.v)


if __name__ == "__main__":
    main()
