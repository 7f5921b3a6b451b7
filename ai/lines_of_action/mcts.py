"""A plain MCTS for Lines of Action, the yardstick for the alpha-beta levels (not a level itself).

UCT as OpenSpiel's `MCTSBot` plays by default: UCB1 with c = 2 on returns in [-1, 1], one uniformly
random rollout per expansion (played to the end: a connection or the 150-turn draw), optional
MCTS-Solver backup of proven wins and losses (OpenSpiel's `solve=True`), best child by visits.
It uses the search's fast move generation, so it is as quick as a Python MCTS gets here.

Run as a CodinGame bot (e.g. `termarena match lines-of-action ai:6 "cmd:python -m ai.lines_of_action.mcts"`):
`python -m ai.lines_of_action.mcts [--ms N] [--iterations N] [--seed N]`.
"""
from __future__ import annotations

import math
import random
import time

from ai.lines_of_action.tables import DBIT, XMASK, gen_moves, is_connected
from engines.lines_of_action import PASS, Move

MAX_TURNS = 150


class _Node:
    __slots__ = ("own", "opp", "turns", "moves", "children", "visits", "total", "solved", "move")

    def __init__(self, own: int, opp: int, turns: int, move: int):
        self.own = own  # the side to move here
        self.opp = opp
        self.turns = turns
        self.move = move  # the move that led here
        self.moves: list[int] | None = None  # untried moves
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0  # sum of returns for the player who moved INTO this node
        self.solved: float | None = None  # proven return for the player who moved into this node


def _after(own: int, opp: int, m: int) -> tuple[int, int, float | None]:
    """The mover's and opponent's boards after m, and the mover's result if the game ends (1/-1)."""
    no = own ^ XMASK[m]
    op = opp
    if opp & DBIT[m]:
        op = opp ^ DBIT[m]
    if is_connected(no):
        return no, op, 1.0
    if op != opp and is_connected(op):
        return no, op, -1.0
    return no, op, None


def _rollout(own: int, opp: int, turns: int, rng: random.Random) -> float:
    """Random play to the end; the return for the side to move at the start."""
    sign = 1.0
    randrange = rng.randrange
    while turns < MAX_TURNS:
        moves = gen_moves(own, opp)
        turns += 1
        if not moves:
            own, opp = opp, own
            sign = -sign
            continue
        m = moves[randrange(len(moves))]
        no, op, res = _after(own, opp, m)
        if res is not None:
            return sign * res
        own, opp = op, no
        sign = -sign
    return 0.0


class Mcts:
    def __init__(self, *, iterations: int | None = None, ms: int | None = None, c: float = 2.0,
                 solve: bool = True, seed: int | None = None):
        self.iterations = iterations
        self.ms = ms
        self.c = c
        self.solve = solve
        self.rng = random.Random(seed)
        self.name = "plain MCTS"

    def choose(self, game, deadline: float | None = None, on_info=None):
        black, white, stm, turns = game.key()
        own, opp = (black, white) if stm == 0 else (white, black)
        m = self.search(own, opp, turns, deadline)
        return PASS if m < 0 else Move(m >> 6, m & 63)

    def search(self, own: int, opp: int, turns: int, deadline: float | None = None) -> int:
        start = time.monotonic()
        stop = deadline
        if self.ms is not None:
            stop = start + self.ms / 1000 if stop is None else min(stop, start + self.ms / 1000)
        root = _Node(own, opp, turns, -1)
        root.moves = gen_moves(own, opp)
        if not root.moves:
            return -1
        for m in root.moves:
            if _after(own, opp, m)[2] == 1.0:
                return m
        rng = self.rng
        c = self.c
        it = 0
        while root.solved is None:
            if self.iterations is not None and it >= self.iterations:
                break
            if stop is not None and time.monotonic() >= stop:
                break
            it += 1
            node = root
            path = [root]
            # selection
            while not node.moves and node.children and node.solved is None:
                log_n = math.log(node.visits)
                best, best_v = None, -1e18
                for ch in node.children:
                    if ch.solved is not None:
                        v = ch.solved * 1e9
                    else:
                        v = ch.total / ch.visits + c * math.sqrt(log_n / ch.visits)
                    if v > best_v:
                        best, best_v = ch, v
                node = best
                path.append(node)
            # expansion
            if node.solved is not None:
                value = node.solved  # for the player who moved into node
            elif node.moves:
                m = node.moves.pop(rng.randrange(len(node.moves)))
                if m < 0:  # pass
                    no, op, res = node.own, node.opp, None
                else:
                    no, op, res = _after(node.own, node.opp, m)
                child = _Node(op, no, node.turns + 1, m)
                node.children.append(child)
                path.append(child)
                if res is not None:
                    child.solved = res
                    value = res
                elif child.turns >= MAX_TURNS:
                    child.solved = 0.0
                    value = 0.0
                else:
                    child.moves = gen_moves(op, no)
                    if not child.moves:  # pass
                        child.moves = [-1]
                    value = -_rollout(op, no, child.turns, rng)
            else:  # not reached: a node without legal moves has the move list [-1] (pass)
                value = 0.0
            # backup (value is for the player who moved into path[-1])
            for nd in reversed(path):
                nd.visits += 1
                nd.total += value
                value = -value
            if self.solve:
                self._solve_up(path)
        if root.solved is not None and root.children:
            wins = [ch for ch in root.children if ch.solved == 1.0]
            if wins:
                return wins[0].move
        best = max(root.children, key=lambda ch: (ch.solved != -1.0, ch.visits, ch.total / max(1, ch.visits)))
        return best.move

    @staticmethod
    def _solve_up(path: list[_Node]) -> None:
        for nd in reversed(path[:-1]):
            if nd.solved is not None or nd.moves:
                return
            kids = nd.children
            if any(ch.solved == 1.0 for ch in kids):
                nd.solved = -1.0  # the player to move at nd wins: bad for who moved into nd
            elif all(ch.solved is not None for ch in kids):
                nd.solved = -max(ch.solved for ch in kids)
            else:
                return


def main(argv: list[str] | None = None) -> int:
    import argparse

    from ai.bot import run_bot

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ms", type=int, default=None, help="time per move (default: the CodinGame deadline)")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--no-solve", action="store_true")
    args = ap.parse_args(argv)
    bot = Mcts(iterations=args.iterations, ms=args.ms, solve=not args.no_solve, seed=args.seed)
    return run_bot("lines-of-action", bot.choose,
                   margin=None if (args.ms or args.iterations) else 0.6)


if __name__ == "__main__":
    raise SystemExit(main())
