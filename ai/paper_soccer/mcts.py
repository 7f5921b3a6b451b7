"""A plain MCTS for Paper Soccer, the yardstick for the alpha-beta levels (not a level itself).

UCT as OpenSpiel's `MCTSBot` plays by default: UCB1 with c = 2 on returns in [-1, 1], children
expanded one at a time, one random rollout per expansion, optional MCTS-Solver backup of proven
wins and losses (`solve=True`), best child by visits.  Actions are whole turns, one per effect
(`board.gen_turns`, every turn when the position allows, own goals and stuck turns included so that
the tree is the real game); rollouts play uniformly random steps (the engine's `random_turn`
policy) to the end of the game.  It uses the search's move generation, so it is as quick as a plain
Python MCTS gets here.

Run as a CodinGame bot (e.g. `termarena match paper-soccer ai:6 "cmd:python -m ai.paper_soccer.mcts"`):
`python -m ai.paper_soccer.mcts [--ms N] [--iterations N] [--seed N]`.
"""
from __future__ import annotations

import gc
import math
import random
import sys
import time

from ai.paper_soccer.board import STEPS, apply, from_game, gen_turns, path_str, undo


class _Node:
    __slots__ = ("path", "end", "stm", "untried", "children", "visits", "total", "solved", "terminal")

    def __init__(self, path, end, stm, terminal):
        self.path = path  # the turn that led here
        self.end = end  # the ball after it
        self.stm = stm  # the seat to move here
        self.terminal = terminal  # None, or the result for the player who moved into this node
        self.untried = None
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0  # sum of returns for the player who moved INTO this node
        self.solved: float | None = terminal


def _turns(pm, ball, stm):
    """Every effect-distinct turn with its result for the mover (1 goal, -1 own goal/stuck, None)."""
    r = gen_turns(pm, ball, stm, max_states=3000, per_end=1 << 30, max_visits=1 << 30, stop_on_win=True)
    if r.win is not None:
        return [(r.win, -1, 1.0)]
    out = [(t[2], t[0], None) for t in r.turns]
    if not out and r.losing is not None:
        out.append((r.losing, -1, -1.0))
    return out


def _rollout(pm, ball, stm, rng) -> int:
    """Random steps to the end of the game; the winner's seat.  Draws on pm (the caller restores)."""
    drawn = []
    p = ball
    try:
        while True:
            m = pm[p]
            free = [s for s in STEPS[p] if not m & s[0]]
            bit, q, back, _e, sid, fq = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
            mq = pm[q]
            pm[p] = m | bit
            pm[q] = mq | back
            drawn.append(sid)
            if q >= 99:
                return (0 if q < 102 else 1)  # the top goal is seat 0's target
            if pm[q] == fq:
                return 1 - stm  # the mover is stuck
            if not mq:
                stm = 1 - stm
            p = q
    finally:
        undo(pm, drawn)


class Mcts:
    def __init__(self, iterations: int | None = None, ms: int | None = None, c: float = 2.0,
                 solve: bool = True, seed: int | None = None):
        self.iterations = iterations
        self.ms = ms
        self.c = c
        self.solve = solve
        self.rng = random.Random(seed)
        self.name = "paper-soccer plain MCTS"

    def choose(self, game, deadline: float | None = None, on_info=None) -> str:
        t0 = time.monotonic()
        stop = deadline
        if self.ms is not None:
            stop = t0 + self.ms / 1000 if stop is None else min(stop, t0 + self.ms / 1000)
        if stop is None and self.iterations is None:
            stop = t0 + 1.0
        pm, ball, stm, _turn, _h = from_game(game)
        gc_was = gc.isenabled()
        gc.disable()
        try:
            root = _Node((), ball, stm, None)
            it = 0
            while True:
                if self.iterations is not None and it >= self.iterations:
                    break
                if stop is not None and it & 7 == 0 and time.monotonic() >= stop:
                    break
                self._iterate(root, pm)
                it += 1
                if root.solved is not None:
                    break
        finally:
            if gc_was:
                gc.enable()
        if root.untried is None:
            self._expand(root, pm)
        kids = root.children
        if not kids:
            u = root.untried
            return path_str(u[0][0])
        if root.solved is not None and root.solved < 0:
            pass
        won = [k for k in kids if k.solved == 1.0]
        if won:
            return path_str(won[0].path)
        alive = [k for k in kids if k.solved != -1.0] or kids
        best = max(alive, key=lambda k: (k.visits, k.total))
        return path_str(best.path)

    def _expand(self, node, pm):
        node.untried = _turns(pm, node.end, node.stm)
        self.rng.shuffle(node.untried)

    def _iterate(self, root, pm):
        node = root
        visited = [root]
        drawn = []
        rng = self.rng
        c = self.c
        try:
            while True:
                if node.terminal is not None:
                    ret = node.terminal  # for the player who moved into it
                    break
                if node.untried is None:
                    self._expand(node, pm)
                if node.untried:
                    path, end, res = node.untried.pop()
                    apply(pm, path)
                    drawn.append(path)
                    child = _Node(path, end, 1 - node.stm, res)
                    node.children.append(child)
                    visited.append(child)
                    if res is not None:
                        ret = res
                    else:
                        winner = _rollout(pm, end, child.stm, rng)
                        ret = 1.0 if winner == node.stm else -1.0
                    node = child
                    break
                # select
                logn = math.log(node.visits + 1)
                best = None
                bv = -1e18
                for k in node.children:
                    if k.solved is not None:
                        v = 1e9 if k.solved > 0 else -1e9
                    elif k.visits == 0:
                        v = 1e8
                    else:
                        v = k.total / k.visits + c * math.sqrt(logn / k.visits)
                    if v > bv:
                        bv, best = v, k
                node = best
                apply(pm, node.path)
                drawn.append(node.path)
                visited.append(node)
        finally:
            for path in reversed(drawn):
                undo(pm, path)
        # backup: ret is for the player who moved into `node`
        for n in reversed(visited):
            n.visits += 1
            n.total += ret
            ret = -ret
        if self.solve:
            for n in reversed(visited[:-1]):
                if n.solved is not None:
                    continue
                if n.untried:
                    if any(k.solved == 1.0 for k in n.children):
                        n.solved = -1.0
                    else:
                        break
                    continue
                if any(k.solved == 1.0 for k in n.children):
                    n.solved = -1.0  # the player to move here wins: bad for whoever moved into n
                elif n.children and all(k.solved == -1.0 for k in n.children):
                    n.solved = 1.0
                else:
                    break


def main(argv: list[str] | None = None) -> int:
    import argparse

    from ai.bot import run_bot

    ap = argparse.ArgumentParser(description="plain MCTS Paper Soccer bot (CodinGame protocol)")
    ap.add_argument("--ms", type=int, default=None)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args(argv)
    player = Mcts(iterations=a.iterations, ms=a.ms, seed=a.seed)
    return run_bot("paper-soccer", player.choose, margin=0.6)


if __name__ == "__main__":
    sys.exit(main())
