"""Opening knowledge computed offline by deep search: the first move, the STEAL decision, and the book
moves of the next few plies (ai/connect4/opening_book.py, written by `python -m ai.connect4.build_book`).

- `REPLY[c]`: player 1's answer when player 0 opened in column c: STEAL or a column, with the search
  scores (player 1's side) of stealing and of the best drop.  Player 1 steals exactly when stealing
  scores higher than its best drop.
- `FIRST_MOVE`: player 0 opens in the column whose better answer (steal or drop) is worst for player 1.
- `LINES`: position key -> book move, for the positions of the next plies that arise when one side
  follows the book and the other plays anything.  Keys are mirror-normalised (`book_key`).  Also
  (`lines --won`) level 6's moves of a game it won against a nearly deterministic bot, up to where
  `SOLVED` proves the position won: its own 60 ms choices there vary from game to game, and some of
  the other lines were lost.
- `SOLVED` (ai/connect4/solved_book.py, written by `python -m ai.connect4.build_book solved`): key ->
  (move, value) for middle-game positions (28 to 40 empty cells) where level 6 once chose a move worse
  than the exact game value, found by solving the games it lost or drew; `value` is 1 (the move wins)
  or 0 (it draws).  These positions are decided deeper than a turn's search reaches.
"""
from __future__ import annotations

from ai.connect4.bitboard import BOTTOM, COL_MASK, COLS, STRIDE

STEAL = -2

try:  # the generated data
    from ai.connect4.opening_book import FIRST_MOVE, LINES, REPLY
except ImportError:  # pragma: no cover - before the first generation
    REPLY: dict[int, tuple[int, int, int]] = {}
    FIRST_MOVE: int | None = None
    LINES: dict[int, int] = {}
try:
    from ai.connect4.solved_book import SOLVED
except ImportError:  # pragma: no cover - before the first generation
    SOLVED: dict[int, tuple[int, int]] = {}


def mirror(b: int) -> int:
    """The bitboard reflected left-right (column c <-> column 8 - c)."""
    out = 0
    for c in range(COLS):
        out |= ((b >> (c * STRIDE)) & 0xFF) << ((COLS - 1 - c) * STRIDE)
    return out


def book_key(cur: int, mask: int) -> tuple[int, bool]:
    """(key, mirrored): the smaller of the position's key and its mirror image's; `mirrored` says the
    mirror image was taken (a book move must then be mirrored back)."""
    k = cur + mask
    km = mirror(cur) + mirror(mask)
    return (km, True) if km < k else (k, False)


def lookup(cur: int, mask: int, steal: bool) -> int | None:
    """The book's move for this position (cur = chips of the side to move), or None."""
    if mask == 0:
        return FIRST_MOVE
    if steal:
        if mask.bit_count() != 1:
            return None
        entry = REPLY.get((mask.bit_length() - 1) // STRIDE)
        return None if entry is None else entry[0]
    key, mirrored = book_key(cur, mask)
    mv = LINES.get(key)
    if mv is None and key in SOLVED:
        mv = SOLVED[key][0]
    if mv is None or mv == STEAL:
        return None
    return COLS - 1 - mv if mirrored else mv


def replay(columns: str) -> tuple[int, int]:
    """(cur, mask) after dropping chips in the given columns from the empty board (no STEAL)."""
    cur = mask = 0
    for ch in columns:
        m = (mask + BOTTOM) & COL_MASK[int(ch)]
        if not m:
            raise ValueError(f"column {ch} is full in {columns!r}")
        cur |= m
        mask |= m
        cur ^= mask
    return cur, mask


# Middle-game positions (as column sequences) for `search_speed`: from noisy depth-4 self-play.
BENCH_LINES = ("787778", "3233575046", "72730347563544", "286843033257534467", "5756665537867731447233",
               "56550667542178242262122636", "033426565236631322384442004044",
               "212242536721011334651400115244334658")
BENCH_POSITIONS = [replay(line) for line in BENCH_LINES]
