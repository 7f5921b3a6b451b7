"""Cultist Wars AI: alpha-beta over single actions with the neutral move played exactly; levels 1..6.

- `state.py`: the search's position (flat lists, int moves = resolved actions, exact referee turns
  with the neutral-move LCG, Zobrist hash) and the move generator.
- `search.py`: PVS alpha-beta with iterative deepening, TT, killers, history; the evaluation.
- `player.py`: the levels (depth / node budgets, softmax noise for the low ones).
- `speed.py`: `search_speed` for `termarena bench`.
- `greedy.py`: a greedy bot like the simple public CodinGame ones (it plays the bench positions).
"""
from __future__ import annotations

from ai.cultist_wars.player import LEVEL_TABLE, LEVELS, CultistWarsPlayer
from ai.cultist_wars.speed import search_speed

make_player = CultistWarsPlayer  # make_player(level, *, think_ms=None, seed=None, **level_changes)

__all__ = ["LEVELS", "LEVEL_TABLE", "CultistWarsPlayer", "make_player", "search_speed"]
