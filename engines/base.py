"""The one protocol every game engine follows.

A `Game` is a position *and* its history, like python-chess's `Board`: `push` a move, `pop` it back,
`move_stack` is the record.  Every game also knows its CodinGame side: the lines the referee sends the
player to move (`bot_input`) and how the referee reads that player's answer (`parse_output`).

Moves are small immutable values chosen by each game (an int column, a string of digits, a tuple);
`move_to_str` gives the CodinGame output form and `parse_output` reads it back, strictly as the
official referee does.  Nothing here does I/O.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable, ClassVar, Generic, Hashable, Mapping, TypeVar

M = TypeVar("M", bound=Hashable)


class EngineError(Exception):
    """Base of the errors engines raise on bad input; the message is meant for a user."""


class InvalidOutput(EngineError):
    """A player's output that the official referee rejects; the message is the referee's reason."""


class IllegalMove(EngineError):
    """A move that is not legal in the current position (raised by `push`/`play` when checked)."""


class PositionError(EngineError):
    """A position text that cannot be read, or describes an impossible position."""


class InputError(EngineError):
    """Referee input a bot cannot accept: malformed, or a position no game reaches.

    `line` is the 1-based number of the input line at fault, counted from the start of the whole
    input (across turns), so a user can find it in a log; `reason` says what is wrong with it."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"input line {line}: {reason}")
        self.line = line
        self.reason = reason


def shorten(text: str, limit: int = 40) -> str:
    """`text` when it has at most `limit` characters, else its start ending in '…' (`limit` in all).

    Messages quote what a player or a referee sent; a 2 MB line must not make a 2 MB message."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def quote(text: str, limit: int = 40) -> str:
    """`repr(text)` kept short: at most `limit` characters between the quotes, escapes counted as
    printed ('\\x00' is 4), '…' inside the quotes where the text was cut.  Being a repr, it shows
    control characters escaped, so a message cannot move a terminal's cursor."""
    n = min(len(text), limit)
    while True:
        shown = repr(text if n == len(text) else text[:n - 1] + "…")
        if len(shown) <= limit + 2 or n <= 1:
            return shown
        n -= 1


@dataclass(frozen=True)
class TimeLimits:
    """How long the official referee waits for a player's answer, in milliseconds."""

    first_ms: int
    turn_ms: int

    def for_turn(self, first: bool) -> int:
        return self.first_ms if first else self.turn_ms


class Termination(StrEnum):
    """Why a game ended.  The value is the stable word `referee --json` and save files use;
    engines/endings.py says it for people."""

    CONNECTED = "connected"
    BOARD_FULL = "board_full"
    TURN_LIMIT = "turn_limit"
    GOAL = "goal"
    OWN_GOAL = "own_goal"
    BLOCKED = "blocked"
    ELIMINATION = "elimination"
    INVALID = "invalid"
    TIMEOUT = "timeout"
    CRASH = "crash"
    RESIGN = "resign"  # a player gave up (a server game: RESIGN)


@dataclass(frozen=True)
class EndingWords:
    """How a game words one way of ending (a Termination); engines/endings.py turns them into sentences.

    `short` names the way, beside a result ("Red won (four in a row)"); `sentence` tells it, a template
    of {winner} and {loser}, {side0} and {side1} (the sides' names), {turns} (Outcome.turns) and {score0},
    {score1}; a sentence names the winner where there is one;
    `by_loser`, when given, is the sentence when the loser's own move ended the game (Outcome.mover)."""

    short: str
    sentence: str
    by_loser: str = ""


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as facts (python-chess's `Outcome`); engines/endings.py says it in words.

    `winner`: the seat (0 or 1), None for a draw.  `reason`: the Termination.  `scores`: the official
    referee's scores of seat 0 and seat 1.  The rest is set where it applies:
    `fault`: the seat that broke the protocol (reason invalid, timeout or crash);
    `mover`: the seat whose move ended the game, where the words depend on it (a capture in Lines of
    Action that leaves the opponent connected);
    `turns`: the turns played when the turn limit ended the game;
    `output`: what the seat at fault sent, when the referee refused it (outside text, shown quoted);
    `cause`: why a forfeit happened, as the one who saw it says it: the rule the output broke, what
    became of the bot's process, or a save's `detail`.  Never names a seat: the words do that.
    """

    winner: int | None
    reason: Termination
    scores: tuple[int, int]
    fault: int | None = None
    mover: int | None = None
    turns: int | None = None
    output: str | None = None
    cause: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", Termination(self.reason))  # raises ValueError for an unknown word

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def result(self) -> str:
        """The result code of save files and the network: "1-0" (seat 0 won), "0-1", or "1/2-1/2"."""
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner == 0 else "0-1")


# Reasons shared by every game when a player breaks the protocol rather than the rules of play, or gives up.
FORFEIT_REASONS = (Termination.INVALID, Termination.TIMEOUT, Termination.CRASH, Termination.RESIGN)


class Game(abc.ABC, Generic[M]):
    """A two-player CodinGame arena game: one position plus the moves that led to it."""

    id: ClassVar[str]  # e.g. "connect4"; where its layers live is registered in engines/registry.py
    aliases: ClassVar[tuple[str, ...]] = ()  # other names a user may type for it, e.g. ("c4",)
    side_names: ClassVar[tuple[str, str]] = ("Player 1", "Player 2")  # seat 0's and seat 1's, for people
    # the game's own words for some of its endings (the others: engines.endings.DEFAULT_WORDS)
    ending_words: ClassVar[Mapping[Termination, EndingWords]] = {}
    forfeit_scores: ClassVar[tuple[int, int]]  # the loser's and the winner's score when a player forfeits
    seeded: ClassVar[bool] = False  # True where the seed changes the game itself (Cultist Wars' map)
    # True where the referee tells a bot the whole position every turn, so that a bot can take over a
    # game after an opening; False where it tells only the last move (Paper Soccer).
    whole_position_input: ClassVar[bool] = True
    title: ClassVar[str]  # e.g. "Connect 4"
    description: ClassVar[str]  # one line, for the game picker
    limits: ClassVar[TimeLimits]
    max_turns: ClassVar[int]  # player turns after which the referee stops the game

    move_stack: list[M]

    # ------------------------------------------------------------------ construction

    @classmethod
    @abc.abstractmethod
    def new(cls, seed: int | None = None) -> "Game[M]":
        """The standard start position.  `seed` is the referee's game seed (used where the game is random)."""

    def copy(self) -> "Game[M]":
        """An independent copy, history included.

        This default suits a game whose state is its `__slots__` holding immutable values and lists
        of immutable values (the undo stack's entries included); a game with deeper state overrides it."""
        other = object.__new__(type(self))
        for name in type(self).__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if type(value) is list else value)
        return other

    # ------------------------------------------------------------------ play

    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to move: 0 or 1.  Meaningless once `outcome()` is not None."""

    @abc.abstractmethod
    def legal_moves(self) -> list[M]:
        """The legal moves, in a fixed order; empty once the game is over.

        Where many outputs have the same effect (Cultist Wars' MOVE to far tiles), this lists one
        canonical move per distinct effect; `parse_output` still accepts all that the referee does.
        Where the full set is intractable (Paper Soccer's bounce chains can give millions of turns),
        it is a deterministic representative subset, documented by the engine; `is_legal` and
        `parse_output` remain the authority on what is legal.
        """

    def is_legal(self, move: M) -> bool:
        return move in self.legal_moves()

    def random_move(self, rng) -> M:
        """A random legal move (uniform over `legal_moves()` unless the engine has a cheaper way)."""
        moves = self.legal_moves()
        return moves[rng.randrange(len(moves))]

    @abc.abstractmethod
    def push(self, move: M) -> None:
        """Play `move`, which must be legal (engines may check only cheaply)."""

    @abc.abstractmethod
    def pop(self) -> M:
        """Undo the last move and return it; the position is exactly what it was before the push."""

    def peek(self) -> M:
        return self.move_stack[-1]

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game goes on; the result once it is over."""

    def is_over(self) -> bool:
        return self.outcome() is not None

    @property
    def ply(self) -> int:
        """Player turns played since the start position of this object."""
        return len(self.move_stack)

    @property
    @abc.abstractmethod
    def game_ply(self) -> int:
        """Player turns played since the start of the game, those before a position read by `from_text`
        included (python-chess's `ply()`); `game_ply - ply` turns were played before this object's start."""

    @abc.abstractmethod
    def key(self) -> Hashable:
        """A stable, hashable key of the position (not the history): equal positions, equal keys."""

    # ------------------------------------------------------------------ notation

    @abc.abstractmethod
    def move_to_str(self, move: M) -> str:
        """The move in the game's CodinGame output form (what a bot would print)."""

    @abc.abstractmethod
    def parse_output(self, line: str) -> M:
        """Read one line a player printed (without its newline) exactly as the official referee does.

        Returns the move it means in this position, or raises InvalidOutput with the referee's reason
        for every output the referee rejects.
        """

    # The player's notation: what every screen, the hint, the analysis and the help show and what a
    # player types (Connect 4's columns 1-9, Paper Soccer's keypad digits).  CodinGame's notation above
    # stays in save files and bot I/O; these translate at that boundary.  A translation is position-free
    # (a recorded output alone gives the text), so a move list, a chart or a network screen shows moves
    # without replaying them.

    @classmethod
    def output_to_player(cls, output: str) -> str:
        """A recorded output (CodinGame notation) in the player's notation; an output the game cannot read
        comes back as it is (outside text: the caller escapes it).  Default: the two notations are one."""
        return output

    @classmethod
    def player_to_output(cls, text: str) -> str:
        """A move typed in the player's notation, as the CodinGame output meaning it; raises InvalidOutput
        saying how moves are written when `text` is not a move in that notation."""
        return text

    @classmethod
    def reason_to_player(cls, reason: str) -> str:
        """The referee's reason for refusing an output, with the outputs it quotes in the player's
        notation (a screen says it beside the move as the player typed it).  Default: the reason as it is."""
        return reason

    def to_player(self, move: M) -> str:
        """`move` in the player's notation."""
        return self.output_to_player(self.move_to_str(move))

    def from_player(self, text: str) -> M:
        """The move `text` (player's notation) means in this position; raises InvalidOutput when it is not
        written in that notation or is not legal here."""
        return self.parse_output(self.player_to_output(text))

    def play(self, line: str) -> M:
        """Parse a player's output and push it; raises InvalidOutput and changes nothing if it is rejected."""
        move = self.parse_output(line)
        self.push(move)
        return move

    def recorded_output(self, line: str) -> str:
        """How an accepted output is recorded in a match's move list: the trailing comment stripped."""
        return line.split(" ", 1)[0]

    # ------------------------------------------------------------------ the CodinGame referee's side

    @abc.abstractmethod
    def bot_input(self, first: bool) -> list[str]:
        """The lines the official referee sends the player to move now.

        `first` is True on that player's first turn of the game, when the initialisation lines come
        first.  Each line is given without its newline.
        """

    def forfeit(self, seat: int, reason: str, cause: str = "", output: str | None = None) -> Outcome:
        """The result when `seat` breaks the protocol (`reason` in FORFEIT_REASONS), scored as the referee
        does; `cause` and `output` as in Outcome."""
        lost, won = self.forfeit_scores
        return Outcome(1 - seat, reason, (lost, won) if seat == 0 else (won, lost), fault=seat, output=output,
                       cause=cause)

    @classmethod
    @abc.abstractmethod
    def input_reader(cls) -> "InputReader":
        """The bot's side of the protocol: a reader that rebuilds positions from the referee's input."""

    # ------------------------------------------------------------------ serialisation

    @abc.abstractmethod
    def to_text(self) -> str:
        """The position (not the history) as readable, diffable text: `from_text(to_text())` is equal."""

    @classmethod
    @abc.abstractmethod
    def from_text(cls, text: str) -> "Game[M]":
        """Read a position written by `to_text`; raises PositionError naming the line and the problem."""

    # ------------------------------------------------------------------ conveniences

    def moves_as_str(self) -> list[str]:
        """The move stack in CodinGame notation (each move written in the position it was played in)."""
        replay = self.copy()
        moves = []
        while replay.move_stack:
            moves.append(replay.pop())
        out = []
        for m in reversed(moves):
            out.append(replay.move_to_str(m))
            replay.push(m)
        return out


class InputReader(abc.ABC):
    """What a bot (`termarena bot`) uses to know the position: it reads the referee's input turn by turn.

    `read_turn` consumes exactly one turn of input (initialisation lines included on the first turn)
    through `readline` (which returns a line without its newline, or raises EOFError) and returns
    the position with the bot to move.  `played` tells the reader which move the bot answered, for
    games whose input does not repeat the whole position (Paper Soccer sends only the last move).
    The returned position must equal the referee's (same `key()`, same legal moves); its move stack
    may be shorter than the real one.

    Input no referee sends (a malformed line, an impossible position, the input ending inside a turn)
    raises InputError naming the input line (`engines.textread.LineSource` numbers them); EOFError
    comes out only when the input ends before a turn's first line.
    """

    @abc.abstractmethod
    def read_turn(self, readline: Callable[[], str]) -> Game:
        ...

    def played(self, move: Hashable) -> None:
        pass


@dataclass
class GameRecord:
    """A whole game: where it started and the moves played, in CodinGame notation.

    This is what undo/redo, replay and save files are built on; the engine replays it.
    """

    game: str
    moves: list[str] = field(default_factory=list)
    seed: int | None = None
    start: str | None = None  # position text when not the standard start
