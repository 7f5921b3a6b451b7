"""Bitboard constants and helpers of the Connect 4 search (7 rows x 9 columns).

The layout is the engine's (engines/connect4.py): bit `col * 8 + h` is column `col` at height `h`
(h = 0 is the bottom row); bit 7 of each 8-bit column group is an always-empty sentinel, so shifts by
1 (vertical), 8 (horizontal), 7 and 9 (diagonals) never carry a line from one column into the next.

A position in the search is two ints: `cur`, the chips of the side to move, and `mask`, all chips.
`cur + mask` is a unique key of the position (the carry of `cur` into the column's first empty bit
marks the column height), as in Pascal Pons' Connect 4 solver; who stole the first chip does not
matter any more once the chips stand where they stand.
"""
from __future__ import annotations

ROWS = 7
COLS = 9
CELLS = ROWS * COLS
STRIDE = 8

BOTTOM = sum(1 << (c * STRIDE) for c in range(COLS))
BOARD = sum(((1 << ROWS) - 1) << (c * STRIDE) for c in range(COLS))
COL_MASK = [((1 << ROWS) - 1) << (c * STRIDE) for c in range(COLS)]
TOP_CELL = [1 << (c * STRIDE + ROWS - 1) for c in range(COLS)]

# Cells by height parity: PARITY[k] holds every cell whose height h has h % 2 == k.
PARITY = [sum(1 << (c * STRIDE + h) for c in range(COLS) for h in range(ROWS) if h % 2 == k) for k in (0, 1)]

# Columns from the centre outwards: the default move order.
CENTRE_ORDER = sorted(range(COLS), key=lambda c: (abs(c - COLS // 2), c))


def _window_counts() -> list[int]:
    """For every bit index, how many 4-cell windows on the board contain that cell (0 for sentinels)."""
    counts = [0] * (COLS * STRIDE)
    for c in range(COLS):
        for h in range(ROWS):
            for dc, dh in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + dc * k, h + dh * k) for k in range(4)]
                if all(0 <= cc < COLS and 0 <= hh < ROWS for cc, hh in cells):
                    for cc, hh in cells:
                        counts[cc * STRIDE + hh] += 1
    return counts


WINDOWS = _window_counts()  # 3 in the corners up to 16 in the centre


def win_cells(p: int) -> int:
    """Every cell (occupied or not, sentinels included) that would complete four-in-a-row for the
    chips `p`; callers mask with the empty cells.  Pons' compute_winning_position for stride 8 in
    fewer operations: for each direction s, with `a` the chips whose next cell along s is also one
    (a pair), a cell wins with the pair at +s..+2s and a chip at +3s or -s, or with the pair at
    -2s..-s and a chip at +s or -3s.  (search.py writes this out in its hottest loops: keep the
    copies alike.)"""
    r = (p << 1) & (p << 2) & (p << 3)  # vertical: three below
    h = p >> 8  # horizontal
    a = p & h
    r |= (a >> 8) & ((p >> 24) | (p << 8)) | (a << 16) & (h | (p << 24))
    h = p >> 7  # diagonal, shift 7 (down-right / up-left)
    a = p & h
    r |= (a >> 7) & ((p >> 21) | (p << 7)) | (a << 14) & (h | (p << 21))
    h = p >> 9  # diagonal, shift 9
    a = p & h
    return r | (a >> 9) & ((p >> 27) | (p << 9)) | (a << 18) & (h | (p << 27))


def has_four(p: int) -> bool:
    for s in (1, 8, 7, 9):
        m = p & (p >> s)
        if m & (m >> (s + s)):
            return True
    return False


def column_of(move_bit: int) -> int:
    return (move_bit.bit_length() - 1) // STRIDE


def drop_bit(mask: int, col: int) -> int:
    """The bit a chip dropped in `col` would take (0 when the column is full)."""
    return (mask + BOTTOM) & COL_MASK[col]


def from_rows(rows: list[str], me: str) -> tuple[int, int]:
    """(cur, mask) from the referee's 7 board rows (top row first) for the player whose chips are `me`."""
    cur = mask = 0
    for r, line in enumerate(rows):
        h = ROWS - 1 - r
        for c, ch in enumerate(line):
            if ch != ".":
                bit = 1 << (c * STRIDE + h)
                mask |= bit
                if ch == me:
                    cur |= bit
    return cur, mask


def to_rows(cur: int, mask: int, me: str = "0") -> list[str]:
    """The inverse of `from_rows` (for tests and debugging)."""
    other = "1" if me == "0" else "0"
    rows = []
    for r in range(ROWS):
        h = ROWS - 1 - r
        line = ""
        for c in range(COLS):
            bit = 1 << (c * STRIDE + h)
            line += (me if cur & bit else other) if mask & bit else "."
        rows.append(line)
    return rows
