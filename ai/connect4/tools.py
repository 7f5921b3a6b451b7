"""Connect 4 for the tools: the arena's openings and `ab:` player, the MCTS yardstick's position."""
from __future__ import annotations

import time

from ai.connect4.bitboard import BOARD, BOTTOM, COL_MASK, COLS, from_rows, has_four, win_cells
from ai.tools.int_actions import IntActions
from engines.connect4 import STEAL, Connect4

OPENING_PLIES = 2


def opening_moves(game) -> list:
    return game.legal_moves()


def opening_ok(game) -> bool:
    return True


class AbPlayer:
    """The bare search (no level, no book, no noise).  Keys: nodes, depth, ms, and evaluation weights
    by name (search.DEFAULT_WEIGHTS)."""

    def __init__(self, opts: dict):
        from ai.connect4.search import Searcher

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.depth = opts.pop("depth", None)
        self.ms = opts.pop("ms", None)
        self.searcher = Searcher(opts or None)

    def choose(self, game, deadline=None, on_info=None):
        if self.ms is not None:
            stop = time.monotonic() + self.ms / 1000
            deadline = stop if deadline is None else min(stop, deadline)
        cur, mask = from_rows(game.board(), str(game.current_player()))
        steal = game.turn_index == 1 and STEAL in game.legal_moves()
        return self.searcher.search(cur, mask, steal=steal, max_depth=self.depth, node_limit=self.nodes,
                                    deadline=deadline).move


def make_player(kind: str, opts: dict, seed: int | None):
    return AbPlayer(opts) if kind == "ab" else None


class MctsPosition:
    """Bitboards (chips of the side to move, all chips).  With `decisive`, playouts take an immediate
    win and block an immediate loss (the usual "decisive moves" playout).  STEAL is decided by the tree
    like any other move."""

    game_id = "connect4"
    first_turn_s = None

    def __init__(self, game, decisive: bool = False):
        self.cur, self.mask = from_rows(game.board(), str(game.current_player()))
        self.steal = game.turn_index == 1  # at the root only
        self.decisive = decisive
        self.stack: list[tuple[int, int, bool]] = []

    def moves(self) -> list[int]:
        possible = (self.mask + BOTTOM) & BOARD
        out = [c for c in range(COLS) if possible & COL_MASK[c]]
        if self.steal:
            out.append(STEAL)
        return out

    def play(self, move: int) -> float | None:
        self.stack.append((self.cur, self.mask, self.steal))
        self.steal = False
        if move == STEAL:  # the chip becomes ours; the opponent has none
            self.cur = 0
            return None
        m = (self.mask + BOTTOM) & COL_MASK[move]
        me = self.cur | m
        self.mask |= m
        self.cur = me ^ self.mask
        if has_four(me):
            return 1.0
        return 0.0 if self.mask == BOARD else None

    def undo(self) -> None:
        self.cur, self.mask, self.steal = self.stack.pop()

    def rollout(self, rng) -> float:
        cur, mask = self.cur, self.mask
        side = 1.0
        decisive = self.decisive
        while mask != BOARD:
            possible = (mask + BOTTOM) & BOARD
            m = 0
            if decisive:
                if win_cells(cur) & possible:
                    return side
                block = win_cells(cur ^ mask) & possible
                if block:
                    m = block & -block
            if not m:
                cols = [c for c in range(COLS) if possible & COL_MASK[c]]
                m = possible & COL_MASK[cols[rng.randrange(len(cols))]]
            me = cur | m
            mask |= m
            if has_four(me):
                return side
            cur = me ^ mask
            side = -side
        return 0.0

    def engine_move(self, move: int) -> int:
        return move


class OpenSpielActions(IntActions):
    """The column 0..8; STEAL is 9."""

    NUM_ACTIONS = 10
    MAX_LENGTH = Connect4.max_turns

    def legal(self) -> list[int]:
        moves = self.g.legal_moves()  # ascending columns, then STEAL
        if moves and moves[-1] == STEAL:
            moves[-1] = 9
        return moves

    def encode(self, move: int) -> int:
        return 9 if move == STEAL else move

    def decode(self, action: int) -> int:
        return STEAL if action == 9 else action
