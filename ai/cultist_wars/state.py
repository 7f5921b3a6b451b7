"""The search's own view of a Cultist Wars position: flat lists, int moves, exact referee turns.

A position is five lists and three ints (the engine's own layout, see engines/cultist_wars/game.py):
    pos[u], hp[u], owner[u]   the 14 units by id (pos -1 once out of the game)
    occ[t]                    FREE (-1), OBSTACLE (-2) or the id of the unit on tile t (t = y*13 + x)
    cnt[p]                    the referee's numberOfUnits[p] (the score)
    lcg, turn                 the neutral-move LCG state and the turns played (player to move: turn & 1)
    neutrals                  owner-2 unit ids, dead ones included: the list the neutral move picks from

Moves are ints (`kind | unit << 2 | a << 6 | b << 13`):
    WAIT     0
    MOVE     kind 1, a = the free neighbour tile the unit steps to
    SHOOT    kind 2, a = the unit the bullet hits (the victim, found with Bresenham when generated),
             b = the unit aimed at (what the bot prints); damage = 7 - distance to the victim
    CONVERT  kind 3, a = the adjacent unit converted
Every generated move is the resolved action the referee would carry out, so applying one is a few
list writes: the referee's BFS and bullet path are looked up only when moves are generated.

`State.play` / `State.undo` apply and take back one whole referee turn (action, neutral move with the
LCG, removal of the dead); the searcher inlines the same code for speed, and the tests check both
against the engine.
"""
from __future__ import annotations

import random

from engines.cultist_wars.board import BULLET, DIST_ROWS, N_TILES, NEIGHBOURS, OBSTACLE, XY
from engines.cultist_wars.protocol import CONVERT, MOVE, SHOOT, WAIT_MOVE, Move

NT = N_TILES
NU = 14
FREE = -1
OBST = OBSTACLE
TURNS = 150
NEUTRAL = 2
LCG_MUL, LCG_ADD, LCG_MASK = 1103515245, 12345, 0x7FFFFFFF
N_SLOTS = 12
RANGE = 6

K_WAIT, K_MOVE, K_SHOOT, K_CONV = 0, 1, 2, 3

NB = NEIGHBOURS
DR = DIST_ROWS
# BUL[s][t]: tiles a bullet from tile s at tile t checks, in priority order (None: out of range).
BUL: tuple[tuple, ...] = tuple(tuple(BULLET.get(s * NT + t) for t in range(NT)) for s in range(NT))

_zr = random.Random(0xC017)
ZP = tuple(tuple(_zr.getrandbits(64) for _ in range(NT)) for _ in range(NU))
ZH = tuple(tuple(_zr.getrandbits(64) for _ in range(11)) for _ in range(NU))
ZO = tuple(tuple(_zr.getrandbits(64) for _ in range(3)) for _ in range(NU))
del _zr


def enc(kind: int, u: int = 0, a: int = 0, b: int = 0) -> int:
    return kind | u << 2 | a << 6 | b << 13


def static_distances(occ: list[int]) -> list[list[int]]:
    """DD[a][b]: steps between floor tiles a and b over floor (units ignored); 99 if unreachable."""
    dd = []
    for s in range(NT):
        row = [99] * NT
        if occ[s] != OBST:
            row[s] = 0
            frontier = [s]
            d = 0
            while frontier:
                d += 1
                nxt = []
                for t in frontier:
                    for n in NB[t]:
                        if row[n] == 99 and occ[n] != OBST:
                            row[n] = d
                            nxt.append(n)
                frontier = nxt
        dd.append(row)
    return dd


_DD_CACHE: dict[int, list[list[int]]] = {}


def distances_for(occ: list[int]) -> list[list[int]]:
    mask = 0
    for t in range(NT):
        if occ[t] == OBST:
            mask |= 1 << t
    dd = _DD_CACHE.get(mask)
    if dd is None:
        if len(_DD_CACHE) > 64:
            _DD_CACHE.clear()
        dd = _DD_CACHE[mask] = static_distances(occ)
    return dd


class State:
    """A mutable position with exact play/undo of referee turns on int moves."""

    __slots__ = ("pos", "hp", "owner", "occ", "cnt", "lcg", "turn", "neutrals", "hash", "_undo")

    def __init__(self, pos, hp, owner, occ, lcg: int, turn: int):
        self.pos, self.hp, self.owner, self.occ = list(pos), list(hp), list(owner), list(occ)
        self.cnt = [sum(1 for u in range(NU) if owner[u] == p and hp[u] > 0) for p in (0, 1)]
        self.lcg, self.turn = lcg, turn
        self.neutrals = tuple(u for u in range(2, NU) if owner[u] == NEUTRAL)
        h = 0
        for u in range(NU):
            if pos[u] >= 0:
                h ^= ZP[u][pos[u]]
            h ^= ZH[u][hp[u]] ^ ZO[u][owner[u]]
        self.hash = h
        self._undo: list = []

    @classmethod
    def from_game(cls, game) -> "State":
        pos, hp, owner = [-1] * NU, [0] * NU, [0] * NU
        for v in game.units():
            owner[v.id], hp[v.id] = v.owner, v.hp
            if v.alive:
                pos[v.id] = v.y * 13 + v.x
        occ = [FREE] * NT
        for x, y in game.obstacles():
            occ[y * 13 + x] = OBST
        for u in range(NU):
            if pos[u] >= 0:
                occ[pos[u]] = u
        return cls(pos, hp, owner, occ, game.lcg_state, game.turn)

    def key(self) -> int:
        return self.hash ^ self.lcg ^ (self.turn << 31)

    def over(self) -> bool:
        return self.cnt[0] < 1 or self.cnt[1] < 1 or self.turn >= TURNS

    # ------------------------------------------------------------------ moves

    def moves(self) -> list[int]:
        """Every distinct resolved action of the player to move (useless shots left out: see gen_moves)."""
        return gen_moves(self.pos, self.hp, self.owner, self.occ, self.turn & 1)

    def play(self, m: int) -> None:
        pos, hp, owner, occ, cnt = self.pos, self.hp, self.owner, self.occ, self.cnt
        me = self.turn & 1
        kind = m & 3
        u = (m >> 2) & 15
        a = (m >> 6) & 127
        h = self.hash
        rec = [m, self.lcg, self.neutrals, h, -1, -1, -1, -1, -1]
        killed = -1
        if kind == K_MOVE:
            fr = pos[u]
            occ[fr] = FREE
            occ[a] = u
            pos[u] = a
            rec[4] = fr
            h ^= ZP[u][fr] ^ ZP[u][a]
        elif kind == K_SHOOT:
            old = hp[a]
            new = old - (7 - DR[pos[u]][pos[a]])
            if new <= 0:
                new = 0
                killed = a
                if owner[a] < 2:
                    cnt[owner[a]] -= 1
            hp[a] = new
            rec[4] = old
            h ^= ZH[a][old] ^ ZH[a][new]
        elif kind == K_CONV:
            old = owner[a]
            owner[a] = me
            if old < 2:
                cnt[old] -= 1
            else:
                self.neutrals = tuple(x for x in self.neutrals if x != a)
            cnt[me] += 1
            rec[4] = old
            h ^= ZO[a][old] ^ ZO[a][me]
        lcg = self.lcg
        neutrals = self.neutrals
        if neutrals:
            lcg = (lcg * LCG_MUL + LCG_ADD) & LCG_MASK
            idx = lcg % N_SLOTS
            if idx < len(neutrals):
                n = neutrals[idx]
                if hp[n]:
                    here = pos[n]
                    lcg = (lcg * LCG_MUL + LCG_ADD) & LCG_MASK
                    opts = [t for t in NB[here] if occ[t] == FREE]
                    if opts:
                        to = opts[lcg % len(opts)]
                        occ[here] = FREE
                        occ[to] = n
                        pos[n] = to
                        rec[5], rec[6] = n, here
                        h ^= ZP[n][here] ^ ZP[n][to]
        if killed >= 0:
            rec[7], rec[8] = killed, pos[killed]
            occ[pos[killed]] = FREE
            pos[killed] = -1
        self.lcg = lcg
        self.hash = h
        self.turn += 1
        self._undo.append(rec)

    def undo(self) -> None:
        m, lcg, neutrals, h, old, moved, mfrom, killed, ktile = self._undo.pop()
        pos, hp, owner, occ, cnt = self.pos, self.hp, self.owner, self.occ, self.cnt
        self.turn -= 1
        me = self.turn & 1
        if killed >= 0:
            pos[killed] = ktile
            occ[ktile] = killed
        if moved >= 0:
            occ[pos[moved]] = FREE
            occ[mfrom] = moved
            pos[moved] = mfrom
        kind = m & 3
        u = (m >> 2) & 15
        a = (m >> 6) & 127
        if kind == K_MOVE:
            occ[a] = FREE
            occ[old] = u
            pos[u] = old
        elif kind == K_SHOOT:
            if hp[a] == 0 and owner[a] < 2:
                cnt[owner[a]] += 1
            hp[a] = old
        elif kind == K_CONV:
            owner[a] = old
            cnt[me] -= 1
            if old < 2:
                cnt[old] += 1
        self.lcg, self.neutrals, self.hash = lcg, neutrals, h


def gen_moves(pos, hp, owner, occ, me: int, all_shots: bool = False) -> list[int]:
    """WAIT, each own unit's steps to free neighbours, the leader's converts of adjacent units, and the
    cultists' shots, one per distinct victim (the effect depends only on who is hit and from where).
    Shots stopped by an obstacle (a WAIT) and shots hitting one's own units are left out unless
    `all_shots` (shots at neutrals are kept: they can deny a conversion)."""
    out = [0]
    alive = [(v, pos[v]) for v in range(NU) if hp[v]]
    for u, pu in alive:
        if owner[u] != me:
            continue
        for t in NB[pu]:
            if occ[t] == FREE:
                out.append(1 | u << 2 | t << 6)
        if u < 2:
            for t in NB[pu]:
                v = occ[t]
                if v >= 2 and owner[v] != me:
                    out.append(3 | u << 2 | v << 6)
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
            if owner[vic] == me and not all_shots:
                continue
            out.append(2 | u << 2 | vic << 6 | v << 13)
    return out


def to_engine_move(m: int) -> Move:
    """The engine's Move for a search move (a MOVE names the tile stepped to, which is adjacent)."""
    kind = m & 3
    u = (m >> 2) & 15
    if kind == K_MOVE:
        x, y = XY[(m >> 6) & 127]
        return Move(MOVE, u, x, y)
    if kind == K_SHOOT:
        return Move(SHOOT, u, target=(m >> 13) & 15)
    if kind == K_CONV:
        return Move(CONVERT, u, target=(m >> 6) & 15)
    return WAIT_MOVE


def move_name(m: int) -> str:
    kind = m & 3
    u = (m >> 2) & 15
    if kind == K_MOVE:
        x, y = XY[(m >> 6) & 127]
        return f"{u} MOVE {x} {y}"
    if kind == K_SHOOT:
        return f"{u} SHOOT {(m >> 13) & 15}"
    if kind == K_CONV:
        return f"{u} CONVERT {(m >> 6) & 15}"
    return "WAIT"
