"""A greedy Cultist Wars bot like the simple public CodinGame ones: convert an adjacent unit if it can,
else the best shot (a kill, else the most damage) at an enemy, else walk the leader to the nearest
neutral, else walk a cultist towards the nearest enemy.  It plays the positions `search_speed`
measures on, and the tests' games; as a yardstick, `python -m ai.tools.bot cultist-wars greedy`."""
from __future__ import annotations

import random

from ai.cultist_wars.state import DR, FREE, NB, NU, State, gen_moves, to_engine_move


class Greedy:
    """The simple heuristic bot of the module docstring (deterministic but for ties)."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self.name = "greedy"

    def choose(self, game, deadline: float | None = None, on_info=None):
        st = State.from_game(game)
        return to_engine_move(self.pick(st))

    def pick(self, st: State) -> int:
        me = st.turn & 1
        pos, hp, owner, occ = st.pos, st.hp, st.owner, st.occ
        moves = gen_moves(pos, hp, owner, occ, me)
        best, bv = 0, 0
        for m in moves:
            kind = m & 3
            u = (m >> 2) & 15
            a = (m >> 6) & 127
            if kind == 3:
                v = 1000 + (500 if owner[a] == 1 - me else 0)
            elif kind == 2 and owner[a] == 1 - me:
                dmg = 7 - DR[pos[u]][pos[a]]
                v = (800 + (100 if a < 2 else 0)) if dmg >= hp[a] else 100 + 10 * dmg + (20 if a < 2 else 0)
            else:
                continue
            if v > bv:
                best, bv = m, v
        if bv:
            return best
        # walk: the leader to the nearest neutral, else a cultist towards the nearest enemy
        lead = me if hp[me] else -1
        targets = [pos[v] for v in range(2, NU) if hp[v] and owner[v] == 2]
        walkers = [lead] if lead >= 0 and targets else []
        if not walkers:
            targets = [pos[v] for v in range(NU) if hp[v] and owner[v] == 1 - me]
            walkers = [u for u in range(2, NU) if hp[u] and owner[u] == me]
            if lead >= 0 and not walkers:
                walkers = [lead]
        best, bd = 0, 99
        for u in walkers:
            for t in NB[pos[u]]:
                if occ[t] != FREE:
                    continue
                d = min((DR[t][g] for g in targets), default=99)
                d += self.rng.random() * 0.1
                if d < bd:
                    best, bd = 1 | u << 2 | t << 6, d
        return best
