"""Cultist Wars AI: alpha-beta over single actions with the neutral move played exactly; levels 1..6.

- `state.py`: the search's position (flat lists, int moves = resolved actions, exact referee turns
  with the neutral-move LCG, Zobrist hash) and the move generator.
- `search.py`: PVS alpha-beta with iterative deepening, TT, killers, history; the evaluation.
- `player.py`: the levels (depth / node budgets, softmax noise for the low ones).
- `greedy.py`: a greedy bot like the simple public CodinGame ones (it plays the bench positions).
"""
from __future__ import annotations

import time

from ai.cultist_wars.player import LEVEL_TABLE, LEVELS, CultistWarsPlayer

make_player = CultistWarsPlayer  # make_player(level, *, think_ms=None, seed=None, **level_changes)

__all__ = ["LEVELS", "LEVEL_TABLE", "CultistWarsPlayer", "make_player", "search_speed"]


# Positions for search_speed: (map seed, turns) reached by two seeded greedy bots (greedy.Greedy):
# openings and middlegames with 3 to 7 units a side, 20 to 45 moves to choose from.
SPEED_POSITIONS: tuple[tuple[int, int], ...] = ((11, 20), (13, 40), (14, 40), (14, 60), (15, 60))


def _speed_positions():
    from ai.cultist_wars.greedy import Greedy
    from engines.cultist_wars import CultistWars

    out = []
    for seed, turns in SPEED_POSITIONS:
        g = CultistWars.new(seed)
        bots = [Greedy(1), Greedy(2)]
        while g.turn < turns:
            g.push(bots[g.current_player()].choose(g))
        out.append(g)
    return out


def search_speed(seconds: float = 2.0) -> tuple[int, float]:
    """Nodes the level-6 search visits on SPEED_POSITIONS in about `seconds` (fresh tables each)."""
    from ai.cultist_wars.search import Searcher
    from ai.cultist_wars.state import State

    games = _speed_positions()
    per = seconds / len(games)
    nodes = 0
    weights = dict(LEVEL_TABLE[6].weights) or None
    start = time.perf_counter()
    for g in games:
        s = Searcher(weights)
        r = s.search(State.from_game(g), deadline=time.monotonic() + per, stop_fraction=1.0)
        nodes += r.nodes
    return nodes, time.perf_counter() - start
