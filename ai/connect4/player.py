"""The Connect 4 AI levels: the shared player (ai/base_player.py) with Connect 4's search and book.

Level 1 is a rule-based beginner (takes a win, blocks two times in three, likes the centre, no
look-ahead); levels 2..5 are the alpha-beta search at growing depth / node budgets, choosing among
their root moves (exact scores: every root move gets a full window) by a softmax with less and less
noise; level 6 is the full search with the opening book, no noise.

The transposition table lives in the player and is kept from one move to the next (the bot keeps one
player per game), so each search starts from the previous one's work.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ai.base_player import Level as BaseLevel, SearchPlayer, level_descriptions
from ai.connect4 import book
from ai.connect4.bitboard import (BOARD, BOTTOM, CELLS, CENTRE_ORDER, COL_MASK, WINDOWS, drop_bit,
                                  from_rows, win_cells)
from ai.connect4.search import STEAL, WIN, Result, Searcher
from ai.noise import noisy_pick
from ai.player import InfoCallback, SearchInfo


@dataclass(frozen=True)
class Level(BaseLevel):
    opening_plies: int = 0  # while fewer chips than this are on the board ...
    opening_temperature: float = 0.0  # ... these replace temperature and margin (varied openings)
    opening_margin: int = 0
    book: str = "none"  # "steal": the computed STEAL table only; "full": also the first move and book lines


LEVEL_TABLE: dict[int, Level] = {
    1: Level("beginner: takes a win, blocks two times in three, likes the centre; no look-ahead",
             depth=0, cap_ms=200, temperature=25.0),
    2: Level("2-ply alpha-beta, very noisy", depth=2, cap_ms=500, temperature=40.0, margin=150),
    3: Level("4-ply alpha-beta, noisy", depth=4, cap_ms=1000, temperature=15.0, margin=60, book="steal"),
    4: Level("alpha-beta, 5,000 nodes a move, slightly noisy", nodes=5_000, cap_ms=1500, temperature=4.0,
             margin=12, opening_plies=6, opening_temperature=10.0, opening_margin=30, book="steal"),
    5: Level("alpha-beta, 25,000 nodes a move, varied openings", nodes=25_000, cap_ms=2500, temperature=1.0,
             margin=3, opening_plies=6, opening_temperature=8.0, opening_margin=25, book="steal"),
    6: Level("full search: alpha-beta + transposition table + endgame solver + opening book, "
             "150,000 nodes or the time limit", nodes=150_000, cap_ms=2500, book="full"),
}

LEVELS: dict[int, str] = level_descriptions(LEVEL_TABLE)

BLOCK_PROBABILITY = 2 / 3  # level 1: how often it sees the opponent's immediate threat


def _chips(game) -> tuple[int, int]:
    """(chips of the side to move, all chips) as bitboards."""
    return from_rows(game.board(), str(game.current_player()))


def _can_steal(game, moves) -> bool:
    return game.turn_index == 1 and STEAL in moves


class Connect4Player(SearchPlayer):
    game_id = "connect4"
    levels = LEVEL_TABLE
    win = WIN  # a win is WIN + the empty cells left after the winning chip: see win_score
    proven = WIN

    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None, **changes) -> None:
        super().__init__(level, think_ms=think_ms, seed=seed, **changes)
        self.searcher = Searcher()

    def quick_move(self, game, t0: float, deadline: float | None, on_info: InfoCallback | None):
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        cur, mask = _chips(game)
        steal = _can_steal(game, moves)
        cfg = self.cfg
        if self.level == 1:
            return self._beginner(cur, mask, steal)
        if cfg.book == "full" or (cfg.book == "steal" and steal):
            mv = book.lookup(cur, mask, steal)
            if mv is not None and mv in moves:
                if on_info is not None:
                    on_info(SearchInfo(note="opening table", best=game.move_to_str(mv),
                                       elapsed_s=time.monotonic() - t0))
                if deadline is not None and self.level == 6:
                    self._warm_up(cur, mask, mv, deadline)
                return mv
        return None

    def noise(self, game) -> tuple[float, int]:
        cfg = self.cfg
        if _chips(game)[1].bit_count() < cfg.opening_plies:
            return cfg.opening_temperature, cfg.opening_margin
        return cfg.temperature, cfg.margin

    def win_score(self, game) -> int:
        # a win of the chip about to be played (one ply ahead) scores WIN + empty cells - 1
        return WIN + CELLS - _chips(game)[1].bit_count()

    def search(self, game, *, t0, stop, deadline, all_scores, report) -> Result:
        cur, mask = _chips(game)
        steal = _can_steal(game, game.legal_moves())
        # Level 6 under the referee's clock (the bot's deadline already keeps a 40% safety margin) searches
        # until the deadline: a depth left unfinished still refines the move and fills the table for the
        # next turn.  Otherwise (the app, the lower levels) no new depth starts after 45% of the time.
        if stop is None or (self.level == 6 and deadline is not None and deadline <= t0 + self.cap_ms / 1000):
            soft = None  # no clock (the analysis' node budget), or the deadline binds
        else:
            soft = max(0.0, (stop - t0) * 0.45)
        return self.searcher.search(cur, mask, steal=steal, max_depth=self.cfg.depth, node_limit=self.cfg.nodes,
                                    deadline=stop, on_info=report, multipv=all_scores, soft_time=soft)

    def _warm_up(self, cur: int, mask: int, mv: int, deadline: float) -> None:
        """The book answered at once: spend the turn's time searching the position after the book move
        (the opponent to move), so the table is warm for our next turn.  The first turn has 1 s."""
        if mv == STEAL:  # the chip becomes ours; the opponent moves with no chip of its own
            ncur, nmask = 0, mask
        else:
            nmask = mask | drop_bit(mask, mv)
            ncur = cur ^ mask  # the opponent's chips
        if nmask.bit_count() >= CELLS:
            return
        self.searcher.search(ncur, nmask, steal=nmask.bit_count() == 1 and mv != STEAL,
                             deadline=deadline - 0.005)

    def _beginner(self, cur: int, mask: int, steal: bool) -> int:
        """Level 1: no search.  Wins when it can, blocks two times in three, else a centre-loving softmax."""
        rng = self.rng
        empty = BOARD ^ mask
        possible = (mask + BOTTOM) & BOARD
        opp = cur ^ mask
        w_me = win_cells(cur) & empty
        w_op = win_cells(opp) & empty
        cols = [c for c in CENTRE_ORDER if possible & COL_MASK[c]]
        for c in cols:
            if possible & COL_MASK[c] & w_me:
                return c
        if steal and rng.random() < 0.5 and 3 <= (mask.bit_length() - 1) // 8 <= 5:
            return STEAL
        blocks = [c for c in cols if possible & COL_MASK[c] & w_op]
        if blocks and rng.random() < BLOCK_PROBABILITY:
            return rng.choice(blocks)
        scores = []
        for c in cols:
            m = possible & COL_MASK[c]
            s = WINDOWS[m.bit_length() - 1] + 20 * (win_cells(cur | m) & (empty ^ m)).bit_count()
            scores.append(s)
        return noisy_pick(rng, zip(cols, scores), self.cfg.temperature, WIN)
