"""Static evaluation of a Lines of Action position, in centi-units, from the side to move's view.

`evaluate(own, opp) = F(own) - F(opp) + mobility + TEMPO`, where F(b) scores one colour's checkers on
their own (so it is memoised per bitboard: after a quiet move the other colour's F is in the memo).
The features follow MIA (Winands) and are all bitboard arithmetic, no loops over checkers:

- spread: the average (Chebyshev) distance of the checkers to their centre of mass;
- connectedness: adjacent pairs per checker;
- largest group: the fraction of the checkers in the largest 8-connected group (flood fill);
- material: the number of checkers (more checkers are more to connect, but also more to block with);
- optional (weight 0 by default): concentration (spread minus the least possible), quads (the
  Euler number from Gray's 2x2 quad counts: groups minus holes), groups, centralisation,
  centre-of-mass position, checkers on the edge.

Mobility (weighted: a capture counts 2, a move to the edge 1/2) depends on both colours; the search
keeps it per line (see search.py) and adds `weights["mob"]` per unit of difference.

The weights were fitted by logistic regression on self-play results (Texel's method) and then
checked in matches; see the package docstring.
"""
from __future__ import annotations

from ai.lines_of_action.tables import (
    DIST,
    EDGE,
    FX,
    FY,
    KING,
    MINSUM,
    NOT_A,
    NOT_H,
    RING,
    euler4,
)

WEIGHTS = {
    "spread": 160,   # per unit of average distance to the centre of mass
    "links": 50,     # per adjacent pair per checker
    "maxgroup": 110, # per fraction of checkers in the largest group
    "material": 0,   # per checker
    "mob": 4,        # per half unit of weighted mobility balance (a plain move is 2 half units)
    "tempo": 24,
    # optional features, off by default
    "conc": 0,       # per unit of distance above the least possible sum
    "euler": 0,      # per Euler number above 1
    "groups": 0,     # per group above 1
    "central": 0,    # per unit of average distance from the edge, x10
    "com": 0,        # per unit of distance of the centre of mass from the board's centre
    "edge": 0,       # per checker on the edge
}


# F(b) of a connected (won) checker set: the search tests connections by this value, so a memo hit
# answers both questions at once.
CONNECTED = -(1 << 40)


def make_side_eval(weights: dict | None = None):
    """(F, its memo, tempo, mobility weight, group-count memo) for one set of weights.

    F(b) is CONNECTED for one group; otherwise the group count of b is in the group-count memo too."""
    w = dict(WEIGHTS)
    if weights:
        unknown = set(weights) - set(WEIGHTS)
        if unknown:
            raise ValueError(f"unknown evaluation weights: {sorted(unknown)}")
        w.update(weights)
    W_SPREAD, W_LINK, W_MAXG, W_MAT = w["spread"], w["links"], w["maxgroup"], w["material"]
    W_CONC, W_EUL, W_GRP = w["conc"], w["euler"], w["groups"]
    W_CENT, W_COM, W_EDGE = w["central"], w["com"], w["edge"]
    FX0, FX1, FX2 = FX
    FY0, FY1, FY2 = FY
    R0, R1, R2 = RING
    fast_connect = not (W_MAXG or W_GRP)
    COM_PEN = [max(abs(2 * (sq % 8) - 7), abs(2 * (sq // 8) - 7)) // 2 for sq in range(64)]
    memo: dict[int, int] = {}
    get = memo.get
    gmemo: dict[int, int] = {}

    def side(b: int) -> int:
        v = get(b)
        if v is not None:
            return v
        groups = 0
        biggest = 0
        rest = b
        if fast_connect:  # only the connection test: one flood fill from the lowest checker
            fill = b & -b
            while True:
                g = fill | ((fill << 1) & NOT_A) | ((fill >> 1) & NOT_H)
                g = (g | (g << 8) | (g >> 8)) & b
                if g == fill:
                    break
                fill = g
            if fill == b:
                memo[b] = CONNECTED
                return CONNECTED
            groups = 2  # at least
            rest = 0
        # groups: breadth-first over the checkers, by the king-move neighbour masks
        while rest:
            front = rest & -rest
            rest ^= front
            size = 0
            while front:
                low = front & -front
                front ^= low
                size += 1
                nb = KING[low.bit_length() - 1] & rest
                if nb:
                    rest ^= nb
                    front |= nb
            if not groups and not rest:
                memo[b] = CONNECTED
                return CONNECTED
            groups += 1
            if size > biggest:
                biggest = size
        n = b.bit_count()
        sx = (b & FX0).bit_count() + 2 * (b & FX1).bit_count() + 4 * (b & FX2).bit_count()
        sy = (b & FY0).bit_count() + 2 * (b & FY1).bit_count() + 4 * (b & FY2).bit_count()
        c = 8 * ((2 * sy + n) // (2 * n)) + (2 * sx + n) // (2 * n)
        d0, d1, d2 = DIST[c]
        sd = (b & d0).bit_count() + 2 * (b & d1).bit_count() + 4 * (b & d2).bit_count()
        s1 = b >> 1
        s2 = b >> 8
        s3 = b >> 9
        links = ((b & s1 & NOT_H).bit_count() + (b & s2).bit_count() + (b & s3 & NOT_H).bit_count()
                 + (b & (b >> 7) & NOT_A).bit_count())
        v = (W_LINK * links - W_SPREAD * sd + W_MAXG * biggest) // n + W_MAT * n - W_GRP * (groups - 1)
        if W_CONC:
            v -= W_CONC * (sd - MINSUM[n])
        if W_EUL:
            euler = euler4(b) // 4
            if euler > 1:
                v -= W_EUL * (euler - 1)
        if W_CENT:
            cent = (b & R0).bit_count() + 2 * (b & R1).bit_count() + 4 * (b & R2).bit_count()
            v += W_CENT * 10 * cent // n
        if W_COM:
            v -= W_COM * COM_PEN[c]
        if W_EDGE:
            v -= W_EDGE * (b & EDGE).bit_count()
        if len(memo) > 400_000:
            memo.clear()
            gmemo.clear()
        memo[b] = v
        gmemo[b] = groups
        return v

    return side, memo, w["tempo"], w["mob"], gmemo
