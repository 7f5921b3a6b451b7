"""A plain UCT Monte-Carlo tree search for Connect 4: the benchmark opponent of the alpha-beta AI.

Not one of the levels: it exists to estimate the strength of level 6 against a different kind of
program at the same time limit (see the report in tests/ai/test_connect4.py's module docstring).
Playouts are uniformly random, or with `--decisive` they take an immediate win and block an immediate
loss (the usual "decisive moves" playout).  STEAL is decided by the tree like any other move.

As a CodinGame bot:  python -m ai.connect4.mcts [--decisive] [--ms 60] [--seed N]
"""
from __future__ import annotations

import math
import random
import time

from ai.connect4.bitboard import BOARD, BOTTOM, COL_MASK, COLS, from_rows, has_four, win_cells

STEAL = -2


class _Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "wins", "terminal")

    def __init__(self, move, parent, untried, terminal=None):
        self.move = move
        self.parent = parent
        self.children = []
        self.untried = untried
        self.visits = 0
        self.wins = 0.0  # from the point of view of the player who made `move`
        self.terminal = terminal  # None, or the result for the player who made `move` (1, 0.5, 0)


def _moves(mask: int, steal: bool) -> list[int]:
    possible = (mask + BOTTOM) & BOARD
    out = [c for c in range(COLS) if possible & COL_MASK[c]]
    if steal:
        out.append(STEAL)
    return out


def _play(cur: int, mask: int, move: int) -> tuple[int, int, bool]:
    """Plays `move` for the side to move; returns the next position (other side to move) and whether
    the move won."""
    if move == STEAL:
        return 0, mask, False  # the chip becomes ours; the opponent has none
    m = (mask + BOTTOM) & COL_MASK[move]
    me = cur | m
    mask |= m
    return me ^ mask, mask, has_four(me)


class MCTSPlayer:
    def __init__(self, ms: int = 60, decisive: bool = False, seed: int | None = None, c: float = 1.4):
        self.ms = ms
        self.decisive = decisive
        self.rng = random.Random(seed)
        self.c = c
        self.name = "connect4 uct" + (" (decisive playouts)" if decisive else "")
        self.last_iterations = 0

    def choose(self, game, deadline: float | None = None, on_info=None):
        t0 = time.monotonic()
        stop = t0 + self.ms / 1000
        if deadline is not None:
            stop = min(stop, deadline)
        cur, mask = from_rows(game.board(), str(game.current_player()))
        steal = game.turn_index == 1
        root = _Node(None, None, _moves(mask, steal))
        rng = self.rng
        iters = 0
        log = math.log
        sqrt = math.sqrt
        while True:
            if not iters & 15 and time.monotonic() >= stop:
                break
            iters += 1
            node, c_cur, c_mask = root, cur, mask
            # selection
            while not node.untried and node.children and node.terminal is None:
                lnv = log(node.visits)
                best, best_v = None, -1.0
                for ch in node.children:
                    v = ch.wins / ch.visits + self.c * sqrt(lnv / ch.visits)
                    if v > best_v:
                        best, best_v = ch, v
                node = best
                c_cur, c_mask, _ = _play(c_cur, c_mask, node.move)
            # expansion
            if node.terminal is None and node.untried:
                mv = node.untried.pop(rng.randrange(len(node.untried)))
                c_cur, c_mask, won = _play(c_cur, c_mask, mv)
                term = 1.0 if won else (0.5 if c_mask == BOARD else None)
                child = _Node(mv, node, [] if term is not None else _moves(c_mask, False), term)
                node.children.append(child)
                node = child
            # playout: result for the player who made node.move
            if node.terminal is not None:
                result = node.terminal
            else:
                result = 1.0 - self._playout(c_cur, c_mask)
            # backpropagation
            while node is not None:
                node.visits += 1
                node.wins += result
                result = 1.0 - result
                node = node.parent
        self.last_iterations = iters
        best = max(root.children, key=lambda ch: ch.visits)
        return best.move

    def _playout(self, cur: int, mask: int) -> float:
        """Random game from the position; the result for the side to move (1 win, 0.5 draw, 0 loss)."""
        rng = self.rng
        side = 0
        decisive = self.decisive
        while mask != BOARD:
            possible = (mask + BOTTOM) & BOARD
            if decisive:
                w = win_cells(cur) & possible
                if w:
                    return 1.0 if side == 0 else 0.0
                block = win_cells(cur ^ mask) & possible
                if block:
                    m = block & -block
                else:
                    m = 0
            else:
                m = 0
            if not m:
                cols = [c for c in range(COLS) if possible & COL_MASK[c]]
                m = possible & COL_MASK[cols[rng.randrange(len(cols))]]
            me = cur | m
            mask |= m
            if has_four(me):
                return 1.0 if side == 0 else 0.0
            cur = me ^ mask
            side ^= 1
        return 0.5


def main() -> None:  # pragma: no cover - a benchmark bot
    import argparse

    from ai.bot import run_bot

    ap = argparse.ArgumentParser(description="Plain UCT Connect 4 bot (benchmark opponent)")
    ap.add_argument("--ms", type=int, default=60, help="thinking time per move (ms; capped by the CG limit)")
    ap.add_argument("--decisive", action="store_true", help="playouts take wins and block losses")
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    player = MCTSPlayer(a.ms, a.decisive, a.seed)
    raise SystemExit(run_bot("connect4", player.choose))


if __name__ == "__main__":  # pragma: no cover
    main()

