"""A plain UCT Monte-Carlo tree search, the yardstick of the alpha-beta levels (not a level itself).

UCT as OpenSpiel's `MCTSBot` plays by default: UCB1 with c = 2 on returns in [-1, 1], children
expanded one at a time in random order, one random rollout per expansion played to the end of the
game, MCTS-Solver backup of proven wins, losses and draws (`solve`), the most visited child played (a
proven win first, a proven loss last).  What differs per game is the position it searches: each game's
tool module (ai/<game>/tools.py) has a `MctsPosition` on the search's own fast move generation:

- `moves()`: the moves at the current position;
- `play(move)`: plays it and returns the result for the mover if the game ended (1, 0 or -1), else None;
- `undo()`: takes back the last `play`;
- `rollout(rng)`: random play to the end and back; the result for the side to move;
- `engine_move(move)`: the engine's move for one of `moves()`;
- `game_id`; `first_turn_s`: a cap on a turn whose deadline is further away (a CodinGame first turn
  also pays for the bot process's start), or None.
"""
from __future__ import annotations

import math
import random
import time

from ai.gc_pause import gc_paused

PROVEN = 1e9  # a proven child's selection value is its result times this


class _Node:
    __slots__ = ("move", "children", "untried", "visits", "total", "solved")

    def __init__(self, move, solved: float | None = None):
        self.move = move  # the move that led here
        self.children: list[_Node] = []
        self.untried: list | None = None  # generated when the node is first expanded
        self.visits = 0
        self.total = 0.0  # sum of returns for the player who moved into this node
        self.solved = solved  # the proven return for that player (a terminal node's result)


class Mcts:
    def __init__(self, position_class, *, iterations: int | None = None, ms: float | None = None, c: float = 2.0,
                 solve: bool = True, seed: int | None = None, **options):
        """`position_class`: the game's `MctsPosition`, built from an engine game and `options` (e.g.
        Connect 4's `decisive` playouts)."""
        self.position_class = position_class
        self.options = options
        self.iterations = iterations
        self.ms = ms
        self.c = c
        self.solve = solve
        self.rng = random.Random(seed)
        self.name = f"{position_class.game_id} plain MCTS"
        self.last_iterations = 0

    def choose(self, game, deadline: float | None = None, on_info=None):
        now = time.monotonic()
        position = self.position_class(game, **self.options)
        stop = deadline
        if stop is not None and position.first_turn_s is not None and stop - now > position.first_turn_s:
            stop = now + position.first_turn_s
        if self.ms is not None:
            stop = now + self.ms / 1000 if stop is None else min(stop, now + self.ms / 1000)
        if stop is None and self.iterations is None:
            stop = now + 1.0
        with gc_paused():
            return position.engine_move(self.search(position, stop))

    def search(self, position, stop: float | None) -> object:
        root = _Node(None)
        root.untried = position.moves()
        it = 0
        while root.solved is None:
            if self.iterations is not None and it >= self.iterations:
                break
            if stop is not None and it and time.monotonic() >= stop:
                break
            self._iterate(root, position)
            it += 1
        self.last_iterations = it
        kids = root.children
        if not kids:
            return root.untried[0]
        won = [k for k in kids if k.solved == 1.0]
        if won:
            return won[0].move
        return max(kids, key=lambda k: (k.solved != -1.0, k.visits, k.total / max(1, k.visits))).move

    def _iterate(self, root: _Node, position) -> None:
        rng = self.rng
        node = root
        path = [root]
        played = 0
        try:
            while True:
                if node.solved is not None:
                    value = node.solved  # for the player who moved into it
                    break
                if node.untried is None:
                    node.untried = position.moves()
                if node.untried:
                    move = node.untried.pop(rng.randrange(len(node.untried)))
                    result = position.play(move)
                    played += 1
                    child = _Node(move, result)
                    node.children.append(child)
                    path.append(child)
                    value = result if result is not None else -position.rollout(rng)
                    break
                node = self._select(node)
                position.play(node.move)
                played += 1
                path.append(node)
        finally:
            for _ in range(played):
                position.undo()
        for n in reversed(path):  # value is for the player who moved into n
            n.visits += 1
            n.total += value
            value = -value
        if self.solve:
            self._solve_up(path)

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        c = self.c
        solve = self.solve
        best, best_v = None, -math.inf
        for ch in node.children:
            if solve and ch.solved is not None:
                v = ch.solved * PROVEN
            else:
                v = ch.total / ch.visits + c * math.sqrt(log_n / ch.visits)
            if v > best_v:
                best, best_v = ch, v
        return best

    @staticmethod
    def _solve_up(path: list[_Node]) -> None:
        for n in reversed(path[:-1]):
            if n.solved is not None:
                return
            kids = n.children
            if any(ch.solved == 1.0 for ch in kids):
                n.solved = -1.0  # the player to move at n wins: bad for whoever moved into n
            elif not n.untried and all(ch.solved is not None for ch in kids):
                n.solved = -max(ch.solved for ch in kids)
            else:
                return
