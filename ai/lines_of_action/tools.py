"""Lines of Action for the tools: the arena's openings and `ab:` player, the MCTS yardstick's position."""
from __future__ import annotations

import time

from ai.lines_of_action.tables import DBIT, XMASK, gen_moves, is_connected
from ai.tools.int_actions import IntActions
from engines.lines_of_action import PASS, LinesOfAction, Move

MAX_TURNS = 150
OPENING_PLIES = 3


def opening_moves(game) -> list:
    return game.legal_moves()


def opening_ok(game) -> bool:
    return True


def _boards(game) -> tuple[int, int, int]:
    """(the mover's checkers, the opponent's, turns played)."""
    black, white, stm, turns = game.key()
    return (black, white, turns) if stm == 0 else (white, black, turns)


def _engine_move(m: int):
    return PASS if m < 0 else Move(m >> 6, m & 63)


class AbPlayer:
    """The bare search.  Keys: nodes, depth, ms, threats and threat_groups (`Searcher` options), and
    evaluation weights by name."""

    def __init__(self, opts: dict):
        from ai.lines_of_action.search import Searcher

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.depth = opts.pop("depth", 60)
        self.ms = opts.pop("ms", None)
        search_opts = {k: opts.pop(k) for k in ("threats", "threat_groups") if k in opts}
        self.searcher = Searcher(opts or None, **search_opts)

    def choose(self, game, deadline=None, on_info=None):
        if self.ms is not None:
            stop = time.monotonic() + self.ms / 1000
            deadline = stop if deadline is None else min(stop, deadline)
        own, opp, turns = _boards(game)
        r = self.searcher.search(own, opp, turns, max_depth=self.depth, max_nodes=self.nodes, deadline=deadline)
        return _engine_move(r.move)


def make_player(kind: str, opts: dict, seed: int | None):
    return AbPlayer(opts) if kind == "ab" else None


def _after(own: int, opp: int, m: int) -> tuple[int, int, float | None]:
    """The mover's and opponent's checkers after m, and the mover's result if the game ends (1/-1)."""
    no = own ^ XMASK[m]
    op = opp
    if opp & DBIT[m]:
        op = opp ^ DBIT[m]
    if is_connected(no):
        return no, op, 1.0
    if op != opp and is_connected(op):
        return no, op, -1.0
    return no, op, None


class MctsPosition:
    """Two bitboards (the side to move's checkers first) and the turns played, on the search's move
    generation; a rollout ends with a connection or the 150-turn draw."""

    game_id = "lines-of-action"
    first_turn_s = None

    def __init__(self, game):
        self.own, self.opp, self.turns = _boards(game)
        self.stack: list[tuple[int, int, int]] = []

    def moves(self) -> list[int]:
        return gen_moves(self.own, self.opp) or [-1]  # -1: pass

    def play(self, move: int) -> float | None:
        self.stack.append((self.own, self.opp, self.turns))
        if move < 0:
            no, op, result = self.own, self.opp, None
        else:
            no, op, result = _after(self.own, self.opp, move)
        self.own, self.opp, self.turns = op, no, self.turns + 1
        if result is None and self.turns >= MAX_TURNS:
            return 0.0
        return result

    def undo(self) -> None:
        self.own, self.opp, self.turns = self.stack.pop()

    def rollout(self, rng) -> float:
        own, opp, turns = self.own, self.opp, self.turns
        sign = 1.0
        randrange = rng.randrange
        while turns < MAX_TURNS:
            moves = gen_moves(own, opp)
            turns += 1
            if not moves:
                own, opp = opp, own
                sign = -sign
                continue
            no, op, result = _after(own, opp, moves[randrange(len(moves))])
            if result is not None:
                return sign * result
            own, opp = op, no
            sign = -sign
        return 0.0

    def engine_move(self, move: int):
        return _engine_move(move)


_LOA_MOVES = [Move(a // 64, a % 64) for a in range(64 * 64)] + [PASS]


_LOA_CODES = {m: a for a, m in enumerate(_LOA_MOVES)}


class OpenSpielActions(IntActions):
    """`from * 64 + to` (squares a1 = 0 .. h8 = 63); pass is 4096."""

    NUM_ACTIONS = 64 * 64 + 1
    MAX_LENGTH = LinesOfAction.max_turns

    def legal(self) -> list[int]:
        return sorted(map(_LOA_CODES.__getitem__, self.g.legal_moves()))

    def encode(self, move) -> int:
        return _LOA_CODES[move]

    def decode(self, action: int):
        return _LOA_MOVES[action]
