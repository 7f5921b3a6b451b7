"""The Connect 4 AI levels: one Player class, six budgets.

Level 1 is a rule-based beginner (takes a win, blocks two times in three, likes the centre, no
look-ahead); levels 2..5 are the alpha-beta search at growing depth / node budgets, choosing among
their root moves (exact scores: every root move gets a full window) by a softmax with less and less
noise; level 6 is the full search with the opening book, no noise.

Budgets: every level has a deterministic budget (depth or nodes) and a wall-clock cap (`cap_ms`, for
the app; `think_ms` replaces the cap, never the node budget).  A `deadline` (the bot passes 60% of the
CodinGame limit of the turn) stops the search earlier.  So with `--think-ms` large and no deadline a
level plays the same moves on any machine for a given seed; unseeded players draw their noise from
the OS, so games between them differ.

The transposition table lives in the player and is kept from one move to the next (the bot keeps one
player per game), so each search starts from the previous one's work.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ai.connect4 import book
from ai.connect4.bitboard import (BOARD, BOTTOM, CELLS, CENTRE_ORDER, COL_MASK, WINDOWS, drop_bit,
                                  from_rows, win_cells)
from ai.connect4.search import STEAL, WIN, Searcher
from ai.player import InfoCallback, SearchInfo


@dataclass(frozen=True)
class Level:
    describe: str
    depth: int | None = None  # maximum depth (plies, forced moves not counted)
    nodes: int | None = None  # node budget per move
    cap_ms: int = 3000  # wall-clock cap per move when no deadline is given (think_ms overrides it)
    temperature: float = 0.0  # softmax temperature over root scores (eval units); 0 = always the best
    margin: int = 0  # only moves within this many units of the best are considered
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

LEVELS: dict[int, str] = {k: v.describe for k, v in LEVEL_TABLE.items()}

BLOCK_PROBABILITY = 2 / 3  # level 1: how often it sees the opponent's immediate threat


class Connect4Player:
    def __init__(self, level: int, think_ms: int | None = None, seed: int | None = None) -> None:
        if level not in LEVEL_TABLE:
            raise ValueError(f"connect4 AI level {level} is out of range 1..6")
        self.level = level
        self.cfg = LEVEL_TABLE[level]
        self.think_ms = think_ms
        self.rng = random.Random(seed)  # None: seeded from the OS, so unseeded games differ
        self.searcher = Searcher()
        self.name = f"connect4 level {level}"

    # ------------------------------------------------------------------ the protocol

    def choose(self, game, deadline: float | None = None, on_info: InfoCallback | None = None) -> int:
        t0 = time.monotonic()
        moves = game.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        me = game.current_player()
        cur, mask = from_rows(game.board(), str(me))
        steal = game.turn_index == 1 and STEAL in moves
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

        cap_ms = self.think_ms if self.think_ms is not None else cfg.cap_ms
        stop = t0 + cap_ms / 1000
        if deadline is not None:
            stop = min(stop, deadline)
        # Level 6 under the referee's clock (the bot's deadline already keeps a 40% safety margin) searches
        # until the deadline: a depth left unfinished still refines the move and fills the table for the
        # next turn.  Otherwise (the app, the lower levels) no new depth starts after 45% of the time.
        if self.level == 6 and deadline is not None and deadline <= t0 + cap_ms / 1000:
            soft = None
        else:
            soft = max(0.0, (stop - t0) * 0.45)
        node_limit = cfg.nodes  # think_ms replaces the wall-clock cap, never the level's node budget

        def report(depth, nodes, score, best, elapsed):
            if on_info is not None:
                on_info(SearchInfo(depth=depth, nodes=nodes, score=_info_score(score),
                                   best=game.move_to_str(best), elapsed_s=elapsed))

        temperature, margin = cfg.temperature, cfg.margin
        if mask.bit_count() < cfg.opening_plies:
            temperature, margin = cfg.opening_temperature, cfg.opening_margin
        multipv = temperature > 0
        res = self.searcher.search(cur, mask, steal=steal, max_depth=cfg.depth, node_limit=node_limit,
                                   deadline=stop, on_info=report, multipv=multipv, soft_time=soft)
        move = res.move
        if multipv and res.scores and res.score < WIN:
            move = self._noisy_pick(res.scores, temperature, margin)
        if on_info is not None:
            on_info(SearchInfo(depth=res.depth, nodes=res.nodes, score=_info_score(res.score),
                               best=game.move_to_str(move), elapsed_s=time.monotonic() - t0,
                               note="solved" if res.proven else ""))
        return move

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

    # ------------------------------------------------------------------ weakening

    def _noisy_pick(self, scores: dict[int, int], temperature: float, margin: int) -> int:
        best = max(scores.values())
        # never a move that loses by force while another does not
        cands = [(m, s) for m, s in scores.items() if s >= best - margin and (s > -WIN or best <= -WIN)]
        weights = [math.exp((s - best) / temperature) for _, s in cands]
        return self.rng.choices([m for m, _ in cands], weights)[0]

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
        top = max(scores)
        weights = [math.exp((s - top) / self.cfg.temperature) for s in scores]
        return rng.choices(cols, weights)[0]


def _info_score(score: int) -> float:
    """Search scores for SearchInfo: the evaluation in hundredths, proven results as +-1e6 and beyond."""
    if abs(score) >= WIN:
        return float(score)
    return score / 100.0


def make_player(level: int, *, think_ms: int | None = None, seed: int | None = None) -> Connect4Player:
    return Connect4Player(level, think_ms=think_ms, seed=seed)


def search_speed(seconds: float = 2.0) -> tuple[int, float]:
    """Nodes the level-6 search visits on a fixed set of middle-game positions in about `seconds`."""
    positions = book.BENCH_POSITIONS
    total = 0
    start = time.perf_counter()
    end = start + seconds
    i = 0
    while True:
        cur, mask = positions[i % len(positions)]
        s = Searcher()
        res = s.search(cur, mask, deadline=time.monotonic() + max(0.01, min(0.5, end - time.perf_counter())))
        total += res.nodes
        i += 1
        if time.perf_counter() >= end:
            break
    return total, time.perf_counter() - start


