"""Refereed games (engines.referee): bot processes, as a pure job and as the loop's game player.

A job holds all a refereed game needs (the game, both players' commands by seat, seed, opening, limits)
and nothing of what asked for it, so it can be played on a thread here or as a Ray task on another
machine (tui.core.cluster), and its result comes back as plain data.  A bot's command is made where the
game is played (`BotCommand`), so the built-in AI runs under that machine's Python.  Answer times are
measured where the game is played.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ai.tournament.loop import GameReport
from ai.tournament.schedule import Pairing
from engines.referee import MatchResult, run_match

# A player's process for one game, given the seed of the built-in AI's randomness (None: its own);
# picklable (a module-level function, or a functools.partial of one) for Ray.
BotCommand = Callable[[int | None], "str | list[str]"]
Times = tuple[list[float], list[float]]  # answer times in ms, per seat


@dataclass(frozen=True)
class GameJob:
    game: str
    bots: tuple[BotCommand, BotCommand]  # by seat (seat 0 moves first)
    labels: tuple[str, str]
    seed: int | None
    opening: tuple[str, ...] = ()
    time_limits: bool = True
    bot_seeds: tuple[int | None, int | None] = (None, None)  # of the built-in AI's randomness, by seat
    record: bool = False  # the result then holds every turn's answer, time and both bots' stderr


def play_game(job: GameJob, on_stderr: Callable[[int, str], None] | None = None) -> tuple[MatchResult, Times]:
    argvs = [bot(seed) for bot, seed in zip(job.bots, job.bot_seeds)]
    times: Times = ([], [])
    result = run_match(job.game, argvs, seed=job.seed, labels=list(job.labels), time_limits=job.time_limits,
                       opening=job.opening, record=job.record, on_stderr=on_stderr,
                       on_turn=lambda e: times[e.seat].append(e.elapsed_ms))
    return result, times


def seat_seeds(game_seed: int) -> tuple[int, int]:
    """Seeds for the two seats' AI, fixed by the game's seed, so that a run with the same --seed plays
    the same games again wherever it is played (AI levels bounded by depth or nodes, not by time)."""
    base = (game_seed * 2) % (1 << 64)
    return base, (base + 1) % (1 << 64)


@dataclass(frozen=True)
class Refereed:
    """The game player of bot processes: `bots[n]` and `labels[n]` are player n of the schedule.
    `seeded`: the built-in AI's seeds come from the game's seed (`seat_seeds`), else they are its own.
    `on_stderr(seat, line)` gets the bots' stderr as it comes (only where games are played here)."""

    game: str
    bots: Sequence[BotCommand]
    labels: Sequence[str]
    time_limits: bool = True
    record: bool = False
    seeded: bool = True
    on_stderr: Callable[[int, str], None] | None = None

    def __call__(self, p: Pairing) -> GameReport:
        first, second = p.seats
        job = GameJob(self.game, (self.bots[first], self.bots[second]), (self.labels[first], self.labels[second]),
                      p.seed, p.opening, self.time_limits, seat_seeds(p.seed) if self.seeded else (None, None),
                      self.record)
        result, times = play_game(job, self.on_stderr)
        return GameReport(p, result, times, len(p.opening))
