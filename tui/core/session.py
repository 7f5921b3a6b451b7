"""One game being played in the app: the engine position, who sits where, undo/redo.  Pure logic, no Textual.

The engine position is the one source of truth: every move goes through `parse_output` (so an illegal
input is refused with the referee's own reason) and is recorded in the game's CodinGame notation.
Undo pops moves back onto a redo stack; what one undo takes back depends on who plays:

* hot-seat (two humans): one ply;
* against the built-in AI: back to the last position where a human is to move (one's own turn);
* against an external bot: nothing, since a bot only understands a game played from its start.

Plies strictly alternate between the seats in all four games (a STEAL or a pass is a ply too), so the
seat that played ply i is known from the seat that moved first.
"""
from __future__ import annotations

import datetime as _dt
import random
from dataclasses import dataclass

from engines import GameRecord, get_game, resolve_game_id
from engines.base import FORFEIT_REASONS, Game, InvalidOutput, Outcome
from engines.endings import cause_from_detail, describe, fault_line, first_upper, headline
from engines.numbers import check_seed
from engines.savefile import SavedGame, outcome_result
from tui.core.clock import GameClock
from tui.core.specs import PlayerSpec

SEED_RANGE = 1 << 31


class SessionError(Exception):
    """An action the session refuses (undo against a bot, a move after the end); the message is for the user."""


@dataclass(frozen=True)
class Played:
    """A move that was accepted: who played it and how it is written."""

    seat: int
    text: str


class Session:
    def __init__(self, game_id: str, specs: tuple[PlayerSpec, PlayerSpec] | list[PlayerSpec],
                 seed: int | None = None, *, start: str | None = None,
                 moves: list[str] | None = None, redo: list[str] | None = None,
                 clock: GameClock | None = None):
        self.game_id = resolve_game_id(game_id)
        self.cls: type[Game] = get_game(self.game_id)
        if len(specs) != 2:
            raise ValueError("a game needs exactly two player specs")
        self.specs: tuple[PlayerSpec, PlayerSpec] = (specs[0], specs[1])
        # A seed is always fixed, so the game can be replayed (and saved) exactly.
        self.seed = seed if seed is not None else random.randrange(SEED_RANGE)
        check_seed(self.seed, self.cls.title)  # also with a start position: the seed is saved, then loaded
        self.start = start
        self.game: Game = self.cls.from_text(start) if start is not None else self.cls.new(self.seed)
        self.first_seat = self.game.current_player()
        self.start_ply = self.game.game_ply  # turns played before the start (a loaded position)
        self.notation: list[str] = []
        self._redo: list[str] = []  # the next move to redo is last
        self.forced: Outcome | None = None  # a forfeit: a bot that crashed, timed out or answered nonsense
        self.changes = 0  # counts every change of the game (moves, undo, redo, forfeit): autosave watches it
        self.clock: GameClock | None = None  # set after the moves given are replayed: they took no time here
        self.clock_held = False
        # False where another program (a network game's host) decides when time is up: the clock here
        # only shows the time, and a move never fails on it
        self.referees_clock = True
        for text in moves or ():
            self.play(text)
        self._redo = list(reversed(redo or []))
        self.changes = 0
        # The seat to move has its clock running, unless the game is over or the clock is held (a
        # network game waiting for its opponent).
        self.clock = clock
        self.sync_clock()

    # ------------------------------------------------------------------ who plays

    def kind(self, seat: int) -> str:
        return self.specs[seat].kind

    @property
    def has_bot(self) -> bool:
        return any(s.kind == "cmd" for s in self.specs)

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.specs)

    @property
    def has_net(self) -> bool:
        return any(s.kind == "net" for s in self.specs)

    @property
    def hot_seat(self) -> bool:
        return all(s.kind == "human" for s in self.specs)

    def seat_of_ply(self, index: int) -> int:
        """The seat that played move number `index` (0-based) of this session."""
        return self.first_seat ^ (index & 1)

    def to_move(self) -> int:
        """The seat to move (after the last move when the game is over)."""
        return self.seat_of_ply(len(self.notation))

    def human_to_move(self) -> bool:
        return not self.is_over() and self.kind(self.to_move()) == "human"

    # ------------------------------------------------------------------ state

    def outcome(self) -> Outcome | None:
        return self.forced if self.forced is not None else self.game.outcome()

    def is_over(self) -> bool:
        return self.outcome() is not None

    @property
    def ply(self) -> int:
        return len(self.notation)

    def turn_number(self, index: int) -> int:
        """The game's number of this session's move `index` (0-based): turns are numbered from the game's
        first, so a position loaded at its turn 59 plays turn 59 first (the status line, the move list)."""
        return self.start_ply + index + 1

    def record(self) -> GameRecord:
        return GameRecord(self.game_id, list(self.notation), self.seed, self.start)

    @property
    def redo_moves(self) -> list[str]:
        """The moves undone and not replaced, next first."""
        return list(reversed(self._redo))

    # ------------------------------------------------------------------ playing

    def play(self, text: str) -> Played:
        """Play one player's output; raises InvalidOutput (the referee's reason) and changes nothing if refused."""
        if self.check_flag() is not None:
            raise InvalidOutput("the time is up")
        if self.is_over():
            raise InvalidOutput("the game is over")
        move = self.game.parse_output(text)
        seat = self.to_move()
        written = self.game.move_to_str(move)
        self.game.push(move)
        self.notation.append(written)
        if self._redo and self._redo[-1] == written:
            self._redo.pop()  # playing the move that was undone keeps the rest of the redo line
        else:
            self._redo.clear()
        self.changes += 1
        if self.clock is not None:
            self.clock.moved(seat, self._clock_seat())
        return Played(seat, written)

    def forfeit(self, seat: int, reason: str, cause: str = "", output: str | None = None) -> Outcome:
        """`seat` loses by breaking the protocol: its bot's `cause` and `output` as in engines.base.Outcome."""
        self.forced = self.game.forfeit(seat, reason, cause, output)
        self.changes += 1
        self.sync_clock()
        return self.forced

    def lose_on_time(self, seat: int) -> Outcome:
        """`seat`'s clock fell (here or, in a network game, at the host): a timeout without a bot's cause."""
        return self.forfeit(seat, "timeout")

    # ------------------------------------------------------------------ clocks

    def _clock_seat(self) -> int | None:
        return None if self.is_over() or self.clock_held else self.to_move()

    def sync_clock(self) -> None:
        """Run the clock of the seat to move (none once the game is over or while the clock is held)."""
        if self.clock is not None:
            self.clock.run(self._clock_seat())

    def check_flag(self) -> Outcome | None:
        """End the game on time when the running clock has reached zero; returns that outcome."""
        if self.clock is None or not self.referees_clock or self.is_over():
            return None
        seat = self.clock.fallen()
        if seat is None:
            return None
        return self.lose_on_time(seat)

    # ------------------------------------------------------------------ undo / redo

    def undo_refusal(self) -> str | None:
        """Why undo is not possible now, or None when it is."""
        if self.has_bot:
            return ("undo is not available against an external bot: a bot only understands a game "
                    "played from its start")
        if self.has_net:
            return "in a network game, undo needs your opponent's agreement"
        if not self.has_human:
            return "undo is for games with a human player"
        if self.forced is not None:
            return "the game ended by a forfeit"
        if self._undo_count() == 0:
            return "nothing to undo yet"
        return None

    def can_undo(self) -> bool:
        return self.undo_refusal() is None

    def can_redo(self) -> bool:
        return (not self.has_bot and not self.has_net and self.has_human and self.forced is None and bool(self._redo)
                and not self.is_over())

    def _undo_count(self) -> int:
        """Plies one undo takes back: at least one, then on until a human is to move (0: impossible)."""
        for count in range(1, self.ply + 1):
            if self.kind(self.seat_of_ply(self.ply - count)) == "human":
                return count
        return 0

    def undo(self) -> int:
        """Take back one ply (hot-seat) or back to the human's previous turn; returns the plies taken back."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise SessionError(refusal)
        count = self._undo_count()
        for _ in range(count):
            self.step_back()
        return count

    def redo(self) -> int:
        """Replay undone moves up to the next position where a human is to move; returns the plies replayed."""
        if not self.can_redo():
            raise SessionError("nothing to redo")
        count = 0
        while self._redo and not self.is_over():
            self.step_forward()
            count += 1
            if self.kind(self.to_move()) == "human":
                break
        return count

    # ------------------------------------------------------------------ network games: undo by agreement

    def back_to_turn_of(self, seat: int) -> int | None:
        """How many moves the game keeps when it goes back to `seat`'s last turn (None: none to go back to)."""
        for kept in range(self.ply - 1, -1, -1):
            if self.seat_of_ply(kept) == seat:
                return kept
        return None

    def take_back_to(self, kept: int) -> None:
        """Go back to the first `kept` moves of this session; nothing is left to redo."""
        while self.ply > kept:
            self.step_back()
        self._redo.clear()

    # ------------------------------------------------------------------ single plies, whoever played (replay)

    def step_back(self) -> None:
        """Take back the last ply onto the redo stack, whoever played it (undo and replay use it)."""
        self.game.pop()
        self._redo.append(self.notation.pop())
        self.changes += 1
        self.sync_clock()

    def step_forward(self) -> None:
        """Replay the next ply of the redo stack, whoever plays it."""
        text = self._redo[-1]
        self.game.push(self.game.parse_output(text))
        self._redo.pop()
        self.notation.append(text)
        self.changes += 1
        self.sync_clock()

    # ------------------------------------------------------------------ saving

    def to_saved(self, date: str | None = None) -> SavedGame:
        """The whole session as a save: start, seed, players, the moves, the redo line and the result."""
        out = self.outcome()
        result, reason = outcome_result(out)
        if date is None:
            date = _dt.datetime.now().isoformat(timespec="seconds")
        players = (self.specs[0].label, self.specs[1].label)
        detail = fault_line(out, players) if out is not None else None  # a forfeit's, as `referee --record`'s
        return SavedGame(game=self.game_id, moves=list(self.notation), start=self.start, seed=self.seed,
                         players=players, date=date, result=result, reason=reason, detail=detail or "",
                         redo=self.redo_moves, extra=self.clock.header() if self.clock is not None else {})

    def restore_forfeit(self, saved: SavedGame) -> bool:
        """A loaded game that ended by a forfeit (its position is not over): end it again the same way,
        with the cause its `detail` gives when it has one.  Returns True when it did."""
        if (self.game.outcome() is not None or saved.reason not in FORFEIT_REASONS
                or saved.result not in ("1-0", "0-1")):
            return False
        loser = 1 if saved.result == "1-0" else 0
        cause = cause_from_detail(saved.detail, loser, saved.players) if saved.detail else ""
        self.forced = self.game.forfeit(loser, saved.reason, cause)
        return True

    # ------------------------------------------------------------------ words for the screen

    def result_words(self, side_names: tuple[str, str] | None = None) -> tuple[str, str]:
        """The game-over screen's headline and sentence (engines.endings), by default in the game's side names."""
        out = self.outcome()
        if out is None:
            return "", ""
        sides = side_names or self.cls.side_names
        return first_upper(headline(out, sides)), first_upper(describe(out, self.cls, sides))

