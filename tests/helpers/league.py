"""League runs without processes: games played by a stand-in that decides them at once."""
from __future__ import annotations

from dataclasses import dataclass

from ai.tournament.loop import GameReport
from ai.tournament.schedule import Pairing
from engines.base import Outcome
from engines.referee import MatchResult
from tui.core.league.db import LeagueDB
from tui.core.league.run import run_league


def result(seats: tuple[str, str], seed: int, winner: int | None) -> MatchResult:
    """A Connect 4 game between the players named in `seats` (seat 0 first)."""
    scores = (1, 1) if winner is None else ((1, 0) if winner == 0 else (0, 1))
    return MatchResult(game="connect4", seed=seed, turns=7, moves=["4"] * 7, seats=list(seats),
                       outcome=Outcome(winner, "connected", scores))


@dataclass(frozen=True)
class StrongestWins:
    """A game player of the loop standing in for refereed games: the stronger name wins, equal
    strengths draw.  `names` are the round's players, as its pairings number them."""

    strength: dict[str, int]
    names: tuple[str, ...]

    def __call__(self, p: Pairing) -> GameReport:
        seats = tuple(self.names[n] for n in p.seats)
        a, b = (self.strength[n] for n in seats)
        return GameReport(p, result(seats, p.seed, None if a == b else (0 if a > b else 1)))


def strongest_wins(strength: dict[str, int]):
    """The round player (tui.core.league.run.RoundPlayer) of `StrongestWins`."""
    return lambda players: StrongestWins(strength, tuple(p.name for p in players))


class Told:
    """An output that keeps how each game was stored (`RoundStandings.last`) and counts the rounds."""

    def __init__(self) -> None:
        self.games: list = []
        self.rounds = 0

    def on_game(self, report, standings) -> None:
        self.games.append(standings.last)

    def on_end(self, standings) -> None:
        self.rounds += 1


def run_fake(db: LeagueDB, games: int, player, jobs: int = 1, think_ms: int | None = None, rng=None, **more):
    """A Connect 4 league run whose games are played by `player` instead of bot processes."""
    return run_league(db, "connect4", games, think_ms, True, jobs=jobs, player=player, rng=rng, **more)
