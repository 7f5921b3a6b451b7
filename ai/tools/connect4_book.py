"""Builds ai/connect4/opening_book.py by deep search (an offline tool).

    python -m ai.tools.connect4_book table [--depth 12] [--from-log FILE]
    python -m ai.tools.connect4_book lines [--depth 10] [--plies 4]

`table` (about 50 searches; 40 minutes of one core at depth 12):
  For every first column c (0..4; 5..8 are mirror images) the position after STEAL and after each of
  the nine drops is searched to `--depth` from player 0's side.  Player 1's answer is STEAL when
  stealing scores higher than the best drop.  Player 0's first move is the column minimising player
  1's better answer.  Each score is the mean of the last two depths' scores: the side to move at the
  leaves alternates with the depth's parity, and so does the evaluation's bias.  `--from-log` rebuilds
  the table from the lines a previous run printed instead of searching again.
`lines` (one search per position):
  Every position where the book's side is to move within `--plies` plies, when that side follows the
  book (the table, then these lines) and the other side plays anything, gets the search's best move.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from ai.connect4.bitboard import BOARD, BOTTOM, COL_MASK, COLS, has_four
from ai.connect4.book import STEAL, book_key
from ai.connect4.search import Searcher

OUT = Path(__file__).resolve().parent.parent / "connect4" / "opening_book.py"


def drop(cur: int, mask: int, col: int) -> tuple[int, int, bool]:
    """Plays `col` for the side to move: (next cur, next mask, won)."""
    m = (mask + BOTTOM) & COL_MASK[col] & BOARD
    me = cur | m
    mask |= m
    return me ^ mask, mask, has_four(me)


def legal(mask: int) -> list[int]:
    possible = (mask + BOTTOM) & BOARD
    return [c for c in range(COLS) if possible & COL_MASK[c]]


def search(searcher: Searcher, cur: int, mask: int, depth: int):
    """(result, value): a fixed-depth search; value is the mean of the last two depths' scores."""
    by_depth = {}

    def note(d, nodes, score, best, elapsed):
        by_depth[d] = score

    res = searcher.search(cur, mask, max_depth=depth, on_info=note)
    if res.proven or res.depth < 2:
        return res, res.score
    return res, (by_depth[res.depth] + by_depth[res.depth - 1]) // 2


_LOG_LINE = re.compile(r"first column (\d): STEAL ([+-]\d+) \(depth (\d+)\); drops (.*) \(depth")


def table(depth: int, from_log: str | None) -> tuple[dict, int, list[str]]:
    reply: dict[int, tuple[int, int, int]] = {}
    notes: list[str] = []
    logged = {}
    if from_log:
        for line in Path(from_log).read_text().splitlines():
            m = _LOG_LINE.search(line)
            if m:
                drops = dict((int(a), int(v)) for a, v in re.findall(r"(\d): ([+-]\d+)", m.group(4)))
                logged[int(m.group(1))] = (int(m.group(2)), drops, line.strip())
    for c in range(COLS // 2 + 1):
        if c in logged:
            steal_score, drops, line = logged[c]
            per = dict(drops)
            per[STEAL] = steal_score
        else:
            chip = BOTTOM & COL_MASK[c]
            searcher = Searcher()
            per, depths = {}, {}
            for a in [STEAL] + list(range(COLS)):
                cur, mask = (0, chip) if a == STEAL else (chip, chip | ((chip + BOTTOM) & COL_MASK[a]))
                res, value = search(searcher, cur, mask, depth)
                per[a], depths[a] = -value, res.depth  # player 1's side
            line = (f"first column {c}: STEAL {per[STEAL]:+d} (depth {depths[STEAL]}); drops "
                    + ", ".join(f"{a}: {per[a]:+d}" for a in range(COLS))
                    + f" (depth {min(depths[a] for a in range(COLS))}+)")
            print(line, flush=True)
        best_drop = max(range(COLS), key=lambda a: (per[a], -abs(a - COLS // 2)))
        answer = STEAL if per[STEAL] > per[best_drop] else best_drop
        reply[c] = (answer, per[STEAL], per[best_drop])
        reply[COLS - 1 - c] = (answer if answer == STEAL else COLS - 1 - answer, per[STEAL], per[best_drop])
        notes.append(line)
    first = min(range(COLS), key=lambda c: (max(reply[c][1], reply[c][2]), abs(c - COLS // 2)))
    print("FIRST_MOVE", first, flush=True)
    return reply, first, notes


def lines(reply: dict, first: int, depth: int, plies: int) -> tuple[dict[int, int], dict[int, str]]:
    book: dict[int, int] = {}
    comments: dict[int, str] = {}
    searchers: dict[int, Searcher] = {}

    def book_move(cur: int, mask: int, label: str, root: int) -> int:
        key, mirrored = book_key(cur, mask)
        if key in book:
            mv = book[key]
            return COLS - 1 - mv if mirrored else mv
        res, value = search(searchers.setdefault(root, Searcher()), cur, mask, depth)
        mv = res.move
        book[key] = COLS - 1 - mv if mirrored else mv
        comments[key] = f"{label} -> {mv} ({value:+d}, depth {res.depth})"
        print(comments[key], flush=True)
        return mv

    # player 0's book: the first move, every answer of player 1 (ply 2), every reply after ours (ply 4)
    chip = BOTTOM & COL_MASK[first]
    starts = [("STEAL", 0, chip)] + [(str(a), *drop(0, chip, a)[:2]) for a in range(COLS)]
    for label, cur, mask in starts:
        label = f"{first} {label}"
        mv = book_move(cur, mask, label, first)
        if plies >= 4:
            c2, m2, won = drop(cur, mask, mv)
            if won:
                continue
            for s in legal(m2):
                c3, m3, won = drop(c2, m2, s)
                if not won:
                    book_move(c3, m3, f"{label} {mv} {s}", first)
    # player 1's book: every first column, the table's answer, every reply of player 0 (ply 3)
    if plies >= 3:
        for c in range(COLS):
            chip = BOTTOM & COL_MASK[c]
            answer = reply[c][0]
            if answer == STEAL:
                cur, mask = 0, chip  # player 0 to move, the chip is player 1's
            else:
                cur, mask, _ = drop(0, chip, answer)
            for d in legal(mask):
                c2, m2, won = drop(cur, mask, d)
                if not won:
                    book_move(c2, m2, f"{c} {'STEAL' if answer == STEAL else answer} {d}", 100 + c)
    return book, comments


def write(reply: dict, first: int, notes: list[str], book: dict[int, int], comments: dict[int, str],
          how: list[str]) -> None:
    with OUT.open("w") as f:
        f.write('"""Generated by `python -m ai.tools.connect4_book` (do not edit by hand); see book.py.\n\n')
        for h in how:
            f.write(f"{h}\n")
        f.write('"""\n\n')
        f.write("# The STEAL table searches (scores from player 1's side):\n")
        f.write("TABLE_NOTES = [\n")
        for line in notes:
            f.write(f"    {line!r},\n")
        f.write("]\n\n")
        f.write("# first column -> (player 1's answer, score of STEAL, score of the best drop)\n")
        f.write("REPLY = {\n")
        for c in range(COLS):
            a, s1, s2 = reply[c]
            f.write(f"    {c}: ({a}, {s1}, {s2}),\n")
        f.write("}\n\n")
        f.write(f"FIRST_MOVE = {first}\n\n")
        f.write("# mirror-normalised position key -> book move (in the key's orientation; the comment gives the\n")
        f.write("# line as it was searched: first move, answers..., the move found, its score and depth)\n")
        f.write("LINES = {\n")
        for key in sorted(book):
            f.write(f"    {key}: {book[key]},  # {comments.get(key, '')}\n")
        f.write("}\n")
    print(f"wrote {OUT} ({len(book)} book positions)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=["table", "lines"])
    ap.add_argument("--depth", type=int, default=None, help="search depth per position (plies)")
    ap.add_argument("--plies", type=int, default=4, help="book depth in plies (2..4)")
    ap.add_argument("--from-log", default=None, help="table: rebuild from a previous run's printed lines")
    args = ap.parse_args()
    if args.phase == "table":
        depth = args.depth or 12
        reply, first, notes = table(depth, args.from_log)
        write(reply, first, notes, {}, {}, [f"STEAL table and first move: `table --depth {depth}`.",
                                            "Book lines: none yet (run the `lines` phase)."])
    else:
        from ai.connect4 import opening_book as ob

        depth = args.depth or 10
        book, comments = lines(ob.REPLY, ob.FIRST_MOVE, depth, args.plies)
        how = [ob.__doc__.splitlines()[2], f"Book lines: `lines --depth {depth} --plies {args.plies}`."]
        write(ob.REPLY, ob.FIRST_MOVE, list(ob.TABLE_NOTES), book, comments, how)


if __name__ == "__main__":
    main()
