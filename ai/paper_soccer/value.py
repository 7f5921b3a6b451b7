"""The evaluation's tables: one form for the hand-set `search.Weights` and the learned value.

A position is seen from the mover's side: the mover attacks "up" (seat 1's points are mirrored top to
bottom) and the pitch is folded left onto right, so a point is one of 55 cells (5 columns from the
edge inward, 11 rows from the attacked goal line).  The value of a position whose mover cannot
score this turn is

    ball[cell of the ball] + sum of mine[cell] over the mover's danger points
                           + sum of theirs[cell] over the opponent's danger points
                           + mine_n[how many danger points the mover has] + theirs_n[the opponent's]
                           + free[free edges at the ball] + bias

(the danger points: `board.flood`).  The hand-set weights are the case mine = danger, theirs = -danger,
ball = rows of progress (and the mouth bonus), free = per free edge; the learned value fits every entry
(`ai/paper_soccer/fit_value.py`: logistic regression on game results, weights in `value.txt`).

`Tables` expands the cells to per-seat, per-point integer tables, which the pure-Python leaf and the
compiled one read alike: integer sums, so both give the same value whatever the order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

from ai.paper_soccer.board import N_POINTS, X, Y
from ai.paper_soccer.shipped import shipped_text

N_CELLS = 55
MAX_COUNT = 16  # danger points counted beyond this share the last entry
MAX_FREE = 8
# the blocks of a feature vector (training) and of a weight file
BLOCKS = (("ball", N_CELLS), ("mine", N_CELLS), ("theirs", N_CELLS), ("mine_n", MAX_COUNT + 1),
          ("theirs_n", MAX_COUNT + 1), ("free", MAX_FREE + 1), ("bias", 1))
OFFSET = {}
_at = 0
for _name, _size in BLOCKS:
    OFFSET[_name] = _at
    _at += _size
N_FEATURES = _at
# where `Tables.rows` puts the blocks that are not per point: one after the other in its last row
COUNT_ROW = {name: OFFSET[name] - OFFSET["mine_n"] for name in ("mine_n", "theirs_n", "free", "bias")}
WEIGHTS_FILE = "value.txt"


def cell(p: int, seat: int) -> int:
    """The cell of field point p seen by `seat`'s mover (rows counted from the goal it attacks)."""
    row = Y[p] if seat == 0 else 10 - Y[p]
    return min(X[p], 8 - X[p]) * 11 + row


CELL = tuple(tuple(cell(p, seat) if p < 99 else -1 for p in range(N_POINTS)) for seat in (0, 1))


@dataclass
class Tables:
    """Per-seat, per-point integer tables of one evaluation (see the module docstring)."""
    ball: list[list[int]]  # [seat][point]
    mine: list[list[int]]
    theirs: list[list[int]]
    mine_n: list[int] = field(default_factory=lambda: [0] * (MAX_COUNT + 1))
    theirs_n: list[int] = field(default_factory=lambda: [0] * (MAX_COUNT + 1))
    free: list[int] = field(default_factory=lambda: [0] * (MAX_FREE + 1))
    bias: int = 0

    @classmethod
    def from_cells(cls, w: dict[str, list[int]]) -> "Tables":
        """Tables from weights by cell (a block name of BLOCKS -> its integers)."""
        def per_point(block):
            return [[block[CELL[seat][p]] if p < 99 else 0 for p in range(N_POINTS)] for seat in (0, 1)]
        return cls(per_point(w["ball"]), per_point(w["mine"]), per_point(w["theirs"]), list(w["mine_n"]),
                   list(w["theirs_n"]), list(w["free"]), w["bias"][0])

    def rows(self) -> list[list[int]]:
        """The tables as 7 rows of N_POINTS integers (the compiled leaf's array): ball, mine and theirs
        for seats 0 and 1, then mine_n, theirs_n, free and bias one after the other."""
        last = self.mine_n + self.theirs_n + self.free + [self.bias]
        return [*self.ball, *self.mine, *self.theirs, last + [0] * (N_POINTS - len(last))]


def features(ball: int, stm: int, mine: int, theirs: int, free: int) -> dict[int, int]:
    """The feature vector (index -> count) of a position: the ball's point, the danger points of the mover
    and of the opponent as bits (`board.flood`), the free edges at the ball."""
    cells = CELL[stm]
    x = {OFFSET["ball"] + cells[ball]: 1, OFFSET["bias"]: 1, OFFSET["free"] + min(free, MAX_FREE): 1}
    for name, bits in (("mine", mine), ("theirs", theirs)):
        base = OFFSET[name]
        n = 0
        while bits:
            b = bits & -bits
            bits ^= b
            i = base + cells[b.bit_length() - 1]
            x[i] = x.get(i, 0) + 1
            n += 1
        i = OFFSET[name + "_n"] + min(n, MAX_COUNT)
        x[i] = 1
    return x


def format_weights(w: dict[str, list[int]], header: str) -> str:
    """A weight file: comment lines, then each block as `name:` and its integers, the cell blocks as
    11 rows (from the attacked goal line) of 5 columns (from the side line inward)."""
    out = [f"# {line}" if line else "#" for line in header.splitlines()]
    for name, size in BLOCKS:
        out.append(f"{name}:")
        values = w[name]
        if size == N_CELLS:
            for row in range(11):
                out.append(" ".join(f"{values[col * 11 + row]:5d}" for col in range(5)))
        else:
            out.append(" ".join(str(v) for v in values))
    return "\n".join(out) + "\n"


def parse_weights(text: str) -> dict[str, list[int]]:
    """The blocks of a weight file (`format_weights`); ValueError when one is missing or the wrong size."""
    blocks: dict[str, list[int]] = {}
    name = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith(":"):
            name = line[:-1]
            blocks[name] = []
        elif name is None:
            raise ValueError("numbers before the first block name")
        else:
            blocks[name].extend(int(v) for v in line.split())
    for name, size in BLOCKS:
        values = blocks.get(name)
        if values is None or len(values) != size:
            raise ValueError(f"block {name!r} needs {size} numbers")
    # the cell blocks are written row by row: put them back column-major (cell = column * 11 + row)
    for name, size in BLOCKS:
        if size == N_CELLS:
            rows = blocks[name]
            blocks[name] = [rows[row * 5 + col] for col in range(5) for row in range(11)]
    return blocks


_loaded: dict[str, Tables] = {}


def load(name: str) -> Tables:
    """The learned value shipped as package data ("learned"; `value:NAME`, ai/paper_soccer/NAME.value, an
    alternative fit as net.py's `net:NAME`), or the weight file at path `name` (tuning tools), read once."""
    if name not in _loaded:
        if name == "learned":
            text = resources.files("ai.paper_soccer").joinpath(WEIGHTS_FILE).read_text(encoding="ascii")
        elif name.startswith("value:"):
            text = shipped_text("value", name[6:], ".value")
        else:
            with open(name, encoding="ascii") as f:
                text = f.read(1 << 20)
        _loaded[name] = Tables.from_cells(parse_weights(text))
    return _loaded[name]
