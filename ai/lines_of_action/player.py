"""The Lines of Action AI player: levels 1..6 over one alpha-beta searcher.

Budgets: levels 1-3 search a fixed depth and pick by softmax over the exact root scores (never a move
that loses at once when another does not; a win in 1 is always taken, before any noise); levels 4-5
search a fixed number of nodes; level 6 uses all the time it has.  Every level also stops at the
deadline `choose` is given (the bot: 60% of the CodinGame limit) and otherwise at its wall-clock cap
(`think_ms` replaces the cap).  Levels 4-6 add a random 0..6 centi bonus to each root move, so equal
moves are chosen at random: games differ, and a seed replays them.  The searcher (TT, history,
memos) lives as long as the player, so in the bot it carries over from move to move.
"""
from __future__ import annotations

import gc
import math
import random
import time
from dataclasses import dataclass, replace

from ai.lines_of_action.search import MATE_BOUND, WIN, Searcher, SearchResult
from ai.player import InfoCallback, SearchInfo, info_score
from engines.lines_of_action import PASS, Move, square_name


@dataclass(frozen=True)
class Level:
    description: str
    max_depth: int  # iterative deepening stops here
    max_nodes: int | None  # node budget (None: only the clock)
    cap_ms: int  # wall-clock cap when no deadline is given (the app)
    temperature: float = 0.0  # softmax noise over root scores, centi-checkers (0: best move)
    top_k: int = 0  # with noise: choose among the k best only (0: all)
    tie_noise: int = 6  # random bonus 0..tie_noise on each root move's score (varies equal choices)


LEVEL_TABLE: dict[int, Level] = {
    1: Level("beginner: 1-ply greedy on the evaluation, heavy noise", 1, None, 1000, temperature=90.0),
    2: Level("1-ply greedy, some noise", 1, None, 1000, temperature=25.0, top_k=5),
    3: Level("2-ply alpha-beta, noisy", 2, None, 2000, temperature=40.0, top_k=5),
    4: Level("alpha-beta, 150 nodes a move", 60, 150, 3000),
    5: Level("alpha-beta, 500 nodes a move", 60, 500, 3000),
    6: Level("strongest: alpha-beta with TT and threat checks, all the time allowed", 60, None, 2500),
}

LEVELS: dict[int, str] = {n: lv.description for n, lv in LEVEL_TABLE.items()}


MIN_SEARCH_S = 0.02  # a deadline already gone (slow start-up) still gets a shallow search


class LoaPlayer:
    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None,
                 weights: dict | None = None, nodes: int | None = None):
        if level not in LEVEL_TABLE:
            raise ValueError(f"Lines of Action has levels 1..6, not {level}")
        self.level = level
        self.spec = LEVEL_TABLE[level]
        if nodes is not None:  # level 6 has no node budget: this gives it one (machine-independent moves)
            self.spec = replace(self.spec, max_nodes=nodes)
        self.think_ms = think_ms
        self.rng = random.Random(seed)
        self.searcher = Searcher(weights)
        self.name = f"lines-of-action level {level}"
        self.last: SearchResult | None = None

    def choose(self, game, deadline: float | None = None, on_info: InfoCallback | None = None):
        if game.outcome() is not None:
            raise ValueError("the game is over: there is no move to choose")
        black, white, stm, turns = game.key()
        own, opp = (black, white) if stm == 0 else (white, black)
        start = time.monotonic()
        cap = self.think_ms if self.think_ms is not None else self.spec.cap_ms
        stop = start + cap / 1000.0
        if deadline is not None:
            # (ai.bot already counts a bot's first turn from its process start)
            stop = min(stop, max(deadline, start + MIN_SEARCH_S))
        spec = self.spec
        noisy = spec.temperature > 0

        def report(r: SearchResult) -> None:
            if on_info is not None:
                on_info(SearchInfo(depth=r.depth, nodes=r.nodes, score=info_score(r.score, WIN, MATE_BOUND),
                                   best=_name(r.move), elapsed_s=r.seconds))

        # no garbage collection pauses inside the search (its tables hold no cycles)
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            result = self.searcher.search(own, opp, turns, max_depth=spec.max_depth, max_nodes=spec.max_nodes,
                                          deadline=stop, all_scores=noisy, on_iteration=report,
                                          stop_fraction=1.0 if deadline is not None else 0.5,
                                          rng=self.rng, noise=0 if noisy else spec.tie_noise)
        finally:
            if gc_was_on:
                gc.enable()
        self.last = result
        if on_info is not None:
            report(result)
        if result.move < 0:
            return PASS
        move = result.move
        if noisy and result.scores and result.score < MATE_BOUND:
            move = self._noisy_pick(result)
        return Move(move >> 6, move & 63)

    def _noisy_pick(self, result: SearchResult) -> int:
        """Softmax over the root scores (never a move that loses at once when another does not)."""
        items = sorted(result.scores.items(), key=lambda kv: -kv[1])
        safe = [(m, s) for m, s in items if s > -MATE_BOUND]
        if safe:
            items = safe
        if self.spec.top_k:
            items = items[:self.spec.top_k]
        top = items[0][1]
        t = self.spec.temperature
        weights = [math.exp(max(-50.0, (s - top) / t)) for _, s in items]
        return self.rng.choices([m for m, _ in items], weights)[0]


def _name(m: int) -> str | None:
    if m < 0:
        return "pass"
    return square_name(m >> 6) + square_name(m & 63)
