"""The Lines of Action AI levels: the shared player (ai/base_player.py) over one alpha-beta searcher.

Levels 1-3 search a fixed depth and pick by softmax over the exact root scores (a win in 1 is always
taken, before any noise); levels 4-5 search a fixed number of nodes; level 6 uses all the time it has.
Levels 4-6 add a random 0..6 centi bonus to each root move (`tie_noise`), so equal moves are chosen
at random: games differ, and a seed replays them.  The searcher (TT, history, memos) lives as long as
the player, so in the bot it carries over from move to move.
"""
from __future__ import annotations

from dataclasses import dataclass

from ai.base_player import Level as BaseLevel, SearchPlayer, level_descriptions
from ai.lines_of_action.search import MATE_BOUND, WIN, Searcher, SearchResult
from engines.lines_of_action import PASS, Move, square_name


@dataclass(frozen=True)
class Level(BaseLevel):
    tie_noise: int = 6


LEVEL_TABLE: dict[int, Level] = {
    1: Level("beginner: 1-ply greedy on the evaluation, heavy noise", depth=1, cap_ms=1000, temperature=90.0),
    2: Level("1-ply greedy, some noise", depth=1, cap_ms=1000, temperature=25.0, top_k=5),
    3: Level("2-ply alpha-beta, noisy", depth=2, cap_ms=2000, temperature=40.0, top_k=5),
    4: Level("alpha-beta, 150 nodes a move", depth=60, nodes=150, cap_ms=3000),
    5: Level("alpha-beta, 500 nodes a move", depth=60, nodes=500, cap_ms=3000),
    6: Level("strongest: alpha-beta with TT and threat checks, all the time allowed", depth=60, cap_ms=2500),
}

LEVELS: dict[int, str] = level_descriptions(LEVEL_TABLE)


class LinesOfActionPlayer(SearchPlayer):
    game_id = "lines-of-action"
    levels = LEVEL_TABLE
    win = WIN
    proven = MATE_BOUND
    min_search_s = 0.02  # (ai.bot already counts a bot's first turn from its process start)

    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None,
                 weights: dict | None = None, **changes) -> None:
        super().__init__(level, think_ms=think_ms, seed=seed, **changes)
        self.searcher = Searcher(weights)

    def search(self, game, *, t0, stop, deadline, all_scores, report) -> SearchResult:
        black, white, stm, turns = game.key()
        own, opp = (black, white) if stm == 0 else (white, black)
        return self.searcher.search(own, opp, turns, max_depth=self.cfg.depth, max_nodes=self.cfg.nodes,
                                    deadline=stop, all_scores=all_scores,
                                    on_iteration=lambda r: report(r.depth, r.nodes, r.score, r.move, r.seconds),
                                    stop_fraction=1.0 if deadline is not None else 0.5,
                                    rng=self.rng, noise=0 if all_scores else self.cfg.tie_noise)

    def noise_order(self, scores: dict) -> list[tuple[int, int]]:
        return sorted(scores.items(), key=lambda kv: -kv[1])

    def move_text(self, game, move: int) -> str:
        return "pass" if move < 0 else square_name(move >> 6) + square_name(move & 63)

    def engine_move(self, move: int):
        return PASS if move < 0 else Move(move >> 6, move & 63)
