"""Fit the win-probability logistic of `ai.analysis` on self-play games.

Plays games between AI levels (each pair of levels colour-swapped, from the arena's seeded random
openings), scores positions of each game with the analysis search (`ai.analysis.evaluate`, at a fixed
node budget so the figures do not depend on the machine), and fits K in
P(side to move wins) = 1 / (1 + exp(-(A + K * score))) by maximum likelihood, a draw counting one half.
Proven wins and losses are left out (their probability is 1 or 0 by definition).  Prints K, the
pairs it was fitted on, and how well it fits (the observed win rate by predicted-probability bucket).

    python -m ai.tools.calibrate connect4 --games 40

`--from FILE...` scores the positions of games already played instead (the arena's and `termarena
selfplay`'s `--games` lines: the winner's seat or -, then every move, tab-separated), so that the
probability can be fitted on strong players' games; `--with KEY=V,...` changes the scoring search's
level fields (over the game's ANALYSIS_CHANGES), so that two evaluations can be compared on the
same positions:

    python -m ai.tools.calibrate paper-soccer --from strong.txt --games 200 --nodes 12000 --with value=learned
"""
from __future__ import annotations

import argparse
import json
import math
import time

from ai.analysis import PROVEN, analysis_player, evaluate, logistic
from ai.levels import ai_part, make_player
from ai.tools.arena import start
from ai.tools.specs import game_tools, parse_spec
from ai.tournament import points
from ai.tournament.outputs import read_games_file, read_games_line
from ai.tournament.runners import in_processes
from engines import get_game, resolve_game_id
from engines.base import EngineError

PAIRS = ((2, 3), (3, 4), (4, 5), (2, 4), (3, 5))  # close enough that games swing both ways




def sample(game, judge, every: int, samples: list[tuple[float, int]]) -> None:
    """Every `every`-th ply, the judge's score and the side to move, unless the score is proven (its
    probability is 1 or 0 by definition)."""
    if game.ply % every == 0:
        ev = evaluate(game, judge, all_scores=False)
        if abs(ev.score) < PROVEN:
            samples.append((ev.score, game.current_player()))


def play_and_score(task: tuple) -> list[tuple[float, float]]:
    """(score, result) for the sampled positions of one game: score from the side to move, result 1
    if that side went on to win, 0.5 for a draw, 0 for a loss."""
    index, game_id, nodes, every, changes = task
    low, high = PAIRS[(index // 2) % len(PAIRS)]
    levels = (low, high) if index % 2 == 0 else (high, low)
    players = [make_player(game_id, lv, think_ms=60_000, seed=1000 * index + seat) for seat, lv in enumerate(levels)]
    judge = analysis_player(game_id, think_ms=60_000, nodes=nodes, changes=changes)
    game = start(game_id, index // 2, game_tools(game_id).OPENING_PLIES)
    samples: list[tuple[float, int]] = []
    while game.outcome() is None:
        sample(game, judge, every, samples)
        game.push(players[game.current_player()].choose(game))
    winner = game.outcome().winner
    return [(s, points(winner, seat)) for s, seat in samples]


def score_played(task: tuple) -> list[tuple[float, float]]:
    """`play_and_score` for a game already played (`--from`): its moves replayed, its result the line's.
    A game whose moves do not replay gives nothing (the caller counts it)."""
    index, game_id, nodes, every, changes, winner, moves = task
    judge = analysis_player(game_id, think_ms=60_000, nodes=nodes, changes=changes)
    game = get_game(game_id).new()
    samples: list[tuple[float, int]] = []
    try:
        for move in moves:
            if game.outcome() is not None:
                return []
            sample(game, judge, every, samples)
            game.play(move)
    except EngineError:
        return []
    return [(s, points(winner, seat)) for s, seat in samples]


def read_played(paths: list[str], limit: int) -> list[tuple[int | None, list[str]]]:
    """(winner seat or None, moves) of the first `limit` games of the `--games` files given; ValueError
    for a file that is not one (too large, not UTF-8, a line that is not a game)."""
    games: list[tuple[int | None, list[str]]] = []
    for path in paths:
        try:
            raw = read_games_file(path)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
        for number, line in enumerate(raw.decode("utf-8").splitlines(), 1):
            game = read_games_line(line)
            if game is None:
                raise ValueError(f"{path}, line {number}: not a game (the winner's seat or -, then the moves)")
            games.append(game)
            if len(games) == limit:
                return games
    return games


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
    ap.add_argument("--from", dest="played", nargs="+", metavar="FILE",
                    help="score the first --games games of these --games files instead of playing games")
    ap.add_argument("--with", dest="changes", default="", metavar="KEY=V,...",
                    help="the scoring search's level changes (over the game's ANALYSIS_CHANGES)")
    args = ap.parse_args(argv)
    if args.refit:
        with open(args.refit, encoding="utf-8") as f:
            report(resolve_game_id(args.game), [(float(s), float(y)) for s, y in json.load(f)], args.games)
        return 0
    gid = resolve_game_id(args.game)
    changes = parse_spec("with:" + args.changes)[1]
    try:
        analysis_player(gid, nodes=args.nodes, changes=changes)
    except (OSError, ValueError, TypeError, LookupError) as e:
        ap.error(f"--with {args.changes}: {e}")
    load = ai_part(gid, "load_compiled", None)
    if load is not None:  # the compiled tree, once, before the workers fork (the same scores, sooner)
        load()
    job = play_and_score
    tasks: list[tuple] = [(i, gid, args.nodes, args.every, changes) for i in range(args.games)]
    if args.played:
        try:
            played = read_played(args.played, args.games)
        except (OSError, ValueError) as e:  # UnicodeDecodeError is a ValueError
            ap.error(str(e))
        job = score_played
        tasks = [(i, gid, args.nodes, args.every, changes, w, m) for i, (w, m) in enumerate(played)]
    t0 = time.monotonic()
    pairs: list[tuple[float, float]] = []
    done = 0

    def scored(got: list[tuple[float, float]]) -> None:
        nonlocal done
        done += 1
        pairs.extend(got)
        print(f"\rgame {done}/{len(tasks)}, {len(pairs)} positions, {time.monotonic() - t0:.0f} s",
              end="", flush=True)

    # the tournament's runner (forked processes): the scoring search is Python, which threads serialise
    in_processes(job, tasks, args.jobs, scored)
    print()
    if args.pairs:
        with open(args.pairs, "w", encoding="utf-8") as f:
            json.dump(pairs, f)
    report(gid, pairs, len(tasks))
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
