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

Evaluation weights: a logistic (Texel) fit of candidate features on ~58k positions of noisy
self-play chose the features (spread, largest group, links, weighted mobility, tempo); matches of
120-160 games then removed what hurt in search (material, quads/Euler and group-count penalties,
concentration, centralisation) and checked the mobility weight.
"""
from __future__ import annotations

import time

from ai.lines_of_action.player import LEVEL_TABLE, LEVELS, LinesOfActionPlayer

make_player = LinesOfActionPlayer  # make_player(level, *, think_ms=None, seed=None, **level_changes)

__all__ = ["LEVELS", "LEVEL_TABLE", "LinesOfActionPlayer", "make_player", "search_speed"]


# Positions for search_speed (rank 8 first, then turns played): the start, an opening position
# (turn 20) and a middlegame position (turn 41).
SPEED_POSITIONS = (
    (".bbbbbb.", "w......w", "w......w", "w......w", "w......w", "w......w", "w......w", ".bbbbbb.", 0),
    ("...bbb..", ".b.w.w.w", "...b.wbw", ".......w", "w.......", "w...b.wb", "w...w...", "...bbbb.", 20),
    ("..b.....", "....bw..", "w..bw.w.", "..bbwbw.", "...b.w..", "..wbb..w", "....b...", "........", 41),
)


def _position(rows_and_turns):
    *rows, turns = rows_and_turns
    black = white = 0
    for i, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "b":
                black |= 1 << (8 * (7 - i) + x)
            elif c == "w":
                white |= 1 << (8 * (7 - i) + x)
    own, opp = (black, white) if turns % 2 == 0 else (white, black)
    return own, opp, turns


def search_speed(seconds: float = 2.0) -> tuple[int, float]:
    """Nodes the level-6 search visits on SPEED_POSITIONS in about `seconds` (fresh tables each);
    a node is an interior node or an evaluated leaf."""
    from ai.lines_of_action.search import Searcher

    per = seconds / len(SPEED_POSITIONS)
    nodes = 0
    start = time.perf_counter()
    for spec in SPEED_POSITIONS:
        own, opp, turns = _position(spec)
        s = Searcher()
        r = s.search(own, opp, turns, deadline=time.monotonic() + per, stop_fraction=1.0)
        nodes += r.nodes
    return nodes, time.perf_counter() - start
