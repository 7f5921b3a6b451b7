"""One game between two bot processes, refereed exactly as the official CodinGame referee does it."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from engines import get_game
from engines.base import Game, InvalidOutput, Outcome
from engines.endings import fault_line
from engines.record import Recorder, TurnRecord
from engines.referee.process import BotError, BotProcess
from engines.visible import visible


@dataclass
class MatchResult:
    """One refereed game: how it ended (its Outcome: winner, reason, scores, fault) and what was played."""

    game: str
    seed: int | None
    turns: int  # player turns played, the opening's moves included
    moves: list[str]
    seats: list[str]  # the label of the player in each seat
    outcome: Outcome
    stderr_tails: list[list[str]] = field(default_factory=lambda: [[], []])
    record: list[TurnRecord] | None = None  # with run_match(record=True): every turn, the last failed one too

    @property
    def error(self) -> str | None:
        """The forfeit as the referee records it, the seat named by its label (engines.endings.fault_line)."""
        return fault_line(self.outcome, self.seats)

    def to_json(self) -> dict:
        """`referee --json`'s object (SPEC.md): its keys in this order."""
        out = self.outcome
        return {"game": self.game, "seed": self.seed, "winner": out.winner, "scores": list(out.scores),
                "reason": out.reason.value, "turns": self.turns, "moves": self.moves, "error": self.error,
                "seats": self.seats}


@dataclass(frozen=True)
class TurnEvent:
    """What happened on one turn, for live displays."""

    ply: int
    seat: int
    output: str
    elapsed_ms: float
    game: Game


def run_match(game_id: str, commands: Sequence[str | Sequence[str]], *, seed: int | None = None,
              labels: Sequence[str] | None = None, time_limits: bool = True, cwd: str | None = None,
              on_turn: Callable[[TurnEvent], None] | None = None,
              on_stderr: Callable[[int, str], None] | None = None,
              opening: Sequence[str] = (), record: bool = False) -> MatchResult:
    """Host two bots (seat 0 moves first) for one game; always returns a result, never leaves a process.

    `opening`: moves played before the bots start (they are in `moves`); each bot then gets its first
    turn's input in the position reached, which a game with `whole_position_input` tells it in full.
    Raises InvalidOutput, before any bot starts, for an opening the engine refuses.  A record holds the
    opening's moves as turns of 0 ms without stderr.

    With `record`, the result's `record` holds every turn: the answer, its time, and the lines both
    bots printed on stderr from that turn's question to the next one (engines/record.py)."""
    cls = get_game(game_id)
    game = cls.new(seed)
    labels = list(labels) if labels is not None else [str(c) for c in commands]
    moves: list[str] = []
    recorder = Recorder() if record else None
    for line in opening:
        seat = game.current_player()
        game.play(line)
        moves.append(game.recorded_output(line))
        if recorder is not None:  # a turn of the opening: no bot was asked, so no time and no stderr
            recorder.add(seat, line, 0, ([], []))
    bots: list[BotProcess | None] = [None, None]
    outcome: Outcome | None = None

    def note_turn(seat: int, output: str | None, started: float, elapsed_ms: float | None = None) -> None:
        if recorder is not None:
            ms = (time.monotonic() - started) * 1000 if elapsed_ms is None else elapsed_ms
            recorder.add(seat, output, ms, tuple(b.take_turn_stderr() if b else [] for b in bots))

    try:
        for seat in (0, 1):
            try:
                cb = (lambda line, s=seat: on_stderr(s, line)) if on_stderr else None
                bots[seat] = BotProcess(commands[seat], cwd=cwd, on_stderr=cb, name=f"seat{seat}")
            except BotError as e:
                outcome = game.forfeit(seat, e.reason, str(e))
                break
        first = [True, True]
        while outcome is None:
            outcome = game.outcome()
            if outcome is not None:
                break
            seat = game.current_player()
            bot = bots[seat]
            lines = game.bot_input(first[seat])
            limit_ms = cls.limits.for_turn(first[seat]) if time_limits else None
            first[seat] = False
            started = time.monotonic()
            try:
                answer = bot.ask(lines, None if limit_ms is None else limit_ms / 1000)
            except BotError as e:
                note_turn(seat, None, started)
                outcome = game.forfeit(seat, e.reason, str(e))
                break
            note_turn(seat, answer.line, started, answer.elapsed_ms)
            try:
                game.play(answer.line)
            except InvalidOutput as e:
                outcome = game.forfeit(seat, "invalid", str(e), output=answer.line)
                break
            moves.append(game.recorded_output(answer.line))
            if on_turn is not None:
                on_turn(TurnEvent(len(moves), seat, answer.line, answer.elapsed_ms, game))
    finally:
        tails = []
        for bot in bots:
            if bot is not None:
                bot.close()
                bot.stderr_shown()
                tails.append(bot.stderr_tail(5))
            else:
                tails.append([])
    return MatchResult(game=cls.id, seed=seed, turns=len(moves), moves=moves, seats=labels, outcome=outcome,
                       stderr_tails=tails,
                       record=recorder.turns if recorder is not None else None)
