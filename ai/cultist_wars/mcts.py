"""Yardsticks for the alpha-beta levels (not levels themselves): a plain MCTS and a greedy bot.

`Mcts`: UCT as OpenSpiel's `MCTSBot` plays by default: UCB1 (c = 2, on returns in [-1, 1]),
one uniformly random rollout per expansion played to the end of the game, best child by visits.
The neutral move is not a chance node: the LCG is part of the position (state.py), so each
action has one successor.  It uses the search's move generator and make/undo, so it is as quick as
a Python MCTS gets here.

`Greedy`: what a simple public CodinGame bot does: convert an adjacent unit if it can, else the best
shot (a kill, else the most damage) at an enemy, else walk the leader to the nearest neutral, else
walk a cultist towards the nearest enemy.

Run as a CodinGame bot (e.g. `termarena match cultist-wars ai:6 "cmd:python -m ai.cultist_wars.mcts"`):
`python -m ai.cultist_wars.mcts [--ms N] [--iterations N] [--seed N] [--greedy]`.
"""
from __future__ import annotations

import math
import random
import time

from ai.cultist_wars.state import DR, FREE, NB, NU, State, gen_moves, to_engine_move


class _Node:
    __slots__ = ("move", "children", "untried", "visits", "total", "player")

    def __init__(self, move: int, player: int):
        self.move = move
        self.player = player  # who moved into this node
        self.children: list[_Node] = []
        self.untried: list[int] | None = None
        self.visits = 0
        self.total = 0.0


def _result(st: State, player: int) -> float:
    c0, c1 = st.cnt
    d = c0 - c1 if player == 0 else c1 - c0
    return 1.0 if d > 0 else -1.0 if d < 0 else 0.0


class Mcts:
    def __init__(self, iterations: int | None = None, ms: float | None = None, c: float = 2.0,
                 first_ms: float | None = None, seed: int | None = None):
        self.iterations = iterations
        self.ms = ms
        self.first_ms = first_ms if first_ms is not None else ms
        self.c = c
        self.rng = random.Random(seed)
        self.turns = 0
        self.name = "mcts"

    def choose(self, game, deadline: float | None = None, on_info=None):
        st = State.from_game(game)
        ms = self.first_ms if self.turns == 0 else self.ms
        self.turns += 1
        stop = deadline
        if stop is not None and stop - time.monotonic() > 0.15:
            stop = time.monotonic() + 0.15  # the 1000 ms first turn also pays for the process start-up
        if ms is not None:
            t = time.monotonic() + ms / 1000
            stop = t if stop is None else min(stop, t)
        if stop is None and self.iterations is None:
            self.iterations = 1000
        m = self.search(st, stop)
        return to_engine_move(m)

    def search(self, st: State, stop: float | None) -> int:
        rng = self.rng
        root = _Node(0, 1 - (st.turn & 1))
        root.untried = st.moves()
        c = self.c
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if stop is not None and time.monotonic() >= stop and it > 0:
                break
            it += 1
            node = root
            path = [root]
            depth = 0
            # selection
            while not node.untried and node.children and not st.over():
                logn = math.log(node.visits)
                best, bv = None, -1e9
                for ch in node.children:
                    v = ch.total / ch.visits + c * math.sqrt(logn / ch.visits)
                    if v > bv:
                        best, bv = ch, v
                node = best
                st.play(node.move)
                depth += 1
                path.append(node)
            # expansion
            if not st.over():
                if node.untried is None:
                    node.untried = st.moves()
                if node.untried:
                    m = node.untried.pop(rng.randrange(len(node.untried)))
                    player = st.turn & 1
                    st.play(m)
                    depth += 1
                    child = _Node(m, player)
                    node.children.append(child)
                    node = child
                    path.append(node)
            # rollout
            r = 0
            while not st.over():
                ms = st.moves()
                st.play(ms[rng.randrange(len(ms))])
                r += 1
            value0 = _result(st, 0)
            for _ in range(r + depth):
                st.undo()
            for n in path:
                n.visits += 1
                n.total += value0 if n.player == 0 else -value0
        if not root.children:
            return root.untried[0] if root.untried else 0
        return max(root.children, key=lambda ch: ch.visits).move


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


def main() -> None:
    import argparse

    from ai.bot import run_bot

    ap = argparse.ArgumentParser(description="Cultist Wars MCTS / greedy yardstick bot")
    ap.add_argument("--ms", type=float, default=None, help="ms per turn (default: the CodinGame deadline)")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--greedy", action="store_true")
    args = ap.parse_args()
    player = Greedy(args.seed) if args.greedy else Mcts(args.iterations, args.ms, seed=args.seed)
    raise SystemExit(run_bot("cultist-wars", player.choose, margin=0.6))


if __name__ == "__main__":
    main()
