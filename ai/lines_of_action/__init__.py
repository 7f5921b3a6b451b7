"""Lines of Action AI: alpha-beta (negamax, PVS) with iterative deepening, a transposition table and
a MIA-style evaluation (spread around the centre of mass, largest group, connectedness, mobility);
levels 1..6.

Modules:
- `search.py`: the searcher on two bitboards (mover, opponent): mate scores, the 150-turn draw, TT,
  killers + history + evaluation ordering, leaves evaluated inline with a leaf memo, and a threat
  check at the leaves (a leaf where the opponent can connect at once is scored as lost).
- `evaluate.py`: the per-colour evaluation F(b) (memoised per bitboard; also answers "connected?").
- `tables.py`: per-line memos of move ints and mobility balances, evaluation masks, Euler number.
- `player.py`: the levels (depth / node budgets, softmax noise for the low ones).
- `speed.py`: `search_speed` for `termarena bench`.

Evaluation weights: a logistic (Texel) fit of candidate features on ~58k positions of noisy
self-play chose the features (spread, largest group, links, weighted mobility, tempo); matches of
120-160 games then removed what hurt in search (material, quads/Euler and group-count penalties,
concentration, centralisation) and checked the mobility weight.
"""
from __future__ import annotations

from ai.lines_of_action.player import LEVEL_TABLE, LEVELS, LinesOfActionPlayer
from ai.lines_of_action.speed import search_speed

make_player = LinesOfActionPlayer  # make_player(level, *, think_ms=None, seed=None, **level_changes)

# What the analysis' win chances are (ai/analysis.py): (A, K) of P(mover wins) = 1 / (1 + e^-(A + K * score)),
# fitted on self-play between levels 2..5 by `python -m ai.tools.calibrate GAME --games 40`.
CALIBRATION = (-0.6591, 2.2467)  # 1,010 positions, log loss 0.434

# The analysis' node budget per position (ai/analysis.py): no clock, so a game gets the same verdicts
# on any machine; about 0.45 s a position on the 2-core machine of the 2026 trial, what 500 ms of clock reached.
ANALYSIS_NODES = 40_000

# (Elo difference, its 95% error) of level N+1 over level N, N = 1..5 (ai/ratings.py; README, "The level ladder").
LADDER = ((676, 339), (382, 129), (147, 76), (156, 77), (512, 229))

# The nearest game OpenSpiel has (`termarena bench` measures its C++ playouts beside ours).
OPENSPIEL_GAME = "lines_of_action"

__all__ = ["ANALYSIS_NODES", "CALIBRATION", "LADDER", "LEVELS", "LEVEL_TABLE", "LinesOfActionPlayer", "OPENSPIEL_GAME",
           "make_player", "search_speed"]
