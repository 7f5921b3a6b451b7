"""`league run`: rounds of games chosen from the ratings so far, each round played by the one tournament
loop (ai.tournament.loop), each game stored the moment it ends.

A round is a schedule of `Pairing`s among the present players (`plan_round`): `jobs` colour-swapped pairs,
never half a pair (a run asked for an odd number of games plays one more to finish its last pair).  A
run's first round starts with every game that stopped runs owed (the second game of a pair), however
many, then the most instructive pairs (tui.core.league.pairing).  Owed games are taken at the start only:
later, the half pairs in the file are those another run on the same file is finishing.  Before each round
the run reads the players and the games stored since its last look, so players added or removed
meanwhile, and games stored by another run on the same file, are taken into account.

The loop plays a round with the game player made for its players (refereed bot processes unless told
otherwise) on the runner given (this machine's threads, or tui.core.cluster's Ray tasks), and counts each
game into the round's `RoundStandings`, which commits it to the file before any output shows it.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence

from ai.tournament.loop import GamePlayer, GameReport, OutputFormat, Standings, run
from ai.tournament.refereed import Refereed
from ai.tournament.runners import Runner, in_threads
from ai.tournament.schedule import Pairing
from engines.referee import MatchResult
from tui.core.league.db import LeagueDB, LeagueError, Player
from tui.core.league.pairing import choose_pairs
from tui.core.league.ratings import Ratings, refresh
from tui.core.specs import bot_argv

SEED_RANGE = 1 << 31  # every game accepts seeds up to 2^31 - 1

# The game player of a round's players (the round's pairings number them in this order); it must be
# picklable where the runner needs it (Ray).
RoundPlayer = Callable[[Sequence[Player]], GamePlayer]


@dataclass(frozen=True)
class Finished:
    """A game of the run, stored: what the progress line tells."""

    number: int  # games this run has stored so far: 1, 2, ...
    stored_id: int | None  # None: another run stored the same game first (see LeagueDB.record_game)
    seats: tuple[int, int]  # the players' ids; seats[0] moved first
    result: MatchResult


@dataclass
class Store:
    """The run's writes: each game committed to the file at once, and how many this run stored."""

    db: LeagueDB
    think_ms: int | None
    time_limits: bool
    done: int = 0

    def record(self, seats: tuple[int, int], result: MatchResult) -> Finished:
        stored = self.db.record_game(seats, result, self.think_ms, self.time_limits)
        self.done += stored is not None
        return Finished(self.done, stored, seats, result)


@dataclass
class RoundStandings(Standings):
    """A round's standings: the loop's count of a game stores it first (in the loop's thread, where the
    connection lives), so a game is in the file before an output shows it; `last` tells the outputs
    how the game they are shown was stored."""

    store: Store | None = None
    ids: tuple[int, ...] = ()  # the round's players, as its pairings number them
    last: Finished | None = None

    def add(self, report: GameReport) -> None:
        first, second = report.pairing.seats
        self.last = self.store.record((self.ids[first], self.ids[second]), report.result)
        super().add(report)


def present(players: dict[int, Player]) -> list[Player]:
    return [p for p in players.values() if not p.removed]


def seated(index: int, first: int, second: int, seed: int) -> Pairing:
    """Game `index` of a round, its player `first` moving first (the loop pairs players as a < b)."""
    return Pairing(index, min(first, second), max(first, second), 0 if first < second else 1, seed)


def plan_round(db: LeagueDB, game: str, ratings: Ratings, players: dict[int, Player], size: int,
               rng: random.Random, owed: bool = True) -> tuple[list[Player], list[Pairing]]:
    """The round's players (the present ones, in the order they joined) and its schedule: at least
    `size` games, one more rather than half a pair; with `owed`, every owed second game of a pair first
    (finishing pairs comes before `size`), then new colour-swapped pairs on a seed of their own."""
    here = present(players)
    at = {p.id: n for n, p in enumerate(here)}
    plan = [seated(k, at[g.seat1], at[g.seat0], g.seed)
            for k, g in enumerate(db.unanswered(game, players) if owed else [])]
    k = len(plan) + len(plan) % 2  # the two games of a pair share `Pairing.twin` (index // 2)
    for a, b in choose_pairs(ratings, list(at), max(0, size - len(plan) + 1) // 2, rng):
        seed = rng.randrange(SEED_RANGE)
        plan += [seated(k, at[a], at[b], seed), seated(k + 1, at[b], at[a], seed)]
        k += 2
    return here, plan


def refereed(game: str, think_ms: int | None, time_limits: bool) -> RoundPlayer:
    """Bot processes (ai.tournament.refereed) of the players' specs, the built-in AI at `think_ms` and
    seeded from the game's seed."""
    return partial(_refereed, game, think_ms, time_limits)


def _refereed(game: str, think_ms: int | None, time_limits: bool, players: Sequence[Player]) -> Refereed:
    return Refereed(game, [partial(bot_argv, game, p.spec, think_ms) for p in players],
                    [p.name for p in players], time_limits)


def run_league(db: LeagueDB, game: str, games: int, think_ms: int | None, time_limits: bool, *, jobs: int,
               runner: Runner | None = None, player: RoundPlayer | None = None,
               outputs: Sequence[OutputFormat] = (), rng: random.Random | None = None) -> Ratings:
    """Play at least `games` more games of the league (one more to finish a pair), `jobs` at a time by
    `runner` (by default this machine's threads: Ctrl-C or a signal ends the games under way and their
    bots), each played by `player` (refereed bot processes); `outputs` get each game once it is stored
    (the standings' `last`) and the end of each round.  Returns the ratings after the games."""
    player = player or refereed(game, think_ms, time_limits)
    rng = rng or random.Random()
    store = Store(db, think_ms, time_limits)
    ratings = Ratings()
    first_round = True
    while store.done < games:
        players = refresh(db, game, ratings)
        if len(present(players)) < 2:
            raise LeagueError(f"the {game} league needs two players to play (`termarena league add`)")
        # a round of two games a worker keeps every worker busy but for the last game of the round
        here, plan = plan_round(db, game, ratings, players, min(2 * jobs, games - store.done), rng,
                                owed=first_round)
        first_round = False
        standings = dataclasses.replace(RoundStandings.start(game, [p.name for p in here], len(plan)),
                                        store=store, ids=tuple(p.id for p in here))
        run(standings, plan, player(here), jobs=jobs, runner=runner or in_threads, outputs=outputs)
    refresh(db, game, ratings)
    return ratings
