"""A game as a pure job, and the one function that plays it.

A job holds all a refereed game needs (the game, both players by seat, seed, opening, limits) and
nothing of what asked for it, so it can be played on a thread here or as a Ray task on another machine
(tui.core.cluster), and its report comes back as plain data.  Answer times are measured where the game
is played.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engines.referee import MatchResult, run_match
from tui.core.specs import bot_argv, parse_spec


@dataclass(frozen=True)
class GameJob:
    game: str
    specs: tuple[str, str]  # player specs by seat (seat 0 moves first), as `parse_spec` reads them
    labels: tuple[str, str]
    seed: int | None
    opening: tuple[str, ...] = ()
    think_ms: int | None = None
    time_limits: bool = True
    bot_seeds: tuple[int | None, int | None] = (None, None)  # of the built-in AI's randomness, by seat
    record: bool = False  # the result then holds every turn's answer, time and both bots' stderr


@dataclass
class GameReport:
    result: MatchResult
    times_ms: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # per seat


def play_game(job: GameJob) -> GameReport:
    argvs = [bot_argv(job.game, parse_spec(s), job.think_ms, seed) for s, seed in zip(job.specs, job.bot_seeds)]
    times: tuple[list[float], list[float]] = ([], [])
    result = run_match(job.game, argvs, seed=job.seed, labels=list(job.labels), time_limits=job.time_limits,
                       opening=job.opening, record=job.record,
                       on_turn=lambda e: times[e.seat].append(e.elapsed_ms))
    return GameReport(result, times)


def seat_seeds(game_seed: int) -> tuple[int, int]:
    """Seeds for the two seats' AI, fixed by the game's seed, so that a run with the same --seed plays
    the same games again wherever it is played (AI levels bounded by depth or nodes, not by time)."""
    base = (game_seed * 2) % (1 << 64)
    return base, (base + 1) % (1 << 64)
