"""Cultist Wars for the tools: the arena's maps and `ab:` and `greedy` players, the MCTS yardstick's
position."""
from __future__ import annotations

import time

from ai.cultist_wars.state import State, to_engine_move

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
