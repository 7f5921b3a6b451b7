"""Alpha-beta search for Lines of Action: negamax with PVS, iterative deepening, a transposition table.

Positions are two bitboards, `own` (the side to move) and `opp`, plus `turns` (turns played, passes
included).  A node is never terminal when searched: wins are found when a move is made (the mover's
connection first, then the opponent's after a capture), and a child reached at turn 150 is a draw (0).

- Scores: centi-checkers from the side to move's view; a win `ply` plies from the root is
  `WIN - ply` (a loss the negation), so the search prefers quick wins and slow losses, and the
  150-turn draw (0) beats a loss it cannot escape.
- Transposition table: a dict keyed by `own | opp << 64` (plus the turn count near the 150-turn
  horizon, where the score depends on it), values (depth, flag, score, move); kept between moves.
- Move ordering: TT move, two killers per ply, then (from depth 2) the mover's half-evaluation after
  the move plus the history score, (at depth 1) the history heuristic alone.
- Depth-1 nodes evaluate their children inline (no call per leaf).  The evaluation memoises each
  colour's half F(b) (a memo hit also answers "is b connected?"), leaf values are memoised by the
  leaf's two bitboards (transposed leaves are common), and the mobility balance of a leaf is the
  node's balance corrected on the few lines the move changes.
- Threats: at a depth-1 node whose opponent has at most `threat_groups` groups, the opponent's
  connecting moves (were it to move) are listed once; a leaf where one of them is still legal is a
  proven loss one ply later.  So the horizon also sees the opponent's immediate connections.
- Limits: a node budget and/or a deadline; when either runs out mid-iteration the search unwinds
  (`TimeUp`) and the best move of the last finished iteration (or a better move already proven in the
  unfinished one) is played.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ai.ttable import EXACT, LOWER, UPPER, cutoff, stored
from ai.lines_of_action.evaluate import CONNECTED, make_side_eval
from ai.lines_of_action.tables import (
    AFFECTED_LINES,
    BIT,
    KING,
    DBIT,
    LINE_MASK,
    MOVE_LINE_TABLE,
    XMASK,
    gen_moves,
    moves_and_mobility,
    is_connected,
    mobility,
)

MAX_TURNS = 150
WIN = 1_000_000
MATE_BOUND = WIN - 10_000
INF = 10_000_000
MAX_PLY = 64
TT_LIMIT = 400_000
LEAF_LIMIT = 500_000
KEY_TURNS_FROM = MAX_TURNS - MAX_PLY  # from here the TT key includes the turn count


class TimeUp(Exception):
    """The node budget or the deadline ran out inside the search."""


@dataclass
class SearchResult:
    move: int  # 64 * src + dst, or -1 for a pass
    score: int
    depth: int  # last fully searched depth (0: only the immediate checks)
    nodes: int
    seconds: float
    scores: dict[int, int] = field(default_factory=dict)  # root move -> score (with all_scores)
    pv: list[int] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        """The search found a forced win or loss."""
        return abs(self.score) >= MATE_BOUND


class Searcher:
    """One search state (TT, history, evaluation memo) reused across moves of a game."""

    def __init__(self, weights: dict | None = None, *, threats: bool = True, threat_groups: int = 3,
                 order_depth: int = 2):
        self.side, self.memo, self.tempo, self.w_mob, self.gmemo = make_side_eval(weights)
        self.threats = threats  # leaves check the opponent's connecting moves (see _build)
        self.threat_groups = threat_groups
        self.order_depth = order_depth
        self.tt: dict[int, tuple] = {}
        self.leaf: dict[int, int] = {}  # static values of leaves, by (mover's, opponent's) boards
        self.hist = [0] * 4096
        self.nodes = 0
        self._build()

    def clear(self) -> None:
        self.tt.clear()
        self.hist[:] = [0] * 4096

    # ------------------------------------------------------------------ the recursive search

    def _build(self) -> None:
        tt = self.tt
        tt_get = tt.get
        hist = self.hist
        side = self.side
        tempo = self.tempo
        w_mob = self.w_mob
        affected = AFFECTED_LINES
        memo_get = self.memo.get
        order_depth = self.order_depth
        leaf = self.leaf
        leaf_get = leaf.get
        gmemo_get = self.gmemo.get
        threats_on = self.threats
        threat_groups = self.threat_groups
        move_line = MOVE_LINE_TABLE
        king = KING
        bit = BIT
        dl = [0] * len(LINE_MASK)  # the mobility balance per line at the current depth-1 node
        killers = [[-1, -1] for _ in range(MAX_PLY + 2)]
        mono = time.monotonic
        xmask = XMASK
        dbit = DBIT
        nodes = 0
        next_check = 0
        node_limit = 0
        deadline = None

        def set_limits(budget: int | None, stop: float | None) -> None:
            nonlocal nodes, next_check, node_limit, deadline
            nodes = 0
            node_limit = budget if budget is not None else 1 << 62
            deadline = stop
            next_check = min(node_limit, 64)

        def get_nodes() -> int:
            return nodes

        def check() -> None:
            nonlocal next_check
            if nodes >= node_limit:
                raise TimeUp
            if deadline is not None and mono() >= deadline:
                raise TimeUp
            next_check = min(nodes + 128, node_limit)

        def nega(own: int, opp: int, depth: int, alpha: int, beta: int, ply: int, turns: int) -> int:
            nonlocal nodes
            nodes += 1
            if nodes >= next_check:
                check()
            if depth <= 0:
                return side(own) - side(opp) + tempo + w_mob * mobility(own, opp)
            key = own | (opp << 64)
            if turns >= KEY_TURNS_FROM:
                key |= turns << 128
            entry = tt_get(key)
            tmove = -1
            if entry is not None:
                tmove = entry[3]
                if entry[0] >= depth:
                    cut = cutoff(entry[1], entry[2], ply, alpha, beta, MATE_BOUND)
                    if cut is not None:
                        return cut
            # generate (at depth 1 also the mobility balance per line, for the leaves)
            if depth == 1:
                moves, mob0 = moves_and_mobility(own, opp, dl)
            else:
                moves = gen_moves(own, opp)
            child_turns = turns + 1
            if not moves:  # pass: nothing changes but the turn
                if child_turns >= MAX_TURNS:
                    return 0
                return -nega(opp, own, depth - 1, -beta, -alpha, ply + 1, child_turns)
            # order: TT move, killers, history
            if depth >= order_depth:
                def okey(m):
                    no = own ^ xmask[m]
                    v = memo_get(no)
                    if v is None:
                        v = side(no)
                    return v + hist[m]
                moves.sort(key=okey, reverse=True)
            else:
                moves.sort(key=hist.__getitem__, reverse=True)
            kill = killers[ply]
            k0, k1 = kill
            if k1 >= 0 and k1 in moves:
                moves.remove(k1)
                moves.insert(0, k1)
            if k0 >= 0 and k0 != k1 and k0 in moves:
                moves.remove(k0)
                moves.insert(0, k0)
            if tmove >= 0 and tmove in moves:
                moves.remove(tmove)
                moves.insert(0, tmove)
            win_here = WIN - ply - 1
            draw_next = child_turns >= MAX_TURNS
            alpha0 = alpha
            best = -INF
            bestm = -1
            if depth == 1:
                # leaves, evaluated here: F(mover) - F(opponent) + mobility - tempo
                f_opp = memo_get(opp)
                if f_opp is None:
                    f_opp = side(opp)
                threat = None
                if threats_on and gmemo_get(opp, 9) <= threat_groups:
                    # the opponent's connecting moves, were it to move now: a leaf that leaves one of
                    # them legal is lost (the opponent connects at the next ply)
                    for t in gen_moves(opp, own):
                        if king[t & 63] & (opp ^ bit[t >> 6]):
                            nx = opp ^ xmask[t]
                            v = memo_get(nx)
                            if v is None:
                                v = side(nx)
                            if v == CONNECTED:
                                if threat is None:
                                    threat = [t]
                                else:
                                    threat.append(t)
                    lose_next = -(WIN - ply - 2)
                n_eval = 0
                for m in moves:
                    n_eval += 1
                    no = own ^ xmask[m]
                    d = dbit[m]
                    capture = opp & d
                    op = opp ^ d if capture else opp
                    lkey = no | (op << 64)
                    s = leaf_get(lkey)
                    if s is None:
                        # the leaf's static value: WIN / -WIN when a side is connected
                        f_own = memo_get(no)
                        if f_own is None:
                            f_own = side(no)
                        if f_own == CONNECTED:
                            s = WIN
                        else:
                            if capture:
                                f_op = memo_get(op)
                                if f_op is None:
                                    f_op = side(op)
                            else:
                                f_op = f_opp
                            if f_op == CONNECTED:
                                s = -WIN
                            else:
                                mob = mob0
                                for li, mask, get, fill in (affected[m] if w_mob else ()):
                                    mine = no & mask
                                    theirs = op & mask
                                    found = get(mine | (theirs << 64))
                                    if found is None:
                                        found = fill(mine, theirs)
                                    mob += found[1] - dl[li]
                                s = f_own - f_op - tempo + w_mob * mob
                        if len(leaf) >= LEAF_LIMIT:
                            leaf.clear()
                        leaf[lkey] = s
                    if s == WIN:
                        s = win_here
                    elif s == -WIN:
                        s = -win_here
                    elif draw_next:
                        s = 0
                    elif threat is not None:
                        for t in threat:
                            mask, get, fill = move_line[t]
                            theirs = op & mask
                            mine = no & mask
                            found = get(theirs | (mine << 64))
                            if found is None:
                                found = fill(theirs, mine)
                            if t in found[0]:
                                if not capture:
                                    s = lose_next
                                    break
                                v = memo_get(op ^ xmask[t])
                                if v is None:
                                    v = side(op ^ xmask[t])
                                if v == CONNECTED:
                                    s = lose_next
                                    break
                    if s > best:
                        best = s
                        bestm = m
                        if s > alpha:
                            alpha = s
                            if s >= beta:
                                break
                nodes += n_eval
            else:
                d1 = depth - 1
                p1 = ply + 1
                first = True
                for m in moves:
                    no = own ^ xmask[m]
                    f_own = memo_get(no)
                    if f_own is None:
                        f_own = side(no)
                    if f_own == CONNECTED:
                        s = win_here
                    else:
                        d = dbit[m]
                        lost = False
                        if opp & d:
                            op = opp ^ d
                            f_op = memo_get(op)
                            if f_op is None:
                                f_op = side(op)
                            lost = f_op == CONNECTED
                        else:
                            op = opp
                        if lost:
                            s = -win_here
                        elif draw_next:
                            s = 0
                        elif first:
                            s = -nega(op, no, d1, -beta, -alpha, p1, child_turns)
                        else:
                            s = -nega(op, no, d1, -alpha - 1, -alpha, p1, child_turns)
                            if alpha < s < beta:
                                s = -nega(op, no, d1, -beta, -alpha, p1, child_turns)
                    first = False
                    if s > best:
                        best = s
                        bestm = m
                        if s > alpha:
                            alpha = s
                            if s >= beta:
                                break
            if best >= beta:
                if bestm != kill[0]:
                    kill[1] = kill[0]
                    kill[0] = bestm
                hist[bestm] += depth * depth
                flag = LOWER
            elif best > alpha0:
                hist[bestm] += depth * depth
                flag = EXACT
            else:
                flag = UPPER
            if len(tt) >= TT_LIMIT:
                tt.clear()
            tt[key] = (depth, flag, stored(best, ply, MATE_BOUND), bestm)
            return best

        self._nega = nega
        self._set_limits = set_limits
        self._get_nodes = get_nodes
        self._killers = killers

    # ------------------------------------------------------------------ the root

    def child_score(self, own: int, opp: int, m: int, depth: int, alpha: int, beta: int, turns: int) -> int:
        """The score of root move m for the mover, searched to `depth` plies in all (depth >= 1)."""
        no = own ^ XMASK[m]
        if is_connected(no):
            return WIN - 1
        op = opp
        if opp & DBIT[m]:
            op = opp ^ DBIT[m]
            if is_connected(op):
                return -(WIN - 1)
        if turns + 1 >= MAX_TURNS:
            return 0
        return -self._nega(op, no, depth - 1, -beta, -alpha, 1, turns + 1)

    def search(self, own: int, opp: int, turns: int, *, max_depth: int = MAX_PLY - 4,
               max_nodes: int | None = None, deadline: float | None = None, all_scores: bool = False,
               on_iteration=None, stop_fraction: float = 0.45, rng=None, noise: int = 0) -> SearchResult:
        """Iterative deepening from the position (own to move, not terminal).

        noise: each root move gets a random bonus of 0..noise (from `rng`) on non-mate scores, so
        that moves of (nearly) equal value are picked at random: games vary, a seed replays them.

        all_scores: search every root move with an open window, so `scores` holds the exact score of
        each (for the noisy low levels).  on_iteration(result) is called after each finished depth.
        stop_fraction: with a deadline, no new iteration starts after this fraction of the time.
        """
        start = time.monotonic()
        self._set_limits(max_nodes, deadline)
        for k in self._killers:
            k[0] = k[1] = -1
        moves = gen_moves(own, opp)
        if not moves:
            return SearchResult(-1, 0, 0, 1, time.monotonic() - start)
        # immediate results: a connecting move wins at once
        for m in moves:
            if is_connected(own ^ XMASK[m]):
                return SearchResult(m, WIN - 1, 1, len(moves), time.monotonic() - start, {m: WIN - 1}, [m])
        bonus = {m: rng.randint(0, noise) for m in moves} if noise and rng is not None else None
        hist = self.hist
        for i in range(4096):
            hist[i] >>= 3
        # root order: the TT move, then by history
        key = own | (opp << 64)
        if turns >= KEY_TURNS_FROM:
            key |= turns << 128
        entry = self.tt.get(key)
        order = sorted(moves, key=hist.__getitem__, reverse=True)
        if entry is not None and entry[3] in order:
            order.remove(entry[3])
            order.insert(0, entry[3])
        best_move, best_score, done_depth = order[0], -INF, 0
        scores: dict[int, int] = {}
        for depth in range(1, max_depth + 1):
            iter_scores: dict[int, int] = {}
            alpha = -INF
            cur_best, cur_score = -1, -INF
            try:
                for i, m in enumerate(order):
                    b = bonus[m] if bonus else 0
                    if all_scores or i == 0:
                        s = self.child_score(own, opp, m, depth, -INF, INF, turns)
                    else:
                        s = self.child_score(own, opp, m, depth, alpha - b, alpha + 1 - b, turns)
                        if s + b > alpha:
                            s = self.child_score(own, opp, m, depth, alpha - b, INF, turns)
                    if b and -MATE_BOUND < s < MATE_BOUND:
                        s += b
                    iter_scores[m] = s
                    if s > cur_score:
                        cur_best, cur_score = m, s
                        alpha = max(alpha, s)
            except TimeUp:
                # the previous best is searched first: a move that beat it at this depth is better
                if cur_best >= 0 and cur_best != best_move and not all_scores:
                    best_move, best_score = cur_best, cur_score
                break
            # finished depth
            done_depth = depth
            best_move, best_score = cur_best, cur_score
            scores = iter_scores
            order.sort(key=lambda mv: -iter_scores.get(mv, -INF))
            hist[best_move] += depth * depth
            if on_iteration is not None:
                on_iteration(SearchResult(best_move, best_score, depth, self._get_nodes(),
                                          time.monotonic() - start, scores))
            if abs(best_score) > MATE_BOUND and not all_scores:
                # a proven result: deeper search finds nothing better (a win) or nothing at all (a loss
                # everywhere only if every move loses: then keep the slowest)
                if best_score > 0 or all(abs(v) > MATE_BOUND for v in iter_scores.values()):
                    break
            if deadline is not None:
                now = time.monotonic()
                if now - start > stop_fraction * (deadline - start):
                    break
        return SearchResult(best_move, best_score, done_depth, self._get_nodes(), time.monotonic() - start,
                            scores, self.principal_variation(own, opp, best_move, turns))

    def principal_variation(self, own: int, opp: int, first: int, turns: int, limit: int = 12) -> list[int]:
        pv = [first]
        own, opp = opp, own ^ XMASK[first]
        if own & DBIT[first]:
            own ^= DBIT[first]
        seen = set()
        while len(pv) < limit:
            key = own | (opp << 64)
            t = turns + len(pv)
            if t >= KEY_TURNS_FROM:
                key |= t << 128
            entry = self.tt.get(key)
            if entry is None or key in seen or entry[3] < 0:
                break
            seen.add(key)
            m = entry[3]
            if is_connected(opp) or is_connected(own):
                break
            pv.append(m)
            own, opp = opp, own ^ XMASK[m]
            if own & DBIT[m]:
                own ^= DBIT[m]
        return pv
