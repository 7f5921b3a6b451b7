"""A league game as a pure job (ai.tournament.refereed's, plus who plays it in the league).

A job holds everything the game needs and nothing of the database, so whatever runs jobs (a runner of
ai.tournament.runners, a Ray cluster) only has to call `play_job` and hand back its result; the run
records it."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

from ai.tournament.refereed import GameJob, play_game, seat_seeds
from ai.tournament.runners import Runner, in_threads
from engines.referee import MatchResult
from tui.core.league.db import PlayedGame, Player
from tui.core.specs import bot_argv


@dataclass(frozen=True)
class LeagueJob(GameJob):
    """A game job that knows its players in the league: their ids by seat (the labels are their names)."""
    think_ms: int | None = None  # stored with the game
    seats: tuple[int, int] = (0, 0)  # player ids; seats[0] moves first


Played = tuple[LeagueJob, MatchResult]
# Plays every job of a round and hands each result to the callback, in the caller's thread, as it comes;
# a cluster backend is another one of these.
PlayRound = Callable[[list[LeagueJob], Callable[[Played], None]], None]


def play_job(job: LeagueJob) -> Played:
    return job, play_game(job)[0]


def on_runner(runner: Runner, jobs: int, play: Callable[[LeagueJob], Played] = play_job) -> PlayRound:
    """A round's games `jobs` at a time by `runner` (ai.tournament.runners' contract)."""
    return lambda round_jobs, record: runner(play, round_jobs, jobs, record)


def on_this_machine(jobs: int, play: Callable[[LeagueJob], Played] = play_job) -> PlayRound:
    """A round's games `jobs` at a time on this machine's cores (stopped at once by Ctrl-C or a signal)."""
    return on_runner(in_threads, jobs, play)


def seated(game: str, first: Player, second: Player, seed: int, think_ms: int | None,
           time_limits: bool) -> LeagueJob:
    return LeagueJob(game, (partial(bot_argv, game, first.spec, think_ms), partial(bot_argv, game, second.spec, think_ms)),
                     (first.name, second.name), seed, time_limits=time_limits, bot_seeds=seat_seeds(seed),
                     think_ms=think_ms, seats=(first.id, second.id))


def colour_swapped(game: str, a: Player, b: Player, seed: int, think_ms: int | None,
                   time_limits: bool) -> list[LeagueJob]:
    """The two games of a pair: the same seed (the same map in Cultist Wars), each player once first."""
    return [seated(game, a, b, seed, think_ms, time_limits), seated(game, b, a, seed, think_ms, time_limits)]


def twin(game: str, played: PlayedGame, players: dict[int, Player], think_ms: int | None,
         time_limits: bool) -> LeagueJob:
    """The colour-swapped game a stopped run owed to a game it played."""
    return seated(game, players[played.seat1], players[played.seat0], played.seed, think_ms, time_limits)
