"""Connect 4 on 7 rows x 9 columns with STEAL, as the CodinGame referee (AshKcg/cg-multi-connect4) plays it.

Rules in brief (the full list is /work/shared/rules/connect4.md): players drop chips into columns 0..8;
four or more of one colour in a line through the chip just placed wins; on turn index 1 the second player
may STEAL instead, turning the first player's only chip into its own in place.  `turn_index` counts every
action (STEAL included), so seat `turn_index % 2` is to move; a full board is a draw (63 plies, 64 with a
STEAL), but a win on the last cell counts as a win.

Moves are ints: a column 0..8, or `STEAL` (-2, the number the referee itself uses).

Representation (chosen for fast push/pop/legal_moves in searches and random playouts):
- Two bitboards (Python ints), one per seat.  Bit `col * 8 + h` is the cell of column `col` at height
  `h` above the bottom (h = 0 is the bottom row, i.e. the referee's row 6; referee row r is h = 6 - r).
  Bit 7 of every 8-bit column group is an always-empty sentinel, so the shift tricks of the win test
  (shifts 1 vertical, 8 horizontal, 7 and 9 diagonal) never wrap from one column into the next.
- `_heights[col]`: the bit index where the next chip of that column goes; `_full`: a 9-bit mask of the
  full columns (legal move lists are precomputed for every mask).
- `_last`: the bit of the most recently placed or stolen chip (-1 before any move); `_result` caches the
  Outcome, set by `push`.  `move_stack` holds the moves and `_undo` the previous `_last` of each.

UI helpers (pure; rows are the referee's, 0 = top):
- `board()`: 7 strings of 9 characters `.`/`0`/`1`, top row first (what the referee sends).
- `cell(row, col)`: '.', '0' or '1'.
- `drop_row(col)`: the row a chip dropped in `col` would land in, or None when the column is full.
- `last_cell()`: (row, col) of the most recently placed or stolen chip, or None at the start.
- `winning_cells()`: the (row, col) cells of every 4+ line through the last chip when the game is won,
  sorted; empty otherwise.
- `can_steal()`: True exactly when STEAL is legal now (turn index 1).
- `turn_index`, `steal_used`: properties.

Position text (`to_text` / `from_text`): the 7x9 diagram, then `key = value` lines::

    .........
    .........
    .........
    .........
    .........
    ....1....
    ...00....
    turn_index = 3
    steal_used = false
    last = 3
    to_move = 1

`from_text` also skips blank lines and `#` comments and accepts an optional `game = connect4` line.

The init line `myId oppId` of `bot_input`: the referee sends it when turnIndex is 0 (`0 1`) or 1 (`1 0`),
which in any game it plays is exactly each seat's first turn.  A game started from a custom position
(`from_text`) can give a seat its first turn later; there the line is sent too (`myId = turn_index % 2`)
because CodinGame bots read it once before their game loop and would misread the input without it.
So: the line is sent when `turn_index < 2` (as the referee) or when `first` is True.
"""
from __future__ import annotations

import re
from typing import Callable, Hashable

from engines.base import (
    EndingWords,
    EngineError,
    Game,
    IllegalMove,
    InputReader,
    InvalidOutput,
    Outcome,
    PositionError,
    TimeLimits,
    Termination,
    shorten,
)
from engines.endings import describe
from engines.numbers import NumberError, check_seed, parse_int, quote
from engines.textread import LineSource, java_parse_int
from engines.visible import visible

ROWS = 7
COLS = 9
CELLS = ROWS * COLS
STEAL = -2  # the referee's STEAL_ACTION
NO_PREVIOUS_ACTION = -1  # oppPreviousAction on turn index 0

WIN_SCORE, LOSS_SCORE, DRAW_SCORE = 10, 0, 5

_COL_STRIDE = 8  # bits per column: 7 cells + 1 sentinel
_TOP_BIT = [c * _COL_STRIDE + ROWS - 1 for c in range(COLS)]  # bit of the top cell of each column
_SHIFTS = (1, _COL_STRIDE, _COL_STRIDE - 1, _COL_STRIDE + 1)  # vertical, horizontal, two diagonals
_ALL_FULL = (1 << COLS) - 1
_WRONG_ACTION = re.compile(r'wrong action "([^"]*)"')  # how the referee's refusals quote the output

# Legal drops for every mask of full columns, ascending as the referee lists them.
_DROPS_BY_FULL: list[list[int]] = [[c for c in range(COLS) if not full >> c & 1] for full in range(1 << COLS)]

# The referee's win-check directions as (d_row, d_col) pairs of opposite steps.
_LINE_DIRECTIONS = (((0, 1), (0, -1)), ((-1, 0), (1, 0)), ((-1, 1), (1, -1)), ((-1, -1), (1, 1)))

# Characters that Java's `equalsIgnoreCase` matches to each letter of "STEAL" (U+017F long s upper-cases to S).
_STEAL_CHARS = ({"S", "s", "\u017f"}, {"T", "t"}, {"E", "e"}, {"A", "a"}, {"L", "l"})


def _bit(row: int, col: int) -> int:
    return col * _COL_STRIDE + (ROWS - 1 - row)


def _cell_of_bit(bit: int) -> tuple[int, int]:
    return ROWS - 1 - bit % _COL_STRIDE, bit // _COL_STRIDE


def _has_four(bb: int) -> bool:
    """True when the bitboard holds four (or more) in a row in any direction."""
    for s in _SHIFTS:
        m = bb & (bb >> s)
        if m & (m >> (s + s)):
            return True
    return False


def is_steal_word(token: str) -> bool:
    """`token.equalsIgnoreCase("STEAL")` as Java computes it."""
    return len(token) == 5 and all(ch in allowed for ch, allowed in zip(token, _STEAL_CHARS))


_OUT_WIN = (
    Outcome(0, "connected", (WIN_SCORE, LOSS_SCORE)),
    Outcome(1, "connected", (LOSS_SCORE, WIN_SCORE)),
)
_OUT_DRAW = Outcome(None, "board_full", (DRAW_SCORE, DRAW_SCORE))


class Connect4(Game[int]):
    id = "connect4"
    aliases = ("c4",)
    side_names = ("Red", "Yellow")
    title = "Connect 4"
    ending_words = {Termination.CONNECTED: EndingWords("four in a row", "{winner} connected four")}
    forfeit_scores = (LOSS_SCORE, WIN_SCORE)
    description = "Connect four on a board of 7 rows × 9 columns; the second player may STEAL the first chip."
    limits = TimeLimits(first_ms=1000, turn_ms=100)
    max_turns = CELLS + 1  # 63 plies, 64 with a STEAL

    __slots__ = ("_bb", "_heights", "_full", "_turn", "_steal", "_last", "_result", "_undo", "move_stack")

    def __init__(self) -> None:
        self._bb = [0, 0]
        self._heights = [c * _COL_STRIDE for c in range(COLS)]
        self._full = 0
        self._turn = 0
        self._steal = False
        self._last = -1
        self._result: Outcome | None = None
        self._undo: list[int] = []
        self.move_stack: list[int] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int | None = None) -> "Connect4":
        check_seed(seed, cls.title)  # nothing is random in this game, but a seed is the AI's noise
        return cls()

    # ------------------------------------------------------------------ play

    def current_player(self) -> int:
        return self._turn & 1

    @property
    def turn_index(self) -> int:
        return self._turn

    game_ply = turn_index  # the protocol's name: CodinGame's turn index counts every turn from the start

    @property
    def steal_used(self) -> bool:
        return self._steal

    def legal_moves(self) -> list[int]:
        if self._result is not None:
            return []
        moves = _DROPS_BY_FULL[self._full][:]
        if self._turn == 1:
            moves.append(STEAL)
        return moves

    def is_legal(self, move) -> bool:
        if self._result is not None or type(move) is not int:
            return False
        if move == STEAL:
            return self._turn == 1
        return 0 <= move < COLS and not self._full >> move & 1

    def push(self, move: int) -> None:
        if self._result is not None:
            raise IllegalMove("the game is over")
        if move == STEAL:
            self._push_steal()
            return
        if not 0 <= move < COLS or self._full >> move & 1:
            raise IllegalMove(f"column {move!r} is not playable")
        seat = self._turn & 1
        bit = self._heights[move]
        self._heights[move] = bit + 1
        if bit == _TOP_BIT[move]:
            self._full |= 1 << move
        bb = self._bb[seat] | (1 << bit)
        self._bb[seat] = bb
        self._undo.append(self._last)
        self._last = bit
        self.move_stack.append(move)
        self._turn += 1
        # The referee looks only at lines through the new chip; testing the mover's whole board is the
        # same, since any older line would have ended the game (and from_text rejects such positions).
        if _has_four(bb):
            self._result = _OUT_WIN[seat]
        elif self._turn >= CELLS + self._steal:
            self._result = _OUT_DRAW

    def _push_steal(self) -> None:
        if self._turn != 1:
            raise IllegalMove("STEAL is only allowed on turn index 1")
        bit = 1 << self._last
        self._bb[0] ^= bit
        self._bb[1] |= bit
        self._steal = True
        self._undo.append(self._last)
        self.move_stack.append(STEAL)
        self._turn = 2  # a single chip cannot win and the board is not full

    def pop(self) -> int:
        move = self.move_stack.pop()
        self._result = None  # moves are only pushed while the game goes on
        self._turn -= 1
        bit = self._last
        self._last = self._undo.pop()
        if move == STEAL:
            self._bb[1] ^= 1 << bit
            self._bb[0] |= 1 << bit
            self._steal = False
        else:
            self._bb[self._turn & 1] ^= 1 << bit
            self._heights[move] = bit
            self._full &= ~(1 << move)
        return move

    def outcome(self) -> Outcome | None:
        return self._result

    def key(self) -> Hashable:
        # steal_used is part of the position: the same chips can stand with either seat to move.
        return (self._bb[0], self._bb[1], self._steal)

    # ------------------------------------------------------------------ notation

    def move_to_str(self, move: int) -> str:
        return "STEAL" if move == STEAL else str(move)

    def parse_output(self, line: str) -> int:
        token = line.split(" ", 1)[0]
        if is_steal_word(token):
            move = STEAL
        else:
            try:
                move = java_parse_int(token)
            except ValueError:
                raise InvalidOutput(f'Wrong output! wrong action "{visible(token, 40)}" '
                                    f"(Require integer in range [0, {COLS - 1}])") from None
        self._check_action(move)
        return move

    # The player's notation: columns 1-9 from the left (the keys and the labels), STEAL; CodinGame's
    # 0-8 stays in saves and bot I/O.

    @classmethod
    def output_to_player(cls, output: str) -> str:
        token = output.split(" ", 1)[0]
        if is_steal_word(token):
            return "STEAL"
        try:
            move = java_parse_int(token)
        except ValueError:
            return output
        if move == STEAL:
            return "STEAL"
        return str(move + 1) if 0 <= move < COLS else output

    @classmethod
    def reason_to_player(cls, reason: str) -> str:
        # the referee quotes the refused column in its own numbers: 'wrong action "4"' for the key 5
        return _WRONG_ACTION.sub(lambda m: f'wrong action "{cls.output_to_player(m.group(1))}"', reason)

    @classmethod
    def player_to_output(cls, text: str) -> str:
        token = text.strip()
        if token.upper() == "STEAL":
            return "STEAL"
        if len(token) == 1 and "1" <= token <= str(COLS):
            return str(int(token) - 1)
        raise InvalidOutput(f"{quote(token)} is not a move: type a column 1-{COLS} (from the left) or STEAL")

    def _check_action(self, move: int) -> None:
        """The referee's checks in Connect4Board.playAction, in its order."""
        if self._result is not None:
            raise InvalidOutput("the game is over")
        if move == STEAL:
            if self._turn != 1:
                raise InvalidOutput('Steal action is invalid in this turn: wrong action "STEAL"')
        elif not 0 <= move < COLS:
            raise InvalidOutput(f'Chosen column out of bounds: wrong action "{move}" '
                                f"(Require integer in range [0, {COLS - 1}])")
        elif self._full >> move & 1:
            raise InvalidOutput(f'Chosen column is already filled: wrong action "{move}" (Already filled column)')

    # ------------------------------------------------------------------ the referee's side

    def bot_input(self, first: bool) -> list[str]:
        """Connect4Board.getInputString; see the module docstring for the init line."""
        t = self._turn
        lines = []
        if t < 2 or first:
            me = t & 1
            lines.append(f"{me} {1 - me}")
        lines.append(str(t))
        lines.extend(self.board())
        actions = _DROPS_BY_FULL[self._full][:] if self._result is None else []
        if t == 1:
            actions.append(STEAL)
        lines.append(str(len(actions)))
        lines.extend(str(a) for a in actions)
        lines.append(str(self._opp_previous_action()))
        return lines

    def _opp_previous_action(self) -> int:
        if self._turn == 0:
            return NO_PREVIOUS_ACTION
        if self._turn == 2 and self._steal:
            return STEAL
        return self._last // _COL_STRIDE

    @classmethod
    def input_reader(cls) -> "Connect4Reader":
        return Connect4Reader()

    # ------------------------------------------------------------------ UI helpers

    def cell(self, row: int, col: int) -> str:
        bit = 1 << _bit(row, col)
        if self._bb[0] & bit:
            return "0"
        if self._bb[1] & bit:
            return "1"
        return "."

    def board(self) -> list[str]:
        return ["".join(self.cell(r, c) for c in range(COLS)) for r in range(ROWS)]

    def drop_row(self, col: int) -> int | None:
        if not 0 <= col < COLS or self._full >> col & 1:
            return None
        return _cell_of_bit(self._heights[col])[0]

    def last_cell(self) -> tuple[int, int] | None:
        return None if self._last < 0 else _cell_of_bit(self._last)

    def can_steal(self) -> bool:
        return self._turn == 1 and self._result is None

    def winning_cells(self) -> list[tuple[int, int]]:
        """Cells of every line of 4+ through the last chip, as the referee's viewer draws them."""
        if self._result is None or self._result.winner is None:
            return []
        row, col = _cell_of_bit(self._last)
        colour = self.cell(row, col)
        cells: set[tuple[int, int]] = set()
        for pair in _LINE_DIRECTIONS:
            line = [(row, col)]
            for dr, dc in pair:
                r, c = row + dr, col + dc
                while 0 <= r < ROWS and 0 <= c < COLS and self.cell(r, c) == colour:
                    line.append((r, c))
                    r, c = r + dr, c + dc
            if len(line) >= 4:
                cells.update(line)
        return sorted(cells)

    # ------------------------------------------------------------------ serialisation

    def to_text(self) -> str:
        last = "none" if self._last < 0 else str(self._last // _COL_STRIDE)
        lines = self.board() + [
            f"turn_index = {self._turn}",
            f"steal_used = {'true' if self._steal else 'false'}",
            f"last = {last}",
            f"to_move = {self._turn & 1}",
        ]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> "Connect4":
        return _PositionText(text).position()

    @classmethod
    def from_board(cls, rows: list[str], turn_index: int, steal_used: bool, last_col: int | None) -> "Connect4":
        """A position from the referee's view of it; raises PositionError if it cannot occur."""
        return _build(rows, turn_index, steal_used, last_col, error=lambda what, message: PositionError(message))


# ---------------------------------------------------------------------- building positions


def _build(rows: list[str], turn: int, steal: bool, last_col: int | None,
           error: Callable[[str, str], EngineError]) -> Connect4:
    """Checks and builds a position; `error(what, message)` is the exception to raise about `what`
    (`rowN`, a key of the position text, or "" for the whole board), so each caller names its lines."""

    def fail(what: str, message: str):
        raise error(what, message)

    if len(rows) != ROWS:
        fail("", f"the board needs {ROWS} rows, not {len(rows)}")
    for row, text in enumerate(rows):
        if not isinstance(text, str) or len(text) != COLS or any(ch not in ".01" for ch in text):
            fail(f"row{row}", f"a board row is {COLS} characters of '.', '0', '1'; got {quote(text)}")
    bb = [0, 0]
    heights = [c * _COL_STRIDE for c in range(COLS)]
    for col in range(COLS):
        for row in range(ROWS - 1, -1, -1):  # bottom up
            ch = rows[row][col]
            if ch == ".":
                continue
            if heights[col] != _bit(row, col):
                fail(f"row{row}", f"chip at row {row}, column {col} floats above an empty cell")
            bb[int(ch)] |= 1 << _bit(row, col)
            heights[col] += 1
    n0, n1 = bin(bb[0]).count("1"), bin(bb[1]).count("1")
    if not 0 <= turn <= CELLS + steal:
        fail("turn_index", f"turn_index {turn} out of range [0, {CELLS + steal}]")
    if steal and turn < 2:
        fail("steal_used", f"steal_used = true needs turn_index >= 2, not {turn}")
    want = ((turn - 1) // 2, 1 + (turn - 2) // 2) if steal else ((turn + 1) // 2, turn // 2)
    if (n0, n1) != want:
        fail("turn_index", f"turn_index {turn} (steal_used = {str(steal).lower()}) needs {want[0]} chips of "
                           f"player 0 and {want[1]} of player 1; the board has {n0} and {n1}")
    mover = (turn - 1) & 1  # the seat that made the last action
    last = -1
    if turn == 0:
        if last_col is not None:
            fail("last", "last must be none before any move")
    else:
        if last_col is None:
            fail("last", "last must name a column once a move has been played")
        if not 0 <= last_col < COLS:
            fail("last", f"last column {last_col} out of range [0, {COLS - 1}]")
        last = heights[last_col] - 1
        if last < last_col * _COL_STRIDE or not bb[mover] >> last & 1:
            fail("last", f"the top chip of column {last_col} must be player {mover}'s (who moved last)")
        if _has_four(bb[1 - mover]) or _has_four(bb[mover] & ~(1 << last)):
            fail("last", "a four-in-a-row that does not use the last chip (the game would have ended earlier)")

    game = Connect4()
    game._bb = bb
    game._heights = heights
    game._full = sum(1 << c for c in range(COLS) if heights[c] > _TOP_BIT[c])
    game._turn = turn
    game._steal = steal
    game._last = last
    if last >= 0 and _has_four(bb[mover]):
        game._result = _OUT_WIN[mover]
    elif turn >= CELLS + steal:
        game._result = _OUT_DRAW
    return game


_KEYS = ("turn_index", "steal_used", "last", "to_move")


class _PositionText:
    """Reads the text of `Connect4.to_text`, remembering line numbers for error messages."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise PositionError("position text must be a string")
        self.rows: list[str] = []
        self.row_lines: list[int] = []
        self.values: dict[str, tuple[int, str]] = {}
        self.end_line = 0
        for n, raw in enumerate(text.splitlines(), start=1):
            self.end_line = n
            self._read_line(n, raw.strip())

    def _read_line(self, n: int, line: str) -> None:
        if not line or line.startswith("#"):
            return
        if "=" in line:
            key, _, value = (part.strip() for part in line.partition("="))
            if key == "game":
                if value != Connect4.id:
                    raise PositionError(f"line {n}: this is a {quote(value)} position, not connect4")
                return
            if key not in _KEYS:
                raise PositionError(f"line {n}: unknown key {quote(key)} (expected one of {', '.join(_KEYS)})")
            if key in self.values:
                raise PositionError(f"line {n}: {key} given twice")
            self.values[key] = (n, value)
            return
        if self.values:
            raise PositionError(f"line {n}: board row {quote(line)} after the key = value lines")
        if len(self.rows) == ROWS:
            raise PositionError(f"line {n}: more than {ROWS} board rows")
        if len(line) != COLS or any(ch not in ".01" for ch in line):
            raise PositionError(f"line {n}: a board row is {COLS} characters of '.', '0', '1'; got {quote(line)}")
        self.rows.append(line)
        self.row_lines.append(n)

    def line_of(self, what: str) -> str:
        if what.startswith("row"):
            return f"line {self.row_lines[int(what[3:])]}: "
        if what in self.values:
            return f"line {self.values[what][0]}: "
        return f"line {self.end_line}: "

    def _value(self, key: str) -> tuple[int, str]:
        if key not in self.values:
            raise PositionError(f"line {self.end_line}: missing `{key} = ...`")
        return self.values[key]

    def _int(self, key: str, hi: int) -> int:
        n, value = self._value(key)
        try:
            return parse_int(value, lo=0, hi=hi, what=key)
        except NumberError as e:
            raise PositionError(f"line {n}: {e}") from None

    def position(self) -> Connect4:
        if len(self.rows) != ROWS:
            raise PositionError(f"line {self.end_line}: the board needs {ROWS} rows, found {len(self.rows)}")
        turn = self._int("turn_index", CELLS + 1)
        n, steal_text = self._value("steal_used")
        if steal_text not in ("true", "false"):
            raise PositionError(f"line {n}: steal_used must be true or false, not {quote(steal_text)}")
        steal = steal_text == "true"
        _, last_text = self._value("last")
        last_col = None if last_text == "none" else self._int("last", COLS - 1)
        to_move = self._int("to_move", 1)
        if to_move != turn % 2:
            raise PositionError(f"line {self.values['to_move'][0]}: to_move = {to_move} but turn_index {turn} "
                                f"gives player {turn % 2} to move")
        return _build(self.rows, turn, steal, last_col,
                      error=lambda what, message: PositionError(self.line_of(what) + message))


# ---------------------------------------------------------------------- the bot's side


class Connect4Reader(InputReader):
    """Rebuilds the position from one turn of the referee's input (the whole board is sent every turn).

    Input no referee sends is refused with an InputError naming its line: numbers are checked for
    syntax and range, the board as `from_board` checks it (gravity, chip counts, no older four in a
    row), the valid actions against the board, the turn index against the seat's previous turn (2
    more), and, once `played` said what the bot answered, the board against the previous one.
    """

    def __init__(self) -> None:
        self.src = LineSource()
        self.last: Connect4 | None = None  # the position the bot was last given
        self.mine: int | None = None  # the bot's answer to it

    def read_turn(self, readline: Callable[[], str]) -> Connect4:
        src = self.src
        src.begin_turn(readline)
        turn = self._read_turn_index()
        lines = {"turn_index": src.number, "steal_used": src.number}
        rows = []
        for row in range(ROWS):
            rows.append(self._read_row())
            lines[f"row{row}"] = src.number
        lines[""] = lines["row0"]
        n_actions = src.read_int("numValidActions", 1, COLS + 1)
        actions_line = src.number
        actions = [src.read_int("a valid action", STEAL, COLS - 1) for _ in range(n_actions)]
        previous = src.read_int("oppPreviousAction", STEAL, COLS - 1)
        lines["last"] = src.number
        self._check_previous(turn, previous)
        chips = sum(row.count("0") + row.count("1") for row in rows)
        steal = previous == STEAL or (turn > 2 and chips == turn - 1)
        last_col = previous if previous >= 0 else None
        if previous == STEAL:  # the stolen chip is the only one on the board
            last_col = next((c for c in range(COLS) if rows[ROWS - 1][c] != "."), None)
        game = _build(rows, turn, steal, last_col, error=lambda what, message: src.error(message, lines[what]))
        if game.outcome() is not None:
            raise src.error(f"the game is over ({describe(game.outcome(), Connect4)}): no referee asks for a move",
                            lines[""])
        self._check_actions(game, actions, actions_line)
        self._check_follows(game, previous, lines)
        self.last, self.mine = game, None
        return game.copy()

    def played(self, move: Hashable) -> None:
        self.mine = move  # type: ignore[assignment]

    def _read_turn_index(self) -> int:
        """turnIndex, after the `myId oppId` line where there is one: on turn index 0 and 1, and on a
        seat's first turn in a game that did not start at the start."""
        src = self.src
        line = src.read_line("turnIndex")
        my_id = id_line = None
        if " " in line or "\t" in line:
            ids = [src.to_int(v, "myId oppId", 0, 1) for v in src.fields(line, "myId oppId", 2)]
            if ids[0] == ids[1]:
                raise src.error(f"myId and oppId must differ, got {quote(line)}")
            my_id, id_line = ids[0], src.number
            line = src.read_line("turnIndex")
        turn = src.to_int(line, "turnIndex", 0, CELLS)
        if my_id is None and turn < 2:
            raise src.error(f"turnIndex {turn} must follow a `myId oppId` line (sent on turn index 0 and 1)")
        if my_id is not None and self.last is not None:
            raise src.error("a `myId oppId` line after the seat's first turn", id_line)
        if my_id is not None and my_id != turn % 2:
            raise src.error(f"myId {my_id} does not move on turn index {turn} (seat 0 moves on even ones)", id_line)
        if self.last is not None and turn != self.last.turn_index + 2:
            raise src.error(f"turnIndex {turn} after {self.last.turn_index}: a seat's turns are 2 apart")
        return turn

    def _read_row(self) -> str:
        src = self.src
        row = src.read_line("a board row")
        if len(row) != COLS:
            raise src.error(f"expected {COLS} characters in a board row, got {len(row)} ({quote(row)})")
        if any(ch not in ".01" for ch in row):
            raise src.error(f"a board row has only '.', '0' and '1', got {quote(row)}")
        return row

    def _check_previous(self, turn: int, previous: int) -> None:
        if (turn == 0) != (previous == NO_PREVIOUS_ACTION):
            raise self.src.error(f"oppPreviousAction {previous} on turn index {turn}: "
                                 f"{NO_PREVIOUS_ACTION} comes exactly on turn index 0")
        if previous == STEAL and turn != 2:
            raise self.src.error(f"oppPreviousAction {STEAL} (STEAL) on turn index {turn}: "
                                 "only turn index 2 follows a STEAL")

    def _check_actions(self, game: Connect4, actions: list[int], actions_line: int) -> None:
        want = game.legal_moves()
        if len(actions) != len(want):
            raise self.src.error(f"numValidActions {len(actions)}, but the board has {len(want)} valid actions",
                                 actions_line)
        for n, (got, expected) in enumerate(zip(actions, want), start=actions_line + 1):
            if got != expected:
                raise self.src.error(f"valid action {got} where the board's list has {expected}", n)

    def _check_follows(self, game: Connect4, previous: int, lines: dict[str, int]) -> None:
        """The board must be the last one plus the bot's answer and the opponent's (when both are known)."""
        if self.last is None or not self.last.is_legal(self.mine):
            return
        expected = self.last.copy()
        expected.push(self.mine)
        if not expected.is_legal(previous):
            raise self.src.error(f"oppPreviousAction {previous} is not legal after the bot's answer "
                                 f"{expected.move_to_str(self.mine)}", lines["last"])
        expected.push(previous)
        if expected.key() != game.key():
            raise self.src.error("the board is not the previous turn's with the bot's answer and "
                                 "oppPreviousAction played", lines[""])
