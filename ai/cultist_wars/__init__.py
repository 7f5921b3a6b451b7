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

# What the analysis' win chances are (ai/analysis.py): (A, K) of P(mover wins) = 1 / (1 + e^-(A + K * score)),
# fitted on self-play between levels 2..5 by `python -m ai.tools.calibrate GAME --games 40`.
CALIBRATION = (-0.4739, 0.8968)  # 2,137 positions, log loss 0.399 (30 games, every other position)

# The analysis' node budget per position (ai/analysis.py): no clock, so a game gets the same verdicts
# on any machine; level 6's own budget, which 500 ms of clock already reached (0.1 s a position).
ANALYSIS_NODES = 15_000

# (Elo difference, its 95% error) of level N+1 over level N, N = 1..5 (ai/ratings.py; README, "The level ladder").
LADDER = ((798, 296), (330, 95), (225, 77), (160, 71), (123, 63))

OPENSPIEL_GAME = None  # OpenSpiel has no such game

__all__ = ["ANALYSIS_NODES", "CALIBRATION", "CultistWarsPlayer", "LADDER", "LEVELS", "LEVEL_TABLE", "OPENSPIEL_GAME",
           "make_player", "search_speed"]
