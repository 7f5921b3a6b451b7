"""Lines of Action on 8x8, as the CodinGame referee (darkhorse64/CG_LinesOfAction) plays it.

Rules in brief (the full list is /work/shared/rules/lines-of-action.md): black (seat 0, `b`, ranks 1 and 8)
moves first, white (seat 1, `w`, files a and h); a checker moves along its row, column or diagonal exactly
as many squares as there are checkers (both colours) on that whole line, may jump its own checkers but not
the opponent's, and captures by landing on an opponent checker.  After every turn the mover wins if all its
checkers form one 8-connected group, else the opponent wins if its checkers do (a capture can connect
them).  A player with no legal move must output `pass`.  150 turns (passes included) without a winner is a
draw; a win on turn 150 counts.  Scores: winner 1, loser 0, draw 0/0; a rejected output or a timeout
scores -1 for the offender and 0 for the other, who wins.

Moves are `Move(src, dst)` named tuples of square indexes, `PASS` is `Move(-1, -1)`.  Square `8 * y + x`
is file `"abcdefgh"[x]`, rank `y + 1` (a1 = 0, h1 = 7, a8 = 56, h8 = 63).  A move parsed from the output
`random` is a `RandomMove`: equal (and hashing equal) to the plain `Move`, it also carries `rng_after`,
the referee generator's state after its draw, so that `push` advances the generator and `pop` restores it.

Representation (for fast search and random playouts):
- `_bb = [black, white]`: one 64-bit bitboard (Python int) per colour, bit = square index.
- Move generation walks the 42 lines of the referee in its generation order (rows, columns,
  anti-diagonals, diagonals; `LINES`), so `legal_moves()` is exactly the list the referee draws `random`
  from.  The moves of one line depend only on that line's own and opponent checkers, so they are
  memoised per line in `_LINE_CACHE` (filled lazily, bounded by the 3^len configurations of a line).
- Connectivity is a bitboard flood fill (`is_connected`).  Only the mover's group changes on a quiet move,
  so the opponent's is tested only after a capture.
- `_stm` (seat to move), `_turns` (turns played in the whole game, passes included: the referee's SDK turn
  minus one), `_rng` (the 48-bit state of the referee's `java.util.Random(seed)`, None when unknown),
  `_status` (the cached Outcome or None).  `move_stack` holds the moves, `_undo` for each the mover's and
  the opponent's bitboards, the generator state and the status before it (ints: no copying).

`key()` is (black, white, seat to move, turns played).  The turn count is in it because the 150-turn draw
depends on it and a bot can rebuild it (turn = 2 * its own turn count + seat).  The generator state is
not: a bot never learns the seed, and the state only decides what the output `random` means, never the
legal moves nor the result of a given move.  `to_text` does write it, so a saved position replays `random`
exactly.

`new(seed)`: the generator is `java.util.Random(seed)` as the referee seeds it; `seed=None` means seed 0.
Positions rebuilt by the `InputReader` have an unknown generator (`rng_state is None`); there the output
`random` (with legal moves) raises EngineError, since no referee position can be rebuilt from it.

Position text (`to_text` / `from_text`): the diagram rank 8 first with file and rank labels, then
`key = value` lines::

      a b c d e f g h
    8 . b b b b b b . 8
    7 w . . . . . . w 7
    6 w . . . . . . w 6
    5 w . . . . . . w 5
    4 w . . . . . . w 4
    3 w . . . . . . w 3
    2 w . . . . . . w 2
    1 . b b b b b b . 1
      a b c d e f g h
    to_move = b
    turns_played = 0
    last_move = null
    random_state = 0x0005deece66d

`from_text` also accepts rank rows without labels (`.bbbbbb.`, as the referee sends them), `to_move` as
0/1, blank lines, `#` comments, an optional `game = lines-of-action` line, and omitted `to_move`
(implied by `turns_played`), `last_move` (null) and `random_state` (unknown).

UI helpers (pure):
- `square_name(sq)` / `parse_square(name)`: `0` <-> `"a1"` (module functions, also static methods).
- `board()`: 8 strings of `.`/`b`/`w`, rank 8 first (what the referee sends).
- `piece_at(sq)`: `"b"`, `"w"` or None.
- `moves_from(sq)`: the destination squares of the legal moves of the checker on `sq` (side to move).
- `connected_groups(color)`: the 8-connected groups of a colour (0/1 or "b"/"w"), each a sorted list of
  squares, largest group first.
- `checker_counts()`: (black, white) checker counts.
- `last_move`: the previous turn's move (PASS for a pass) or None at the very start.
- `turns_played`, `rng_state`: properties.
"""
from __future__ import annotations

from typing import Callable, Hashable, NamedTuple

from engines.base import (
    EndingWords,
    EngineError,
    Game,
    InputReader,
    InvalidOutput,
    Outcome,
    PositionError,
    Termination,
    TimeLimits,
)
from engines.endings import describe
from engines.textread import LineSource
from engines.javarandom import MASK as RNG_MASK
from engines.javarandom import next_int, scramble
from engines.numbers import NumberError, check_seed, parse_int, quote

SIZE = 8
MAX_TURNS = 150
COLOR_CHARS = ("b", "w")
COLOR_NAMES = ("black", "white")
FILES = "abcdefgh"


class Move(NamedTuple):
    """A checker's move from square `src` to square `dst` (0..63); PASS is (-1, -1)."""

    src: int
    dst: int


class RandomMove(Move):
    """The move the referee's generator picked for the output `random`; equal to the plain Move.

    `rng_after` is the generator state after the draw; `push` installs it and `pop` restores the old one.
    """

    def __new__(cls, move: Move, rng_after: int):
        obj = tuple.__new__(cls, move)
        obj.rng_after = rng_after
        return obj

    def __reduce__(self):
        return (RandomMove, (Move(*self), self.rng_after))


PASS = Move(-1, -1)

# ---------------------------------------------------------------------------- squares


def square_name(sq: int) -> str:
    """`0` -> `"a1"`, `63` -> `"h8"` (the referee's Cell.toString)."""
    return _SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """`"a1"` -> 0; raises ValueError for anything but a file a-h followed by a rank 1-8."""
    try:
        return _SQUARE_BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"not a square: {name!r} (want a1..h8)") from None


_SQUARE_NAMES = tuple(FILES[sq % 8] + str(sq // 8 + 1) for sq in range(64))
_SQUARE_BY_NAME = {name: sq for sq, name in enumerate(_SQUARE_NAMES)}
_MOVES = [Move(src, dst) for src in range(64) for dst in range(64)]  # interned: no allocation in movegen
_MOVE_NAMES = {m: _SQUARE_NAMES[m.src] + _SQUARE_NAMES[m.dst] for m in _MOVES}
_MOVE_NAMES[PASS] = "pass"
_MOVE_BY_NAME = {name: m for m, name in _MOVE_NAMES.items()}

BIT = tuple(1 << sq for sq in range(64))
FULL = (1 << 64) - 1
FILE_A = sum(BIT[8 * y] for y in range(8))
FILE_H = FILE_A << 7
NOT_FILE_A = FULL ^ FILE_A
NOT_FILE_H = FULL ^ FILE_H

# ---------------------------------------------------------------------------- lines, in generation order


def _referee_lines() -> list[tuple[int, ...]]:
    """The squares of each line in the order Board.getLegalActions visits lines and cells."""
    sq = lambda x, y: 8 * y + x  # noqa: E731  (cells[y][x])
    lines = [tuple(sq(x, y) for x in range(8)) for y in range(8)]  # rows
    lines += [tuple(sq(x, y) for y in range(8)) for x in range(8)]  # columns
    lines += [tuple(sq(x, y - x) for x in range(y + 1)) for y in range(1, 8)]  # anti-diagonals ...
    lines += [tuple(sq(7 - y + x, y) for y in range(x, 8)) for x in range(1, 7)]  # ... from the h-file
    lines += [tuple(sq(x, y + x) for x in range(8 - y)) for y in range(0, 7)]  # diagonals ...
    lines += [tuple(sq(y + x, y) for y in range(8 - x)) for x in range(1, 7)]  # ... from rank 1
    return lines


LINES: tuple[tuple[int, ...], ...] = tuple(_referee_lines())


def line_moves(line: tuple[int, ...], own: int, opp: int) -> tuple[Move, ...]:
    """The referee's moves along one line (cells in line order, backwards before forwards)."""
    n = sum(1 for s in line if (own | opp) & BIT[s])
    out = []
    for i, s in enumerate(line):
        if not own & BIT[s]:
            continue
        for end in (i - n, i + n):
            if not 0 <= end < len(line) or own & BIT[line[end]]:
                continue
            lo, hi = (end + 1, i) if end < i else (i + 1, end)
            if not any(opp & BIT[line[k]] for k in range(lo, hi)):
                out.append(_MOVES[64 * s + line[end]])
    return tuple(out)


class _Line:
    __slots__ = ("squares", "mask", "cache")

    def __init__(self, squares: tuple[int, ...]):
        self.squares = squares
        self.mask = sum(BIT[s] for s in squares)
        self.cache: dict[int, tuple[Move, ...]] = {}

    def moves(self, own_line: int, opp_line: int) -> tuple[Move, ...]:
        key = own_line | (opp_line << 64)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = line_moves(self.squares, own_line, opp_line)
        return found


_LINE_OBJECTS = tuple(_Line(line) for line in LINES)
_LINE_TABLE = tuple((ln.mask, ln.cache.get, ln.moves) for ln in _LINE_OBJECTS)
_LINE_CACHE = tuple(ln.cache for ln in _LINE_OBJECTS)


def why_illegal(own: int, opp: int, move: Move, colour: str) -> str | None:
    """Which rule the move from `move.src` to `move.dst` breaks for the side with checkers `own` (named
    `colour`), or None if it breaks none: what a player who typed a well-formed move is told."""
    src, dst = move
    if src == dst:
        return "a checker must move"
    if not own & BIT[src]:
        return f"{_SQUARE_NAMES[src]} holds no {colour} checker"
    found = [k for k, ln in enumerate(_LINE_OBJECTS) if ln.mask & BIT[src] and ln.mask & BIT[dst]]
    if not found:
        return f"{_SQUARE_NAMES[src]} and {_SQUARE_NAMES[dst]} are not on one row, column or diagonal"
    k = found[0]  # LINES: 8 rows, 8 columns, then the diagonals
    line = _LINE_OBJECTS[k]
    on_line = ((own | opp) & line.mask).bit_count()
    at, to = line.squares.index(src), line.squares.index(dst)
    i, j = sorted((at, to))
    if j - i != on_line:
        kind = ("row", "column")[k // 8] if k < 16 else "diagonal"
        return (f"a checker moves exactly as many squares as its line holds checkers: {on_line} on this "
                f"{kind}, not {j - i}")
    jumped = [sq for sq in line.squares[i + 1:j] if opp & BIT[sq]]
    if jumped:
        return f"it cannot jump the opponent's checker on {_SQUARE_NAMES[jumped[0] if at < to else jumped[-1]]}"
    if own & BIT[dst]:
        return f"it cannot land on its own checker on {_SQUARE_NAMES[dst]}"
    return None


def generate_moves(own: int, opp: int) -> list[Move]:
    """Every move of the side with checkers `own`, in the referee's generation order (no PASS)."""
    out: list[Move] = []
    extend = out.extend
    for mask, cached, compute in _LINE_TABLE:
        mine = own & mask
        if mine:
            theirs = opp & mask
            found = cached(mine | (theirs << 64))
            if found is None:
                found = compute(mine, theirs)
            extend(found)
    return out


# ---------------------------------------------------------------------------- connectivity


def is_connected(bb: int) -> bool:
    """True when the checkers of `bb` form one 8-connected group (one checker is connected)."""
    fill = bb & -bb
    while True:
        grown = fill | ((fill << 1) & NOT_FILE_A) | ((fill >> 1) & NOT_FILE_H)
        grown = (grown | (grown << 8) | (grown >> 8)) & bb
        if grown == fill:
            return fill == bb
        fill = grown


def groups_of(bb: int) -> list[int]:
    """The 8-connected groups of `bb` as bitboards, largest first (ties: lowest square first)."""
    groups = []
    rest = bb
    while rest:
        fill = rest & -rest
        while True:
            grown = fill | ((fill << 1) & NOT_FILE_A) | ((fill >> 1) & NOT_FILE_H)
            grown = (grown | (grown << 8) | (grown >> 8)) & rest
            if grown == fill:
                break
            fill = grown
        groups.append(fill)
        rest ^= fill
    groups.sort(key=lambda g: -g.bit_count())
    return groups


def squares_of(bb: int) -> list[int]:
    """The squares of a bitboard, ascending."""
    out = []
    while bb:
        low = bb & -bb
        out.append(low.bit_length() - 1)
        bb ^= low
    return out


# ---------------------------------------------------------------------------- outcomes

def _listed_moves(own: int, opp: int) -> list[str]:
    """The legal moves as the referee lists them to the player: sorted names, or `pass` alone."""
    return sorted(_MOVE_NAMES[m] for m in generate_moves(own, opp)) or ["pass"]


def _scores(winner: int) -> tuple[int, int]:
    return (1, 0) if winner == 0 else (0, 1)


# `mover`: whose move connected the winner's checkers (the loser's, by a capture), unknown in a position read
_WIN_BY_MOVE = tuple(Outcome(c, "connected", _scores(c), mover=c) for c in (0, 1))
_WIN_BY_CAPTURE = tuple(Outcome(c, "connected", _scores(c), mover=1 - c) for c in (0, 1))
_WIN_FOUND = tuple(Outcome(c, "connected", _scores(c)) for c in (0, 1))
_DRAW = Outcome(None, "turn_limit", (0, 0), turns=MAX_TURNS)


def _evaluate(bb: list[int], last_mover: int, turns: int) -> Outcome | None:
    """The result of a position just after `last_mover`'s turn, in the referee's order of tests."""
    if is_connected(bb[last_mover]):
        return _WIN_FOUND[last_mover]
    if is_connected(bb[1 - last_mover]):
        return _WIN_FOUND[1 - last_mover]
    if turns >= MAX_TURNS:
        return _DRAW
    return None


# ---------------------------------------------------------------------------- the game

START_BLACK = sum(BIT[x] | BIT[56 + x] for x in range(1, 7))
START_WHITE = sum(BIT[8 * y] | BIT[8 * y + 7] for y in range(1, 7))


class LinesOfAction(Game[Move]):
    id = "lines-of-action"
    aliases = ("loa",)
    side_names = ("Black", "White")
    title = "Lines of Action"
    side_names = ("Black", "White")
    ending_words = {
        Termination.CONNECTED: EndingWords("all checkers connected", "{winner} connected all its checkers",
                                           by_loser="{loser}'s capture left all {winner}'s checkers connected"),
        Termination.TURN_LIMIT: EndingWords("the turn limit was reached",
                                            "{turns} turns played without a connected group"),
    }
    forfeit_scores = (-1, 0)
    description = "Gather all your checkers into one group; each move goes as far as the line holds checkers."
    limits = TimeLimits(first_ms=1000, turn_ms=150)
    max_turns = MAX_TURNS

    square_name = staticmethod(square_name)
    parse_square = staticmethod(parse_square)

    __slots__ = ("_bb", "_stm", "_turns", "_rng", "_status", "_undo", "_last_before", "move_stack")

    def __init__(self, black: int, white: int, to_move: int, turns_played: int, rng: int | None,
                 last_move: Move | None = None):
        self._bb = [black, white]
        self._stm = to_move
        self._turns = turns_played
        self._rng = rng
        self._last_before = last_move  # the previous turn's move when move_stack is empty
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self._status = _evaluate(self._bb, 1 - to_move, turns_played)

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int | None = None) -> "LinesOfAction":
        check_seed(seed, cls.title)
        return cls(START_BLACK, START_WHITE, 0, 0, scramble(0 if seed is None else seed))

    # ------------------------------------------------------------------ play

    def current_player(self) -> int:
        return self._stm

    def legal_moves(self) -> list[Move]:
        if self._status is not None:
            return []
        return generate_moves(self._bb[self._stm], self._bb[self._stm ^ 1]) or [PASS]

    def push(self, move: Move) -> None:
        bb = self._bb
        stm = self._stm
        own, opp = bb[stm], bb[stm ^ 1]
        self._undo.append((own, opp, self._rng, self._status))
        if type(move) is RandomMove:
            self._rng = move.rng_after
        status = None
        src, dst = move
        if src >= 0:
            dst_bit = BIT[dst]
            own ^= BIT[src] | dst_bit
            bb[stm] = own
            if opp & dst_bit:
                opp ^= dst_bit
                bb[stm ^ 1] = opp
                if is_connected(own):
                    status = _WIN_BY_MOVE[stm]
                elif is_connected(opp):
                    status = _WIN_BY_CAPTURE[stm ^ 1]
            elif is_connected(own):
                status = _WIN_BY_MOVE[stm]
        # A pass changes nothing, and neither side was connected before it.
        self._turns += 1
        if status is None and self._turns >= MAX_TURNS:
            status = _DRAW
        self._status = status
        self._stm = stm ^ 1
        self.move_stack.append(move)

    def pop(self) -> Move:
        move = self.move_stack.pop()
        own, opp, self._rng, self._status = self._undo.pop()
        stm = self._stm ^ 1
        self._stm = stm
        self._bb[stm] = own
        self._bb[stm ^ 1] = opp
        self._turns -= 1
        return move

    def outcome(self) -> Outcome | None:
        return self._status

    def key(self) -> Hashable:
        return (self._bb[0], self._bb[1], self._stm, self._turns)

    # ------------------------------------------------------------------ notation

    def move_to_str(self, move: Move) -> str:
        return _MOVE_NAMES[move]

    def parse_output(self, line: str) -> Move:
        token = line.split(" ", 1)[0]
        if self._status is not None:
            raise InvalidOutput("Action was not valid! The game is already over")
        moves = generate_moves(self._bb[self._stm], self._bb[self._stm ^ 1])
        if not moves:
            if token == "pass" or token == "random":
                return PASS
            raise InvalidOutput(f"Action was not valid! {quote(token)}: there is no legal move, the only valid "
                                "outputs are 'pass' and 'random'")
        if token == "random":
            return self._random_move(moves)
        move = _MOVE_BY_NAME.get(token[:4])
        if move is not None and move in moves:
            return move
        if token == "pass":
            raise InvalidOutput(f"Action was not valid! 'pass' is only allowed when there is no legal move "
                                f"(there are {len(moves)})")
        if move is not None and (why := why_illegal(self._bb[self._stm], self._bb[self._stm ^ 1], move,
                                                    COLOR_NAMES[self._stm])) is not None:
            raise InvalidOutput(f"Action was not valid! {quote(token)}: {why}")
        raise InvalidOutput(f"Action was not valid! {quote(token)} does not begin with any of the {len(moves)} "
                            f"legal moves (e.g. {_MOVE_NAMES[moves[0]]})")

    def _random_move(self, moves: list[Move]) -> RandomMove:
        if self._rng is None:
            raise EngineError("'random': the referee's generator state is unknown in this position")
        index, state = next_int(self._rng, len(moves))
        return RandomMove(moves[index], state)

    # ------------------------------------------------------------------ the referee's side

    def bot_input(self, first: bool) -> list[str]:
        lines = []
        if first or self._turns < 2:  # the referee: SDK turn < 3
            lines.append(COLOR_CHARS[self._stm])
        lines.extend(self.board())
        last = self.last_move
        lines.append("null" if last is None else _MOVE_NAMES[last])
        listed = _listed_moves(self._bb[self._stm], self._bb[self._stm ^ 1])
        lines.append(str(len(listed)))
        lines.extend(listed)
        return lines

    @classmethod
    def input_reader(cls) -> "LinesOfActionReader":
        return LinesOfActionReader()

    # ------------------------------------------------------------------ UI helpers

    @property
    def turns_played(self) -> int:
        """Turns played in the whole game (passes included), also before this object's start position."""
        return self._turns

    game_ply = turns_played  # the protocol's name

    @property
    def rng_state(self) -> int | None:
        """The 48-bit state of the referee's java.util.Random, None when unknown."""
        return self._rng

    @property
    def last_move(self) -> Move | None:
        """The previous turn's move (PASS for a pass), None before the first turn."""
        return self.move_stack[-1] if self.move_stack else self._last_before

    def board(self) -> list[str]:
        black, white = self._bb
        rows = []
        for y in range(7, -1, -1):
            rows.append("".join("b" if black & BIT[8 * y + x] else "w" if white & BIT[8 * y + x] else "."
                                for x in range(8)))
        return rows

    def piece_at(self, sq: int) -> str | None:
        if self._bb[0] & BIT[sq]:
            return "b"
        if self._bb[1] & BIT[sq]:
            return "w"
        return None

    def moves_from(self, sq: int) -> list[int]:
        """Destinations of the legal moves of the side to move's checker on `sq` (empty if none)."""
        return [m.dst for m in self.legal_moves() if m.src == sq]

    def connected_groups(self, color: int | str) -> list[list[int]]:
        seat = COLOR_CHARS.index(color) if isinstance(color, str) else color
        return [squares_of(g) for g in groups_of(self._bb[seat])]

    def checker_counts(self) -> tuple[int, int]:
        return self._bb[0].bit_count(), self._bb[1].bit_count()

    # ------------------------------------------------------------------ text

    def to_text(self) -> str:
        labels = "  " + " ".join(FILES)
        lines = [labels]
        for rank, row in zip(range(8, 0, -1), self.board()):
            lines.append(f"{rank} {' '.join(row)} {rank}")
        lines.append(labels)
        last = self.last_move
        lines.append(f"to_move = {COLOR_CHARS[self._stm]}")
        lines.append(f"turns_played = {self._turns}")
        lines.append(f"last_move = {'null' if last is None else _MOVE_NAMES[last]}")
        lines.append(f"random_state = {'unknown' if self._rng is None else f'0x{self._rng:012x}'}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> "LinesOfAction":
        return _PositionReader(text).read()


# ---------------------------------------------------------------------------- reading positions

_FILE_LABELS = " ".join(FILES)
_KEYS = ("game", "to_move", "turns_played", "last_move", "random_state")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _row_cells(body: str, rank: int) -> str | None:
    """The 8 cells of a diagram row written `8 . b . . . . . . 8`, `. b . . . . . .` or `.b......`."""
    parts = body.split()
    if len(parts) >= 2 and parts[0] == str(rank) and parts[-1] == str(rank):
        parts = parts[1:-1]
    elif len(parts) >= 1 and parts[0] == str(rank):
        parts = parts[1:]
    cells = "".join(parts)
    if len(cells) == 8 and all(c in ".bw" for c in cells):
        return cells
    return None


class _PositionReader:
    def __init__(self, text: str):
        if not isinstance(text, str):
            raise PositionError("a position text must be a string")
        self.text = text
        self.rows: list[str] = []
        self.values: dict[str, tuple[int, str]] = {}

    def read(self) -> LinesOfAction:
        for number, raw in enumerate(self.text.splitlines(), start=1):
            self._read_line(number, raw)
        if len(self.rows) != 8:
            raise PositionError(f"line {len(self.text.splitlines())}: the board has {len(self.rows)} rows, want 8")
        black, white = self._bitboards()
        turns = self._turns()
        to_move = self._to_move(turns)
        last = self._last_move(turns, to_move, black | white, (black, white)[1 - to_move])
        rng = self._rng()
        for seat, bb in enumerate((black, white)):
            if not bb:
                raise PositionError(f"line 1: {COLOR_NAMES[seat]} has no checker (the game ends before that)")
            if bb.bit_count() > 12:
                raise PositionError(f"line 1: {COLOR_NAMES[seat]} has {bb.bit_count()} checkers, at most 12")
        return LinesOfAction(black, white, to_move, turns, rng, last)

    def _read_line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line or line.startswith("#"):
            return
        if "=" in line:
            name, _, value = (part.strip() for part in line.partition("="))
            if name not in _KEYS:
                raise PositionError(f"line {number}: unknown key {quote(name)} (known: {', '.join(_KEYS)})")
            if name in self.values:
                raise PositionError(f"line {number}: {name} is given twice")
            self.values[name] = (number, value)
            return
        if line == _FILE_LABELS:
            return
        if self.values:
            raise PositionError(f"line {number}: board row after the key = value lines")
        if len(self.rows) == 8:
            raise PositionError(f"line {number}: a ninth board row: {quote(line)}")
        cells = _row_cells(line, 8 - len(self.rows))
        if cells is None:
            raise PositionError(f"line {number}: not a board row of rank {8 - len(self.rows)} "
                                f"(8 cells of '.', 'b', 'w'): {quote(line)}")
        self.rows.append(cells)

    def _bitboards(self) -> tuple[int, int]:
        black = white = 0
        for i, row in enumerate(self.rows):
            y = 7 - i
            for x, c in enumerate(row):
                if c == "b":
                    black |= BIT[8 * y + x]
                elif c == "w":
                    white |= BIT[8 * y + x]
        return black, white

    def _get(self, name: str) -> tuple[int, str] | None:
        return self.values.get(name)

    def _turns(self) -> int:
        game = self._get("game")
        if game is not None and game[1] not in ("lines-of-action", "loa"):
            raise PositionError(f"line {game[0]}: this is a lines-of-action position, not {quote(game[1])}")
        found = self._get("turns_played")
        if found is None:
            raise PositionError(f"line {len(self.text.splitlines())}: missing 'turns_played = N'")
        number, value = found
        try:
            return parse_int(value, lo=0, hi=MAX_TURNS, what="turns_played")
        except NumberError as e:
            raise PositionError(f"line {number}: {e}") from None

    def _to_move(self, turns: int) -> int:
        implied = turns % 2
        found = self._get("to_move")
        if found is None:
            return implied
        number, value = found
        choices = {"b": 0, "0": 0, "w": 1, "1": 1}
        if value not in choices:
            raise PositionError(f"line {number}: to_move must be b or w (or 0 or 1), got {quote(value)}")
        if choices[value] != implied:
            raise PositionError(f"line {number}: to_move = {value} is impossible after {turns} turns "
                                f"(black moves on even turns, white on odd ones)")
        return choices[value]

    def _last_move(self, turns: int, to_move: int, occupied: int, last_mover_bb: int) -> Move | None:
        found = self._get("last_move")
        if found is None:
            return None
        number, value = found
        if value == "null":
            return None
        if turns == 0:
            raise PositionError(f"line {number}: last_move must be null before the first turn")
        if value == "pass":
            return PASS
        move = _MOVE_BY_NAME.get(value)
        if move is None or move == PASS:
            raise PositionError(f"line {number}: last_move must be null, pass or a move like b1d3, got {quote(value)}")
        if not last_mover_bb & BIT[move.dst] or occupied & BIT[move.src]:
            raise PositionError(f"line {number}: last_move {value} does not fit the board (its destination must "
                                f"hold a {COLOR_NAMES[1 - to_move]} checker and its origin must be empty)")
        return move

    def _rng(self) -> int | None:
        found = self._get("random_state")
        if found is None:
            return None
        number, value = found
        if value == "unknown":
            return None
        hex_digits = value[2:] if value[:2].lower() == "0x" else ""
        if hex_digits and set(hex_digits) <= _HEX_DIGITS and len(hex_digits.lstrip("0")) <= 12:  # 48 bits
            return int(hex_digits.lstrip("0") or "0", 16)
        try:
            return parse_int(value, lo=0, hi=RNG_MASK, what="random_state")
        except NumberError:
            raise PositionError(f"line {number}: random_state must be a 48-bit number (e.g. 0x0005deece66d) "
                                f"or unknown, got {quote(value)}") from None


# ---------------------------------------------------------------------------- the bot's side


class LinesOfActionReader(InputReader):
    """Rebuilds the position from the referee's input: colour line (first turn), 8 rows, last move, moves.

    The turn count comes from the seat and the number of turns read: the referee asks a seat on every
    one of its turns, passes included, so its k-th turn (k = 0, 1, ...) is game turn 2k + seat.

    Input no referee sends is refused with an InputError naming its line: rows of other than 8 cells
    '.', 'b', 'w', more than 12 checkers of a side, a side gone or connected (the game would be over),
    a last move that does not fit the board, a move list that is not the board's, more turns than
    the game has, and, once `played` said what the bot answered, a board that does not follow from
    the previous one.
    """

    def __init__(self) -> None:
        self.src = LineSource()
        self.seat: int | None = None
        self.turns_read = 0
        self.last: LinesOfAction | None = None  # the position the bot was last given
        self.mine: Move | None = None  # the bot's answer to it

    def read_turn(self, readline: Callable[[], str]) -> LinesOfAction:
        src = self.src
        src.begin_turn(readline)
        if self.seat is None:
            colour = src.read_line("the colour line")
            if colour not in COLOR_CHARS:
                raise src.error(f"expected the colour 'b' or 'w', got {quote(colour)}")
            self.seat = COLOR_CHARS.index(colour)
        black, white = self._read_board()
        board_line = src.number - 7
        last = self._read_last_move(black | white, (black, white)[1 - self.seat])
        last_line = src.number
        turns = 2 * self.turns_read + self.seat
        listed = self._read_moves()
        game = LinesOfAction(black, white, self.seat, turns, None, last)
        if turns >= MAX_TURNS:
            raise src.error(f"a turn after the game's {MAX_TURNS} turns (this is turn {turns + 1})", board_line)
        if game.outcome() is not None:
            raise src.error(f"the game is over ({describe(game.outcome(), LinesOfAction)}): no referee asks for a move",
                            board_line)
        self._check_moves(game, *listed)
        self._check_follows(game, board_line, last_line)
        self.turns_read += 1
        self.last, self.mine = game, None
        return game.copy()

    def played(self, move: Hashable) -> None:
        self.mine = move  # type: ignore[assignment]

    def _read_board(self) -> tuple[int, int]:
        src = self.src
        bb = [0, 0]
        for y in range(7, -1, -1):
            row = src.read_line("a board row")
            if len(row) != 8 or any(c not in ".bw" for c in row):
                raise src.error(f"expected a board row of 8 cells '.', 'b', 'w', got {quote(row)}")
            for x, c in enumerate(row):
                if c != ".":
                    seat = COLOR_CHARS.index(c)
                    bb[seat] |= BIT[8 * y + x]
                    if bb[seat].bit_count() > 12:
                        raise src.error(f"a 13th {COLOR_NAMES[seat]} checker (each side starts with 12)")
        for seat in (0, 1):
            if not bb[seat]:
                raise src.error(f"{COLOR_NAMES[seat]} has no checker (the game ends before that)", src.number - 7)
        return bb[0], bb[1]

    def _read_last_move(self, occupied: int, last_mover_bb: int) -> Move | None:
        src = self.src
        text = src.read_line("lastMove")
        if text == "null":
            if self.turns_read:
                raise src.error("lastMove null after the seat's first turn (the opponent has moved since)")
            return None
        move = _MOVE_BY_NAME.get(text)
        if move is None:
            raise src.error(f"expected lastMove: null, pass or a move like b1d3, got {quote(text)}")
        if move != PASS and (not last_mover_bb & BIT[move.dst] or occupied & BIT[move.src]):
            raise src.error(f"lastMove {text} does not fit the board: its destination must hold a "
                            f"{COLOR_NAMES[1 - self.seat]} checker and its origin must be empty")
        return move

    def _read_moves(self) -> tuple[list[str], int]:
        """moveCount and the moves listed after it; the number of the moveCount line."""
        count = self.src.read_int("moveCount", 1, 12 * 8)  # at most 8 directions for 12 checkers
        count_line = self.src.number
        return [self.src.read_line("a legal move") for _ in range(count)], count_line

    def _check_moves(self, game: LinesOfAction, listed: list[str], count_line: int) -> None:
        """The listed legal moves must be the board's, as the referee lists them."""
        want = _listed_moves(game._bb[game._stm], game._bb[game._stm ^ 1])
        for n, (text, expected) in enumerate(zip(listed, want), start=count_line + 1):
            if text != expected:
                raise self.src.error(f"legal move {quote(text)} where the board's list has {expected!r}", n)
        if len(listed) != len(want):
            raise self.src.error(f"moveCount {len(listed)}, but the board has {len(want)} legal moves", count_line)

    def _check_follows(self, game: LinesOfAction, board_line: int, last_line: int) -> None:
        """The board must be the last one plus the bot's answer and lastMove (when both are known)."""
        if self.last is None or self.mine not in self.last.legal_moves():
            return
        expected = self.last.copy()
        expected.push(self.mine)
        last = game.last_move
        if last not in expected.legal_moves():
            raise self.src.error(f"lastMove {_MOVE_NAMES.get(last, 'null')} is not legal after the bot's answer "
                                 f"{_MOVE_NAMES[self.mine]}", last_line)
        expected.push(last)
        if expected.key() != game.key():
            raise self.src.error("the board is not the previous turn's with the bot's answer and lastMove played",
                                 board_line)
