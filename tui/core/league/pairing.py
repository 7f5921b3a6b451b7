"""Which pairs play next: the games that teach the most.

A game between a and b is worth (sigma_a^2 + sigma_b^2) * 4 p (1 - p), where p is openskill's chance
that a beats b: the combined uncertainty of the two ratings (a game moves uncertain ratings most) times
how open the game is (1 when p = 1/2, towards 0 for a foregone result).  This is psyleague's idea
(prefer uncertain players, prefer close opponents) as one number.  Pairs already chosen for the same
round count against a pair (the worth is divided by 1 + the games planned), so a round spreads over
several pairs; ties are broken at random.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

from tui.core.league.ratings import Ratings


def pair_worth(ratings: Ratings, a: int, b: int) -> float:
    p = ratings.win_probability(a, b)
    sa, sb = ratings.standing(a), ratings.standing(b)
    return (sa.sigma ** 2 + sb.sigma ** 2) * 4 * p * (1 - p)


def choose_pairs(ratings: Ratings, player_ids: list[int], count: int, rng: random.Random) -> list[tuple[int, int]]:
    """`count` pairs (a < b) of the given players, the most instructive first."""
    pairs = list(itertools.combinations(sorted(player_ids), 2))
    if not pairs:
        return []
    worth = {pair: pair_worth(ratings, *pair) for pair in pairs}
    planned: Counter[tuple[int, int]] = Counter()
    chosen = []
    for _ in range(count):
        best = max(pairs, key=lambda pair: (worth[pair] / (1 + planned[pair]), rng.random()))
        planned[best] += 1
        chosen.append(best)
    return chosen
