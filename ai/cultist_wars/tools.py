"""Cultist Wars for the tools: the arena's maps and `ab:` and `greedy` players, the MCTS yardstick's
position."""
from __future__ import annotations

import time

from ai.cultist_wars.state import State, to_engine_move
from ai.tools.int_actions import IntActions
from engines.cultist_wars import CONVERT, MOVE, SHOOT, WAIT, CultistWars, Move
from engines.cultist_wars.board import N_TILES, XY, tile
from engines.cultist_wars.rules import N_UNITS

OPENING_PLIES = 0  # each pair of games has a map of its own


def opening_moves(game) -> list:
    return game.legal_moves()


def opening_ok(game) -> bool:
    return True


class AbPlayer:
    """The bare search.  Keys: nodes, depth, ms (a turn's budget), first (the first turn's, ms
    by default), stop (the fraction of the time after which no new iteration starts) and evaluation
    weights by name."""

    def __init__(self, opts: dict):
        from ai.cultist_wars.search import Searcher

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.depth = opts.pop("depth", 64)
        self.ms = opts.pop("ms", None)
        self.first = opts.pop("first", self.ms)
        self.stop = opts.pop("stop", 0.5)
        self.searcher = Searcher(opts or None)
        self.turns = 0

    def choose(self, game, deadline=None, on_info=None):
        ms = self.first if self.turns == 0 else self.ms
        self.turns += 1
        if ms is not None:
            stop = time.monotonic() + ms / 1000
            deadline = stop if deadline is None else min(stop, deadline)
        st = State.from_game(game)
        r = self.searcher.search(st, max_depth=self.depth, max_nodes=self.nodes, deadline=deadline,
                                 stop_fraction=self.stop)
        return to_engine_move(r.move)


def make_player(kind: str, opts: dict, seed: int | None):
    if kind == "ab":
        return AbPlayer(opts)
    if kind == "greedy":
        from ai.cultist_wars.greedy import Greedy

        return Greedy(seed)
    return None


class MctsPosition:
    """The search's state (state.py): each action is the referee's whole turn, the neutral move
    included (its LCG is part of the position, so an action has one successor)."""

    game_id = "cultist-wars"
    first_turn_s = 0.15  # the 1000 ms first turn also pays for the process start-up

    def __init__(self, game):
        self.state = State.from_game(game)

    def moves(self) -> list[int]:
        return self.state.moves()

    def play(self, move: int) -> float | None:
        st = self.state
        mover = st.turn & 1
        st.play(move)
        return self._result(mover) if st.over() else None

    def undo(self) -> None:
        self.state.undo()

    def rollout(self, rng) -> float:
        st = self.state
        me = st.turn & 1
        played = 0
        while not st.over():
            moves = st.moves()
            st.play(moves[rng.randrange(len(moves))])
            played += 1
        result = self._result(me)
        for _ in range(played):
            st.undo()
        return result

    def _result(self, player: int) -> float:
        c0, c1 = self.state.cnt
        d = c0 - c1 if player == 0 else c1 - c0
        return 1.0 if d > 0 else -1.0 if d < 0 else 0.0

    def engine_move(self, move: int):
        return to_engine_move(move)


_CW_STRIDE = N_TILES + 2 * N_UNITS  # 119 actions per unit


def _cw_encode(move: Move) -> int:
    if move.kind == WAIT:
        return 0
    base = 1 + move.unit * _CW_STRIDE
    if move.kind == MOVE:
        return base + tile(move.x, move.y)
    return base + N_TILES + move.target + (N_UNITS if move.kind == CONVERT else 0)


def _cw_decode_table() -> list[Move]:
    table = [Move(WAIT)] * (1 + N_UNITS * _CW_STRIDE)
    for u in range(N_UNITS):
        for t in range(N_TILES):
            m = Move(MOVE, u, *XY[t])
            table[_cw_encode(m)] = m
        for target in range(N_UNITS):
            for kind in (SHOOT, CONVERT):
                m = Move(kind, u, target=target)
                table[_cw_encode(m)] = m
    return table


_CW_MOVES = _cw_decode_table()
_CW_CODES = {m: a for a, m in enumerate(_CW_MOVES) if a == 0 or m.kind != WAIT}


class OpenSpielActions(IntActions):
    """0 is WAIT; unit u's actions start at 1 + 119 * u: + tile (y * 13 + x, 0..90) for MOVE to that tile,
    + 91 + target for SHOOT, + 105 + target for CONVERT (targets are unit ids 0..13).  The legal list is
    the engine's canonical one (one action per distinct effect).  The neutral move is driven by the
    referee's generator, whose state is part of the position, so the game is deterministic for OpenSpiel."""

    NUM_ACTIONS = 1 + N_UNITS * _CW_STRIDE
    MAX_LENGTH = CultistWars.max_turns

    def legal(self) -> list[int]:
        return sorted(map(_CW_CODES.__getitem__, self.g.legal_moves()))

    def encode(self, move: Move) -> int:
        return _cw_encode(move)

    def decode(self, action: int) -> Move:
        return _CW_MOVES[action]
