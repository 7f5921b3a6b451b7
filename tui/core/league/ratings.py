"""Ratings derived from the stored games, in the order they were stored, with openskill's Plackett-Luce
model (a Bayesian rating in the TrueSkill family: each player is a skill estimate mu with an uncertainty
sigma).  openskill (MIT, maintained) rather than TrueSkill itself: the same idea without TrueSkill's
patent and trademark, and faster.  The rating shown is openskill's ordinal, mu - 3 sigma: a player rises
by winning and by playing enough games to be sure of.

Only `refresh` reads the database: `Ratings` is fed the games and can be fed more later (a run adds the
games stored since its last look, its own and other processes' alike, and gets the same numbers as a
recomputation from scratch)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from tui.core.league.db import LeagueDB, PlayedGame, Player

MODEL = PlackettLuce()  # the defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass
class Standing:
    player_id: int
    skill: Any = field(default_factory=MODEL.rating)  # openskill's rating object: mu and sigma
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def mu(self) -> float:
        return self.skill.mu

    @property
    def sigma(self) -> float:
        return self.skill.sigma

    @property
    def rating(self) -> float:
        """The conservative estimate (openskill's ordinal): the skill the player has almost surely."""
        return self.mu - 3 * self.sigma


class Ratings:
    def __init__(self) -> None:
        self.standings: dict[int, Standing] = {}
        self.last_game_id = 0

    def standing(self, player_id: int) -> Standing:
        found = self.standings.get(player_id)
        if found is None:
            found = self.standings[player_id] = Standing(player_id)
        return found

    def add(self, games: list[PlayedGame]) -> None:
        for g in games:
            a, b = self.standing(g.seat0), self.standing(g.seat1)
            # ranks: lower is better; a draw is a tie
            ranks = [0, 0] if g.winner is None else ([0, 1] if g.winner == 0 else [1, 0])
            [[a.skill], [b.skill]] = MODEL.rate([[a.skill], [b.skill]], ranks=ranks)
            if g.winner is None:
                a.draws += 1
                b.draws += 1
            else:
                winner, loser = (a, b) if g.winner == 0 else (b, a)
                winner.wins += 1
                loser.losses += 1
            self.last_game_id = max(self.last_game_id, g.id)

    def win_probability(self, a: int, b: int) -> float:
        """openskill's prediction that player a beats player b."""
        return MODEL.predict_win([[self.standing(a).skill], [self.standing(b).skill]])[0]


def rate(games: list[PlayedGame]) -> Ratings:
    ratings = Ratings()
    ratings.add(games)
    return ratings


def refresh(db: LeagueDB, game: str, ratings: Ratings) -> dict[int, Player]:
    """Feed `ratings` the games stored since it last looked; returns every player of the game."""
    players = db.players(game)
    ratings.add(db.games_after(game, ratings.last_game_id, players))
    return players
