"""Each AI level's strength as an Elo figure, from the measured level ladder (README, "The level
ladder"): level 1 is 1000 and each level adds the Elo difference measured between it and the level
below, `termarena match GAME ai:N+1 ai:N -n 100` or more (colour-swapped games).  The error is the
95% bar of the sum: the steps' bars added in quadrature (the matches are independent), so it grows
up the ladder.  Re-measure a step after changing a level, and update its row here and in the README.
"""
from __future__ import annotations

from engines import resolve_game_id

# game -> (Elo difference, its 95% error) of level N+1 over level N, N = 1..5 (README tables)
LADDER: dict[str, tuple[tuple[int, int], ...]] = {
    "connect4": ((424, 149), (512, 229), (139, 74), (200, 82), (478, 188)),
    "paper-soccer": ((241, 89), (173, 79), (186, 56), (135, 52), (449, 165)),
    "lines-of-action": ((676, 339), (382, 129), (147, 76), (156, 77), (512, 229)),
    "cultist-wars": ((798, 296), (330, 95), (225, 77), (160, 71), (123, 63)),
}
BASE_ELO = 1000  # level 1, by definition


def level_elo(game: str, level: int) -> tuple[int, int]:
    """(Elo, 95% error) of a level: 1000 for level 1, then the measured steps summed."""
    steps = LADDER[resolve_game_id(game)][: level - 1]
    return BASE_ELO + sum(d for d, _ in steps), round(sum(e * e for _, e in steps) ** 0.5)


def describe_elo(game: str, level: int) -> str:
    elo, err = level_elo(game, level)
    return f"Elo {elo}" + (f" ± {err}" if err else " (the reference)")
