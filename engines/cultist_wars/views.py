"""Plain data the UI reads from a position: units and the preview of an action."""
from __future__ import annotations

from dataclasses import dataclass

from .board import BULLET, DIST, FREE, MAX_DAMAGE, N_TILES, XY
from .protocol import CONVERT, MOVE, SHOOT, Move
from .rules import resolve


@dataclass(frozen=True)
class UnitView:
    """One unit; x and y are None once it is out of the game."""

    id: int
    owner: int  # 0, 1 or 2 (neutral)
    type: str  # "leader" or "cultist"
    hp: int
    x: int | None
    y: int | None
    alive: bool


@dataclass(frozen=True)
class Preview:
    """What the referee would do with an action in the current position.

    `resolved` is WAIT, a one-step MOVE, an in-range SHOOT or an adjacent CONVERT; `how` says why
    (see rules.Resolution).  For a MOVE, `step` is the tile the unit steps to.  For a SHOOT,
    `bullet` is the line from the shooter to the target in travel order (shooter excluded, target
    included), `hit` the tile that stops the bullet, `hit_unit` the unit there (None for an obstacle),
    `damage` what it loses and `kills` whether it leaves the game.  For a CONVERT, `converted`.
    """

    action: Move
    resolved: Move
    how: str
    step: tuple[int, int] | None = None
    bullet: tuple[tuple[int, int], ...] = ()
    hit: tuple[int, int] | None = None
    hit_unit: int | None = None
    damage: int = 0
    kills: bool = False
    converted: int | None = None


def _travel_order(shooter: int, target: int) -> tuple[tuple[int, int], ...]:
    # BULLET lists the checked tiles nearest-the-shooter first, which is the travel order for
    # both directions the referee draws in (a backward line is stored reversed).
    return tuple(XY[t] for t in BULLET[shooter * N_TILES + target]) + (XY[target],)


def preview(pos: list[int], hp: list[int], occ: list[int], move: Move) -> Preview:
    res = resolve(move, pos, occ)
    r = res.move
    if r.kind == MOVE:
        return Preview(move, r, res.how, step=(r.x, r.y))
    if r.kind == CONVERT:
        return Preview(move, r, res.how, converted=r.target)
    if r.kind != SHOOT:
        return Preview(move, r, res.how)
    start, target = pos[r.unit], pos[r.target]
    hit = target
    for t in BULLET[start * N_TILES + target]:
        if occ[t] != FREE:
            hit = t
            break
    victim = occ[hit]
    if victim < 0:
        return Preview(move, r, res.how, bullet=_travel_order(start, target), hit=XY[hit])
    damage = min(hp[victim], MAX_DAMAGE - DIST[start * N_TILES + hit])
    return Preview(move, r, res.how, bullet=_travel_order(start, target), hit=XY[hit],
                   hit_unit=victim, damage=damage, kills=damage >= hp[victim])
