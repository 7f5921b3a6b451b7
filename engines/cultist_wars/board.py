"""Geometry of the 13x7 board: tile indices, neighbours, distances, bullet lines and the two BFS.

Tiles are ints `t = y * 13 + x` ((0,0) top left).  The game keeps one occupancy list `occ` of 91
entries: `FREE` (-1), `OBSTACLE` (-2), or the id of the unit standing there.  "Free" (the referee's
`isTileFree`) is `occ[t] == FREE`; a bullet is stopped by any tile that is not free.

Everything here is a pure function of its arguments or a table built once at import.
"""
from __future__ import annotations

from .mapgen import HEIGHT, WIDTH

N_TILES = WIDTH * HEIGHT
FREE = -1
OBSTACLE = -2
SHOOT_RANGE = 6
MAX_DAMAGE = 7

# Neighbour order of the referee (X_MODIFIER / Y_MODIFIER): up, right, down, left.
DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def tile(x: int, y: int) -> int:
    return y * WIDTH + x


def xy(t: int) -> tuple[int, int]:
    return t % WIDTH, t // WIDTH


def in_bounds(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


def _neighbours(t: int) -> tuple[int, ...]:
    x, y = xy(t)
    return tuple(tile(x + dx, y + dy) for dx, dy in DIRECTIONS if in_bounds(x + dx, y + dy))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(t) for t in range(N_TILES))
XY: tuple[tuple[int, int], ...] = tuple(xy(t) for t in range(N_TILES))
# DIST[a * N_TILES + b]: Manhattan distance (`Tile.distanceFrom`).
DIST: tuple[int, ...] = tuple(abs(XY[a][0] - XY[b][0]) + abs(XY[a][1] - XY[b][1])
                              for a in range(N_TILES) for b in range(N_TILES))


# DIST_ROWS[a][b]: the same, one row per tile (faster in loops).
DIST_ROWS: tuple[tuple[int, ...], ...] = tuple(DIST[a * N_TILES:(a + 1) * N_TILES] for a in range(N_TILES))


def distance(a: int, b: int) -> int:
    return DIST[a * N_TILES + b]


# ---------------------------------------------------------------- bullets


def bresenham(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    """The tiles strictly between (x0,y0) and (x1,y1) as fragkakis' Bresenham visits them, in order.

    Steps may be diagonal; neither end point is included.
    """
    dx, dy = abs(x1 - x0), abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx - dy
    x, y = x0, y0
    out = []
    while True:
        e2 = 2 * err
        if e2 > -dy:
            err -= dy
            x += sx
        if e2 < dx:
            err += dx
            y += sy
        if x == x1 and y == y1:
            return out
        out.append((x, y))


def bullet_line(shooter: tuple[int, int], target: tuple[int, int]) -> list[tuple[int, int]]:
    """The tiles a bullet may stop at, in priority order: the first blocking one is hit.

    Shooter above the target (smaller y): the line runs shooter -> target and the first blocking
    tile is hit.  Otherwise (equal y included) the referee draws target -> shooter and keeps the
    last blocking tile, i.e. the one nearest the shooter: the same as walking that line backwards.
    """
    (sx, sy), (tx, ty) = shooter, target
    if sy < ty:
        return bresenham(sx, sy, tx, ty)
    return bresenham(tx, ty, sx, sy)[::-1]


def _bullet_table() -> dict[int, tuple[int, ...]]:
    table = {}
    for s in range(N_TILES):
        for t in range(N_TILES):
            if s != t and distance(s, t) <= SHOOT_RANGE:
                table[s * N_TILES + t] = tuple(tile(x, y) for x, y in bullet_line(XY[s], XY[t]))
    return table


# BULLET[s * N_TILES + t]: tiles checked for a shot from tile s at tile t (in range only).
BULLET: dict[int, tuple[int, ...]] = _bullet_table()


def bullet_hit(occ: list[int], shooter: int, target: int) -> int:
    """The tile a shot from `shooter` at `target` hits (`checkBulletPath`); both tiles, in range."""
    for t in BULLET[shooter * N_TILES + target]:
        if occ[t] != FREE:
            return t
    return target


# ---------------------------------------------------------------- pathfinding


def _bfs_first_step(occ: list[int], start: int, target: int, passable) -> int | None:
    """BFS from `start` in U,R,D,L order; when a neighbour is `target`, the first step of the path
    to the node being expanded.  Nodes are enqueued when `passable(occ[t])`.  Needs dist >= 2."""
    first = {start: -1}
    queue = [start]
    for node in queue:  # the list grows while we walk it: FIFO
        step = first[node]
        for nb in NEIGHBOURS[node]:
            if nb == target:
                return step if step >= 0 else None
            if nb not in first and passable(occ[nb]):
                first[nb] = nb if step < 0 else step
                queue.append(nb)
    return None


def _is_free(v: int) -> bool:
    return v == FREE


def _is_floor(v: int) -> bool:
    return v != OBSTACLE


def find_path(occ: list[int], start: int, target: int) -> int | None:
    """`Board.findPath`: first step towards `target` over free tiles (the target itself may be blocked)."""
    return _bfs_first_step(occ, start, target, _is_free)


def tile_in_direction(occ: list[int], start: int, target: int) -> int | None:
    """`Board.getTileInDirection`: the same BFS over all floor tiles (units ignored); the first step
    is taken only if no unit stands on it."""
    step = _bfs_first_step(occ, start, target, _is_floor)
    if step is None or occ[step] != FREE:
        return None
    return step


def move_step(occ: list[int], start: int, target: int) -> tuple[int | None, str]:
    """`Board.getMoveAction` for a unit on `start` ordered to `target`: (the tile it steps to or None
    for WAIT, how it was decided: same_tile / adjacent / blocked / path / direction /
    direction_blocked / no_path)."""
    if start == target:
        return None, "same_tile"
    if distance(start, target) == 1:
        return (target, "adjacent") if occ[target] == FREE else (None, "blocked")
    step = find_path(occ, start, target)
    if step is not None:
        return step, "path"
    step = _bfs_first_step(occ, start, target, _is_floor)
    if step is None:
        return None, "no_path"
    if occ[step] != FREE:
        return None, "direction_blocked"
    return step, "direction"
