"""`league run`: rounds of games chosen from the ratings so far, each colour-swapped pair stored the moment
its second game ends.

A round is a list of jobs (tui.core.league.jobs) for `jobs` colour-swapped pairs: first the games that a
stopped run of an older termarena owed (the second game of a pair), then the most instructive pairs
(tui.core.league.pairing).  Games come back in any order; a pair is stored when both of its games are
back, in one transaction (LeagueDB.record_games), so the file never holds half a pair, and a run asked
for an odd number of games plays one more to finish its last pair.  Before each round the run reads the
players and the games stored since its last look, so players added or removed meanwhile, and games
stored by another run on the same file, are taken into account.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from engines.referee import MatchResult
from tui.core.league.db import LeagueDB, LeagueError, Player
from tui.core.league.jobs import LeagueJob, Played, PlayRound, colour_swapped, on_this_machine, twin
from tui.core.league.pairing import choose_pairs
from tui.core.league.ratings import Ratings, refresh

SEED_RANGE = 1 << 31  # every game accepts seeds up to 2^31 - 1


@dataclass(frozen=True)
class Finished:
    """A game of the run, back: what the progress line tells."""

    number: int  # games this run has stored so far: 1, 2, ...
    stored_id: int | None  # None: another run stored the same game first (see LeagueDB.record_games)
    job: LeagueJob
    result: MatchResult


def present(players: dict[int, Player]) -> list[Player]:
    return [p for p in players.values() if not p.removed]


def plan_round(db: LeagueDB, game: str, ratings: Ratings, players: dict[int, Player], size: int,
               think_ms: int | None, time_limits: bool, rng: random.Random) -> list[list[LeagueJob]]:
    """At least `size` games (one more rather than half a pair), as the groups that are stored together:
    the owed second games of pairs first, alone, then new colour-swapped pairs."""
    units = [[twin(game, g, players, think_ms, time_limits)] for g in db.unanswered(game, players)][:size]
    here = {p.id: p for p in present(players)}
    for a, b in choose_pairs(ratings, list(here), max(0, size - len(units) + 1) // 2, rng):
        units.append(colour_swapped(game, here[a], here[b], rng.randrange(SEED_RANGE), think_ms, time_limits))
    return units


def run_league(db: LeagueDB, game: str, games: int, think_ms: int | None, time_limits: bool, *, jobs: int,
               play_round: PlayRound | None = None, on_game: Callable[[Finished], None] | None = None,
               rng: random.Random | None = None) -> Ratings:
    """Play at least `games` more games of the league (one more to finish a pair), `jobs` at a time (on
    this machine unless `play_round` says otherwise); returns the ratings after them."""
    play_round = play_round or on_this_machine(jobs)
    rng = rng or random.Random()
    ratings = Ratings()
    done = 0
    while done < games:
        players = refresh(db, game, ratings)
        if len(present(players)) < 2:
            raise LeagueError(f"the {game} league needs two players to play (`termarena league add`)")
        # a round of two games a worker keeps every worker busy but for the last game of the round
        units = plan_round(db, game, ratings, players, min(2 * jobs, games - done), think_ms, time_limits, rng)
        waiting = [list(unit) for unit in units]  # each group's games not back yet
        back: list[list[Played]] = [[] for _ in units]

        def record(played: Played) -> None:
            nonlocal done
            job = played[0]
            # (a job from a cluster is a copy: found by value)
            i = next(i for i, rest in enumerate(waiting) if job in rest)
            waiting[i].remove(job)
            back[i].append(played)
            if waiting[i]:
                return
            done_games = sorted(back[i], key=lambda p: units[i].index(p[0]))  # stored in seat order
            ids = db.record_games([(j.seats, r, j.think_ms, j.time_limits) for j, r in done_games])
            for (j, r), stored in zip(done_games, ids):
                done += stored is not None
                if on_game is not None:
                    on_game(Finished(done, stored, j, r))

        play_round([job for unit in units for job in unit], record)
    refresh(db, game, ratings)
    return ratings
