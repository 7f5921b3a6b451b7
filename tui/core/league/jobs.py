"""A league game as a pure job, and the one function that plays it.

A job holds everything the game needs (the game, both players' specs by seat, the seed, the limits) and
nothing of the database, so whatever runs jobs (`on_this_machine`'s thread pool, a Ray cluster) only
has to call `play_job` and hand back its result; the run records it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engines.referee import MatchResult
from tui.core.jobs import GameJob, play_game, seat_seeds
from tui.core.league.db import PlayedGame, Player
from tui.core.pool import Runner, play_in_pool


@dataclass(frozen=True)
class LeagueJob(GameJob):
    """A game job that knows its players in the league: their ids by seat (the labels are their names)."""
    seats: tuple[int, int] = (0, 0)  # player ids; seats[0] moves first


Played = tuple[LeagueJob, MatchResult]
# Plays every job of a round and hands each result to the callback, in the caller's thread, as it comes;
# a cluster backend is another one of these.
PlayRound = Callable[[list[LeagueJob], Callable[[Played], None]], None]


def play_job(job: LeagueJob) -> Played:
    return job, play_game(job).result


def on_runner(runner: Runner, jobs: int, play: Callable[[LeagueJob], Played] = play_job) -> PlayRound:
    """A round's games `jobs` at a time by `runner` (tui.core.pool's contract)."""
    return lambda round_jobs, record: runner(play, round_jobs, jobs, record)


def on_this_machine(jobs: int, play: Callable[[LeagueJob], Played] = play_job) -> PlayRound:
    """A round's games `jobs` at a time on this machine's cores (stopped at once by Ctrl-C or a signal)."""
    return on_runner(play_in_pool, jobs, play)


def seated(game: str, first: Player, second: Player, seed: int, think_ms: int | None,
           time_limits: bool) -> LeagueJob:
    return LeagueJob(game, (first.spec.label, second.spec.label), (first.name, second.name), seed,
                     think_ms=think_ms, time_limits=time_limits, bot_seeds=seat_seeds(seed),
                     seats=(first.id, second.id))


def colour_swapped(game: str, a: Player, b: Player, seed: int, think_ms: int | None,
                   time_limits: bool) -> list[LeagueJob]:
    """The two games of a pair: the same seed (the same map in Cultist Wars), each player once first."""
    return [seated(game, a, b, seed, think_ms, time_limits), seated(game, b, a, seed, think_ms, time_limits)]


def twin(game: str, played: PlayedGame, players: dict[int, Player], think_ms: int | None,
         time_limits: bool) -> LeagueJob:
    """The colour-swapped game a stopped run owed to a game it played."""
    return seated(game, players[played.seat1], players[played.seat0], played.seed, think_ms, time_limits)
