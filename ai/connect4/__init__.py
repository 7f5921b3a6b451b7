"""Connect 4 (7x9, STEAL) AI: bitboard alpha-beta with a transposition table, an exact endgame solver
and an opening book computed offline.

Modules:
- `bitboard`: the board as two ints (the engine's layout), winning-cell masks, conversions.
- `search`: negamax alpha-beta (PVS, iterative deepening, TT, history ordering, forced-move
  extension, threat/parity evaluation); it solves the game exactly once every line reaches the end.
- `player`: the six levels (`make_player`, `LEVELS`); `speed`: `search_speed` for `termarena bench`,
  `speed_digest` the search's digest at a fixed node budget; `tools`: what the tuning tools need.
- `book` / `opening_book` / `solved_book`: the first move, the STEAL decision and book lines, computed
  offline by `python -m ai.connect4.build_book table|lines`, and middle-game positions level 6 once
  misplayed, solved exactly by `python -m ai.connect4.build_book solved` (`Searcher.solve`).
"""
from ai.connect4.player import LEVEL_TABLE, LEVELS, Connect4Player
from ai.connect4.speed import search_speed

make_player = Connect4Player  # make_player(level, *, think_ms=None, seed=None, **level_changes)

# What the analysis' win chances are (ai/analysis.py): (A, K) of P(mover wins) = 1 / (1 + e^-(A + K * score)),
# fitted on self-play between levels 2..5 by `python -m ai.tools.calibrate GAME --games 40`.
CALIBRATION = (-0.1377, 1.7978)  # 873 positions, log loss 0.473

# The analysis' node budget per position (ai/analysis.py): no clock, so a game gets the same verdicts
# on any machine; about 0.3 s a position on the 2-core machine of the 2026 trial, what 500 ms of clock reached.
ANALYSIS_NODES = 100_000

# (Elo difference, its 95% error) of level N+1 over level N, N = 1..5 (ai/ratings.py; README, "The level ladder").
LADDER = ((424, 149), (512, 229), (139, 74), (200, 82), (478, 188))

# The nearest game OpenSpiel has (`termarena bench` measures its C++ playouts beside ours).
OPENSPIEL_GAME = "connect_four(rows=7,columns=9)"
OPENSPIEL_NOTE = "no STEAL"  # how it differs from ours

__all__ = ["ANALYSIS_NODES", "CALIBRATION", "Connect4Player", "LADDER", "LEVELS", "LEVEL_TABLE", "OPENSPIEL_GAME",
           "OPENSPIEL_NOTE", "make_player", "search_speed"]
