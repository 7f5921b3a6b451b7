"""Self-play games for Paper Soccer's learned values (issue 28): many opponents, noise, varied openings.

    python -m ai.paper_soccer.selfplay --games 2000 --jobs 2 --out selfplay.txt [--seed S] [--pool SPEC ...]

Each game draws its two players from a pool of player specs (ai/tools/specs.py: by default levels 3-6,
level 6 at a few node budgets, with and without random turns, and each earlier generation of the net
given by `--net FILE`), and starts from 2-6 seeded random turns (one per effect, leaving no goal in one
open), so that the positions are not one game repeated.  The games are played by the tournament loop
(ai/tournament) in forked processes, or by any runner given to `generate` (a cluster's: the command
line `termarena selfplay paper-soccer --cluster ADDRESS` passes Ray's: ai/ must not import tui/, where the
Ray runner lives).  Each decided
game is appended to FILE as the arena's `--games` lines (winner seat, tab, the moves from the start),
which ai/paper_soccer/fit_value.py and fit_net.py read.  A game is seeded by its index: the same command
gives the same games.
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass

from ai.tools.arena import InProcess, start
from ai.tournament.loop import GameReport, Standings, run as run_games
from ai.tournament.outputs import GamesFile
from ai.tournament.runners import Runner, in_processes
from ai.tournament.schedule import Pairing

GAME = "paper-soccer"
POOL = ("level:3", "level:4", "level:5", "level:6,nodes=1500", "level:6,nodes=4000",
        "level:6,nodes=4000,epsilon=0.15", "level:6,nodes=10000")
OPENING_PLIES = (2, 6)  # random turns before the players' own, at least and at most


@dataclass(frozen=True)
class SelfPlayGame:
    """Plays pairing k: two specs of the pool and an opening length drawn from seed + k (picklable)."""

    pool: tuple[str, ...]
    seed: int

    def choice(self, index: int) -> tuple[tuple[str, str], int]:
        rng = random.Random(self.seed * 1_000_003 + index)
        return (rng.choice(self.pool), rng.choice(self.pool)), rng.randint(*OPENING_PLIES)

    def __call__(self, p: Pairing) -> GameReport:
        specs, plies = self.choice(p.index)
        # the arena's game player: seat n gets specs[n]; start k = the pairing's index
        return InProcess(GAME, specs, plies, cg=False)(Pairing(p.index, 0, 1, 0, p.seed))


def say_on_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Progress:
    """A line ("150/2000 games") to `say` every `every` games, on stderr by default."""

    def __init__(self, total: int, every: int = 50, say=say_on_stderr) -> None:
        self.total, self.every, self.done, self.say = total, every, 0, say

    def on_game(self, report: GameReport, standings: Standings) -> None:
        self.done += 1
        if self.done % self.every == 0 or self.done == self.total:
            self.say(f"{self.done}/{self.total} games")

    def on_end(self, standings: Standings) -> None:
        pass


def pool_with(nets: list[str], pool: tuple[str, ...] = POOL) -> tuple[str, ...]:
    """The pool and level 6 with each earlier net (weight files)."""
    return tuple(pool) + tuple(f"level:6,nodes=4000,net={path}" for path in nets)


def check_pool(pool: tuple[str, ...]) -> None:
    """Every spec of the pool makes a player (its level's fields, its net's file): ValueError saying
    which does not, before a game starts (a bad spec would otherwise fail in every worker)."""
    from ai.tools.specs import checked_player

    for spec in pool:
        checked_player(GAME, spec)


def generate(games: int, out_path: str, *, jobs: int = 2, seed: int = 0, pool: tuple[str, ...] = POOL,
             runner: Runner = in_processes, quiet: bool = False, say=say_on_stderr) -> int:
    """Play `games` self-play games and append the decided ones to `out_path`; returns how many were.
    Progress goes to `say` unless `quiet`."""
    plan = [Pairing(k, 0, 1, 0, seed + k) for k in range(games)]
    standings = Standings.start(GAME, ["first", "second"], games)
    with open(out_path, "a", encoding="utf-8") as out:
        outputs = [GamesFile(out)] + ([] if quiet else [Progress(games, say=say)])
        run_games(standings, plan, SelfPlayGame(tuple(pool), seed), jobs=jobs, runner=runner, outputs=outputs)
    return sum(1 for _p, res in standings.games if res.outcome.winner is not None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.paper_soccer.selfplay", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--jobs", "-j", type=int, default=2, help="processes (1: in this one)")
    ap.add_argument("--out", required=True, metavar="FILE", help="append the games here (the arena's --games lines)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pool", nargs="+", metavar="SPEC", help=f"player specs (default: {' '.join(POOL)})")
    ap.add_argument("--net", nargs="*", default=[], metavar="FILE", help="earlier nets, added to the pool at level 6")
    args = ap.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        ap.error("--games and --jobs must be at least 1")
    decided = generate(args.games, args.out, jobs=args.jobs, seed=args.seed,
                       pool=pool_with(args.net, tuple(args.pool) if args.pool else POOL))
    print(f"{decided} decided games of {args.games} appended to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
