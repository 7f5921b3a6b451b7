"""Per-game positions for the AI tests: where each game's player is checked (tests/ai/test_player_contract.py)
and random positions of any game."""
from __future__ import annotations

import random
from dataclasses import dataclass

from engines import GAME_IDS, get_game


@dataclass(frozen=True)
class Case:
    midgame: tuple[int, int]  # a position where level 6 would search for long
    late: tuple[int, int]  # a dense late position
    deadlines: tuple[float, ...]  # level 6 answers within each of these (seconds)
    min_depth: int  # level 6 completes at least this depth in 300 ms of the midgame (on an idle machine)
    win_in_1: tuple[tuple[int, int], ...]  # the mover wins at once
    forced_wins: tuple[tuple[int, int, int], ...]  # (game, back, plies): the mover wins within plies


CASES = {
    "connect4": Case(
        midgame=(10, 48), late=(2, 6), deadlines=(0.03, 0.06), min_depth=4,
        win_in_1=((0, 1), (1, 1), (3, 1), (5, 1), (9, 1), (16, 1), (19, 1)),
        forced_wins=((0, 3, 3), (4, 5, 3), (6, 3, 3), (6, 5, 3), (7, 3, 3), (7, 5, 3), (8, 3, 3), (13, 3, 3))),
    "paper-soccer": Case(
        midgame=(12, 20), late=(12, 6), deadlines=(0.12,), min_depth=2,
        win_in_1=((0, 1), (5, 1), (5, 3), (6, 2), (8, 1), (8, 3), (11, 1)),
        forced_wins=((1, 5, 3), (4, 3, 3))),
    "lines-of-action": Case(
        midgame=(2, 60), late=(2, 40), deadlines=(0.09,), min_depth=2,
        win_in_1=((0, 1), (4, 1), (5, 1), (7, 1), (8, 1), (9, 1), (10, 1), (12, 1)),
        # game 6 at turn 147: the win must land by turn 149
        forced_wins=((0, 3, 3), (6, 3, 3), (12, 3, 3))),
    "cultist-wars": Case(
        midgame=(1, 100), late=(1, 90), deadlines=(0.03,), min_depth=1,
        # game 0, turn 124: the leader converts the last enemy cultist; turn 122: the same conversion
        # is already on; game 2, turn 81: conversion of the last enemy unit
        win_in_1=((0, 1), (0, 3), (2, 1)),
        # game 1, turns 148, 146, 144: 2 units against 1, and the opponent must not catch up
        forced_wins=((1, 2, 2), (1, 4, 3), (1, 6, 5))),
}

assert sorted(CASES) == sorted(GAME_IDS)


def random_position(game_id: str, seed: int, plies: int):
    """A position after up to `plies` seeded random moves (short of the end of the game)."""
    rng = random.Random(seed)
    game = get_game(game_id).new(seed)
    for _ in range(plies):
        game.push(game.random_move(rng))
        if game.outcome() is not None:
            game.pop()
            break
    return game
