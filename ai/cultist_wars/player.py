"""The Cultist Wars AI player: levels 1..6 over one alpha-beta searcher (search.py).

Each level is a deterministic budget (depth or nodes) with a wall-clock cap (`cap_ms`, or `think_ms`
when given: it replaces the cap, the node budget still applies); levels 1 and 2 pick by softmax
over exact root scores (level 1 also on a simpler evaluation).  `choose(game, deadline)` also stops
at `deadline`: `termarena bot` gives 60% of the CodinGame limit (30 ms of 50), where level 6 reaches
depth 4-6 (3,000-5,000 nodes on an idle core).  On a CodinGame first turn (1000 ms) the search is
capped at FIRST_TURN_S, because that turn's clock also runs while the bot process starts.  The
cyclic garbage collector is off during a search (a full collection could cost a 30 ms turn), and
the tables built at import are frozen out of it.
"""
from __future__ import annotations

import gc
import math
import random
import time
from dataclasses import dataclass

from ai.cultist_wars.search import WIN, WIN_BOUND, Searcher, SearchResult
from ai.cultist_wars.state import State, move_name, to_engine_move
from ai.player import InfoCallback, SearchInfo, info_score


@dataclass(frozen=True)
class Level:
    description: str
    max_depth: int  # iterative deepening stops here
    max_nodes: int | None  # node budget (None: only the clock)
    cap_ms: int  # wall-clock cap when no deadline is given (the app)
    temperature: float = 0.0  # softmax noise over root scores, in centi-units (0: the best move)
    top_k: int = 0  # with noise: choose among the k best only (0: all)
    weights: tuple = ()  # evaluation weights that differ from the default


LEVEL_TABLE: dict[int, Level] = {
    1: Level("1-ply greedy on a simpler evaluation, heavy noise", 1, None, 500, temperature=60.0,
             weights=(("threat", 0), ("approach", 0))),
    2: Level("1-ply greedy, slightly noisy", 1, None, 500, temperature=15.0, top_k=4),
    3: Level("2-ply alpha-beta", 2, None, 1000),
    4: Level("alpha-beta, 400 nodes", 64, 400, 2000),
    5: Level("alpha-beta, 2,500 nodes", 64, 2_500, 2500),
    6: Level("alpha-beta (PVS, TT, exact neutral moves), 15,000 nodes or the CodinGame deadline",
             64, 15_000, 2500),
}

LEVELS: dict[int, str] = {n: lv.description for n, lv in LEVEL_TABLE.items()}

_frozen = False
FIRST_TURN_S = 0.15  # search cap when a deadline is further away than this (the 1000 ms first turn)


class CultistWarsPlayer:
    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None,
                 weights: dict | None = None):
        if level not in LEVEL_TABLE:
            raise ValueError(f"Cultist Wars has levels 1..6, not {level}")
        self.level = level
        self.spec = LEVEL_TABLE[level]
        self.think_ms = think_ms
        self.rng = random.Random(seed)
        w = dict(self.spec.weights)
        if weights:
            w.update(weights)
        self.searcher = Searcher(w or None)
        global _frozen
        if not _frozen:
            gc.freeze()  # the tables built at import are permanent: keep them out of every collection
            _frozen = True
        self.name = f"cultist-wars level {level}"
        self.last: SearchResult | None = None

    def choose(self, game, deadline: float | None = None, on_info: InfoCallback | None = None):
        if game.outcome() is not None:
            raise ValueError("the game is over: there is no move to choose")
        state = State.from_game(game)
        start = time.monotonic()
        cap = self.think_ms if self.think_ms is not None else self.spec.cap_ms
        stop = start + cap / 1000.0
        if deadline is not None:
            stop = min(stop, deadline)
            if deadline - start > FIRST_TURN_S:
                # A CodinGame first turn (1000 ms) also pays for the bot process's start-up, which the
                # deadline (counted from the first input line) does not see: keep it short.
                stop = min(stop, start + FIRST_TURN_S)
        spec = self.spec
        noisy = spec.temperature > 0

        def report(r: SearchResult) -> None:
            if on_info is not None:
                on_info(SearchInfo(depth=r.depth, nodes=r.nodes, score=info_score(r.score, WIN, WIN_BOUND),
                                   best=move_name(r.move), elapsed_s=r.seconds))

        gc_was_on = gc.isenabled()
        gc.disable()  # a full collection in the middle of a 30 ms turn would blow the deadline
        try:
            result = self.searcher.search(state, max_depth=spec.max_depth, max_nodes=spec.max_nodes,
                                          deadline=stop, all_scores=noisy, on_iteration=report)
        finally:
            if gc_was_on:
                gc.enable()
        self.last = result
        if on_info is not None:
            report(result)
        move = result.move
        if noisy and result.scores and result.score < WIN_BOUND:
            move = self._noisy_pick(result)
        return to_engine_move(move, state.pos)

    def _noisy_pick(self, result: SearchResult) -> int:
        """Softmax over the root scores (never a move that loses by force when another does not)."""
        items = sorted(result.scores.items(), key=lambda kv: (-kv[1], kv[0]))
        safe = [(m, s) for m, s in items if s > -WIN_BOUND]
        if safe:
            items = safe
        if self.spec.top_k:
            items = items[:self.spec.top_k]
        top = items[0][1]
        t = self.spec.temperature
        weights = [math.exp(max(-50.0, (s - top) / t)) for _, s in items]
        return self.rng.choices([m for m, _ in items], weights)[0]
