"""The league table: the present players of a game, best rating first, as plain rows (the CLI prints
them with rich, or as JSON)."""
from __future__ import annotations

from tui.core.league.db import LeagueDB
from tui.core.league.ratings import Ratings, refresh


def table_rows(db: LeagueDB, game: str, ratings: Ratings | None = None) -> list[dict]:
    """Rows of name, spec, games, wins, draws, losses, mu, sigma, rating (mu - 3 sigma) and rank.
    `ratings` already fed with the stored games is brought up to date; without it, all are rated."""
    ratings = ratings or Ratings()
    players = refresh(db, game, ratings)
    rows = []
    for p in players.values():
        if p.removed:
            continue
        s = ratings.standing(p.id)
        rows.append({"name": p.name, "spec": p.spec.label, "games": s.games, "wins": s.wins, "draws": s.draws,
                     "losses": s.losses, "mu": round(s.mu, 3), "sigma": round(s.sigma, 3),
                     "rating": round(s.rating, 3)})
    rows.sort(key=lambda r: (-r["rating"], r["name"]))
    return [dict(rank=n, **r) for n, r in enumerate(rows, 1)]
