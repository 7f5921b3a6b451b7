"""The nodes the level-6 search visits in a given time on fixed positions (`termarena bench`)."""
from __future__ import annotations

import time

from ai.cultist_wars.player import LEVEL_TABLE
from ai.cultist_wars.search import Searcher
from ai.cultist_wars.state import State

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
