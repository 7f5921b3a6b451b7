"""In-process matches between two player specs (ai/tools/specs.py), for tuning and strength estimates.

Faster than `termarena match` (no bot processes, no referee I/O) and with budgets the CLI does not
offer.  Game 2k seats A first and game 2k+1 seats B first, from the same start: the game's
`new(1000 + k)` (Cultist Wars' map) and a few seeded random opening moves (`OPENING_PLIES` of the
game's tools, or --opening).  With --cg every player gets `termarena bot`'s deadlines, 60% of the
CodinGame limit of each turn (what `termarena match` plays with too).  `--seed S` plays other games:
starts and players' seeds moved by S x SEED_STRIDE (0, the default: the games above), so a second run
adds games instead of replaying the first run's.

    python -m ai.tools.arena paper-soccer "ab:nodes=3000" "ab:nodes=3000,mouth=20" -n 40 -j 2
    python -m ai.tools.arena cultist-wars level:6 mcts --cg
"""
from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Sequence

from ai.bot import MARGIN
from ai.sprt import Sprt
from ai.tools.specs import checked_player, game_tools, make_player
from ai.tournament import Score, elo_with_error, schedule
from ai.tournament.loop import GameReport, OutputFormat, Standings, run as run_games
from ai.tournament.outputs import GamesFile
from ai.tournament.runners import Runner, in_processes
from ai.tournament.schedule import Pairing
from engines import get_game, resolve_game_id
from engines.base import EngineError
from engines.referee import MatchResult


SEED_STRIDE = 100_000  # more games than a match plays: runs with different --seed never share a start


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


@dataclass(frozen=True)
class InProcess:
    """The arena's game player: two specs' players in this process (picklable, for forked workers);
    seat n's player has seed 2 * game + n, both moved by 2 * `seed` * SEED_STRIDE (the start by `seed` *
    SEED_STRIDE)."""

    game_id: str
    specs: tuple[str, str]  # player A's and B's
    plies: int
    cg: bool
    seed: int = 0

    def __call__(self, p: Pairing) -> GameReport:
        seated = [self.specs[n] for n in p.seats]
        shift = self.seed * SEED_STRIDE
        players = [make_player(self.game_id, spec, 2 * (shift + p.index) + seat)
                   for seat, spec in enumerate(seated)]
        game = start(self.game_id, shift + p.twin, self.plies)
        opening = len(game.move_stack)
        first = [True, True]
        times: tuple[list[float], list[float]] = ([], [])
        while game.outcome() is None:
            seat = game.current_player()
            deadline = None
            if self.cg:
                deadline = time.monotonic() + game.limits.for_turn(first[seat]) / 1000 * MARGIN
                first[seat] = False
            t = time.perf_counter()
            move = players[seat].choose(game, deadline)
            times[seat].append((time.perf_counter() - t) * 1000)
            if not game.is_legal(move):
                raise RuntimeError(f"{seated[seat]} played an illegal move {game.move_to_str(move)}")
            game.push(move)
        moves = [game.move_to_str(m) for m in game.move_stack]
        result = MatchResult(self.game_id, p.seed, len(moves), moves, seated, game.outcome())
        return GameReport(p, result, times, opening)


class ArenaLines:
    """The arena's text: a line per game (unless quiet), then the score, Elo, score margin and time per
    move of A and B."""

    def __init__(self, spec_a: str, spec_b: str, quiet: bool) -> None:
        self.specs, self.quiet = (spec_a, spec_b), quiet
        self.moves = self.margin = 0

    def on_game(self, report: GameReport, standings: Standings) -> None:
        out, a_seat = report.result.outcome, report.pairing.a_seat
        length = report.result.turns - report.opening
        diff = out.scores[0] - out.scores[1]
        self.margin += diff if a_seat == 0 else -diff
        self.moves += length
        if not self.quiet:
            who = "draw" if out.winner is None else "A" if out.winner == a_seat else "B"
            print(f"game {report.pairing.index}: {who} in {length} moves", flush=True)

    def on_end(self, standings: Standings) -> None:
        score = standings.scores[(0, 1)]
        t_a, t_b = (sum(t.times_ms) / 1000 for t in standings.times)
        elo, err = elo_with_error(score)
        half = max(1, self.moves // 2)
        print(f"{self.specs[0]} vs {self.specs[1]}: +{score.wins} ={score.draws} -{score.losses} "
              f"score {100 * score.fraction:.1f}% Elo {elo:+.0f} ± {err:.0f}; "
              f"score margin {self.margin / max(1, score.games):+.2f}; "
              f"ms/move A {1000 * t_a / half:.1f} B {1000 * t_b / half:.1f}", flush=True)
        if standings.sprt is not None:
            state, test = standings.sprt, standings.sprt.test
            print(f"SPRT [{test.elo0:g}, {test.elo1:g}]: {state.result} (LLR {state.llr:.2f}, bounds "
                  f"{test.lower:.2f} {test.upper:.2f})", flush=True)


def play_match(game_id: str, spec_a: str, spec_b: str, n: int, *, jobs: int = 2, plies: int | None = None,
               cg: bool = False, sprt: Sprt | None = None, runner: Runner = in_processes,
               outputs: Sequence[OutputFormat] = (), seed: int = 0) -> Standings:
    """The match's games (colour-swapped pairs, up to `n`, stopped by `sprt` once it decides), played by
    `runner` (forked processes, or a cluster's) and shown through `outputs`: the whole Standings."""
    game_id = resolve_game_id(game_id)
    if plies is None:
        plies = game_tools(game_id).OPENING_PLIES
    # game 2k: A first, 2k+1: B first, both from start k (seed 1000 + k, moved by --seed as InProcess moves it)
    plan = schedule(2, n, 1000 + seed * SEED_STRIDE)
    standings = Standings.start(game_id, [spec_a, spec_b], len(plan), sprt)
    return run_games(standings, plan, InProcess(game_id, (spec_a, spec_b), plies, cg, seed), jobs=jobs,
                     runner=runner, outputs=outputs)


def run(game_id: str, spec_a: str, spec_b: str, n: int, jobs: int = 2, plies: int | None = None,
        cg: bool = False, quiet: bool = False, games_out: str | None = None, sprt: Sprt | None = None,
        seed: int = 0) -> Score:
    """Play the match and print its score; with `games_out`, append each game to that file as one line:
    the winner's seat (or -) and the game's moves from the start, tab-separated (training data).  With
    `sprt`, stop once the test decides (`termarena match --sprt`'s, over colour-swapped pairs)."""
    out = open(games_out, "a", encoding="utf-8") if games_out else None
    try:
        outputs = ([GamesFile(out)] if out is not None else []) + [ArenaLines(spec_a, spec_b, quiet)]
        standings = play_match(game_id, spec_a, spec_b, n, jobs=jobs, plies=plies, cg=cg, sprt=sprt,
                               outputs=outputs, seed=seed)
    finally:
        if out is not None:
            out.close()
    return standings.scores[(0, 1)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.tools.arena", description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-n", type=int, default=40, help="games (even: colour-swapped pairs)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="processes (1: in this one)")
    ap.add_argument("--opening", type=int, default=None, help="random opening moves (default: the game's)")
    ap.add_argument("--cg", action="store_true", help="CodinGame deadlines (60%% of each turn's limit)")
    ap.add_argument("--seed", type=int, default=0, metavar="S",
                    help="other games: starts and players' seeds moved by S x 100,000 (default 0)")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--games", metavar="FILE", help="append each game (winner, moves) to FILE, one a line")
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                    help="stop as soon as a sequential test accepts Elo <= ELO0 or Elo >= ELO1 (at most -n games)")
    args = ap.parse_args(argv)
    try:
        sprt = Sprt(*args.sprt) if args.sprt else None
        for spec in (args.a, args.b):
            checked_player(args.game, spec)
    except (ValueError, EngineError) as e:  # EngineError: a game the registry does not know, or has no AI for
        ap.error(str(e))
    if not 0 <= args.seed <= 10**9 or args.n > SEED_STRIDE:
        ap.error(f"--seed is 0..1000000000 and -n at most {SEED_STRIDE:,}")
    run(args.game, args.a, args.b, args.n, args.jobs, args.opening, args.cg, args.quiet, args.games, sprt,
        args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
