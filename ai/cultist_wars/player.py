"""The Cultist Wars AI levels: the shared player (ai/base_player.py) over one alpha-beta searcher.

Levels 1 and 2 pick by softmax over exact root scores (level 1 also on a simpler evaluation).
`termarena bot` gives 60% of the CodinGame limit (30 ms of 50), where level 6 reaches depth 4-6
(3,000-5,000 nodes on an idle core).  A CodinGame first turn (1000 ms) is capped at `first_turn_s`,
because that turn's clock also runs while the bot process starts.  The tables built at import are
frozen out of the garbage collector (which is off during a search anyway).
"""
from __future__ import annotations

import gc
from dataclasses import dataclass

from ai.base_player import Level as BaseLevel, SearchPlayer, level_descriptions
from ai.cultist_wars.search import WIN, WIN_BOUND, Searcher, SearchResult
from ai.cultist_wars.state import State, move_name, to_engine_move


@dataclass(frozen=True)
class Level(BaseLevel):
    weights: tuple = ()  # evaluation weights that differ from the default


LEVEL_TABLE: dict[int, Level] = {
    1: Level("1-ply greedy on a simpler evaluation, heavy noise", depth=1, cap_ms=500, temperature=60.0,
             weights=(("threat", 0), ("approach", 0))),
    2: Level("1-ply greedy, slightly noisy", depth=1, cap_ms=500, temperature=15.0, top_k=4),
    3: Level("2-ply alpha-beta", depth=2, cap_ms=1000),
    4: Level("alpha-beta, 400 nodes", depth=64, nodes=400, cap_ms=2000),
    5: Level("alpha-beta, 2,500 nodes", depth=64, nodes=2_500, cap_ms=2500),
    6: Level("alpha-beta (PVS, TT, exact neutral moves), 15,000 nodes or the CodinGame deadline",
             depth=64, nodes=15_000, cap_ms=2500),
}

LEVELS: dict[int, str] = level_descriptions(LEVEL_TABLE)

_frozen = False


class CultistWarsPlayer(SearchPlayer):
    game_id = "cultist-wars"
    levels = LEVEL_TABLE
    win = WIN
    proven = WIN_BOUND
    first_turn_s = 0.15

    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None,
                 weights: dict | None = None, **changes) -> None:
        super().__init__(level, think_ms=think_ms, seed=seed, **changes)
        w = dict(self.cfg.weights)
        if weights:
            w.update(weights)
        self.searcher = Searcher(w or None)
        global _frozen
        if not _frozen:
            gc.freeze()  # the tables built at import are permanent: keep them out of every collection
            _frozen = True

    def search(self, game, *, t0, stop, deadline, all_scores, report) -> SearchResult:
        return self.searcher.search(State.from_game(game), max_depth=self.cfg.depth, max_nodes=self.cfg.nodes,
                                    deadline=stop, all_scores=all_scores,
                                    on_iteration=lambda r: report(r.depth, r.nodes, r.score, r.move, r.seconds))

    def noise_order(self, scores: dict) -> list[tuple[int, int]]:
        return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))

    def move_text(self, game, move: int) -> str:
        return move_name(move)

    def engine_move(self, move: int):
        return to_engine_move(move)
