"""The referee's judgement of an action: validity (`Board.checkActionValidity`) and resolution
(`Board.getFinalAction`).  Pure functions over the game's flat arrays:

    pos[u]   tile of unit u, or -1 once it is out of the game and off the board
    hp[u]    0..10; hp 0 means out of the game (`isInGame == false`)
    owner[u] 0, 1 or 2 (neutral)
    occ[t]   board.FREE, board.OBSTACLE or the id of the unit on tile t
"""
from __future__ import annotations

from dataclasses import dataclass

from .board import SHOOT_RANGE, XY, distance, in_bounds, move_step, tile
from .protocol import CONVERT, MOVE, SHOOT, WAIT, WAIT_MOVE, Move

N_UNITS = 14
TURNS = 150  # the game ends after this many turns (both players' actions count)
LEADERS = (0, 1)


def _valid_unit_id(u: int) -> bool:
    return 0 <= u < N_UNITS


def validity_error(move: Move, player: int, hp: list[int], owner: list[int]) -> str | None:
    """Why the referee rejects `move` by `player`, in its own words; None when it is valid."""
    kind, u = move.kind, move.unit
    if kind == WAIT:
        return None
    if kind not in (MOVE, SHOOT, CONVERT):
        return f"{kind} is not a valid action"
    if not _valid_unit_id(u):
        return f"{u} is not a valid unit ID"
    if owner[u] != player:
        return f"{u} is not your unit"
    if kind == MOVE:
        if not in_bounds(move.x, move.y):
            return "Invalid coordinates"
        if hp[u] == 0:
            return f"Unit {u} is no longer in game"
        return None
    t = move.target
    if not _valid_unit_id(t):
        return "Invalid target ID"
    if kind == SHOOT:
        if u == t:
            return "Unit cannot shoot itself"
        if u == player:
            return "Cult leaders cannot shoot."
    else:
        if owner[t] == player:
            return "Can't convert own unit"
        if t in LEADERS:
            return "Cult leaders cannot be converted"
        if u not in LEADERS:
            return "Only cult leaders can convert"
    if hp[u] == 0:
        return f"Unit {u} is no longer in game"
    if hp[t] == 0:
        return f"Unit {t} is no longer in game"
    return None


@dataclass(frozen=True)
class Resolution:
    """What the referee carries out for a valid action (`getFinalAction`).

    `move` is WAIT, a one-step MOVE to a free adjacent tile, an in-range SHOOT or an adjacent
    CONVERT.  `how` says why: `wait`, `in_range`, `adjacent` (a convert or a one-step move),
    `path` (first step of the BFS path over free tiles), `direction` (the fallback BFS ignoring
    units), `direction_blocked` (its first step holds a unit), `same_tile`, `blocked` (adjacent
    tile not free), `no_path` (the target cannot be reached even ignoring units).
    """

    move: Move
    how: str


def resolve(move: Move, pos: list[int], occ: list[int]) -> Resolution:
    """`Board.getFinalAction` of a valid action."""
    kind = move.kind
    if kind == WAIT:
        return Resolution(WAIT_MOVE, "wait")
    u = move.unit
    start = pos[u]
    if kind == MOVE:
        goal = tile(move.x, move.y)
    else:
        goal = pos[move.target]
        d = distance(start, goal)
        if (kind == SHOOT and d <= SHOOT_RANGE) or (kind == CONVERT and d == 1):
            return Resolution(move, "in_range" if kind == SHOOT else "adjacent")
    step, how = move_step(occ, start, goal)
    if step is None:
        return Resolution(WAIT_MOVE, how)
    x, y = XY[step]
    return Resolution(Move(MOVE, u, x, y), how)


__all__ = ["N_UNITS", "LEADERS", "validity_error", "resolve", "Resolution"]
