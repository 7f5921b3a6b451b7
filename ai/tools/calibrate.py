"""Fit the win-probability logistic of `ai.analysis` on self-play games.

Plays games between AI levels (each pair of levels colour-swapped, from the arena's seeded random
openings), scores positions of each game with the analysis search (`ai.analysis.evaluate`, at a fixed
node budget so the figures do not depend on the machine), and fits K in
P(side to move wins) = 1 / (1 + exp(-(A + K * score))) by maximum likelihood, a draw counting one half.
Proven wins and losses are left out (their probability is 1 or 0 by definition).  Prints K, the
pairs it was fitted on, and how well it fits (the observed win rate by predicted-probability bucket).

    python -m ai.tools.calibrate connect4 --games 40
"""
from __future__ import annotations

import argparse
import json
import math
import time

from ai.analysis import PROVEN, analysis_player, evaluate, logistic
from ai.levels import make_player
from ai.tools.arena import start
from ai.tools.specs import game_tools
from ai.tournament import points
from ai.tournament.runners import in_processes
from engines import resolve_game_id

PAIRS = ((2, 3), (3, 4), (4, 5), (2, 4), (3, 5))  # close enough that games swing both ways


def play_and_score(task: tuple) -> list[tuple[float, float]]:
    """(score, result) for the sampled positions of one game: score from the side to move, result 1
    if that side went on to win, 0.5 for a draw, 0 for a loss."""
    index, game_id, nodes, every = task
    low, high = PAIRS[(index // 2) % len(PAIRS)]
    levels = (low, high) if index % 2 == 0 else (high, low)
    players = [make_player(game_id, lv, think_ms=60_000, seed=1000 * index + seat) for seat, lv in enumerate(levels)]
    judge = analysis_player(game_id, think_ms=60_000, nodes=nodes)
    game = start(game_id, index // 2, game_tools(game_id).OPENING_PLIES)
    samples: list[tuple[float, int]] = []
    while game.outcome() is None:
        if game.ply % every == 0:
            ev = evaluate(game, judge, all_scores=False)
            if abs(ev.score) < PROVEN:
                samples.append((ev.score, game.current_player()))
        game.push(players[game.current_player()].choose(game))
    winner = game.outcome().winner
    return [(s, points(winner, seat)) for s, seat in samples]


def fit(pairs: list[tuple[float, float]], iterations: int = 50) -> tuple[float, float]:
    """(A, K) maximising the likelihood of the results under P = logistic(A + K * score): Newton's
    method on two parameters from (0, 0).  A is what being the side to move is worth by itself."""
    a = k = 0.0
    for _ in range(iterations):
        ga = gk = haa = hak = hkk = 0.0
        for s, y in pairs:
            p = logistic(a + k * s)
            w = p * (1 - p)
            ga += y - p
            gk += (y - p) * s
            haa += w
            hak += w * s
            hkk += w * s * s
        det = haa * hkk - hak * hak
        if det <= 1e-12:
            break
        da, dk = (hkk * ga - hak * gk) / det, (haa * gk - hak * ga) / det
        a, k = a + da, k + dk
        if abs(da) + abs(dk) < 1e-9:
            break
    return a, k


def log_loss(pairs: list[tuple[float, float]], a: float, k: float) -> float:
    total = 0.0
    for s, y in pairs:
        p = min(1 - 1e-9, max(1e-9, logistic(a + k * s)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(pairs))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.tools.calibrate", description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--nodes", type=int, default=3000, help="node budget of the scoring search")
    ap.add_argument("--every", type=int, default=1, help="score one position in this many plies")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--pairs", help="also write the (score, result) pairs to this JSON file")
    ap.add_argument("--refit", help="fit the pairs of a --pairs file instead of playing games")
    args = ap.parse_args(argv)
    if args.refit:
        with open(args.refit, encoding="utf-8") as f:
            report(resolve_game_id(args.game), [(float(s), float(y)) for s, y in json.load(f)], args.games)
        return 0
    gid = resolve_game_id(args.game)
    tasks = [(i, gid, args.nodes, args.every) for i in range(args.games)]
    t0 = time.monotonic()
    pairs: list[tuple[float, float]] = []
    played = 0

    def scored(got: list[tuple[float, float]]) -> None:
        nonlocal played
        played += 1
        pairs.extend(got)
        print(f"\rgame {played}/{args.games}, {len(pairs)} positions, {time.monotonic() - t0:.0f} s",
              end="", flush=True)

    # the tournament's runner (forked processes): the scoring search is Python, which threads serialise
    in_processes(play_and_score, tasks, args.jobs, scored)
    print()
    if args.pairs:
        with open(args.pairs, "w", encoding="utf-8") as f:
            json.dump(pairs, f)
    report(gid, pairs, args.games)
    return 0


def report(gid: str, pairs: list[tuple[float, float]], games: int) -> None:
    a, k = fit(pairs)
    print(f"{gid}: A = {a:.4f}, K = {k:.4f} from {len(pairs)} positions of {games} games "
          f"(log loss {log_loss(pairs, a, k):.3f}; {log_loss(pairs, 0.0, 0.0):.3f} for a coin)")
    buckets: dict[int, list[float]] = {}
    for s, y in pairs:
        p = logistic(a + k * s)
        buckets.setdefault(min(9, int(p * 10)), []).append(y)
    for b in sorted(buckets):
        ys = buckets[b]
        print(f"  predicted {b / 10:.1f}-{(b + 1) / 10:.1f}: {len(ys):5d} positions, won {sum(ys) / len(ys):.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
