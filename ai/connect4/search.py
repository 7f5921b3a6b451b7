"""Alpha-beta search for Connect 4 (7x9) on bitboards: negamax with a transposition table, iterative
deepening, principal-variation search, threat-based move ordering and a threat/parity evaluation.

Scores are from the side to move.  A win is `WIN + e`, where e is the number of empty cells left after
the winning chip (a quicker win leaves more), a loss is `-(WIN + e)`, a draw (full board) is 0, and the
heuristic evaluation stays well inside +-WIN.  Win/loss scores do not depend on the path, so the
transposition table stores them unchanged; a proven score is stored with depth PROVEN and is then
valid at every depth.  When the search reaches the end of the game on every line it is an exact
solver: the same code, with no leaf ever evaluated.

Every node keeps Pons' invariant: the side to move cannot win at once (its parent never plays a move
that allows it).  So a node first computes the opponent's winning cells: two playable ones are a
loss, one must be blocked, and no move may go under one.  A node with a single sensible move is not
counted as a ply (forced-move extension), which acts as a quiescence search for threats.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ai.connect4.bitboard import (BOARD, BOTTOM, CELLS, CENTRE_ORDER, COL_MASK, COLS, PARITY, ROWS, STRIDE,
                                  WINDOWS, win_cells)
from ai.gc_pause import gc_paused

WIN = 1_000_000
INF = 10 * WIN
PROVEN = 1000  # TT depth of a proven (game-theoretic) score
EXACT, LOWER, UPPER = 0, 1, 2
STEAL = -2

# Evaluation weights, tuned by self-play matches at 3,000 nodes a move (200 games per comparison, from
# all 81 two-ply openings in both colours): threats count far more than chip placement, and a threat of
# the parity its owner gets at the end of the game (see `threats` in _negamax_fn) more than the other.
DEFAULT_WEIGHTS = {
    "good_threat": 80,  # a winning cell of the parity its owner gets when the board fills up
    "bad_threat": 50,  # a winning cell of the other parity
    "stacked": 60,  # two winning cells one above the other (the lower live)
    "position": 2.5,  # scale of the positional term (windows through each chip's cell)
}


class Stop(Exception):
    """Raised inside the search when the deadline or node budget is reached."""


@dataclass
class Result:
    move: int  # column 0..8, or STEAL
    score: int  # from the side to move
    depth: int  # last completed depth (0 when the move came from the root checks alone)
    nodes: int
    elapsed: float
    scores: dict[int, int] = field(default_factory=dict)  # root move -> score at `depth` (exact only if multipv)
    proven: bool = False


def position_value(cur: int, mask: int, weights: list[int] = WINDOWS) -> int:
    """Sum of the window counts of the mover's chips minus the opponent's (the positional term)."""
    opp = cur ^ mask
    v = 0
    for b in range(COLS * STRIDE):
        bit = 1 << b
        if cur & bit:
            v += weights[b]
        elif opp & bit:
            v -= weights[b]
    return v


class Searcher:
    """One search engine with its own transposition table (kept between searches of a game)."""

    def __init__(self, weights: dict[str, int] | None = None, tt_limit: int = 500_000) -> None:
        w = dict(DEFAULT_WEIGHTS)
        if weights:
            w.update(weights)
        self.weights = w
        # the positional term: each chip is worth the number of 4-cell windows through its cell
        self.cell_weights = [round(x * w["position"]) for x in WINDOWS]
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.tt_limit = tt_limit
        self.history = [0] * (COLS * STRIDE + 1)

    def clear(self) -> None:
        self.tt.clear()
        self.history = [0] * (COLS * STRIDE + 1)

    # ------------------------------------------------------------------ the root

    def search(self, cur: int, mask: int, *, steal: bool = False, max_depth: int | None = None,
               node_limit: int | None = None, deadline: float | None = None, on_info=None,
               multipv: bool = False, soft_time: float | None = None) -> Result:
        """Iterative deepening from the position (cur = chips of the side to move, mask = all chips).

        `steal`: STEAL is among the root moves (turn index 1; the one chip on the board is the opponent's).
        Stops at `max_depth`, after `node_limit` nodes or at `deadline` (time.monotonic()), whichever
        comes first; with `soft_time` (seconds) no new depth starts after that much time.
        `multipv`: every root move gets an exact score (slower; for the noisy levels).
        """
        with gc_paused():  # also when a tool calls the searcher without a player
            return self._search(cur, mask, steal, max_depth, node_limit, deadline, on_info, multipv, soft_time)

    def _search(self, cur, mask, steal, max_depth, node_limit, deadline, on_info, multipv, soft_time) -> Result:
        t0 = time.monotonic()
        if len(self.tt) > self.tt_limit:
            self.tt.clear()
        hist = self.history
        for i in range(len(hist)):
            hist[i] >>= 2
        opp = cur ^ mask
        n = CELLS - mask.bit_count()
        empty = BOARD ^ mask
        possible = (mask + BOTTOM) & BOARD
        w_me = win_cells_masked(cur, empty)
        w_op = win_cells_masked(opp, empty)
        W = self.cell_weights
        pos = position_value(cur, mask, W)

        # Root moves: (move, child cur, child mask, child pos, loses at once)
        children = []
        for c in CENTRE_ORDER:
            m = possible & COL_MASK[c]
            if not m:
                continue
            if m & w_me:  # an immediate win needs no search
                return Result(c, WIN + n - 1, 0, 1, time.monotonic() - t0, {c: WIN + n - 1}, True)
            nm = mask | m
            loses = bool(w_op & ~nm & ((nm + BOTTOM) & BOARD))
            children.append([c, opp, nm, -(pos + W[m.bit_length() - 1]), loses])
        if steal:
            # The opponent's only chip becomes ours; the opponent moves next with no chip on the board.
            children.append([STEAL, 0, mask, -(pos + 2 * W[mask.bit_length() - 1]), False])

        if max_depth is None:
            max_depth = n
        max_depth = max(1, min(max_depth, n))
        loss_now = -(WIN + n - 2)

        negamax, count = self._negamax_fn(node_limit, deadline)

        best = children[0][0]
        best_score = -INF
        scores: dict[int, int] = {}
        done_depth = 0
        proven = False
        if all(ch[4] for ch in children):  # every move loses at once: take the first (centre-most)
            return Result(best, loss_now, 0, 0, time.monotonic() - t0, {ch[0]: loss_now for ch in children}, True)
        children = [ch for ch in children if not ch[4]] + [ch for ch in children if ch[4]]
        for depth in range(1, max_depth + 1):
            alpha, beta = -INF, INF
            it_best, it_score = None, -INF
            it_scores: dict[int, int] = {}
            try:
                for i, (mv, ccur, cmask, cpos, loses) in enumerate(children):
                    if loses:
                        s = loss_now
                    elif multipv:
                        s = -negamax(ccur, cmask, cpos, depth - 1, n - 1, -INF, INF)
                    elif i == 0:
                        s = -negamax(ccur, cmask, cpos, depth - 1, n - 1, -beta, -alpha)
                    else:
                        s = -negamax(ccur, cmask, cpos, depth - 1, n - 1, -alpha - 1, -alpha)
                        if s > alpha:
                            s = -negamax(ccur, cmask, cpos, depth - 1, n - 1, -beta, -alpha)
                    it_scores[mv] = s
                    if s > it_score:
                        it_best, it_score = mv, s
                        if s > alpha:
                            alpha = s
            except Stop:
                # A move of the unfinished depth that beat the first (previous best) move is better.
                if it_best is not None and len(it_scores) > 1 and it_best != children[0][0]:
                    best, best_score = it_best, it_score
                break
            done_depth = depth
            best, best_score, scores = it_best, it_score, it_scores
            order = {mv: k for k, mv in enumerate(c[0] for c in children)}
            children.sort(key=lambda ch: (ch[0] != best, -it_scores.get(ch[0], -INF), order[ch[0]]))
            elapsed = time.monotonic() - t0
            if on_info is not None:
                on_info(depth, count(), best_score, best, elapsed)
            if best_score >= WIN or all(v <= -WIN for v in it_scores.values()):
                proven = True
                break
            if depth >= n:  # searched to the end of the game on every line: exact
                proven = True
                break
            if soft_time is not None and elapsed > soft_time:
                break
        return Result(best, best_score, done_depth, count(), time.monotonic() - t0, scores, proven)

    def solve(self, cur: int, mask: int, *, node_limit: int | None = None,
              deadline: float | None = None) -> tuple[int, int, int]:
        """(value, move, nodes): the exact game value for the side to move, 1 (win), 0 (draw) or -1
        (loss), and a move that keeps it; no STEAL (turn index 1 is the opening book's).

        A win/draw/loss probe: each root move is searched once to the end of the game with the window
        (-1, 1) around a draw (then (-1, 0) once a draw is found), instead of iterative deepening's
        full-window searches of every depth.  It proves what `search` proves at its last depth (the
        same tree code, no leaf evaluated) 3 to 8 times faster, but not how quick a win is.  Raises
        Stop at `node_limit` or `deadline`."""
        with gc_paused():
            if len(self.tt) > self.tt_limit:
                self.tt.clear()
            n = CELLS - mask.bit_count()
            empty = BOARD ^ mask
            possible = (mask + BOTTOM) & BOARD
            w_me = win_cells_masked(cur, empty)
            w_op = win_cells_masked(cur ^ mask, empty)
            negamax, count = self._negamax_fn(node_limit, deadline)
            cols = [c for c in CENTRE_ORDER if possible & COL_MASK[c]]
            for c in cols:
                if possible & COL_MASK[c] & w_me:
                    return 1, c, 1
            best, alpha = None, -1
            for c in cols:
                nm = mask | (possible & COL_MASK[c])
                if w_op & ~nm & ((nm + BOTTOM) & BOARD):
                    continue  # lets the opponent win at once
                if best is None:
                    best = c
                # depth n: every line reaches the end of the game, so no leaf is evaluated
                s = -negamax(cur ^ mask, nm, 0, n, n - 1, -1, -alpha)
                if s >= 1:
                    return 1, c, count()
                if s > alpha:
                    best, alpha = c, 0
            return alpha, cols[0] if best is None else best, count()

    # ------------------------------------------------------------------ the tree

    def _negamax_fn(self, node_limit: int | None, deadline: float | None):
        """The recursive search as a closure over its tables (locals are the fastest names in CPython).

        The code is written out by hand for speed: the winning-cell computation (Pons'
        compute_winning_position) appears inline, and a node at depth 1 evaluates its children itself
        instead of calling itself for each (a child at depth 0 only needs the mover's new winning
        cells: the other side's are the parent's), passing the winning cells it computed to a child
        that it does search.  Tables replace arithmetic where a lookup makes no new int.  No garbage
        is made per node except the small move list and the table entry.  (Profiled with
        `python -m ai.connect4.speed_digest`; a change here must leave its digest unchanged.)
        """
        tt = self.tt
        tt_get = tt.get
        tt_cap = 8 * self.tt_limit
        hist = self.history
        W = self.cell_weights
        PAR0, PAR1 = PARITY
        ORDER = [0] * (COLS * STRIDE)  # static order: the centre first
        for rank, c in enumerate(reversed(CENTRE_ORDER)):
            for h in range(7):
                ORDER[c * STRIDE + h] = rank
        # the ordering key of each move, by its bit's bit_length (index + 1; cheaper than a dict by
        # the bit): (history + ORDER) << 7 | bit index, kept up to date with `hist` (ints sort much
        # faster than tuples; the index makes every key distinct)
        key_of = [0] + [((hist[bi] + ORDER[bi]) << 7) | bi for bi in range(COLS * STRIDE)]
        BIT = [1 << bi for bi in range(COLS * STRIDE)]  # a table lookup makes no new int
        good_w = self.weights["good_threat"]
        bad_w = self.weights["bad_threat"]
        stack_w = self.weights["stacked"]
        # For w within the board, (w - NOT_ABOVE) ^ w has every cell that is not above the lowest
        # cell of w in its column (a threat above one of the opponent's comes too late).  In each
        # 8-bit column group SENTINEL - w is -w (mod 128), borrowing nothing from the next group, and
        # -w ^ w holds the bits above the lowest bit of w; (w - SENTINEL - 1) ^ w is its complement.
        NOT_ABOVE = (BOTTOM << ROWS) + 1  # SENTINEL + 1
        # the bounds from the game's length by the number n of empty cells (see negamax)
        LOW = [-(WIN + n - 4) for n in range(CELLS + 1)]
        HIGH = [WIN + n - 3 for n in range(CELLS + 1)]
        monotonic = time.monotonic
        big_limit = 1 << 62
        limit = node_limit if node_limit is not None else big_limit
        check_every = 128 if deadline is not None else big_limit
        nodes = 0
        check_at = min(limit, check_every)

        def check() -> None:
            nonlocal check_at
            if nodes >= limit:
                raise Stop
            if deadline is not None and monotonic() >= deadline:
                raise Stop
            if len(tt) > tt_cap:  # a long solve: bound the memory (the table is only a cache)
                tt.clear()
            check_at = min(limit, nodes + check_every)

        def threats(w_me, w_op, n):
            """The threat part of the evaluation, for the side to move with n empty cells; w_me and
            w_op are the two sides' winning cells (empty, none playable by the side to move).

            Zugzwang parity on 7 rows: when the board fills up with both sides avoiding the cell under
            a threat, the cell at height h (0 = bottom) of the last column is played when 7 - h cells
            are empty; the side to move now moves whenever the number of empty cells has the parity of
            n.  So the side to move gets the cells with 7 - h = n (mod 2), i.e. h and n of different
            parity, and the opponent those with h = n (mod 2).  Without a STEAL player 0 (63 empty
            cells) thus wants threats on the referee's rows 6, 4, 2, 0 (h even), as the first player
            does on the classic 6-row board; after a STEAL the parities swap.  Checked by exact solving
            (see the report): with one side holding a single threat, it wins 76% of such positions
            when the threat has its parity, 46% when not."""
            # a threat strictly above one of the opponent's in the same column comes too late
            live_me = w_me & ((w_op - NOT_ABOVE) ^ w_op)
            live_op = w_op & ((w_me - NOT_ABOVE) ^ w_me)
            # the side to move gets the cells at heights of the other parity than n when the board fills
            if n & 1:
                gm = live_me & PAR0
                go = live_op & PAR1
            else:
                gm = live_me & PAR1
                go = live_op & PAR0
            return (good_w * (gm.bit_count() - go.bit_count())
                    + bad_w * ((live_me ^ gm).bit_count() - (live_op ^ go).bit_count())
                    + stack_w * ((live_me & (w_me >> 1)).bit_count() - (live_op & (w_op >> 1)).bit_count()))

        def negamax(cur, mask, pos, depth, n, alpha, beta, w_op=-1):
            nonlocal nodes
            nodes += 1
            if nodes >= check_at:
                check()
            opp = cur ^ mask
            empty = BOARD ^ mask
            possible = (mask + BOTTOM) & BOARD
            if w_op < 0:
                # the opponent's winning cells (the depth-1 loop passes them when it has them):
                # bitboard.win_cells written out here and in that loop, to save a Python function
                # call per node in the hottest loops
                p = opp
                h = p >> 8
                a = p & h
                r = ((p << 1) & (p << 2) & (p << 3)
                     | (a >> 8) & ((p >> 24) | (p << 8)) | (a << 16) & (h | (p << 24)))
                h = p >> 7
                a = p & h
                r |= (a >> 7) & ((p >> 21) | (p << 7)) | (a << 14) & (h | (p << 21))
                h = p >> 9
                a = p & h
                r |= (a >> 9) & ((p >> 27) | (p << 9)) | (a << 18) & (h | (p << 27))
                w_op = r & empty
            forced = possible & w_op
            if forced:
                if forced & (forced - 1):
                    return -(WIN + n - 2)
                nxt = forced & ~(w_op >> 1)
                if not nxt:
                    return -(WIN + n - 2)
                single = True
            else:
                nxt = possible & ~(w_op >> 1)
                if not nxt:
                    return -(WIN + n - 2)
                single = not (nxt & (nxt - 1))
            if n <= 2:
                return 0
            if depth <= 0 and not single:
                # leaf: positional value plus threats weighted by zugzwang parity
                return pos + threats(win_cells(cur) & empty, w_op, n)
            # bounds from the game's length: we cannot win on this move, the opponent not on the next
            lo = LOW[n]
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    return alpha
            hi = HIGH[n]
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    return beta
            key = cur + mask
            e = tt_get(key)
            tt_bi = -1
            if e is not None:
                ed, ef, es, tt_bi = e
                if ed >= depth:
                    if ef == EXACT:
                        return es
                    if ef == LOWER:
                        if es >= beta:
                            return es
                        if es > alpha:
                            alpha = es
                    elif es <= alpha:
                        return es
                    elif es < beta:
                        beta = es
            alpha0 = alpha
            n1 = n - 1
            if single:
                # one sensible move, searched at the same depth (the forced-move extension)
                bi = nxt.bit_length() - 1
                best = -negamax(opp, mask | nxt, -(pos + W[bi]), depth, n1, -beta, -alpha)
                best_bi = bi
                if best >= beta:  # (alpha < beta here)
                    hist[bi] += depth * depth + 1
                    key_of[bi + 1] += (depth * depth + 1) << 7
            else:
                # moves as ints whose low 7 bits are the bit index, best first: the TT move (always
                # one of nxt: the key is the whole position), then by key_of (history, then the centre)
                moves = []
                x = nxt if tt_bi < 0 else nxt ^ BIT[tt_bi]
                while x:  # from the top bit down: cheaper than x & -x, and the order is sorted anyway
                    b = x.bit_length()
                    moves.append(key_of[b])
                    x ^= BIT[b - 1]
                moves.sort(reverse=True)
                if tt_bi >= 0:
                    moves.insert(0, tt_bi)
                best = -INF
                best_bi = -1
                if depth == 1:
                    # the children are leaves unless a forced move extends them: evaluate them here
                    win_now = WIN + n1 - 2  # the child has no move that does not lose at once
                    for k in moves:
                        bi = k & 127
                        m = BIT[bi]
                        nodes += 1
                        p = cur | m
                        nm = mask | m
                        cempty = empty ^ m
                        h = p >> 8
                        a = p & h
                        r = ((p << 1) & (p << 2) & (p << 3)
                             | (a >> 8) & ((p >> 24) | (p << 8)) | (a << 16) & (h | (p << 24)))
                        h = p >> 7
                        a = p & h
                        r |= (a >> 7) & ((p >> 21) | (p << 7)) | (a << 14) & (h | (p << 21))
                        h = p >> 9
                        a = p & h
                        r |= (a >> 9) & ((p >> 27) | (p << 9)) | (a << 18) & (h | (p << 27))
                        w_us = r & cempty
                        cposs = (nm + BOTTOM) & BOARD
                        f = cposs & w_us
                        if f:
                            cn = 0 if f & (f - 1) else f & ~(w_us >> 1)
                        else:
                            cn = cposs & ~(w_us >> 1)
                        if not cn:
                            s = win_now
                        elif not (cn & (cn - 1)):  # the child has one move: it is searched, not evaluated
                            nodes -= 1
                            s = -negamax(opp, nm, -(pos + W[bi]), 0, n1, -beta, -alpha, w_us)
                        elif n1 <= 2:
                            s = 0
                        else:
                            # the child's mover is the opponent; no move here takes a cell of w_op
                            # (none of them is playable, or the node would have a single move)
                            s = pos + W[bi] - threats(w_op, w_us, n1)
                        if s > best:
                            best = s
                            best_bi = bi
                            if s > alpha:
                                alpha = s
                                if s >= beta:
                                    hist[bi] += 2
                                    key_of[bi + 1] += 2 << 7
                                    break
                    if nodes >= check_at:
                        check()
                else:
                    child_depth = depth - 1
                    first = True
                    for k in moves:
                        bi = k & 127
                        m = BIT[bi]
                        nm = mask | m
                        cp = -(pos + W[bi])
                        if first:
                            s = -negamax(opp, nm, cp, child_depth, n1, -beta, -alpha)
                            first = False
                        else:
                            s = -negamax(opp, nm, cp, child_depth, n1, -alpha - 1, -alpha)
                            if alpha < s < beta:
                                s = -negamax(opp, nm, cp, child_depth, n1, -beta, -alpha)
                        if s > best:
                            best = s
                            best_bi = bi
                            if s > alpha:
                                alpha = s
                                if s >= beta:
                                    hist[bi] += depth * depth + 1
                                    key_of[bi + 1] += (depth * depth + 1) << 7
                                    break
            if best <= alpha0:
                flag = UPPER
                d = PROVEN if best <= -WIN else depth
            elif best >= beta:
                flag = LOWER
                d = PROVEN if best >= WIN else depth
            else:
                flag = EXACT
                d = PROVEN if best >= WIN or best <= -WIN else depth
            tt[key] = (d, flag, best, best_bi)
            return best

        def count() -> int:
            return nodes

        return negamax, count


def win_cells_masked(p: int, empty: int) -> int:
    return win_cells(p) & empty
