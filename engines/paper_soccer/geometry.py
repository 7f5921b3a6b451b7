"""Paper Soccer's pitch: points, directions, neighbours, the pre-drawn lines, edge bits."""
from __future__ import annotations

# ---------------------------------------------------------------------------------------- geometry

WIDTH, HEIGHT = 9, 11  # lattice points per row / column of the field
N_FIELD = WIDTH * HEIGHT  # 99
N_POINTS = N_FIELD + 6  # 105 with the goal nodes
CENTRE = 4 * HEIGHT + 5  # (4,5), where the ball starts
TOP_GOAL = (99, 100, 101)  # seat 1's goal: seat 0 scores here
BOTTOM_GOAL = (102, 103, 104)  # seat 0's goal: seat 1 scores here
MAX_TURNS = 66
# legal_moves() lists every turn string when there are at most MOVE_LIST_LIMIT of them, else
# BOUNDED_LIST_SIZE turns chosen by `bounded_turns` (late positions can have millions of turns).
MOVE_LIST_LIMIT = 20_000
BOUNDED_LIST_SIZE = 2_000

DXY = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
OPP = tuple((d + 4) % 8 for d in range(8))
DIGITS = "01234567"
# The player's notation of a direction: the numeric keypad's digit pointing that way (8 = N ... 7 = NW),
# the key a player presses; KEYPAD[d] is direction d's.  CodinGame's digits stay in saves and bot I/O.
KEYPAD = "89632147"
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

_GOAL_XY = ((3, -1), (4, -1), (5, -1), (3, 11), (4, 11), (5, 11))
XY: tuple[tuple[int, int], ...] = tuple(
    [(i // HEIGHT, i % HEIGHT) for i in range(N_FIELD)] + list(_GOAL_XY))
_INDEX = {xy: i for i, xy in enumerate(XY)}

# Diagonals from a goal corner node to the field point outside the post: not adjacent (removeAdjacency).
_REMOVED = {frozenset(((3, -1), (2, 0))), frozenset(((5, -1), (6, 0))),
            frozenset(((3, 11), (2, 10))), frozenset(((5, 11), (6, 10)))}


def _build_neighbours() -> list[int]:
    nb = [-1] * (N_POINTS * 8)
    for p, (x, y) in enumerate(XY):
        for d, (dx, dy) in enumerate(DXY):
            q = _INDEX.get((x + dx, y + dy))
            if q is not None and frozenset(((x, y), XY[q])) not in _REMOVED:
                nb[p * 8 + d] = q
    return nb


NB: list[int] = _build_neighbours()  # NB[p*8+d]: the point one step from p along d, or -1
FULL: list[int] = [sum(1 << d for d in range(8) if NB[p * 8 + d] >= 0) for p in range(N_POINTS)]
# Per point, the steps it allows: (direction, target, bit here, bit at the target, digit).
ADJ: list[tuple[tuple[int, int, int, int, str], ...]] = [
    tuple((d, NB[p * 8 + d], 1 << d, 1 << OPP[d], DIGITS[d]) for d in range(8) if NB[p * 8 + d] >= 0)
    for p in range(N_POINTS)]


def _predrawn_pairs() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    pairs = []
    for y in range(10):  # side lines
        pairs.append(((0, y), (0, y + 1)))
        pairs.append(((8, y), (8, y + 1)))
    for x in (0, 1, 2, 5, 6, 7):  # goal lines, the mouth (3..5) left open
        pairs.append(((x, 0), (x + 1, 0)))
        pairs.append(((x, 10), (x + 1, 10)))
    pairs += [((3, -1), (4, -1)), ((4, -1), (5, -1)), ((3, -1), (3, 0)), ((5, -1), (5, 0)),
              ((3, 11), (4, 11)), ((4, 11), (5, 11)), ((3, 11), (3, 10)), ((5, 11), (5, 10))]
    return pairs


def direction_between(a: int, b: int) -> int | None:
    """The direction of the step from point a to point b, or None when they are not adjacent."""
    for d in range(8):
        if NB[a * 8 + d] == b:
            return d
    return None


def _initial_masks() -> list[int]:
    pm = [0] * N_POINTS
    for a_xy, b_xy in _predrawn_pairs():
        a, b = _INDEX[a_xy], _INDEX[b_xy]
        d = direction_between(a, b)
        assert d is not None
        pm[a] |= 1 << d
        pm[b] |= 1 << OPP[d]
    return pm


INITIAL_PM: tuple[int, ...] = tuple(_initial_masks())
PREDRAWN: frozenset[tuple[int, int]] = frozenset(
    (min(_INDEX[a], _INDEX[b]), max(_INDEX[a], _INDEX[b])) for a, b in _predrawn_pairs())


def point_xy(p: int) -> tuple[int, int]:
    """(x, y) of a point index; goal nodes have y = -1 (top) or 11 (bottom)."""
    return XY[p]


def xy_point(x: int, y: int) -> int | None:
    """The index of the point (x, y), or None if the pitch has no such point."""
    return _INDEX.get((x, y))


def neighbour(p: int, d: int) -> int | None:
    """The point one step from p along direction d, or None when that leaves the pitch."""
    q = NB[p * 8 + d] if 0 <= d < 8 else -1
    return q if q >= 0 else None


def goal_of(seat: int) -> tuple[int, int, int]:
    """The goal nodes `seat` defends (an own goal there loses): seat 0 bottom, seat 1 top."""
    return BOTTOM_GOAL if seat == 0 else TOP_GOAL


def attacked_goal(seat: int) -> tuple[int, int, int]:
    """The goal nodes `seat` scores in."""
    return TOP_GOAL if seat == 0 else BOTTOM_GOAL


def _goal_owner(p: int) -> int:
    """The seat that defends goal node p (p >= 99)."""
    return 1 if p in TOP_GOAL else 0


def _fmt_xy(p: int) -> str:
    x, y = XY[p]
    return f"{x},{y}"


def _bounces(mask: int) -> bool:
    """passNextDone: at least two drawn lines at the point (it had one before the ball arrived)."""
    return mask & (mask - 1) != 0



def _edge_bits() -> list[int]:
    """EDGE_BIT[p*8+d]: a distinct bit per undirected edge (both ends map to the same bit)."""
    ids: dict[tuple[int, int], int] = {}
    bits = [0] * (N_POINTS * 8)
    for p in range(N_POINTS):
        for d in range(8):
            q = NB[p * 8 + d]
            if q >= 0:
                pair = (min(p, q), max(p, q))
                bits[p * 8 + d] = 1 << ids.setdefault(pair, len(ids))
    return bits


EDGE_BIT = _edge_bits()
N_EDGES = sum(1 for p in range(N_POINTS) for d in range(8) if NB[p * 8 + d] > p)  # every step draws one
