"""Analysis: what the top level's search thinks of a position, and of each move of a game.

`evaluate` runs the level-6 search of a game on one position (without its opening book, its noise or
its quick answers: analysis wants the search's own opinion) and returns the evaluation from the side
to move, the best move and the best root moves with their scores.  `analyse_game` evaluates every
position of a game and judges each move played by how much win probability it gave away, the way
chess sites do: the value of the position before the move (the best move's) against the value of the
position after it (seen from the mover's side).  Both are pure: no I/O; progress goes to a callback.

Reproducible by default: a game's analysis has no clock, only a node budget per position (each game's
ANALYSIS_NODES), no noise, and a fresh player (fresh tables) for each position, so the same game gets
the same verdicts on any machine, in `termarena analyse`, in the app's chart and in its analysis of a
position alike (`analyse_game` and `analyse_position` judge a move with `judge_move`, the one place
labels are given).  The move played is scored in the same search as the
best one (every root move scored), and a best move is never reported worse than the move played.

Scores are in the units `SearchInfo` shows (`ai.player.info_score`): a proven win is 1e6 and beyond.
`win_probability` maps them to the chance the mover wins (a draw counts one half) with a logistic
fitted on self-play games (`python -m ai.tools.calibrate`; each game's AI package holds its CALIBRATION).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

from ai.gc_pause import gc_paused
from ai.levels import MAX_LEVEL, ai_part
from ai.player import SearchInfo
from ai.tournament import points
from engines.base import Game

# Shown scores at or beyond this are won or lost: every search keeps its evaluation within +-100 (shown
# units) and scores results near 1e4 or more (a Connect 4 win on a nearly full board is 9,999.98)
PROVEN = 5e3
TOP_LINES = 3  # root moves shown by the app's analysis
DEFAULT_ANALYSIS_NODES = 20_000  # the node budget per position of a game whose AI package sets no ANALYSIS_NODES

# Win probability of the side to move = 1 / (1 + exp(-(A + K * score))), score in SearchInfo units:
# each game's AI package sets (A, K) as CALIBRATION, fitted by maximum likelihood on (score, result)
# pairs of self-play games between levels 2..5 (colour-swapped, the arena's random openings), each
# position scored by this module's search at 3,000 nodes: `python -m ai.tools.calibrate GAME --games 40`.
# A is what being to move is worth beyond the score.  Log loss: a coin scores 0.693.

# Labels by the win probability a move gives away (the best move's minus the played move's):
# (inaccuracy, mistake, blunder).  The same for every game, since each game's probability is calibrated
# on its own results (README, "Analysis"); a game's AI package may set its own THRESHOLDS.
THRESHOLDS = (0.10, 0.20, 0.30)
LABELS = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Line:
    """One root move and its score (SearchInfo units, from the side to move)."""

    move: str
    score: float


@dataclass(frozen=True)
class PositionEval:
    """The search's verdict on a position, from the side to move."""

    score: float
    best: str | None  # None when the game is over
    lines: tuple[Line, ...] = ()  # the best root moves, best first (all of them with all_scores)
    depth: int = 0
    nodes: int = 0
    proven: bool = False
    result: float | None = None  # a finished game: 1, 0.5 or 0 for the side to move
    line: tuple[str, ...] = ()  # the best line: the best move, then the best replies (the app's analysis)

    def chance(self, game_id: str) -> float:
        """The side to move's chance of winning (a draw counts one half)."""
        return self.result if self.result is not None else win_probability(game_id, self.score)

    def info(self) -> SearchInfo:
        """The evaluation as a search progress report (what the app's thinking line shows)."""
        return SearchInfo(depth=self.depth, nodes=self.nodes, score=self.score, best=self.best,
                          note="solved" if self.proven else "")


def logistic(x: float) -> float:
    """1 / (1 + e^-x), clamped so that no score overflows the exponential."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def win_probability(game_id: str, score: float) -> float:
    """The chance the side to move wins (a draw is one half) for a shown score."""
    if score >= PROVEN:
        return 1.0
    if score <= -PROVEN:
        return 0.0
    a, k = ai_part(game_id, "CALIBRATION")
    return logistic(a + k * score)


def final_result(game: Game, seat: int) -> float:
    """A finished game for `seat`: 1 won, 0.5 drawn, 0 lost."""
    return points(game.outcome().winner, seat)


def analysis_nodes(game_id: str) -> int:
    """The node budget per position of a game's analysis (its AI package's ANALYSIS_NODES)."""
    return ai_part(game_id, "ANALYSIS_NODES", DEFAULT_ANALYSIS_NODES)


def analysis_player(game_id: str, *, think_ms: int | None = None, nodes: int | None = None,
                    changes: dict | None = None):
    """The top level's player (with the game's `ANALYSIS_CHANGES`, if its AI module has any, then
    `changes`: what `ai.tools.calibrate --with` tries), no random tie-breaks at its root.  Without
    `think_ms` it has no clock: `evaluate` stops it at `nodes` (default: the game's `analysis_nodes`)
    alone, so it gives the same answers on any machine; with `think_ms` that clock bounds it too, and
    `nodes` defaults to the level's own budget."""
    changes = dict(ai_part(game_id, "ANALYSIS_CHANGES", {}), **(changes or {}), tie_noise=0)
    if nodes is None and think_ms is None:
        nodes = analysis_nodes(game_id)
    if nodes is not None:
        changes["nodes"] = nodes
    return ai_part(game_id, "make_player")(MAX_LEVEL, think_ms=think_ms, seed=0, **changes)


def notation(game: Game, player, move) -> str:
    """A search move in the engine's CodinGame notation."""
    return game.move_to_str(player.engine_move(move))


def evaluate(game: Game, player, *, all_scores: bool = True,
             on_info: Callable[[SearchInfo], None] | None = None) -> PositionEval:
    """The search's evaluation of `game` (left unchanged) from the side to move."""
    if game.outcome() is not None:
        result = final_result(game, game.current_player())
        return PositionEval(score=2e6 * (result - 0.5), best=None, proven=True, result=result)
    t0 = time.monotonic()
    stop = None if player.think_ms is None else player.stop_time(t0, None)  # None: the node budget alone
    win = player.win_score(game)

    def report(depth, nodes, score, best, elapsed) -> None:
        if on_info is not None:
            on_info(SearchInfo(depth=depth, nodes=nodes, score=player.shown_score(score, win),
                               best=player.move_text(game, best), elapsed_s=elapsed))

    with gc_paused():
        found = player.search(game, t0=t0, stop=stop, deadline=None, all_scores=all_scores, report=report)
    # moves in the engine's own notation, so a played move (normalised the same way) can be found
    searched = notation(game, player, found.move)
    best, score = searched, player.shown_score(found.score, win)
    lines = [Line(notation(game, player, m), player.shown_score(s, win)) for m, s in found.scores.items()]
    # the search's own best first among equals; then the engine's order, so a tie reads the same every time
    lines.sort(key=lambda line: (-line.score, line.move != searched))
    if all_scores and lines:
        # every root move has an exact score from the last whole iteration: that is the verdict.  A search
        # cut during the next one may name as best a move scored there, deeper, and lower than others
        best, score = lines[0].move, lines[0].score
    elif not lines or lines[0].move != best:  # the best first, whatever the table held
        lines = [Line(best, score)] + [line for line in lines if line.move != best]
    return PositionEval(score=score, best=best, lines=tuple(lines), depth=found.depth, nodes=found.nodes,
                        proven=bool(found.proven) and best == searched)


LINE_PLIES = 4  # the best line the app shows: the best move and three best replies after it


def best_line(game: Game, player, best: str, plies: int = LINE_PLIES) -> tuple[str, ...]:
    """`best`, then the move the search prefers in each position it leads to: searches of an eighth of
    the budget on the same player, whose tables already hold most of these positions from the search
    of `game`.  `game` is left unchanged."""
    line, after = [best], game.copy()
    after.play(best)
    cfg = player.cfg
    player.cfg = replace(cfg, nodes=max(200, (cfg.nodes or 4000) // 8))
    try:
        while len(line) < plies and after.outcome() is None:
            reply = evaluate(after, player, all_scores=False).best
            if reply is None:
                break
            line.append(reply)
            after.play(reply)
    finally:
        player.cfg = cfg
    return tuple(line)


@dataclass(frozen=True)
class MoveVerdict:
    """One move of a game: `eval` is the win probability (or score: see `probability`) the move
    leaves the mover, `best_eval` what the best move would have left."""

    ply: int  # 1-based
    move: str
    seat: int
    eval: float
    best: str
    best_eval: float
    label: str | None
    score: float  # the search's score after the move, from the mover's side (SearchInfo units)


@dataclass
class GameAnalysis:
    game: str
    moves: list[MoveVerdict] = field(default_factory=list)  # `ply` counts the analysed moves from 1
    start_ply: int = 0  # turns played before the first of them (a game saved from a position)

    def turn(self, ply: int) -> int:
        """The game's number of the analysed move `ply`, as the app numbers it (`Session.turn_number`)."""
        return self.start_ply + ply


def label_for(game_id: str, loss: float) -> str | None:
    """The label of a move that gave away `loss` win probability (None below the first threshold)."""
    label = None
    for name, threshold in zip(LABELS, ai_part(game_id, "THRESHOLDS", THRESHOLDS)):
        if loss >= threshold - 1e-9:
            label = name
    return label


def judge(game_id: str, ply: int, move: str, seat: int, before: PositionEval, played: float,
          score: float) -> MoveVerdict:
    """The verdict on one move: `before` the position's evaluation (all root moves scored), `played`
    the chance the move left the mover and `score` its search score.  A move that did at least as well
    as the search's best (its result, or a search of the position after it) is the best.  A move that
    lets in a loss the search sees to the end, where the best did not lose by force, is a blunder
    however bad the position already looked (a Connect 4 column left open to four: 19% given away)."""
    best, best_move = before.chance(game_id), before.best or move
    if move == best_move or played >= best:
        best, best_move = max(best, played), move
    label = "blunder" if score <= -PROVEN and best > 0.0 else label_for(game_id, best - played)
    return MoveVerdict(ply, move, seat, played, best_move, best, label, score)


def judge_move(game: Game, text: str, player, before: PositionEval, ply: int) -> MoveVerdict:
    """The verdict on the move `text` (legal) from `game` (left unchanged), whose evaluation `before`
    `player` found with every root move scored: the move's score is its root score; a move the search
    did not score (Paper Soccer merges turns that end alike) is valued by a search of the position after
    it with the same player; a move that ends the game, by its result."""
    gid, seat = game.id, game.current_player()
    canonical = game.move_to_str(game.parse_output(text))
    line = next((line for line in before.lines if line.move == canonical), None)
    game.play(text)
    try:
        if game.outcome() is not None:
            chance = final_result(game, seat)
            score = 2e6 * (chance - 0.5)
        elif line is not None:
            chance, score = win_probability(gid, line.score), line.score
        else:
            after = evaluate(game, player, all_scores=False)
            same = game.current_player() == seat
            chance = after.chance(gid) if same else 1.0 - after.chance(gid)
            score = after.score if same else -after.score
    finally:
        game.pop()
    return judge(gid, ply, canonical, seat, before, chance, score)


def analyse_position(game: Game, played: str | None = None, *, nodes: int | None = None,
                     think_ms: int | None = None, on_info: Callable[[SearchInfo], None] | None = None,
                     ply: int = 1) -> Iterator[tuple[PositionEval, MoveVerdict | None]]:
    """The app's analysis of the position `game` (left unchanged), the same as `analyse_game`'s of it: a
    fresh `analysis_player` (the game's node budget, no clock unless `think_ms`), every root move scored,
    `on_info` told as it deepens; with `played` (the move made from here, where the screen knows it),
    that move's verdict (its `ply`), and a move played that did as well as the best is listed first,
    as the verdict's best.  Yields (evaluation, verdict), then the same with the best line."""
    player = analysis_player(game.id, think_ms=think_ms, nodes=nodes)
    ev = evaluate(game, player, all_scores=True, on_info=on_info)
    verdict = None if played is None or ev.best is None else judge_move(game, played, player, ev, ply)
    if verdict is not None and verdict.best == verdict.move != ev.best:
        lines = (Line(verdict.move, verdict.score),) + tuple(line for line in ev.lines if line.move != verdict.move)
        ev = replace(ev, best=verdict.move, score=verdict.score, lines=lines, proven=False)
    yield ev, verdict
    if ev.best is not None:
        yield replace(ev, line=best_line(game, player, ev.best)), verdict


ProgressCallback = Callable[[int, int], None]  # (positions evaluated, positions in all)


def analyse_game(game: Game, moves: list[str], *, nodes: int | None = None, think_ms: int | None = None,
                 on_progress: ProgressCallback | None = None,
                 on_verdict: Callable[[MoveVerdict], None] | None = None) -> GameAnalysis:
    """Judge every move of `moves` (CodinGame notation, legal) from `game` (changed on the way and put
    back), each position by a fresh `analysis_player(nodes=, think_ms=)`: without `think_ms`, the same
    verdicts on any machine.  Each position is searched with every root move scored, so the move played
    and the best one are compared by one search, from the same side (comparing the position after the
    move, seen by the opponent, would add what being to move is worth: CALIBRATION's A).  A move the
    search did not score (Paper Soccer merges turns that end alike) is valued by a search of the
    position after it with the same budget; a move that ends the game, by its result."""
    result = GameAnalysis(game.id, start_ply=game.game_ply)
    pushed = 0
    try:
        for ply, text in enumerate(moves, start=1):
            if on_progress is not None:
                on_progress(ply - 1, len(moves))
            # a fresh player for each position: what it finds depends on this position alone
            player = analysis_player(game.id, think_ms=think_ms, nodes=nodes)
            result.moves.append(judge_move(game, text, player, evaluate(game, player, all_scores=True), ply))
            if on_verdict is not None:
                on_verdict(result.moves[-1])
            game.play(text)
            pushed += 1
    finally:
        for _ in range(pushed):
            game.pop()
    if on_progress is not None:
        on_progress(len(moves), len(moves))
    return result


def analysis_json(analysis: GameAnalysis) -> dict:
    """The `termarena analyse --json` object (SPEC: game, moves[ply, move, eval, best, label])."""
    return {"game": analysis.game,
            "moves": [{"ply": v.ply, "move": v.move, "eval": round(v.eval, 3), "best": v.best, "label": v.label,
                       "seat": v.seat, "best_eval": round(v.best_eval, 3)} for v in analysis.moves]}
