"""Tic-tac-toe on the engine protocol (engines/base.py), small but complete: strict output parsing,
the referee's input and a bot-side reader that checks it, position text, forfeits.

Cells are numbered 0..8 in reading order (row * 3 + column); a move is the cell's number and a
player prints it alone on a line.  The referee sends a seat, on its first turn, one line with its
id (0 or 1), then every turn the three rows, top first, of '.', '0' and '1'.  Three in a row wins
(score 1 to 0); a full board without one is a draw.
"""
from __future__ import annotations

from typing import Callable, Hashable

from engines.base import Game, IllegalMove, InputReader, InvalidOutput, Outcome, PositionError, TimeLimits, shorten
from engines.numbers import NumberError, check_seed, parse_int, quote
from engines.textread import LineSource, java_parse_int

CELLS = 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_WINS = tuple(Outcome(s, "connected", (1, 0) if s == 0 else (0, 1), f"player {s} has three in a row") for s in (0, 1))
_DRAW = Outcome(None, "board_full", (0, 0), "the board is full without three in a row")


def _result(cells: list[str]) -> Outcome | None:
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return _WINS[int(cells[a])]
    return _DRAW if "." not in cells else None


class TicTacToe(Game[int]):
    id = "tictactoe"
    aliases = ("ttt",)
    side_names = ("Crosses", "Noughts")
    title = "Tic-tac-toe"
    description = "Three in a row on a 3x3 grid (a test-only game)."
    limits = TimeLimits(first_ms=1000, turn_ms=100)
    max_turns = CELLS

    __slots__ = ("_cells", "_result", "move_stack")

    def __init__(self, cells: list[str] | None = None) -> None:
        self._cells = cells if cells is not None else ["."] * CELLS
        self._result = _result(self._cells)
        self.move_stack: list[int] = []

    @classmethod
    def new(cls, seed: int | None = None) -> "TicTacToe":
        check_seed(seed, cls.title)
        return cls()

    def current_player(self) -> int:
        return self.game_ply % 2

    @property
    def game_ply(self) -> int:
        return CELLS - self._cells.count(".")

    def legal_moves(self) -> list[int]:
        return [] if self._result is not None else [i for i, c in enumerate(self._cells) if c == "."]

    def push(self, move: int) -> None:
        if self._result is not None or type(move) is not int or not 0 <= move < CELLS or self._cells[move] != ".":
            raise IllegalMove(f"cell {move!r} is not playable")
        self._cells[move] = str(self.current_player())
        self.move_stack.append(move)
        self._result = _result(self._cells)

    def pop(self) -> int:
        move = self.move_stack.pop()
        self._cells[move] = "."
        self._result = None
        return move

    def outcome(self) -> Outcome | None:
        return self._result

    def key(self) -> Hashable:
        return "".join(self._cells)

    def cell(self, index: int) -> str:
        return self._cells[index]

    def rows(self) -> list[str]:
        return ["".join(self._cells[r * 3:r * 3 + 3]) for r in range(3)]

    # ------------------------------------------------------------------ notation

    def move_to_str(self, move: int) -> str:
        return str(move)

    def parse_output(self, line: str) -> int:
        token = line.split(" ", 1)[0]
        try:
            move = java_parse_int(token)
        except ValueError:
            raise InvalidOutput(f"wrong action {quote(shorten(token))} (a cell 0..8)") from None
        if self._result is not None:
            raise InvalidOutput("the game is over")
        if not 0 <= move < CELLS:
            raise InvalidOutput(f"cell {move} is out of the board (0..8)")
        if self._cells[move] != ".":
            raise InvalidOutput(f"cell {move} is taken")
        return move

    # ------------------------------------------------------------------ the referee's side

    def bot_input(self, first: bool) -> list[str]:
        return ([str(self.current_player())] if first else []) + self.rows()

    def forfeit(self, seat: int, reason: str, detail: str = "") -> Outcome:
        return Outcome(1 - seat, reason, (0, 1) if seat == 0 else (1, 0), detail or f"player {seat}: {reason}")

    @classmethod
    def input_reader(cls) -> "TicTacToeReader":
        return TicTacToeReader()

    # ------------------------------------------------------------------ serialisation

    def to_text(self) -> str:
        return "\n".join(self.rows()) + "\n"

    @classmethod
    def from_text(cls, text: str) -> "TicTacToe":
        rows = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.strip().startswith("#")]
        return from_rows([r for _, r in rows], lambda k, message: PositionError(
            f"line {rows[k][0] if k < len(rows) else len(text.splitlines())}: {message}"))


def from_rows(rows: list[str], error: Callable[[int, str], Exception]) -> TicTacToe:
    """A position from its three rows; `error(row index, message)` is what to raise about a bad one."""
    if len(rows) != 3:
        raise error(min(len(rows), 3), f"the board is 3 rows, not {len(rows)}")
    for k, row in enumerate(rows):
        if len(row) != 3 or any(c not in ".01" for c in row):
            raise error(k, f"a row is 3 characters of '.', '0', '1'; got {quote(row)}")
    cells = list("".join(rows))
    if cells.count("0") - cells.count("1") not in (0, 1):
        raise error(2, "player 0 moves first: it has as many marks as player 1 or one more")
    wins = {cells[a] for a, b, c in LINES if cells[a] != "." and cells[a] == cells[b] == cells[c]}
    if len(wins) > 1:
        raise error(2, "both players have three in a row")
    return TicTacToe(cells)


class TicTacToeReader(InputReader):
    """The seat's id on its first turn, then the three rows each turn."""

    def __init__(self) -> None:
        self.src = LineSource()
        self.seat: int | None = None

    def read_turn(self, readline: Callable[[], str]) -> TicTacToe:
        src = self.src
        src.begin_turn(readline)
        if self.seat is None:
            try:
                self.seat = parse_int(src.read_line("myId"), 0, 1, "myId")
            except NumberError as e:
                raise src.error(str(e)) from None
        rows = [src.read_line("a board row") for _ in range(3)]
        game = from_rows(rows, lambda k, message: src.error(message, src.number - 2 + min(k, 2)))
        if game.outcome() is not None:
            raise src.error("the game is over: no referee asks for a move")
        if game.current_player() != self.seat:
            raise src.error(f"player {game.current_player()} is to move on this board, not {self.seat}")
        return game
