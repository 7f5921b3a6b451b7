"""The AI player of every game: one class owns the loop, each game supplies its search.

`SearchPlayer.choose` checks the game is not over, lets the game answer without a search where it
can (`quick_move`: a book, a beginner's rule), works out when to stop, runs the game's `search` with
the garbage collector paused, weakens the choice for the low levels (softmax noise over the root
scores, or the game's own `weaken`), and reports progress as `SearchInfo` throughout.

Budgets: every level has a deterministic budget (`depth`, `nodes`) and a wall-clock cap (`cap_ms`,
for the app; `think_ms` replaces the cap, never the node budget).  A `deadline` (the bot passes 60%
of the CodinGame limit of the turn, less after late answers: ai/turn_clock.py) stops the search earlier.  So with `think_ms` large and no
deadline a level plays the same moves on any machine for a given seed; unseeded players draw their
noise from the OS, so games between them differ.  The player keeps its searcher (and so its tables)
from one move to the next: the bot keeps one player per game.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar, Protocol

from ai.gc_pause import gc_paused
from ai.levels import MAX_LEVEL, MIN_LEVEL
from ai.noise import noisy_pick
from ai.player import InfoCallback, SearchInfo, info_score

# report(depth, nodes, score, best move in the search's own type, seconds): one finished iteration
Report = Callable[[int, int, int, Any, float], None]


@dataclass(frozen=True)
class Level:
    """One level's budgets and noise; a game's levels may add fields of their own."""

    describe: str
    depth: int | None = None  # iterative deepening stops here (None: the search's own limit)
    nodes: int | None = None  # node budget per move (None: the clock only)
    cap_ms: int = 3000  # wall-clock cap per move when no deadline is given (think_ms replaces it)
    temperature: float = 0.0  # softmax temperature over root scores (eval units); 0 = always the best
    margin: int = 0  # with noise: only moves within this many units of the best (0: any)
    top_k: int = 0  # with noise: only the k best moves (0: any)
    tie_noise: int = 0  # a random bonus 0..tie_noise on each root score, so equal moves vary with the seed


class Found(Protocol):
    """What a game's search returns (each search has its own result class with these fields)."""

    move: Any  # in the search's own move type (`engine_move` converts it)
    score: int  # from the mover's side; beyond +-proven a proven win or loss
    depth: int
    nodes: int
    scores: dict  # root move -> score (exact for every move when the search was asked for all)
    proven: bool  # the search knows the game's value


def level_descriptions(table: dict[int, Level]) -> dict[int, str]:
    return {n: level.describe for n, level in table.items()}


class SearchPlayer:
    """The base of the four games' players (`ai.player.Player`).  A game sets the class attributes and
    implements `search`; the other hooks have defaults."""

    game_id: ClassVar[str]
    levels: ClassVar[dict[int, Level]]
    win: ClassVar[int]  # the search's score of a win at the root; a win p plies ahead scores win - p
    proven: ClassVar[int]  # scores at or beyond +-proven are proven wins and losses
    score_scale: ClassVar[float] = 100.0  # search units per unit shown in SearchInfo
    first_turn_s: ClassVar[float | None] = None  # cap a turn whose deadline is further away than this
    min_search_s: ClassVar[float] = 0.0  # a deadline already (nearly) gone still gets this long

    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None, **changes) -> None:
        """`changes` replace fields of the level (tests and tuning), e.g. `nodes=3000`: a node budget
        makes the moves independent of the machine's speed."""
        if level not in self.levels:
            raise ValueError(f"{self.game_id} AI level {level} is out of range {MIN_LEVEL}..{MAX_LEVEL}")
        self.level = level
        self.cfg = replace(self.levels[level], **changes)
        self.think_ms = think_ms
        self.rng = random.Random(seed)  # None: seeded from the OS, so unseeded games differ
        self.name = f"{self.game_id} level {level}"

    # ------------------------------------------------------------------ the loop

    def choose(self, game, deadline: float | None = None, on_info: InfoCallback | None = None):
        if game.outcome() is not None:
            raise ValueError("the game is over: there is no move to choose")
        t0 = time.monotonic()
        move = self.quick_move(game, t0, deadline, on_info)
        if move is not None:
            return move
        temperature, margin = self.noise(game)
        stop = self.stop_time(t0, deadline)
        win = self.win_score(game)

        def report(depth: int, nodes: int, score: int, best, elapsed: float) -> None:
            if on_info is not None:
                on_info(SearchInfo(depth=depth, nodes=nodes, score=self.shown_score(score, win),
                                   best=self.move_text(game, best), elapsed_s=elapsed, tree=self.tree()))

        with gc_paused():
            found = self.search(game, t0=t0, stop=stop, deadline=deadline, all_scores=temperature > 0,
                                report=report)
        if temperature > 0 and found.scores and found.score < self.proven:
            move = noisy_pick(self.rng, self.noise_order(found.scores), temperature, self.proven,
                              margin=margin, top_k=self.cfg.top_k)
        else:
            move = self.weaken(found)
        if on_info is not None:
            on_info(SearchInfo(depth=found.depth, nodes=found.nodes, score=self.shown_score(found.score, win),
                               best=self.move_text(game, move), elapsed_s=time.monotonic() - t0,
                               note="solved" if found.proven else "", tree=self.tree()))
        return self.engine_move(move)

    @property
    def cap_ms(self) -> int:
        """The wall-clock cap per move: think_ms when given, else the level's."""
        return self.think_ms if self.think_ms is not None else self.cfg.cap_ms

    def tree(self) -> str:
        """Which implementation of the search runs (SearchInfo.tree): "" where a game has one only."""
        return ""

    def stop_time(self, t0: float, deadline: float | None) -> float:
        """When the search must stop (time.monotonic()): the cap, or the deadline when sooner."""
        stop = t0 + self.cap_ms / 1000
        if deadline is not None:
            stop = min(stop, max(deadline, t0 + self.min_search_s) if self.min_search_s else deadline)
            if self.first_turn_s is not None and deadline - t0 > self.first_turn_s:
                # A CodinGame first turn (1000 ms) also pays for the bot process's start-up, which the
                # deadline (counted from the first input line) does not see: keep it short.
                stop = min(stop, t0 + self.first_turn_s)
        return stop

    def shown_score(self, score: int, win: int) -> float:
        return info_score(score, win, self.proven, self.score_scale)

    # ------------------------------------------------------------------ the games' hooks

    def get_ready(self, turn_s: float) -> None:
        """Called by a bot process before its first input, turns of `turn_s` seconds ahead: start what the
        searches will want (Paper Soccer: loading its compiled tree), without blocking."""

    def search(self, game, *, t0: float, stop: float | None, deadline: float | None, all_scores: bool,
               report: Report) -> Found:
        """Search `game` (leaving it unchanged) until `stop` at the latest, within the level's budgets;
        `stop` None: no clock at all, only the budgets (the analysis: the same result on any machine).
        `all_scores`: every root move gets an exact score (the noisy levels need them)."""
        raise NotImplementedError

    def quick_move(self, game, t0: float, deadline: float | None, on_info: InfoCallback | None):
        """An engine move chosen without the search (it reports itself), or None."""
        return None

    def noise(self, game) -> tuple[float, int]:
        """(temperature, margin) of the softmax for this position."""
        return self.cfg.temperature, self.cfg.margin

    def noise_order(self, scores: dict) -> list[tuple[Any, int]]:
        """The root scores in the order the softmax draws from (see `noisy_pick`)."""
        return list(scores.items())

    def weaken(self, found: Found):
        """The move played when there is no softmax: the search's best."""
        return found.move

    def win_score(self, game) -> int:
        """The search's score of a win at the root of this position (`win` unless it depends on it)."""
        return self.win

    def move_text(self, game, move) -> str:
        """A search move in CodinGame notation, for the progress reports."""
        return game.move_to_str(self.engine_move(move))

    def engine_move(self, move):
        """The engine's move for a search move."""
        return move
