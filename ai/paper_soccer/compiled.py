"""The Paper Soccer tree search compiled by numba: the `fast` extra (`pip install termarena[fast]`).

`negamax` is `search.Searcher._negamax` with everything below it (`board.gen_ends`, `gen_turns`,
`flood`, `can_score_fast`, `can_score`, the evaluation) written over numpy arrays: the same turns in
the same order, the same keys (`board.ZBIT`, `POINT_KEY`, `SEAT_KEY`), the same table entries,
so that at a given node budget both give the same answer (tests/ai/test_paper_soccer_compiled.py
compares them).  The shut check (`tactics.has_safe_turn`, `shutting_reply`) is here too; Python keeps
the root.  `Tree` is what a `Searcher` holds: its options packed for `negamax`, and its table.

Each walker is the recursive Python one turned into a loop over an explicit stack of frames
(`_frames`, `_push`, `_pop`), visiting steps in the same order.  Turn lists are flat: end points, edge
keys, and each turn's steps as a slice of one buffer.

Compiled once and cached on disk (numba's `cache=True`, in `__pycache__` or numba's user-wide cache
directory): the first run after an install or an upgrade compiles for about 25 s of CPU, which
`termarena bench paper-soccer` does ahead of a match (`accelerator.py` loads it in the background).

No compiled function passes another a literal constant (`0`, `False`): numba compiles the callee
once more for each literal it meets (`Literal[int](0)`, even a variable's first value while types are
inferred), and every caller re-optimizes the callees it links: best-first's first compile took twice
as long with them.  `np.int64(0)`, `np.bool_(False)` and numpy-scalar constants (`BIG`) are typed as
plain int64 and bool: each function is compiled once (tests/ai/test_paper_soccer_compiled.py checks).
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from ai.paper_soccer import board as B
from ai.paper_soccer import net as NN
from ai.paper_soccer.tactics import LOOK_STATES, LOOKS, REPLY_STATES
from ai.paper_soccer.value import COUNT_ROW, MAX_COUNT

N = B.N_POINTS
BIG = np.int64(1 << 30)
RELIST_STATES = np.int64(2000)  # a relisting of every turn, before a loss is believed
REACH_STATES = np.int64(300)  # `board.can_score_fast`'s default
WIN = 1_000_000
WIN_BOUND = WIN - 1000
EXACT, LOWER, UPPER = 0, 1, 2
STACK = 512  # frames: more than a turn can have steps (every edge of the pitch once)


def _tables():
    so = np.zeros((6, 2, N, 8), np.int64)  # bit, q, back, edge key, sid, full mask of q
    for seat in (0, 1):
        for p in range(N):
            for k, t in enumerate(B.STEPS_ORD[seat][p]):
                so[:, seat, p, k] = t
    nst = np.array([len(B.STEPS[p]) for p in range(N)], np.int64)
    sq = np.array([max(q, 0) for q in B.S_Q], np.int64)
    return (so[0], so[1], so[2], so[3], so[4], so[5], nst, sq, np.array(B.S_BIT, np.int64),
            np.array(B.S_BACK, np.int64), np.array(B.ZBIT, np.int64), np.array(B.POINT_KEY, np.int64))


SO_BIT, SO_Q, SO_BACK, SO_KEY, SO_SID, SO_FQ, NST, S_Q, S_BIT, S_BACK, ZBIT, POINT_KEY = _tables()
SEAT_KEY = np.array(B.SEAT_KEY, np.int64)
MOVE_KEY_MASK = B.MOVE_KEY_MASK
POP8 = np.array([bin(m).count("1") for m in range(256)], np.int64)

# the parameters of a search, packed in one int64 array (indices)
(P_NEAR_PLY, P_NEAR_STATES, P_NEAR_PER_END, P_NEAR_VISITS, P_CHEAP, P_STATES, P_PER_END, P_VISITS, P_LMR_AFTER,
 P_LMR_DEPTH, P_W_FRESH, P_NET, P_NET_B2, P_CUT_OFF, P_NET_DIST, P_NET_H2) = range(16)
N_PARAMS = 16
# the net's tables (`net.py`): the steps counted per point, each seat's view of a point, the input of the
# edge each step draws
NET_COUNTED = np.array(NN.COUNTED, np.int64)
NET_VIEW = np.array([list(range(N)), list(NN.MIRROR)], np.int64)
NET_STEP_IN = np.array(NN.STEP_IN, np.int64)
LOW_BIT = np.array([((m & -m).bit_length() - 1) if m else 0 for m in range(256)], np.int64)
# the evaluation's tables (`value.Tables.rows`): rows 0-1 the ball's point, 2-3 the mover's danger points,
# 4-5 the opponent's (by the mover's seat), row 6 the entries by count from these offsets
E_MINE_N, E_THEIRS_N, E_FREE, E_BIAS = (COUNT_ROW[name] for name in ("mine_n", "theirs_n", "free", "bias"))
# the counters shared with Python: nodes, node limit, stopped (1 when the limit or the deadline was hit)
C_NODES, C_LIMIT, C_STOP = range(3)


@njit(cache=True)
def _now() -> float:
    with objmode(t="float64"):
        t = time.monotonic()
    return t


@njit(cache=True)
def _grow(a, need):
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), np.int64)
    b[:a.shape[0]] = a
    return b


@njit(cache=True)
def apply_steps(pm, buf, off, n):
    for k in range(off, off + n):
        s = buf[k]
        pm[s >> 3] |= S_BIT[s]
        pm[S_Q[s]] |= S_BACK[s]


@njit(cache=True)
def undo_steps(pm, buf, off, n):
    for k in range(off, off + n):
        s = buf[k]
        pm[s >> 3] ^= S_BIT[s]
        pm[S_Q[s]] ^= S_BACK[s]


# the rows of a walk's explicit stack (`_frames`)
F_P, F_EB, F_I, F_M, F_MQ, F_PATH = range(6)


@njit(cache=True)
def _frames(pm, ball):
    """The explicit stack of a walk from `ball`, one column a frame: its point, the turn's edge key so
    far, the next step to try, the point's mask on entry, the mask of the point stepped to (put back on
    the way back) and the step taken.  Frame 0 is at the ball."""
    fr = np.empty((6, STACK), np.int64)
    fr[F_P, 0] = ball
    fr[F_EB, 0] = 0
    fr[F_I, 0] = 0
    fr[F_M, 0] = pm[ball]
    return fr


@njit(cache=True)
def _push(pm, fr, sp, p, m, bit, q, mq, back, neb, sid):
    """Step from frame sp's point p to q, drawing the edge, and open frame sp + 1 there."""
    fr[F_MQ, sp] = mq
    fr[F_PATH, sp] = sid
    pm[p] = m | bit
    pm[q] = mq | back
    sp += 1
    fr[F_P, sp] = q
    fr[F_EB, sp] = neb
    fr[F_I, sp] = 0
    fr[F_M, sp] = mq | back
    return sp


@njit(cache=True)
def _pop(pm, fr, seat, sp):
    """Close frame sp: back at frame sp - 1, the edge it drew taken back."""
    sp -= 1
    pp = fr[F_P, sp]
    pm[SO_Q[seat, pp, fr[F_I, sp] - 1]] = fr[F_MQ, sp]
    pm[pp] = fr[F_M, sp]
    return sp


@njit(cache=True)
def _unwind(pm, fr, seat, sp):
    """Close every frame (a walk stopping early)."""
    while sp > 0:
        sp = _pop(pm, fr, seat, sp)


@njit(cache=True)
def gen_ends(pm, ball, seat):
    """`board.gen_ends`: one turn per reachable end point, each bounce point expanded once.  Like every
    generator here it returns (win, complete, n, ends, keys, offs, lens, buf): turn j ends on ends[j],
    draws the edges keyed keys[j], and its steps are buf[offs[j]:offs[j] + lens[j]]."""
    ends = np.empty(N, np.int64)
    keys = np.empty(N, np.int64)
    offs = np.empty(N, np.int64)
    lens = np.empty(N, np.int64)
    buf = np.empty(256, np.int64)
    used = 0
    n = 0
    win = False
    complete = True
    expanded = np.zeros(N, np.bool_)
    ended = np.zeros(N, np.bool_)
    top = seat == 0
    fr = _frames(pm, ball)
    sp = np.int64(0)
    while True:
        p = fr[F_P, sp]
        i = fr[F_I, sp]
        if i >= NST[p]:
            if sp == 0:
                break
            sp = _pop(pm, fr, seat, sp)
            continue
        fr[F_I, sp] = i + 1
        m = fr[F_M, sp]
        bit = SO_BIT[seat, p, i]
        if m & bit:
            continue
        q = SO_Q[seat, p, i]
        sid = SO_SID[seat, p, i]
        if q >= 99:
            if (q < 102) == top:
                win = True
                _unwind(pm, fr, seat, sp)
                break
            continue
        mq = pm[q]
        neb = fr[F_EB, sp] ^ SO_KEY[seat, p, i]
        if mq == 0:
            if not ended[q]:
                ended[q] = True
                buf = _grow(buf, used + sp + 1)
                ends[n] = q
                keys[n] = neb
                offs[n] = used
                lens[n] = sp + 1
                buf[used:used + sp] = fr[F_PATH, :sp]
                buf[used + sp] = sid
                used += sp + 1
                n += 1
            continue
        back = SO_BACK[seat, p, i]
        if mq | back == SO_FQ[seat, p, i]:
            continue
        if expanded[q]:
            complete = False
            continue
        expanded[q] = True
        sp = _push(pm, fr, sp, p, m, bit, q, mq, back, neb, sid)
    return win, complete, n, ends, keys, offs, lens, buf


@njit(cache=True)
def gen_turns(pm, ball, seat, max_states, per_end, max_visits):
    """`board.gen_turns` with `stop_on_win` (the losing turn is not kept: the tree does not use it)."""
    cap = 64
    ends = np.empty(cap, np.int64)
    keys = np.empty(cap, np.int64)
    offs = np.empty(cap, np.int64)
    lens = np.empty(cap, np.int64)
    buf = np.empty(1024, np.int64)
    used = 0
    n = 0
    win = False
    complete = True
    seen = set()
    seen.add(np.int64(-1))  # typed by its first element; -1 is no key (keys are non-negative)
    n_seen = 0
    visits = np.zeros(N, np.int64)
    per = np.zeros(N, np.int64)
    top = seat == 0
    fr = _frames(pm, ball)
    sp = np.int64(0)
    while True:
        p = fr[F_P, sp]
        i = fr[F_I, sp]
        if i >= NST[p]:
            if sp == 0:
                break
            sp = _pop(pm, fr, seat, sp)
            continue
        fr[F_I, sp] = i + 1
        m = fr[F_M, sp]
        bit = SO_BIT[seat, p, i]
        if m & bit:
            continue
        q = SO_Q[seat, p, i]
        mq = pm[q]
        if q >= 99:
            if (q < 102) == top:
                win = True
                _unwind(pm, fr, seat, sp)
                break
            continue
        neb = fr[F_EB, sp] ^ SO_KEY[seat, p, i]
        sid = SO_SID[seat, p, i]
        if mq == 0:
            key = neb ^ POINT_KEY[q]
            if key in seen:
                continue
            seen.add(key)
            n_seen += 1
            if per[q] < per_end:
                per[q] += 1
                if n == cap:
                    cap *= 2
                    ends = _grow(ends, cap)
                    keys = _grow(keys, cap)
                    offs = _grow(offs, cap)
                    lens = _grow(lens, cap)
                buf = _grow(buf, used + sp + 1)
                ends[n] = q
                keys[n] = neb
                offs[n] = used
                lens[n] = sp + 1
                buf[used:used + sp] = fr[F_PATH, :sp]
                buf[used + sp] = sid
                used += sp + 1
                n += 1
            else:
                complete = False
            continue
        back = SO_BACK[seat, p, i]
        if mq | back == SO_FQ[seat, p, i]:
            continue
        key = neb ^ POINT_KEY[q]
        if key in seen:
            continue
        if n_seen >= max_states or visits[q] >= max_visits:
            complete = False
            if n_seen >= max_states:
                _unwind(pm, fr, seat, sp)
                break
            continue
        visits[q] += 1
        seen.add(key)
        n_seen += 1
        sp = _push(pm, fr, sp, p, m, bit, q, mq, back, neb, sid)
    return win, complete, n, ends, keys, offs, lens, buf


@njit(cache=True)
def can_score(pm, ball, seat, max_states):
    """`board.can_score(..., reach_checked=True) is not None`."""
    seen = set()
    seen.add(np.int64(-1))
    n_seen = 0
    top = seat == 0
    fr = _frames(pm, ball)
    sp = np.int64(0)
    while True:
        p = fr[F_P, sp]
        i = fr[F_I, sp]
        if i >= NST[p]:
            if sp == 0:
                return False
            sp = _pop(pm, fr, seat, sp)
            continue
        fr[F_I, sp] = i + 1
        m = fr[F_M, sp]
        bit = SO_BIT[seat, p, i]
        if m & bit:
            continue
        q = SO_Q[seat, p, i]
        if q >= 99:
            if (q < 102) == top:
                _unwind(pm, fr, seat, sp)
                return True
            continue
        mq = pm[q]
        back = SO_BACK[seat, p, i]
        if mq == 0 or mq | back == SO_FQ[seat, p, i]:
            continue
        neb = fr[F_EB, sp] ^ SO_KEY[seat, p, i]
        key = neb ^ POINT_KEY[q]
        if key in seen:
            continue
        if n_seen >= max_states:
            _unwind(pm, fr, seat, sp)
            return False
        seen.add(key)
        n_seen += 1
        sp = _push(pm, fr, sp, p, m, bit, q, mq, back, neb, SO_SID[seat, p, i])


@njit(cache=True)
def can_score_fast(pm, ball, seat, max_states):
    """`board.can_score_fast(..., reach_checked=True)`."""
    expanded = np.zeros(N, np.bool_)
    top = seat == 0
    fr = _frames(pm, ball)
    sp = np.int64(0)
    while True:
        p = fr[F_P, sp]
        i = fr[F_I, sp]
        if i >= NST[p]:
            if sp == 0:
                break
            sp = _pop(pm, fr, seat, sp)
            continue
        fr[F_I, sp] = i + 1
        m = fr[F_M, sp]
        bit = SO_BIT[seat, p, i]
        if m & bit:
            continue
        q = SO_Q[seat, p, i]
        if q >= 99:
            if (q < 102) == top:
                _unwind(pm, fr, seat, sp)
                return True
            continue
        mq = pm[q]
        back = SO_BACK[seat, p, i]
        if mq == 0 or expanded[q] or mq | back == SO_FQ[seat, p, i]:
            continue
        expanded[q] = True
        sp = _push(pm, fr, sp, p, m, bit, q, mq, back, np.int64(0), SO_SID[seat, p, i])
    return max_states > 0 and can_score(pm, ball, seat, max_states)


@njit(cache=True)
def flood(pm, side, hot, danger, found):
    """`board.flood` over the touched points (those with a mask: in the tree every touched point has
    one): marks `hot` and `danger` (both overwritten), lists the points in danger at the start of
    `found` and returns how many there are."""
    hot[:] = False
    danger[:] = False
    stack = np.empty(N, np.int64)
    sn = 0
    for g in range(99 + 3 * side, 102 + 3 * side):  # the goal nodes seed the fill, and are never hot
        stack[sn] = g
        sn += 1
    count = 0
    while sn:
        sn -= 1
        p = stack[sn]
        m = pm[p]
        for k in range(NST[p]):
            if m & SO_BIT[0, p, k]:
                continue
            q = SO_Q[0, p, k]
            if q >= 99:
                continue
            if pm[q]:
                if not hot[q]:
                    hot[q] = True
                    stack[sn] = q
                    sn += 1
            elif not danger[q]:
                danger[q] = True
                found[count] = q
                count += 1
    return count


@njit(cache=True)
def _weigh(found, count, row, at):
    """The sum of `row` over the `count` points in `found`, and the entry for how many there are."""
    v = at[min(count, MAX_COUNT)]
    for i in range(count):
        v += row[found[i]]
    return v


def net_arrays(net: NN.Net | None) -> tuple[np.ndarray, np.ndarray]:
    """A net as the tree reads it (a 1 x 1 placeholder without a net): `nn` (int32: every sum of the
    hidden layer fits, and a row adds in half the time of int64's) holds w1's rows (N_INPUTS_DIST of them,
    the distances' zero for a net without), then b1, then w2, then the running sums of a search (NNUE's
    accumulators), one row of hidden sums each; `ns` (int64) says what they stand for:
      nn[ACC + 2 * ply + v]  b1 plus the rows of the edges drawn at the node at `ply` of the path, as seat v
                             sees them: filled only when a leaf below asks for it (`_net_edges_at`), from
                             the nearest ply above that has it and the turns between (a leaf's mover is
                             one seat: the other's sums are never made)
      nn[POINTS + v]         the rows of the danger points of the last leaf whose mover was v
      ns[NS_DONE + 2 * ply + v]  whether nn[ACC + 2 * ply + v] holds the node now at `ply`
      ns[NS_OFF + ply]       where the steps of the turn from `ply` to ply + 1 start in ns[NS_STEPS:]
      ns[NS_POINTS + c * POINTS_ROW:]  the points of nn[POINTS + c // 2]: the mover's (c even) or the
                             opponent's (c odd) danger points, as a count, their list, and a mark per point
      nn[DISTS + v]          the rows of the turn distances of the last leaf whose mover was v
      ns[NS_DIST + v * N:]   those distances, by point (all 0 at first: the rows' sum starts as that map's)
      ns[NS_WORK:]           `turn_distances`' work space
    A net with a second hidden layer of M units (`net.hidden2`) has M + 2 rows more, and rows as wide as
    the wider layer (a first layer narrower than that is padded with units that are always 0):
      nn[W_W2]               the M output weights (they follow the second layer)
      nn[H1]                 a leaf's first hidden layer, clipped (work space)
      nn[H2B]                the second layer's M biases
      nn[H2W + k]            the weights of the second layer's unit k, one per unit of the first"""
    if net is None:
        return np.zeros((1, 1), np.int32), np.zeros(1, np.int64)
    width = max(net.hidden, net.hidden2)

    def row(values):
        return list(values) + [0] * (width - len(values))

    w1 = [row(r) for r in net.w1] + [[0] * width] * (NN.N_INPUTS_DIST - len(net.w1))
    sums = [[0] * width] * (DISTS + 2 - ACC)
    layer2 = []
    if net.hidden2:
        layer2 = [[0] * width, row(net.h2b)] + [row([r[k] for r in net.h2w]) for k in range(net.hidden2)]
    nn = np.array(w1 + [row(net.b1), row(net.w2)] + sums + layer2, np.int32)
    nn[DISTS] = nn[DISTS + 1] = nn[NN.DIST0:NN.N_INPUTS_DIST:NN.DIST_ROW].sum(axis=0)
    return nn, np.zeros(NS_WORK + WORK, np.int64)


PLIES = 256  # more than a path can have (the table keeps depths in 8 bits)
W_B1 = NN.N_INPUTS_DIST
W_W2 = W_B1 + 1
ACC = W_W2 + 1
POINTS = ACC + 2 * PLIES
DISTS = POINTS + 2
H1 = DISTS + 2
H2B = H1 + 1
H2W = H2B + 1
NS_DONE = 0
NS_OFF = 2 * PLIES
NS_STEPS = NS_OFF + PLIES + 1
STEPS_MAX = 512  # more than every edge of the pitch: a path draws each at most once
NS_POINTS = NS_STEPS + STEPS_MAX
POINTS_ROW = 1 + 2 * N
NS_DIST = NS_POINTS + 4 * POINTS_ROW
NS_WORK = NS_DIST + 2 * N
PUSHES = (B.DIST_CAP - 1) * N  # each point's distance falls at most DIST_CAP - 1 times: its pushes
WORK = N + 2 * PUSHES


@njit(cache=True)
def net_root(pm, nn, ns, ply):
    """Make `ply` the path's root, at the position `pm`: its edges summed for both seats, the one full sum."""
    hidden = nn.shape[1]
    r0 = ACC + 2 * ply
    for j in range(hidden):
        nn[r0, j] = nn[r0 + 1, j] = nn[W_B1, j]
    for p in range(N):
        m = pm[p] & NET_COUNTED[p]
        while m:
            s = p * 8 + LOW_BIT[m]
            m &= m - 1
            i0 = NET_STEP_IN[0, s]
            i1 = NET_STEP_IN[1, s]
            for j in range(hidden):
                nn[r0, j] += nn[i0, j]
                nn[r0 + 1, j] += nn[i1, j]
    ns[NS_DONE + 2 * ply] = ns[NS_DONE + 2 * ply + 1] = 1
    ns[NS_OFF + ply] = 0


@njit(cache=True)
def net_push(ns, ply, buf, off, n):
    """The path goes from `ply` to ply + 1 by the turn buf[off:off + n]: its steps are noted, and the sums
    at ply + 1 are to be made again."""
    at = ns[NS_OFF + ply]
    for k in range(n):
        ns[NS_STEPS + at + k] = buf[off + k]
    ns[NS_OFF + ply + 1] = at + n
    ns[NS_DONE + 2 * ply + 2] = ns[NS_DONE + 2 * ply + 3] = 0


@njit(cache=True)
def _net_edges_at(nn, ns, ply, v):
    """Make nn[ACC + 2 * ply + v] hold the node at `ply` (from the nearest ply above that does); its row."""
    top = ply
    while not ns[NS_DONE + 2 * top + v]:
        top -= 1
    hidden = nn.shape[1]
    for i in range(top + 1, ply + 1):
        src = ACC + 2 * (i - 1) + v
        dst = src + 2
        for j in range(hidden):
            nn[dst, j] = nn[src, j]
        for k in range(ns[NS_OFF + i - 1], ns[NS_OFF + i]):
            row = NET_STEP_IN[v, ns[NS_STEPS + k]]
            for j in range(hidden):
                nn[dst, j] += nn[row, j]
        ns[NS_DONE + 2 * i + v] = 1
    return ACC + 2 * ply + v


@njit(cache=True)
def _net_points(nn, ns, c, base, stm, found, count, marked):
    """Bring nn[POINTS + stm] from the rows of the points cache c lists to those of found[:count] (the
    points `marked`), as `stm` sees them: only the rows of the points that differ are added or subtracted.
    (Whole arrays and indices, not rows: a row taken as an array costs more than the sums here.)"""
    hidden = nn.shape[1]
    r = POINTS + stm
    at = NS_POINTS + c * POINTS_ROW
    for k in range(ns[at]):
        p = ns[at + 1 + k]
        if not marked[p]:
            ns[at + 1 + N + p] = 0
            row = base + NET_VIEW[stm, p]
            for j in range(hidden):
                nn[r, j] -= nn[row, j]
    for k in range(count):
        p = found[k]
        ns[at + 1 + k] = p
        if not ns[at + 1 + N + p]:
            ns[at + 1 + N + p] = 1
            row = base + NET_VIEW[stm, p]
            for j in range(hidden):
                nn[r, j] += nn[row, j]
    ns[at] = count


@njit(cache=True)
def turn_distances(pm, ball, d, todo, later):
    """`board.turn_distances` into d (N), with todo and later (PUSHES each) to work in."""
    for p in range(N):
        d[p] = B.DIST_CAP
    d[ball] = 1
    todo[0] = ball
    nt, nl = 1, 0
    while nt or nl:
        if nt == 0:
            for k in range(nl):
                todo[k] = later[k]
            nt, nl = nl, 0
            continue
        nt -= 1
        q = todo[nt]
        if q >= 99:
            continue
        m = pm[q]
        cost = 0 if (q == ball or m != 0) else 1
        nd = d[q] + cost
        if nd >= B.DIST_CAP:
            continue
        for k in range(NST[q]):
            if m & SO_BIT[0, q, k]:
                continue
            v = SO_Q[0, q, k]
            if nd < d[v]:
                d[v] = nd
                if cost == 0:
                    todo[nt] = v
                    nt += 1
                else:
                    later[nl] = v
                    nl += 1


@njit(cache=True)
def _net_distances(pm, ball, stm, nn, ns):
    """Bring nn[DISTS + stm] to the rows of this position's turn distances, as `stm` sees them: only the
    points whose distance differs from the last leaf's with this mover change it."""
    d = ns[NS_WORK:NS_WORK + N]
    turn_distances(pm, ball, d, ns[NS_WORK + N:NS_WORK + N + PUSHES], ns[NS_WORK + N + PUSHES:NS_WORK + WORK])
    hidden = nn.shape[1]
    r = DISTS + stm
    last = NS_DIST + stm * N
    for p in range(N):
        old = ns[last + p]
        new = d[p]
        if old != new:
            ns[last + p] = new
            base = NN.DIST0 + NET_VIEW[stm, p] * NN.DIST_ROW
            for j in range(hidden):
                nn[r, j] += nn[base + new, j] - nn[base + old, j]


@njit(cache=True)
def _net_leaf(pm, ball, stm, ply, found, mine, hot, danger, nn, ns, b2, dist, hidden2):
    """`net.Net.value` of the node at `ply` from the running sums, given the mover's danger points
    (`flood`'s found[:mine] and danger): the edges' part from the path (`_net_edges_at`), the danger
    points' from the points of the last leaf with this mover (usually a sibling: a few points apart), and
    with `dist` the turn distances' likewise (their rows are zero, and stay unread, in a net without);
    with `hidden2` units in a second hidden layer, through it (`_net_second`)."""
    _net_points(nn, ns, 2 * stm, NN.MINE0, stm, found, mine, danger)
    theirs = flood(pm, 1 - stm, hot, danger, found)
    _net_points(nn, ns, 2 * stm + 1, NN.THEIRS0, stm, found, theirs, danger)
    if dist:
        _net_distances(pm, ball, stm, nn, ns)
    edges = _net_edges_at(nn, ns, ply, stm)
    pts = POINTS + stm
    dists = DISTS + stm
    ball_row = NN.BALL0 + NET_VIEW[stm, ball]
    if hidden2:
        return _net_second(nn, edges, pts, dists, ball_row, b2, hidden2)
    out = 0
    for j in range(nn.shape[1]):  # without branches: the loop vectorises
        v = min(max(nn[edges, j] + nn[pts, j] + nn[ball_row, j] + nn[dists, j], 0), NN.ONE)
        out += nn[W_W2, j] * v
    return (b2 + out) * NN.UNITS // (NN.ONE * NN.ONE)


@njit(cache=True)
def _net_second(nn, edges, pts, dists, ball_row, b2, hidden2):
    """`_net_leaf`'s value through a second hidden layer of `hidden2` units (`net_arrays`' H1, H2B, H2W):
    the first layer clipped into nn[H1], then each unit of the second summed from it, rounded back to
    ONE units and clipped, and weighed by its output weight."""
    width = nn.shape[1]
    for j in range(width):
        nn[H1, j] = min(max(nn[edges, j] + nn[pts, j] + nn[ball_row, j] + nn[dists, j], 0), NN.ONE)
    out = 0
    for k in range(hidden2):
        r = H2W + k
        s = 0
        for j in range(width):  # without branches: the loop vectorises
            s += nn[r, j] * nn[H1, j]
        g = min(max((s + nn[H2B, k] + NN.ONE // 2) // NN.ONE, 0), NN.ONE)
        out += nn[W_W2, k] * g
    return (b2 + out) * NN.UNITS // (NN.ONE * NN.ONE)


@njit(cache=True)
def net_value(pm, ball, stm, ply, nn, ns, b2, dist, hidden2):
    """`net.Net.value` of the node at `ply` of the path (`net_root`, `net_push`), as the tree's leaf reads it."""
    hot = np.empty(N, np.bool_)
    danger = np.empty(N, np.bool_)
    found = np.empty(N, np.int64)
    mine = flood(pm, stm, hot, danger, found)
    return _net_leaf(pm, ball, stm, ply, found, mine, hot, danger, nn, ns, b2, dist, hidden2)


@njit(cache=True)
def goals_in_reach(pm, ball):
    """`board.goals_in_reach`."""
    return _goals_from_ball(pm, ball, np.bool_(True), np.int64(3))


@njit(cache=True)
def leaf(pm, ball, stm, f0, ply, prm, ev, nn, ns):
    """`Searcher._leaf`: a win when the mover can score this turn, else the evaluation (`value.Tables`,
    or the net when prm[P_NET]), moved by prm[P_CUT_OFF] when one side only is cut off from its goal."""
    hot = np.empty(N, np.bool_)
    danger = np.empty(N, np.bool_)
    found = np.empty(N, np.int64)
    mine = flood(pm, stm, hot, danger, found)
    m = pm[ball]
    near = False
    for k in range(NST[ball]):
        if m & SO_BIT[0, ball, k]:
            continue
        q = SO_Q[0, ball, k]
        if q >= 99:
            if (q < 102) == (stm == 0):
                near = True
        elif hot[q]:
            near = True
    if near and can_score_fast(pm, ball, stm, REACH_STATES):
        return WIN - ply
    if prm[P_NET]:
        v = _net_leaf(pm, ball, stm, ply, found, mine, hot, danger, nn, ns, prm[P_NET_B2], prm[P_NET_DIST],
                      prm[P_NET_H2])
    else:
        counts = ev[6]
        v = ev[stm, ball] + counts[E_BIAS] + counts[E_FREE + NST[ball] - POP8[m]]
        if prm[P_W_FRESH]:
            v += prm[P_W_FRESH] * (f0 if stm == 0 else -f0)
        v += _weigh(found, mine, ev[2 + stm], counts[E_MINE_N:])
        theirs = flood(pm, 1 - stm, hot, danger, found)
        v += _weigh(found, theirs, ev[4 + stm], counts[E_THEIRS_N:])
    if prm[P_CUT_OFF]:
        reach = goals_in_reach(pm, ball)
        if reach != 3 and reach:
            v += prm[P_CUT_OFF] if (reach >> stm) & 1 else -prm[P_CUT_OFF]
    return v


EMPTY = -1  # no key (keys are non-negative)


@njit(cache=True)
def _slot(tk, key):
    """The slot holding `key`, or -1 - the empty slot where it would go."""
    mask = tk.shape[0] - 1
    i = key & mask
    while True:
        k = tk[i]
        if k == key:
            return i
        if k == EMPTY:
            return -1 - i
        i = (i + 1) & mask


@njit(cache=True)
def _store(tk, tv, meta, key, value):
    i = _slot(tk, key)
    if i >= 0:
        tv[i] = value
    elif meta[0] * 10 < tk.shape[0] * 9:
        i = -1 - i
        tk[i] = key
        tv[i] = value
        meta[0] += 1


@njit(cache=True)
def _unlisted(ends, keys, n, ends2, keys2, n2):
    """`board.unlisted`: which of the n2 turns (ends2, keys2) have an effect none of the n turns has."""
    fresh = np.ones(n2, np.bool_)
    for j2 in range(n2):
        for j in range(n):
            if ends[j] == ends2[j2] and keys[j] == keys2[j2]:
                fresh[j2] = False
                break
    return fresh


@njit(cache=True)
def _move_key(eb, end):
    """`search.move_key`."""
    return (eb ^ POINT_KEY[end]) & MOVE_KEY_MASK


@njit(cache=True)
def _past(deadline) -> bool:
    """Whether the deadline (a `time.monotonic()` value; 0 or less: none) has passed."""
    return deadline > 0.0 and _now() >= deadline


@njit(cache=True)
def negamax(pm, ball, stm, h, depth, alpha, beta, ply, f0, tk, tv, meta, prm, ev, order, ft, ctr, deadline, nn, ns):
    """`Searcher._negamax`; a stop (node limit or deadline) sets ctr[C_STOP] and unwinds with 0.  With a net,
    `nn` and `ns` hold its running sums (`net_arrays`): each turn drawn is noted on the path (`net_push`)."""
    ctr[C_NODES] += 1
    # the clock every 128 nodes (the Python tree: 16): a node takes a few microseconds here, and reading
    # the clock goes through Python (`_now`) and costs about as much
    if ctr[C_NODES] >= ctr[C_LIMIT] or ((ctr[C_NODES] & 127) == 0 and _past(deadline)):
        ctr[C_STOP] = 1
        return 0
    if depth <= 0:
        return leaf(pm, ball, stm, f0, ply, prm, ev, nn, ns)
    key = h ^ SEAT_KEY[stm, ball]
    best_key = 0
    slot = _slot(tk, key)
    if slot >= 0:
        ent = tv[slot]
        e_val = (ent & 0x3FFFFF) - 0x200000
        e_flag = (ent >> 22) & 3
        e_depth = (ent >> 24) & 0xFF
        best_key = ent >> 32
        if e_depth >= depth:
            if e_val > WIN_BOUND:
                e_val -= ply
            elif e_val < -WIN_BOUND:
                e_val += ply
            if e_flag == EXACT:
                return e_val
            if e_flag == LOWER and e_val >= beta:
                return e_val
            if e_flag == UPPER and e_val <= alpha:
                return e_val
    if ply <= prm[P_NEAR_PLY]:
        win, complete, n, ends, keys, offs, lens, buf = gen_turns(
            pm, ball, stm, prm[P_NEAR_STATES], prm[P_NEAR_PER_END], prm[P_NEAR_VISITS])
    elif prm[P_CHEAP]:
        win, complete, n, ends, keys, offs, lens, buf = gen_ends(pm, ball, stm)
    else:
        win, complete, n, ends, keys, offs, lens, buf = gen_turns(
            pm, ball, stm, prm[P_STATES], prm[P_PER_END], prm[P_VISITS])
    if win:
        return WIN - ply
    if n == 0 and not complete:
        win, complete, n, ends, keys, offs, lens, buf = gen_turns(pm, ball, stm, RELIST_STATES, BIG, BIG)
        if win:
            return WIN - ply
    if n == 0:
        return -WIN + ply + 1
    # the static order (stable), then the table's best turn first
    rank = np.empty(n, np.int64)
    for j in range(n):
        rank[j] = -order[stm, ends[j]]
    idx = np.argsort(rank, kind="mergesort")
    if best_key:
        for j in range(n):
            t = idx[j]
            if _move_key(keys[t], ends[t]) == best_key:
                for k in range(j, 0, -1):
                    idx[k] = idx[k - 1]
                idx[0] = t
                break
    a0 = alpha
    best = -WIN - 1
    bk = 0
    nstm = 1 - stm
    net = prm[P_NET]
    late = prm[P_LMR_AFTER] if prm[P_LMR_AFTER] and depth >= prm[P_LMR_DEPTH] else BIG
    searched = 0
    total = n
    while True:
        for j in range(searched, total):
            t = idx[j]
            end = ends[t]
            eb = keys[t]
            apply_steps(pm, buf, offs[t], lens[t])
            if net:
                net_push(ns, ply, buf, offs[t], lens[t])
            v = 0
            if j >= late:
                v = -negamax(pm, end, nstm, h ^ eb, depth - 3, -alpha - 1, -alpha, ply + 1, f0 - ft[end], tk, tv,
                             meta, prm, ev, order, ft, ctr, deadline, nn, ns)
            if not ctr[C_STOP] and (j < late or v > alpha):
                v = -negamax(pm, end, nstm, h ^ eb, depth - 1, -beta, -alpha, ply + 1, f0 - ft[end], tk, tv,
                             meta, prm, ev, order, ft, ctr, deadline, nn, ns)
            undo_steps(pm, buf, offs[t], lens[t])
            if ctr[C_STOP]:
                return 0
            if v > best:
                best = v
                bk = _move_key(eb, end)
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        searched = total
        # a loss found with a partial list of turns: look at every turn before believing it
        if best < -WIN_BOUND and not complete:
            complete = True
            win2, _c2, n2, ends2, keys2, offs2, lens2, buf2 = gen_turns(pm, ball, stm, RELIST_STATES, BIG, BIG)
            if _past(deadline):
                ctr[C_STOP] = 1
                return 0
            fresh = _unlisted(ends, keys, total, ends2, keys2, n2)
            extra = fresh.sum()
            if extra:
                # append the unlisted turns (in the full generation's order) after the listed ones
                m2 = total + extra
                ends = _grow(ends, m2)
                keys = _grow(keys, m2)
                offs = _grow(offs, m2)
                lens = _grow(lens, m2)
                idx2 = np.empty(m2, np.int64)
                idx2[:total] = idx[:total]
                used = 0
                for j in range(total):
                    used = max(used, offs[j] + lens[j])
                w = total
                for j2 in range(n2):
                    if fresh[j2]:
                        ends[w] = ends2[j2]
                        keys[w] = keys2[j2]
                        ln = lens2[j2]
                        buf = _grow(buf, used + ln)
                        buf[used:used + ln] = buf2[offs2[j2]:offs2[j2] + ln]
                        offs[w] = used
                        lens[w] = ln
                        used += ln
                        idx2[w] = w
                        w += 1
                idx = idx2
                total = m2
                continue
        break
    sv = best
    if sv > WIN_BOUND:
        sv += ply
    elif sv < -WIN_BOUND:
        sv -= ply
    flag = UPPER if best <= a0 else (LOWER if best >= beta else EXACT)
    _store(tk, tv, meta, key, (bk << 32) | (depth << 24) | (flag << 22) | (sv + 0x200000))
    return best


# ------------------------------------------------------------------ the shut check (`tactics.py`)

SAFE, UNSAFE, UNKNOWN = 1, 0, 2  # verdicts: True, False, None in `tactics`


@njit(cache=True)
def _goals_from_ball(pm, ball, whole_game, wanted):
    """The goals (bit s: the one seat s attacks) the ball reaches along undrawn edges, stopping once it
    has every goal in `wanted`: in this turn through bounce points (`board.reach_possible`), or in the
    rest of the game through points with two free edges or more (`board.goals_in_reach`)."""
    seen = np.zeros(N, np.bool_)
    seen[ball] = True
    stack = np.empty(N, np.int64)
    stack[0] = ball
    sn = 1
    reach = 0
    while sn:
        sn -= 1
        p = stack[sn]
        m = pm[p]
        for k in range(NST[p]):
            if m & SO_BIT[0, p, k]:
                continue
            q = SO_Q[0, p, k]
            if seen[q]:
                continue
            seen[q] = True
            if q >= 99:
                reach |= 1 if q < 102 else 2
                if reach & wanted == wanted:
                    return reach
            elif (NST[q] - POP8[pm[q]] > 1) if whole_game else pm[q] != 0:
                stack[sn] = q
                sn += 1
    return reach


@njit(cache=True)
def reach_possible(pm, ball, seat):
    """`board.reach_possible`."""
    return (_goals_from_ball(pm, ball, np.bool_(False), np.int64(1) << seat) >> seat) & 1 == 1


@njit(cache=True)
def _spent(limits, deadline):
    return limits[0] <= 0 or _past(deadline)


@njit(cache=True)
def _safe_after(pm, buf, off, n, end, seat, max_states, limits, deadline):
    """`tactics._safe_after`; limits[0]: the looks left."""
    if _spent(limits, deadline):
        return UNKNOWN
    limits[0] -= 1
    apply_steps(pm, buf, off, n)
    verdict = SAFE
    if reach_possible(pm, end, 1 - seat):
        win, complete, _n, _e, _k, _o, _l, _b = gen_turns(pm, end, 1 - seat, max_states, BIG, BIG)
        verdict = UNSAFE if win else (SAFE if complete else UNKNOWN)
    undo_steps(pm, buf, off, n)
    return verdict


@njit(cache=True)
def has_safe_turn(pm, ball, seat, max_states, limits, deadline):
    """`tactics.has_safe_turn`: SAFE, UNSAFE (proven) or UNKNOWN."""
    win, _c, n, ends, keys, offs, lens, buf = gen_ends(pm, ball, seat)
    if win:
        return SAFE
    danger = np.empty(N, np.bool_)
    flood(pm, 1 - seat, np.empty(N, np.bool_), danger, np.empty(N, np.int64))
    for j in range(n):
        if not danger[ends[j]]:
            return SAFE
    unknown = False
    for j in range(n):
        verdict = _safe_after(pm, buf, offs[j], lens[j], ends[j], seat, max_states, limits, deadline)
        if verdict == SAFE:
            return SAFE
        unknown |= verdict == UNKNOWN
    win2, complete2, n2, ends2, keys2, offs2, lens2, buf2 = gen_turns(pm, ball, seat, max_states, BIG, BIG)
    if win2:
        return SAFE
    fresh = _unlisted(ends, keys, n, ends2, keys2, n2)
    for j2 in range(n2):
        if not fresh[j2]:
            continue
        if not danger[ends2[j2]]:
            return SAFE
        verdict = _safe_after(pm, buf2, offs2[j2], lens2[j2], ends2[j2], seat, max_states, limits, deadline)
        if verdict == SAFE:
            return SAFE
        unknown |= verdict == UNKNOWN
    return UNKNOWN if unknown or not complete2 else UNSAFE


@njit(cache=True)
def shutting_reply(pm, end, seat, max_states, look_states, deadline, looks):
    """`tactics.shutting_reply`: (-1, 0) when every reply leaves a safe turn (False), (-1, 1) when unknown
    (None), else (j, 0) with j the shutting reply's index in `gen_turns(pm, end, 1 - seat, max_states)`."""
    limits = np.array([looks], np.int64)
    opp = 1 - seat
    win, complete, n, ends, _keys, offs, lens, buf = gen_turns(pm, end, opp, max_states, BIG, BIG)
    if win:
        return -1, 1
    unknown = not complete
    for j in range(n):
        if _spent(limits, deadline):
            return -1, 1
        apply_steps(pm, buf, offs[j], lens[j])
        verdict = has_safe_turn(pm, ends[j], seat, look_states, limits, deadline)
        undo_steps(pm, buf, offs[j], lens[j])
        if verdict == UNSAFE:
            return j, 0
        unknown |= verdict == UNKNOWN
    return -1, (1 if unknown else 0)


@njit(cache=True)
def _fill(tk, tv, meta, keys, values):
    for j in range(keys.shape[0]):
        _store(tk, tv, meta, keys[j], values[j])


# A table's first size: a game of level 6 at CodinGame's limits stores up to about 180,000 positions, and
# doubling the table mid-search (rehashing every entry) took 9 ms at 120,000 entries and 46 ms at 260,000,
# where no clock is read: so it starts at 8 MB and does not grow in such a game
MIN_SLOTS = 1 << 19


def _capacity(entries: int, capacity: int = MIN_SLOTS) -> int:
    """The least power of two from `capacity` on that `entries` fill at most half of."""
    while 2 * entries > capacity:
        capacity *= 2
    return capacity


class Table:
    """The compiled tree's transposition table: open addressing (linear probing) over two arrays, kept
    at most half full between root turns (`reserve`), so that it holds what the pure-Python tree's dict
    holds (a subtree that would fill it to 90% stores no new positions: beyond any budget in use)."""

    def __init__(self, capacity: int = MIN_SLOTS) -> None:
        self.keys = np.full(capacity, EMPTY, np.int64)
        self.values = np.zeros(capacity, np.int64)
        self.meta = np.zeros(1, np.int64)  # the number of entries

    def __len__(self) -> int:
        return int(self.meta[0])

    def clear(self) -> None:
        self.keys.fill(EMPTY)
        self.meta[0] = 0

    def reserve(self) -> None:
        """Double the arrays while more than half full."""
        cap = _capacity(len(self), self.keys.shape[0])
        if cap == self.keys.shape[0]:
            return
        old_k, old_v = self.keys, self.values
        self.keys = np.full(cap, EMPTY, np.int64)
        self.values = np.zeros(cap, np.int64)
        self.meta[0] = 0
        used = old_k != EMPTY
        _fill(self.keys, self.values, self.meta, old_k[used], old_v[used])

    @classmethod
    def holding(cls, entries: dict) -> "Table":
        """A table with `entries` (the pure-Python tree's, when the compiled one takes over in the middle
        of a game: the next searches then find what they would have)."""
        n = len(entries)
        t = cls(_capacity(n))
        if n:
            _fill(t.keys, t.values, t.meta, np.fromiter(entries.keys(), np.int64, n),
                  np.fromiter(entries.values(), np.int64, n))
        return t


class Tree:
    """A searcher's compiled tree: its options and tables packed for `negamax`, its transposition
    table (`Table`), the node counters it shares with Python."""

    def __init__(self, searcher) -> None:
        w = searcher.w
        self.params = np.zeros(N_PARAMS, np.int64)
        for index, value in ((P_NEAR_PLY, searcher.near_ply), (P_NEAR_STATES, searcher.near_states),
                             (P_NEAR_PER_END, searcher.near_per_end), (P_NEAR_VISITS, searcher.near_visits),
                             (P_CHEAP, int(searcher.cheap)), (P_STATES, searcher.states),
                             (P_PER_END, searcher.per_end), (P_VISITS, searcher.visits),
                             (P_LMR_AFTER, searcher.lmr_after), (P_LMR_DEPTH, searcher.lmr_depth),
                             (P_W_FRESH, w.fresh), (P_NET, int(searcher.net is not None)),
                             (P_NET_B2, searcher.net.b2 if searcher.net is not None else 0),
                             (P_CUT_OFF, searcher.cut_off),
                             (P_NET_DIST, int(searcher.net is not None and searcher.net.distances)),
                             (P_NET_H2, searcher.net.hidden2 if searcher.net is not None else 0)):
            self.params[index] = value
        self.nn, self.ns = net_arrays(searcher.net)
        self.ev = np.array(searcher.ev.rows(), np.int64)
        self.order = np.array(searcher.order, np.int64)
        self.ft = np.array(searcher.ft, np.int64)
        self.table = Table.holding(searcher.tt)
        self.counters = np.zeros(3, np.int64)

    def value(self, pm, ball, stm, h, depth, alpha, beta, ply, f0, nodes, node_limit,
              deadline) -> tuple[int, int, bool]:
        """(`negamax`'s value, the node count after it, whether the node limit or the deadline stopped it)."""
        ctr = self.counters
        ctr[C_NODES], ctr[C_LIMIT], ctr[C_STOP] = nodes, node_limit, 0
        t = self.table
        t.reserve()
        arr = np.array(pm, np.int64)
        if self.params[P_NET]:
            if ply + depth >= PLIES:
                raise ValueError(f"a search with a net goes at most {PLIES - 1} plies deep")
            net_root(arr, self.nn, self.ns, ply)
        v = negamax(arr, ball, stm, h, depth, alpha, beta, ply, f0, t.keys, t.values, t.meta, self.params, self.ev,
                    self.order, self.ft, ctr, -1.0 if deadline is None else deadline, self.nn, self.ns)
        return int(v), int(ctr[C_NODES]), bool(ctr[C_STOP])

    @staticmethod
    def shutting_reply(pm, end, seat, deadline) -> bool | None:
        """`tactics.shutting_reply` with its defaults, as a verdict: a reply shuts `seat` in (True), none
        does (False), unknown (None)."""
        j, unknown = shutting_reply(np.array(pm, np.int64), end, seat, REPLY_STATES, LOOK_STATES,
                                    -1.0 if deadline is None else deadline, LOOKS)
        return True if j >= 0 else (None if unknown else False)


def functions() -> list:
    """The module's compiled functions (numba dispatchers): while `warm_up` compiles them, each gains an
    overload as it is done, and counts a cache miss as it starts (`accelerator.progress`)."""
    from numba.core.dispatcher import Dispatcher

    return [f for f in globals().values() if isinstance(f, Dispatcher)]


def warm_up() -> None:
    """Load (or compile) every function with the argument types the searcher passes."""
    pm = np.array(B.from_game(_start())[0], np.int64)
    prm = np.zeros(N_PARAMS, np.int64)
    prm[P_NEAR_PLY], prm[P_NEAR_STATES], prm[P_NEAR_PER_END], prm[P_NEAR_VISITS], prm[P_CHEAP] = 1, 100, 2, 2, 1
    prm[P_LMR_AFTER], prm[P_LMR_DEPTH] = 2, 3
    tables = np.zeros((2, N), np.int64)
    ev = np.zeros((7, N), np.int64)
    ctr = np.array([0, 200, 0], np.int64)
    tt = Table.holding({1: 2})
    tt.reserve()
    nn, ns = net_arrays(NN.Net([[0]] * NN.N_INPUTS, [0], [0], 0))  # a net of one hidden unit: the types passed
    negamax(pm, 49, 0, 0, 3, -WIN - 1, WIN + 1, 1, 0, tt.keys, tt.values, tt.meta, prm, ev, tables,
            np.zeros(N, np.int64), ctr, time.monotonic() + 60.0, nn, ns)
    net_root(pm, nn, ns, 1)
    shutting_reply(pm, 49, 0, 100, 100, time.monotonic() + 60.0, 10)


def _start():
    from engines.paper_soccer import PaperSoccer
    return PaperSoccer.new()
