"""Alpha-beta over single actions for Cultist Wars, the neutral move played exactly.

The neutral move is not a chance node here: the LCG that drives it is part of the position (both
players can compute it), so every turn of the search is the referee's turn, action then neutral move
then the removal of the dead, and a position's future is known.  A searcher that averaged over the
neutral moves would misjudge exactly the turns where a neutral steps into a bullet line or next to a
leader.

Search: negamax alpha-beta (PVS), iterative deepening, a transposition table keyed by an
incremental Zobrist hash (positions, hp, owners) mixed with the LCG state and the turn, killer moves
and a history table for quiet moves.  Moves are the resolved actions of state.py (ints); make and
unmake are inlined in the search loop (a few list writes each, no per-node copies).  The TT move is
tried before any move is generated; generated moves and evaluations are cached by position key, and
the three tables are kept from one search (turn) to the next (positions include the turn and LCG).
Options measured and left off by default: quiescence on kills/conversions (`qs`), late move
reductions (`lmr`), futility pruning (`futility`): none gained at equal nodes.
Ordering: TT move, kills (by the victim's value), converts, damaging shots (by damage), killers,
quiet moves by history.  Useless shots (into obstacles, into one's own units, duplicates hitting the
same victim) are never generated; shots at neutrals only when they kill or the neutral stands near
the enemy leader (deny a conversion).

Evaluation (side to move's view, in "centi-units": a unit is worth 100):
- material: each unit UNIT + HP * hp; a leader adds LEADER (+ per convertible neutral left) while
  conversions are possible, and its hp weighs more (leader safety: without it a side stops growing);
- neutrals: for each neutral, NEUTRAL * (g(d_mine) - g(d_theirs)), g(d) = 4 / (4 + d) with d the
  leader's walking distance over the map (who will convert it, and how soon);
- threats and tempo: the side to move gets TEMPO% of its best immediate gain (a kill, a shot's
  damage, a conversion: it is about to play it), the side not to move loses THREAT% of its own;
- cultists far from every enemy unit lose APPROACH per step beyond shooting range;
- the end-of-game horizon: positional terms fade over the last FADE turns (at turn 150 only the
  unit counts score), and terminal positions score as the referee does (win/draw/loss).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ai.ttable import EXACT, LOWER, UPPER, cutoff, stored
from ai.cultist_wars.state import (BUL, DR, FREE, LCG_ADD, LCG_MASK, LCG_MUL, N_SLOTS, NB, NU, RANGE, TURNS,
                                   ZH, ZO, ZP, State, distances_for)

WIN = 1_000_000
WIN_BOUND = WIN - 10_000
INF = 10 * WIN


DEFAULT_WEIGHTS = {
    "unit": 100,      # one unit (the score)
    "hp": 7,          # per hp of a cultist
    "leader_hp": 6,   # per hp of a leader
    "leader": 60,     # a living leader, while it can still convert
    "leader_n": 20,   # ... per neutral left to convert
    "neutral": 60,    # a neutral's value to the leader nearer to it
    "tempo": 70,      # % of the side to move's best immediate gain
    "threat": 25,     # % of the other side's best immediate gain, against it
    "approach": 2,    # per step a cultist stands beyond range of the nearest enemy unit
    "fade": 20,       # positional terms fade over the last `fade` turns
    "qs": 0,          # quiescence plies (kills and conversions) after the nominal depth
    "lmr": 0,         # quiet moves after the first `lmr` are searched one ply shallower first (0: off)
    "futility": 0,    # one ply from the horizon, quiet moves are skipped when the eval + this <= alpha
    "keep": 1,        # keep the tables (TT, evaluations, moves) from one search to the next
}

# Entries past which the tables start afresh (about 80 MB at most together).
TT_LIMIT, GEN_LIMIT, EVAL_LIMIT = 200_000, 50_000, 300_000


class _Abort(Exception):
    pass


@dataclass
class SearchResult:
    move: int = 0
    score: int = 0
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    scores: dict = field(default_factory=dict)  # root move -> score (exact only with all_scores)
    pv: list = field(default_factory=list)

    @property
    def proven(self) -> bool:
        """The search found a forced win or loss."""
        return abs(self.score) >= WIN_BOUND


class Searcher:
    """One searcher per player.  The TT, the evaluation cache and the move cache hold positions only
    (keys include the LCG state and the turn), so they stay valid from one search to the next;
    history and killers start afresh each search."""

    def __init__(self, weights: dict | None = None):
        self.tt: dict = {}
        self.ecache: dict = {}
        self.gcache: dict = {}
        self.w = dict(DEFAULT_WEIGHTS)
        if weights:
            unknown = set(weights) - set(self.w)
            if unknown:
                raise ValueError(f"unknown weights {sorted(unknown)}")
            self.w.update(weights)
        self.nodes = 0

    # ------------------------------------------------------------------ entry point

    def search(self, state: State, *, max_depth: int = 64, max_nodes: int | None = None,
               deadline: float | None = None, all_scores: bool = False, on_iteration=None,
               stop_fraction: float = 0.5) -> SearchResult:
        """Iterative deepening from `state` (left unchanged).  Stops at `max_depth`, after `max_nodes`
        nodes, or at `deadline` (time.monotonic()); a new iteration starts only while less than
        `stop_fraction` of the time to the deadline is spent.  With `all_scores` every root move gets
        an exact score (full window at the root: slower, for the noisy levels)."""
        w = self.w
        UNIT, HPW, LHPW = w["unit"], w["hp"], w["leader_hp"]
        LEAD, LEAD_N, NEUT = w["leader"], w["leader_n"], w["neutral"]
        TEMPO, THREAT, APPROACH, FADE = w["tempo"], w["threat"], w["approach"], max(1, w["fade"])
        QS = w["qs"]
        LMR = w["lmr"]
        FUT = w["futility"]

        pos, hp, owner, occ, cnt = state.pos[:], state.hp[:], state.owner[:], state.occ[:], state.cnt[:]
        neutrals_box = [state.neutrals]
        root_turn = state.turn
        DD = distances_for(occ)
        G = [4.0 / (4.0 + d) for d in range(100)]  # g(d) of the neutral term
        if (not w["keep"] or len(self.tt) > TT_LIMIT or len(self.gcache) > GEN_LIMIT
                or len(self.ecache) > EVAL_LIMIT):
            self.tt, self.ecache, self.gcache = {}, {}, {}
        tt: dict[int, tuple] = self.tt  # position key -> (depth, flag, score, best move)
        ecache: dict[int, int] = self.ecache  # evaluations by position key
        gcache: dict[int, tuple] = self.gcache  # generated moves by position key
        root_box: list = [[]]
        scores_box: list = [{}]
        hist = [0] * (1 << 17)
        killers = [[0, 0] for _ in range(128)]
        start = time.monotonic()
        node_limit = max_nodes if max_nodes is not None else 1 << 62
        nodes = 0
        check_at = 32
        time_now = time.monotonic

        # -------------------------------------------------------------- evaluation

        def evaluate(me: int, turn: int) -> int:
            left = TURNS - turn
            l0 = pos[0] if hp[0] else -1
            l1 = pos[1] if hp[1] else -1
            neut = 0.0
            nn = 0  # neutrals in the game
            h0 = h1 = 0
            c0 = []  # cultists of each side: (id, tile)
            c1 = []
            for u in range(2, NU):
                h = hp[u]
                if h:
                    o = owner[u]
                    if o == 2:
                        nn += 1
                        p = pos[u]
                        if l0 >= 0:
                            neut += G[DD[l0][p]]
                        if l1 >= 0:
                            neut -= G[DD[l1][p]]
                    elif o == 0:
                        h0 += h
                        c0.append((u, pos[u]))
                    else:
                        h1 += h
                        c1.append((u, pos[u]))
            lb = LEAD + LEAD_N * nn
            if left < FADE:
                lb = lb * left // FADE
                neut = neut * left / FADE
            s0 = UNIT * len(c0) + HPW * h0 + int(NEUT * neut)
            s1 = UNIT * len(c1) + HPW * h1
            e0 = c0[:]  # units of each side, as targets
            e1 = c1[:]
            if l0 >= 0:
                s0 += UNIT + LHPW * hp[0] + lb
                e0.append((0, l0))
            if l1 >= 0:
                s1 += UNIT + LHPW * hp[1] + lb
                e1.append((1, l1))
            # shots: each side's best immediate gain; cultists out of range of every enemy
            g0 = g1 = 0
            for cs, targets, side in ((c0, e1, 0), (c1, e0, 1)):
                best = 0
                far = 0
                for u, pu in cs:
                    row = DR[pu]
                    brow = BUL[pu]
                    near = 99
                    for v, pv in targets:
                        d = row[pv]
                        if d > RANGE:
                            if d < near:
                                near = d
                            continue
                        near = 0
                        vic = v
                        for t in brow[pv]:
                            o = occ[t]
                            if o != FREE:
                                vic = o
                                break
                        if vic != v:
                            if vic < 0 or owner[vic] == side or owner[vic] == 2:
                                continue
                            d = row[pos[vic]]
                        dmg = 7 - d
                        h = hp[vic]
                        if vic < 2:
                            g = (UNIT + LHPW * h + lb) if dmg >= h else LHPW * dmg
                        else:
                            g = (UNIT + HPW * h) if dmg >= h else HPW * dmg
                        if g > best:
                            best = g
                    if near < 99:
                        far += near - RANGE if near > RANGE else 0
                if side == 0:
                    g0, s0 = best, s0 - APPROACH * far
                else:
                    g1, s1 = best, s1 - APPROACH * far
            # the leaders' conversions
            if l0 >= 0 or l1 >= 0:
                for leader, side in ((l0, 0), (l1, 1)):
                    if leader < 0:
                        continue
                    best = g0 if side == 0 else g1
                    for t in NB[leader]:
                        v = occ[t]
                        if v >= 2:
                            ov = owner[v]
                            if ov == 2:
                                g = UNIT + HPW * hp[v]
                            elif ov != side:
                                g = 2 * UNIT + 2 * HPW * hp[v]
                            else:
                                continue
                            if g > best:
                                best = g
                    if side == 0:
                        g0 = best
                    else:
                        g1 = best
            if me == 0:
                return s0 - s1 + (TEMPO * g0 - THREAT * g1) // 100
            return s1 - s0 + (TEMPO * g1 - THREAT * g0) // 100

        # -------------------------------------------------------------- move generation

        def gen_base(me: int) -> tuple[list[int], list[int]]:
            """(quiet moves, capture-like moves with their static ordering keys) of `me`."""
            opp = 1 - me
            quiet = [0]
            keys = []
            alive = [(v, pos[v]) for v in range(NU) if hp[v]]
            l_opp = pos[opp] if hp[opp] else -1
            for u, pu in alive:
                if owner[u] != me:
                    continue
                ub = u << 2
                for t in NB[pu]:
                    if occ[t] == FREE:
                        quiet.append(1 | ub | t << 6)
                if u < 2:
                    for t in NB[pu]:
                        v = occ[t]
                        if v >= 2:
                            ov = owner[v]
                            if ov == opp:
                                keys.append((1 << 40) + (3 << 36) | 3 | ub | v << 6)
                            elif ov == 2:
                                keys.append((1 << 40) + (2 << 36) + (hp[v] << 30) | 3 | ub | v << 6)
                    continue
                row = DR[pu]
                brow = BUL[pu]
                seen = 0
                for v, pv in alive:
                    if v == u or row[pv] > RANGE:
                        continue
                    vic = v
                    for t in brow[pv]:
                        o = occ[t]
                        if o != FREE:
                            vic = o
                            break
                    if vic < 0 or (seen >> vic) & 1:
                        continue
                    seen |= 1 << vic
                    ov = owner[vic]
                    if ov == me:
                        continue
                    dmg = 7 - row[pos[vic]]
                    kill = dmg >= hp[vic]
                    m = 2 | ub | vic << 6 | v << 13
                    if ov == opp:
                        if kill:
                            # kills first, the leader first, then the healthiest victim
                            keys.append((1 << 40) + (4 << 36) + ((vic < 2) << 35) + (hp[vic] << 30) | m)
                        else:
                            keys.append((1 << 40) + (1 << 36) + ((vic < 2) << 35) + (dmg << 30) | m)
                    elif kill or (l_opp >= 0 and DR[l_opp][pos[vic]] <= 2):
                        keys.append((1 << 39) + (dmg << 30) | m)
            return quiet, keys

        def gen(me: int, ply: int, key: int) -> list[int]:
            """Ordered moves of `me` (see the module docstring); the moves of a position are cached,
            their order (history, killers) is not."""
            base = gcache.get(key)
            if base is None:
                base = gcache[key] = gen_base(me)
            quiet, caps = base
            keys = [hist[m] << 17 | m for m in quiet]
            keys += caps
            k0, k1 = killers[ply]
            if k0:
                try:
                    keys[keys.index(hist[k0] << 17 | k0)] = (1 << 38) + (1 << 37) | k0
                except ValueError:
                    pass
                if k1:
                    try:
                        keys[keys.index(hist[k1] << 17 | k1)] = (1 << 38) | k1
                    except ValueError:
                        pass
            keys.sort(reverse=True)
            return [k & 0x1FFFF for k in keys]

        def gen_captures(me: int) -> list[int]:
            """Kills of enemy units and conversions, best first (the quiescence search's moves)."""
            opp = 1 - me
            keys = []
            if hp[me]:
                pl = pos[me]
                for t in NB[pl]:
                    v = occ[t]
                    if v >= 2 and owner[v] != me:
                        keys.append((3 << 36 if owner[v] == opp else 2 << 36) | 3 | me << 2 | v << 6)
            targets = [(v, pos[v]) for v in range(NU) if hp[v] and owner[v] == opp]
            for u in range(2, NU):
                if not hp[u] or owner[u] != me:
                    continue
                pu = pos[u]
                row = DR[pu]
                brow = BUL[pu]
                for v, pv in targets:
                    d = row[pv]
                    if d > RANGE or 7 - d < hp[v]:
                        continue
                    for t in brow[pv]:
                        if occ[t] != FREE:
                            break
                    else:
                        m = 2 | u << 2 | v << 6 | v << 13
                        keys.append((4 << 36) + ((v < 2) << 35) + (hp[v] << 30) | m)
            if len(keys) > 1:
                keys.sort(reverse=True)
            return [k & 0x1FFFF for k in keys]

        # -------------------------------------------------------------- alpha-beta

        def ab(depth: int, alpha: int, beta: int, ply: int, lcg: int, h: int, turn: int) -> int:
            nonlocal nodes, check_at
            nodes += 1
            if nodes >= check_at:
                check_at = nodes + 32
                if nodes >= node_limit or (deadline is not None and time_now() >= deadline):
                    raise _Abort
            me = turn & 1
            c0, c1 = cnt
            if c0 < 1 or c1 < 1 or turn >= TURNS:
                d = c0 - c1 if me == 0 else c1 - c0
                return WIN - ply + d if d > 0 else -WIN + ply + d if d < 0 else 0
            if depth <= 0:
                ek = h ^ lcg ^ (turn << 31)
                stand = ecache.get(ek)
                if stand is None:
                    stand = ecache[ek] = evaluate(me, turn)
                if not QS or depth <= -QS or stand >= beta:
                    return stand
                moves = gen_captures(me)
                if not moves:
                    return stand
                if stand > alpha:
                    alpha = stand
                key = -1
            else:
                key = h ^ lcg ^ (turn << 31)
                if ply == 0:
                    moves = root_box[0]
                else:
                    e = tt.get(key)
                    ttm = 0
                    if e is not None:
                        ttm = e[3]
                        if e[0] >= depth:
                            cut = cutoff(e[1], e[2], ply, alpha, beta, WIN_BOUND)
                            if cut is not None:
                                return cut
                    moves = [ttm] if ttm else gen(me, ply, key)
            a0 = alpha
            best = -INF
            bestm = moves[0]
            first = True
            neutrals = neutrals_box[0]
            stage = 1 if (key >= 0 and ply and ttm) else 2
            nsearched = 0
            futile = False
            if FUT and depth == 1 and ply and key >= 0:
                fv = evaluate(me, turn) + FUT
                futile = fv <= alpha
            while True:
                for m in moves:
                    # ---- make: the action
                    kind = m & 3
                    if futile and kind < 2 and not first:
                        if fv > best:
                            best = fv
                        continue
                    u = (m >> 2) & 15
                    a = (m >> 6) & 127
                    nh = h
                    killed = -1
                    if kind == 1:
                        fr = pos[u]
                        occ[fr] = FREE
                        occ[a] = u
                        pos[u] = a
                        nh ^= ZP[u][fr] ^ ZP[u][a]
                    elif kind == 2:
                        old = hp[a]
                        new = old - 7 + DR[pos[u]][pos[a]]
                        if new <= 0:
                            new = 0
                            killed = a
                            if owner[a] < 2:
                                cnt[owner[a]] -= 1
                        hp[a] = new
                        nh ^= ZH[a][old] ^ ZH[a][new]
                    elif kind == 3:
                        old = owner[a]
                        owner[a] = me
                        if old < 2:
                            cnt[old] -= 1
                        else:
                            neutrals_box[0] = tuple(x for x in neutrals if x != a)
                        cnt[me] += 1
                        nh ^= ZO[a][old] ^ ZO[a][me]
                    # ---- the neutral move
                    nl = lcg
                    moved = -1
                    nn = neutrals_box[0]
                    if nn:
                        nl = (lcg * LCG_MUL + LCG_ADD) & LCG_MASK
                        idx = nl % N_SLOTS
                        if idx < len(nn):
                            n = nn[idx]
                            if hp[n]:
                                mfrom = pos[n]
                                nl = (nl * LCG_MUL + LCG_ADD) & LCG_MASK
                                opts = [t for t in NB[mfrom] if occ[t] == FREE]
                                if opts:
                                    to = opts[nl % len(opts)]
                                    occ[mfrom] = FREE
                                    occ[to] = n
                                    pos[n] = to
                                    moved = n
                                    nh ^= ZP[n][mfrom] ^ ZP[n][to]
                    # ---- the dead leave their tiles
                    if killed >= 0:
                        ktile = pos[killed]
                        occ[ktile] = FREE
                        pos[killed] = -1
                    # ---- search
                    nsearched += 1
                    if first or (ply == 0 and all_scores):
                        v = -ab(depth - 1, -beta, -alpha, ply + 1, nl, nh, turn + 1)
                    else:
                        if LMR and depth >= 3 and kind < 2 and nsearched > LMR and ply:
                            # a late quiet move: a reduced search first
                            v = -ab(depth - 2, -alpha - 1, -alpha, ply + 1, nl, nh, turn + 1)
                        else:
                            v = alpha + 1
                        if v > alpha:
                            v = -ab(depth - 1, -alpha - 1, -alpha, ply + 1, nl, nh, turn + 1)
                            if alpha < v < beta:
                                v = -ab(depth - 1, -beta, -alpha, ply + 1, nl, nh, turn + 1)
                    # ---- unmake
                    if killed >= 0:
                        pos[killed] = ktile
                        occ[ktile] = killed
                    if moved >= 0:
                        occ[pos[moved]] = FREE
                        occ[mfrom] = moved
                        pos[moved] = mfrom
                    if kind == 1:
                        occ[a] = FREE
                        occ[fr] = u
                        pos[u] = fr
                    elif kind == 2:
                        if killed >= 0 and owner[a] < 2:
                            cnt[owner[a]] += 1
                        hp[a] = old
                    elif kind == 3:
                        owner[a] = old
                        cnt[me] -= 1
                        if old < 2:
                            cnt[old] += 1
                        else:
                            neutrals_box[0] = neutrals
                    first = False
                    if ply == 0:
                        scores_box[0][m] = v
                        if all_scores:
                            if v > best:
                                best, bestm = v, m
                            continue
                    if v > best:
                        best = v
                        bestm = m
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                if kind < 2:
                                    if hist[m] < 1_000_000:
                                        hist[m] += depth * depth
                                    kl = killers[ply]
                                    if kl[0] != m:
                                        kl[1] = kl[0]
                                        kl[0] = m
                                break
                else:
                    if stage == 1:  # the TT move did not cut: now the others
                        stage = 2
                        moves = gen(me, ply, key)
                        if ttm in moves:
                            moves.remove(ttm)
                        continue
                break
            if key < 0:  # quiescence: standing pat is an option
                return best if best > a0 else a0
            flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
            tt[key] = (depth, flag, stored(best, ply, WIN_BOUND), bestm)
            return best

        # -------------------------------------------------------------- root

        result = SearchResult()
        me = root_turn & 1
        if cnt[0] < 1 or cnt[1] < 1 or root_turn >= TURNS:
            return result
        order = gen(me, 0, state.hash ^ state.lcg ^ (root_turn << 31))
        root_box[0] = order
        result.move = order[0]
        try:
            for depth in range(1, max_depth + 1):
                scores_box[0] = {}
                best = ab(depth, -INF, INF, 0, state.lcg, state.hash, root_turn)
                scores = scores_box[0]
                bestm = max(order, key=lambda mm: scores.get(mm, -INF))
                result.move, result.score, result.depth = bestm, best, depth
                result.scores = scores
                order = sorted(order, key=lambda mm: -scores.get(mm, -INF))
                root_box[0] = order
                result.nodes = nodes
                result.seconds = time.monotonic() - start
                if on_iteration is not None:
                    on_iteration(result)
                if abs(best) >= WIN_BOUND or root_turn + depth >= TURNS or len(order) == 1:
                    break
                if deadline is not None and time.monotonic() - start > stop_fraction * (deadline - start):
                    break
        except _Abort:
            # a move that beat the previous best in the unfinished iteration is kept
            part = scores_box[0]
            if part and order and order[0] in part:
                m = max(part, key=lambda mm: part[mm])
                if part[m] > part[order[0]] or m == order[0]:
                    result.move, result.score = m, part[m]
        result.nodes = nodes
        result.seconds = time.monotonic() - start
        self.nodes = nodes
        return result
