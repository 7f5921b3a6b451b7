"""Connect 4 (7x9, STEAL) AI: bitboard alpha-beta with a transposition table, an exact endgame solver
and an opening book computed offline.

Modules:
- `bitboard`: the board as two ints (the engine's layout), winning-cell masks, conversions.
- `search`: negamax alpha-beta (PVS, iterative deepening, TT, history ordering, forced-move
  extension, threat/parity evaluation); it solves the game exactly once every line reaches the end.
- `player`: the six levels (`make_player`, `LEVELS`); `speed`: `search_speed` for `termarena bench`.
- `book` / `opening_book` / `solved_book`: the first move, the STEAL decision and book lines, computed
  offline by `python -m ai.tools.connect4_book table|lines`, and middle-game positions level 6 once
  misplayed, solved exactly by `python -m ai.tools.connect4_book solved` (`Searcher.solve`).
"""
from ai.connect4.player import LEVEL_TABLE, LEVELS, Connect4Player
from ai.connect4.speed import search_speed

make_player = Connect4Player  # make_player(level, *, think_ms=None, seed=None, **level_changes)

__all__ = ["LEVELS", "LEVEL_TABLE", "Connect4Player", "make_player", "search_speed"]
