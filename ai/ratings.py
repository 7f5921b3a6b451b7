"""Each AI level's strength as an Elo figure, from the measured level ladder (README, "The level
ladder"): level 1 is 1000 and each level adds the Elo difference measured between it and the level
below, `termarena match GAME ai:N+1 ai:N -n 100` or more (colour-swapped games).  The error is the
95% bar of the sum: the steps' bars added in quadrature (the matches are independent), so it grows
up the ladder.  The steps are each game's AI package's LADDER: re-measure a step after changing a level,
and update it there and in the README.
"""
from __future__ import annotations

from ai.levels import ai_part

BASE_ELO = 1000  # level 1, by definition


def level_elo(game: str, level: int) -> tuple[int, int]:
    """(Elo, 95% error) of a level: 1000 for level 1, then the measured steps summed."""
    steps = ai_part(game, "LADDER")[: level - 1]  # N = 1..5: level N+1 over level N
    return BASE_ELO + sum(d for d, _ in steps), round(sum(e * e for _, e in steps) ** 0.5)


def describe_elo(game: str, level: int) -> str:
    elo, err = level_elo(game, level)
    return f"Elo {elo}" + (f" ± {err}" if err else " (the reference)")
