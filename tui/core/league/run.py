"""`league run`: rounds of games chosen from the ratings so far, each game stored the moment it ends.

A round is a list of jobs (tui.core.league.jobs) for `jobs` colour-swapped pairs, never half a pair (a
run asked for an odd number of games plays one more to finish its last pair).  A run's first round
starts with every game that stopped runs owed (the second game of a pair), however many, then the most
instructive pairs (tui.core.league.pairing).  Owed games are taken at the start only: later, the half
pairs in the file are those another run on the same file is finishing.  Before each round the run reads
the players and the games stored since its last look, so players added or removed meanwhile, and games
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
    stored_id: int | None  # None: another run stored the same game first (see LeagueDB.record_game)
    job: LeagueJob
    result: MatchResult


def present(players: dict[int, Player]) -> list[Player]:
    return [p for p in players.values() if not p.removed]


def plan_round(db: LeagueDB, game: str, ratings: Ratings, players: dict[int, Player], size: int,
               think_ms: int | None, time_limits: bool, rng: random.Random, owed: bool = True) -> list[LeagueJob]:
    """At least `size` games, one more rather than half a pair: with `owed`, every owed second game of
    a pair first (finishing pairs comes before `size`), then new colour-swapped pairs."""
    jobs = [twin(game, g, players, think_ms, time_limits) for g in db.unanswered(game, players)] if owed else []
    here = {p.id: p for p in present(players)}
    for a, b in choose_pairs(ratings, list(here), max(0, size - len(jobs) + 1) // 2, rng):
        jobs += colour_swapped(game, here[a], here[b], rng.randrange(SEED_RANGE), think_ms, time_limits)
    return jobs


def run_league(db: LeagueDB, game: str, games: int, think_ms: int | None, time_limits: bool, *, jobs: int,
               play_round: PlayRound | None = None, on_game: Callable[[Finished], None] | None = None,
               rng: random.Random | None = None) -> Ratings:
    """Play at least `games` more games of the league (one more to finish a pair), `jobs` at a time (on
    this machine unless `play_round` says otherwise); returns the ratings after them."""
    play_round = play_round or on_this_machine(jobs)
    rng = rng or random.Random()
    ratings = Ratings()
    done = 0
    first_round = True
    while done < games:
        players = refresh(db, game, ratings)
        if len(present(players)) < 2:
            raise LeagueError(f"the {game} league needs two players to play (`termarena league add`)")
        # a round of two games a worker keeps every worker busy but for the last game of the round
        round_jobs = plan_round(db, game, ratings, players, min(2 * jobs, games - done), think_ms, time_limits,
                                rng, owed=first_round)
        first_round = False

        def record(played: Played) -> None:
            nonlocal done
            job, result = played
            stored = db.record_game(job.seats, result, job.think_ms, job.time_limits)
            done += stored is not None
            if on_game is not None:
                on_game(Finished(done, stored, job, result))

        play_round(round_jobs, record)
    refresh(db, game, ratings)
    return ratings
