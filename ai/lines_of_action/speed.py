"""The nodes the level-6 search visits in a given time on fixed positions (`termarena bench`)."""
from __future__ import annotations

import time

from ai.lines_of_action.search import Searcher

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
    per = seconds / len(SPEED_POSITIONS)
    nodes = 0
    start = time.perf_counter()
    for spec in SPEED_POSITIONS:
        own, opp, turns = _position(spec)
        s = Searcher()
        r = s.search(own, opp, turns, deadline=time.monotonic() + per, stop_fraction=1.0)
        nodes += r.nodes
    return nodes, time.perf_counter() - start
