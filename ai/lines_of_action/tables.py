"""Precomputed bitboard tables for the Lines of Action search (square `8 * y + x`, as in the engine).

Moves inside the search are plain ints `64 * src + dst` (the index of the engine's interned `Move`),
with `XMASK[m]` (the mover's bitboard changes by XOR with it) and `DBIT[m]` (the destination's bit,
a capture when the opponent has a checker there).

Move generation walks the engine's 42 lines; the moves of one line depend only on the checkers on it,
so they are memoised per line configuration (`LINE_TABLE`: mask, the memo's `get`, the filler).

Evaluation tables count with popcounts of a few masks ("binary decomposition"): the sum over the
checkers of a value v(square) in 0..7 is `pc(b & M0) + 2 pc(b & M1) + 4 pc(b & M2)`, where Mk holds
the squares whose value has bit k set.  This gives coordinate sums (centre of mass), the sum of
distances to a square (concentration) and piece-square sums in 3 popcounts each.
"""
from __future__ import annotations

from engines.lines_of_action import LINES, line_moves

BIT = tuple(1 << sq for sq in range(64))
FULL = (1 << 64) - 1
FILE_A = sum(BIT[8 * y] for y in range(8))
FILE_H = FILE_A << 7
NOT_A = FULL ^ FILE_A
NOT_H = FULL ^ FILE_H
RANK_1 = 0xFF
RANK_8 = 0xFF << 56

XMASK = [0] * 4096
DBIT = [0] * 4096
SRC = [0] * 4096
DST = [0] * 4096
for _s in range(64):
    for _d in range(64):
        _m = 64 * _s + _d
        XMASK[_m] = BIT[_s] | BIT[_d]
        DBIT[_m] = BIT[_d]
        SRC[_m] = _s
        DST[_m] = _d


def _mobility(squares, a: int, b: int) -> int:
    """Weighted moves of `a` minus those of `b` on one line, in half units: a move counts 2, a move to
    the edge 1, a capture twice as much."""
    v = 0
    for side, other, sign in ((a, b, 1), (b, a, -1)):
        for m in line_moves(squares, side, other):
            w = 2 if BIT[m.dst] & EDGE else 4
            if other & BIT[m.dst]:
                w *= 2
            v += sign * w
    return v // 2


class _LineMemo:
    """The moves (as ints) of one line and its mobility balance, memoised by the line's checkers."""

    __slots__ = ("index", "squares", "mask", "memo")

    def __init__(self, index: int, squares: tuple[int, ...]):
        self.index = index
        self.squares = squares
        self.mask = sum(BIT[s] for s in squares)
        self.memo: dict[int, tuple[tuple[int, ...], int]] = {}

    def fill(self, own: int, opp: int) -> tuple[tuple[int, ...], int]:
        moves = tuple(64 * m.src + m.dst for m in line_moves(self.squares, own, opp))
        found = self.memo[own | (opp << 64)] = (moves, _mobility(self.squares, own, opp))
        return found


_MEMOS = tuple(_LineMemo(i, line) for i, line in enumerate(LINES))
# (mask, memo.get, fill) per line; memo values are (moves, mobility balance)
LINE_TABLE = tuple((ln.mask, ln.memo.get, ln.fill) for ln in _MEMOS)
LINE_TABLE_I = tuple((ln.index, ln.mask, ln.memo.get, ln.fill) for ln in _MEMOS)
LINE_MASK = tuple(ln.mask for ln in _MEMOS)
LINE_GET = tuple(ln.memo.get for ln in _MEMOS)
LINE_FILL = tuple(ln.fill for ln in _MEMOS)
_LINES_OF_SQUARE = tuple(tuple(i for i, line in enumerate(LINES) if sq in line) for sq in range(64))
# the lines a move changes: those through its origin or its destination
# (only for origin/destination pairs on a common line: no other move exists)
_LINE_ENTRY = LINE_TABLE_I
AFFECTED_LINES: list[tuple] = [()] * 4096
for _line in LINES:
    for _s in _line:
        for _d in _line:
            if _s != _d:
                AFFECTED_LINES[64 * _s + _d] = tuple(
                    _LINE_ENTRY[li] for li in sorted(set(_LINES_OF_SQUARE[_s]) | set(_LINES_OF_SQUARE[_d])))


# MOVE_LINE[m]: the line a move runs along (its origin and destination are both on it), -1 if none
MOVE_LINE = [-1] * 4096
for _li, _line in enumerate(LINES):
    for _s in _line:
        for _d in _line:
            if _s != _d:
                MOVE_LINE[64 * _s + _d] = _li
# (mask, memo.get, fill) of the line of each move
MOVE_LINE_TABLE = [LINE_TABLE[li] if li >= 0 else None for li in MOVE_LINE]


def gen_moves(own: int, opp: int) -> list[int]:
    """All moves (ints) of the side with checkers `own`, in the referee's generation order."""
    out: list[int] = []
    for mask, get, fill in LINE_TABLE:
        mine = own & mask
        if mine:
            theirs = opp & mask
            found = get(mine | (theirs << 64))
            if found is None:
                found = fill(mine, theirs)
            out += found[0]
    return out


def moves_and_mobility(own: int, opp: int, per_line: list[int]) -> tuple[list[int], int]:
    """`gen_moves(own, opp)` and `mobility(own, opp)` in one pass over the lines; `per_line[li]`
    receives line li's share of the mobility (the search's leaves correct only the lines a move changes)."""
    moves: list[int] = []
    mob = 0
    for li, mask, get, fill in LINE_TABLE_I:
        mine = own & mask
        theirs = opp & mask
        if mine | theirs:
            found = get(mine | (theirs << 64))
            if found is None:
                found = fill(mine, theirs)
            moves += found[0]
            v = found[1]
            per_line[li] = v
            mob += v
        else:
            per_line[li] = 0
    return moves, mob


def mobility(own: int, opp: int) -> int:
    """The weighted mobility balance of own against opp (half units, see _mobility)."""
    return moves_and_mobility(own, opp, [0] * len(LINE_TABLE_I))[1]


def is_connected(b: int) -> bool:
    fill = b & -b
    while True:
        g = fill | ((fill << 1) & NOT_A) | ((fill >> 1) & NOT_H)
        g = (g | (g << 8) | (g >> 8)) & b
        if g == fill:
            return fill == b
        fill = g


def neighbours(b: int) -> int:
    """Squares 8-adjacent to some checker of b (b itself excluded only where not adjacent)."""
    g = b | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H)
    return (g | (g << 8) | (g >> 8)) & FULL


KING = tuple(neighbours(BIT[sq]) & ~BIT[sq] for sq in range(64))


def _decompose(values) -> tuple[int, int, int]:
    """The three masks M0, M1, M2 of a 0..7 valued square function."""
    masks = [0, 0, 0]
    for sq in range(64):
        v = values(sq)
        assert 0 <= v <= 7
        for k in range(3):
            if v >> k & 1:
                masks[k] |= BIT[sq]
    return tuple(masks)


# coordinate sums
FX = _decompose(lambda sq: sq % 8)
FY = _decompose(lambda sq: sq // 8)


def _cheb(a: int, b: int) -> int:
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


# DIST[c] = masks of the Chebyshev distance to square c
DIST = tuple(_decompose(lambda sq, c=c: _cheb(sq, c)) for c in range(64))

# The least possible sum of distances of n checkers to their centre square: 0, then 1 for the
# 8 neighbours, then 2 for the next ring of 16.
MINSUM = [0] * 13
for _n in range(1, 13):
    MINSUM[_n] = (_n - 1) if _n <= 9 else 8 + 2 * (_n - 9)


def _centre_value(sq: int) -> int:
    """Distance ring from the board edge: 0 on the edge, 3 on the four central squares."""
    x, y = sq % 8, sq // 8
    return min(x, 7 - x, y, 7 - y)


RING = _decompose(_centre_value)
EDGE = sum(BIT[sq] for sq in range(64) if _centre_value(sq) == 0)
CORNERS = BIT[0] | BIT[7] | BIT[56] | BIT[63]

# 2x2 windows with the top-left (low) square at x <= 6, y <= 6
QWIN = sum(BIT[8 * y + x] for y in range(7) for x in range(7))
# transitions between a-file squares y and y+1 (y = 0..6) sit at bits 8 * (y + 1)
LEFT_INNER = sum(BIT[8 * y] for y in range(1, 8))


def euler4(b: int) -> int:
    """4 x the Euler number of b with 8-connectivity (Gray's quads: Q1 - Q3 - 2 QD, edges padded)."""
    s1 = b >> 1
    s2 = b >> 8
    s3 = b >> 9
    ab = b ^ s1
    cd = s2 ^ s3
    odd = (ab ^ cd) & QWIN
    full = (b & s1) | (s2 & s3)
    q3 = (odd & full).bit_count()
    q1 = odd.bit_count() - q3
    qd = (ab & cd & (b ^ s2) & QWIN).bit_count()
    r0 = b & 0xFF
    r7 = b >> 56
    ca = b & FILE_A
    ch = (b >> 7) & FILE_A
    q1 += ((r0 ^ (r0 << 1)).bit_count() + (r7 ^ (r7 << 1)).bit_count()
           + ((ca ^ (ca << 8)) & LEFT_INNER).bit_count() + ((ch ^ (ch << 8)) & LEFT_INNER).bit_count())
    return q1 - q3 - 2 * qd
