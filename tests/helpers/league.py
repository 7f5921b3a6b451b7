"""League runs without processes: games played by a stand-in that decides them at once."""
from __future__ import annotations

from engines.base import Outcome
from engines.referee import MatchResult
from tui.core.league.db import LeagueDB
from tui.core.league.jobs import LeagueJob, on_this_machine
from tui.core.league.run import run_league


def result(job: LeagueJob, winner: int | None) -> MatchResult:
    scores = (1, 1) if winner is None else ((1, 0) if winner == 0 else (0, 1))
    return MatchResult(game=job.game, seed=job.seed, turns=7, moves=["4"] * 7, seats=list(job.labels),
                       outcome=Outcome(winner, "connected", scores))


def strongest_wins(strength: dict[str, int]):
    """A stand-in for refereed games: the stronger name wins, equal strengths draw."""
    def play(job: LeagueJob) -> tuple[LeagueJob, MatchResult]:
        a, b = (strength[n] for n in job.labels)
        return job, result(job, None if a == b else (0 if a > b else 1))
    return play


def run_fake(db: LeagueDB, games: int, play, jobs: int = 1, think_ms: int | None = None, rng=None):
    """A Connect 4 league run whose games are played by `play` instead of bot processes."""
    return run_league(db, "connect4", games, think_ms, True, jobs=jobs, play_round=on_this_machine(jobs, play),
                      rng=rng)
