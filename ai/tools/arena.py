"""In-process matches between two player specs (ai/tools/specs.py), for tuning and strength estimates.

Faster than `termarena match` (no bot processes, no referee I/O) and with budgets the CLI does not
offer.  Game 2k seats A first and game 2k+1 seats B first, from the same start: the game's
`new(1000 + k)` (Cultist Wars' map) and a few seeded random opening moves (`OPENING_PLIES` of the
game's tools, or --opening).  With --cg every player gets `termarena bot`'s deadlines, 60% of the
CodinGame limit of each turn (what `termarena match` plays with too).

    python -m ai.tools.arena paper-soccer "ab:nodes=3000" "ab:nodes=3000,mouth=20" -n 40 -j 2
    python -m ai.tools.arena cultist-wars level:6 mcts --cg
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time

from ai.bot import MARGIN
from ai.tools.specs import game_tools, make_player
from ai.tournament import Score, elo_with_error, points
from engines import get_game, resolve_game_id


def start(game_id: str, k: int, plies: int):
    """The start of the k-th pair of games: seeded random opening moves the game's tools accept."""
    tools = game_tools(game_id)
    rng = random.Random(1000 + k)
    while True:
        game = get_game(game_id).new(1000 + k)
        for _ in range(plies):
            game.push(rng.choice(tools.opening_moves(game)))
            if game.outcome() is not None:
                break
        if game.outcome() is None and tools.opening_ok(game):
            return game


def play_one(task: tuple) -> tuple[int, int | None, int, float, float, int, list[str]]:
    """(game index, winner seat or None, moves played, seconds used by seat 0, by seat 1, seat 0's
    score minus seat 1's, every move of the game as text)."""
    index, game_id, spec0, spec1, plies, cg = task
    players = [make_player(game_id, spec0, 2 * index), make_player(game_id, spec1, 2 * index + 1)]
    game = start(game_id, index // 2, plies)
    opening = len(game.move_stack)
    first = [True, True]
    used = [0.0, 0.0]
    while game.outcome() is None:
        seat = game.current_player()
        deadline = None
        if cg:
            deadline = time.monotonic() + game.limits.for_turn(first[seat]) / 1000 * MARGIN
            first[seat] = False
        t = time.perf_counter()
        move = players[seat].choose(game, deadline)
        used[seat] += time.perf_counter() - t
        if not game.is_legal(move):
            raise RuntimeError(f"{[spec0, spec1][seat]} played an illegal move {game.move_to_str(move)}")
        game.push(move)
    out = game.outcome()
    return (index, out.winner, len(game.move_stack) - opening, used[0], used[1], out.scores[0] - out.scores[1],
            [game.move_to_str(m) for m in game.move_stack])


def run(game_id: str, spec_a: str, spec_b: str, n: int, jobs: int = 2, plies: int | None = None,
        cg: bool = False, quiet: bool = False, games_out: str | None = None) -> Score:
    """Play the match and print its score; with `games_out`, append each game to that file as one line:
    the winner's seat (or -) and the game's moves from the start, tab-separated (training data)."""
    game_id = resolve_game_id(game_id)
    if plies is None:
        plies = game_tools(game_id).OPENING_PLIES
    tasks = [(i, game_id, spec_a, spec_b, plies, cg) if i % 2 == 0 else (i, game_id, spec_b, spec_a, plies, cg)
             for i in range(n + n % 2)]
    score = Score()
    t_a = t_b = 0.0
    moves = margin = 0
    pool = mp.get_context("fork").Pool(jobs) if jobs > 1 else None
    out = open(games_out, "a", encoding="utf-8") if games_out else None
    try:
        for index, winner, length, u0, u1, diff, played in (pool.imap_unordered(play_one, tasks) if pool
                                                             else map(play_one, tasks)):
            if out is not None:
                out.write("\t".join(["-" if winner is None else str(winner), *played]) + "\n")
                out.flush()
            a_seat = index % 2
            score.add(points(winner, a_seat))
            t_a += u0 if a_seat == 0 else u1
            t_b += u1 if a_seat == 0 else u0
            margin += diff if a_seat == 0 else -diff
            moves += length
            if not quiet:
                who = "draw" if winner is None else "A" if winner == a_seat else "B"
                print(f"game {index}: {who} in {length} moves", flush=True)
    finally:
        if pool is not None:
            pool.close()
        if out is not None:
            out.close()
    elo, err = elo_with_error(score)
    half = max(1, moves // 2)
    print(f"{spec_a} vs {spec_b}: +{score.wins} ={score.draws} -{score.losses} "
          f"score {100 * score.fraction:.1f}% Elo {elo:+.0f} ± {err:.0f}; "
          f"score margin {margin / max(1, score.games):+.2f}; "
          f"ms/move A {1000 * t_a / half:.1f} B {1000 * t_b / half:.1f}", flush=True)
    return score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.tools.arena", description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-n", type=int, default=40, help="games (even: colour-swapped pairs)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="processes (1: in this one)")
    ap.add_argument("--opening", type=int, default=None, help="random opening moves (default: the game's)")
    ap.add_argument("--cg", action="store_true", help="CodinGame deadlines (60%% of each turn's limit)")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--games", metavar="FILE", help="append each game (winner, moves) to FILE, one a line")
    args = ap.parse_args(argv)
    run(args.game, args.a, args.b, args.n, args.jobs, args.opening, args.cg, args.quiet, args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
