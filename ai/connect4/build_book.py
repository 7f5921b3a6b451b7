"""Builds ai/connect4/opening_book.py by deep search (an offline tool).

    python -m ai.connect4.build_book table [--depth 12] [--from-log FILE]
    python -m ai.connect4.build_book lines [--depth 10] [--plies 4]
    python -m ai.connect4.build_book lines --won MOVES
    python -m ai.connect4.build_book solved [--play SPEC -n GAMES] [--games DIR ...] [--line MOVES]

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
`lines --won MOVES` (no search; added to the book lines already there, which `lines` alone rebuilds
  without them):
  A game level 6 won against a nearly deterministic bot, replayed by the book: MOVES (CodinGame
  notation, STEAL included) are the game's first moves up to level 6's last book move, and level 6
  is the side that plays that move; each of its positions after turn 1 gets its move as played.
  Level 6's own move comes from a 60 ms search (depth 6 or 7 in the opening, depending on the load
  and on the table left by earlier turns), so its games against the same bot part at random and
  some of those lines are lost; the book makes it play the won one.  End the line where `solved
  --line` proves the position won, so that the book leads into a proven win.
`solved` (ai/connect4/solved_book.py, a few minutes a position of one core, under `nice`):
  Level 6's mistakes found by exact solving.  `--play SPEC` first plays `-n` games of level 6 against
  SPEC (`cmd:COMMAND`, or `ai:6` for self-play) with `termarena match --no-time-limit --jobs 1
  --record`; `--games` adds recorded games.  In every game level 6 did not win, its moves are solved
  from the last back (win/draw/loss probes, `Searcher.solve`), among positions with `--min-empty` to
  `--max-empty` empty cells, until the latest one where it played a worse move than the best; that
  position gets the best move in the book (merged with the entries already there).  Repeat against
  the same bot until it stops losing: the next book move leads to positions not met before.
  `--line MOVES` checks one move found by hand (the last of MOVES, e.g. where a won and a lost game
  parted, too deep for the walk back) by solving the position after it, and adds it if it does not lose.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ai.connect4.bitboard import BOARD, BOTTOM, CELLS, COL_MASK, COLS, from_rows, has_four
from ai.connect4.book import STEAL, book_key
from ai.connect4.search import Searcher, Stop
from engines import savefile

OUT = Path(__file__).resolve().parent / "opening_book.py"
SOLVED_OUT = OUT.with_name("solved_book.py")
LEVEL = "ai:6"


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


_LINES_ROW = re.compile(r"^    (\d+): (-?\d+),  # (.*)$", re.M)


def won_line(moves: list[str]) -> None:
    """Adds level 6's moves of a won game to the book lines (see the module's doc)."""
    from ai.connect4 import opening_book as ob
    from engines.connect4 import Connect4

    book, comments = {}, {}
    for m in _LINES_ROW.finditer(OUT.read_text(encoding="utf-8")):
        book[int(m.group(1))], comments[int(m.group(1))] = int(m.group(2)), m.group(3)
    game = Connect4()
    side = (len(moves) - 1) % 2  # the player of the last move (turn i is player i % 2)
    for i, mv in enumerate(moves):
        if game.current_player() == side and game.turn_index > 1:
            key, mirrored = book_key(*from_rows(game.board(), str(side)))
            col = int(mv)
            entry = COLS - 1 - col if mirrored else col
            if book.get(key) != entry:  # (the book's own move keeps its comment)
                book[key] = entry
                comments[key] = f"{' '.join(moves[:i])} -> {col} (level 6's move in a won game)"
                print(comments[key], flush=True)
        game.push(game.parse_output(mv))
    how = [ob.__doc__.splitlines()[2], ob.__doc__.splitlines()[3],
           "Level 6's won games against nmahoude's bot: `lines --won MOVES` (the comments say which)."]
    write(ob.REPLY, ob.FIRST_MOVE, list(ob.TABLE_NOTES), book, comments, how)


def write(reply: dict, first: int, notes: list[str], book: dict[int, int], comments: dict[int, str],
          how: list[str]) -> None:
    with OUT.open("w") as f:
        f.write('"""Generated by `python -m ai.connect4.build_book` (do not edit by hand); see book.py.\n\n')
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


def play(spec: str, games: int, out_dir: Path) -> None:
    """`games` games of level 6 against `spec`, recorded in out_dir (the CLI's match: real bot processes)."""
    exe = Path(sys.executable).with_name("termarena")  # the venv's, else the one on PATH
    cmd = [str(exe) if exe.exists() else "termarena", "match", "connect4", LEVEL, spec, "-n", str(games),
           "--jobs", "1", "--no-time-limit", "--record", str(out_dir)]
    print(" ".join(cmd[1:]), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


_probed: dict[int, tuple[int, int] | None] = {}  # position key -> probe's answer (games share their openings)


def probe(cur: int, mask: int, seconds: float, searcher: Searcher | None = None) -> tuple[int, int] | None:
    """(value, move) by the win/draw/loss probe (with a fresh table unless given one), or None after
    `seconds`."""
    key = cur + mask
    if key not in _probed:
        searcher = searcher or Searcher(tt_limit=1_000_000)
        try:
            value, move, _ = searcher.solve(cur, mask, deadline=time.monotonic() + seconds)
            _probed[key] = value, move
        except Stop:
            _probed[key] = None
    return _probed[key]


WORD = {1: "win", 0: "draw", -1: "loss"}
_SOLVED_LINE = re.compile(r"^    (\d+): \((\d), (-?\d)\),  # (.*)$", re.M)


def mistakes(path: Path, lo: int, hi: int, seconds: float) -> list[tuple[int, int, int, str]]:
    """(key, move, value, comment) for the latest mistake of level 6 in the recorded game, if it lost or drew."""
    saved, final = savefile.parse(path.read_text(encoding="utf-8"), expect_game="connect4")
    out = final.outcome()
    if out is None:
        return []
    seats = [s for s in (0, 1) if saved.players[s] == LEVEL and out.winner != s]
    game = saved.start_position()
    positions = []  # (moves so far, cur, mask) before each of level 6's moves
    for i, mv in enumerate(saved.moves):
        if game.current_player() in seats and game.turn_index != 1:
            cur, mask = from_rows(game.board(), str(game.current_player()))
            if lo <= CELLS - mask.bit_count() <= hi:
                positions.append((i, cur, mask, int(mv)))
        game.push(game.parse_output(mv))
    found = []
    for i, cur, mask, played in reversed(positions):
        line = " ".join(saved.moves[:i])
        searcher = Searcher(tt_limit=1_000_000)  # the position's table serves the move played too
        best = probe(cur, mask, seconds, searcher)
        if best is None:
            print(f"  {path.name}: unsolved within {seconds:.0f} s at {CELLS - mask.bit_count()} empty: {line}",
                  flush=True)
            break
        value, move = best
        ncur, nmask, won = drop(cur, mask, played)
        if value < 0 or move == played or won:  # no better move than the one played
            got = value
        else:
            after = probe(ncur, nmask, seconds, searcher)
            got = None if after is None else -after[0]
        print(f"  {path.name} ply {i}, {CELLS - mask.bit_count()} empty: {WORD[value]} with {move}, "
              f"played {played}: {'?' if got is None else WORD[got]}", flush=True)
        if got is not None and got >= value:
            continue  # the move played was as good as the best: the mistake came earlier
        key, mirrored = book_key(cur, mask)
        comment = (f"{line} -> {move} ({WORD[value]}; level 6 played {played}: "
                   f"{'?' if got is None else WORD[got]}; {CELLS - mask.bit_count()} empty)")
        print(f"  {path.name}: {comment}", flush=True)
        found.append((key, COLS - 1 - move if mirrored else move, value, comment))
        break
    return found


def given_line(line: str, seconds: float) -> list[tuple[int, int, int, str]]:
    """The entry for a move found by hand (e.g. where a won and a lost game of level 6 parted): `line`
    is the game's moves in CodinGame notation (STEAL included) up to and including that move.  The
    position after the move is solved (cheaper than finding the best of all moves: a root probe may
    spend most of its time refuting the others); the entry is made when the move does not lose."""
    from engines.connect4 import Connect4

    *before, last = line.split()
    game = Connect4()
    for mv in before:
        game.push(game.parse_output(mv))
    cur, mask = from_rows(game.board(), str(game.current_player()))
    move = int(last)
    ncur, nmask, won = drop(cur, mask, move)
    after = (-1, 0) if won else probe(ncur, nmask, seconds)
    empty = CELLS - mask.bit_count()
    print(f"  {line}: {empty} empty: {'unsolved' if after is None else WORD[-after[0]]}", flush=True)
    if after is None or after[0] > 0:
        return []
    key, mirrored = book_key(cur, mask)
    value = -after[0]
    return [(key, COLS - 1 - move if mirrored else move, value,
             f"{' '.join(before)} -> {move} ({WORD[value]}, given; {empty} empty)")]


def write_solved(entries: dict[int, tuple[int, int, str]], how: str) -> None:
    """Writes solved_book.py whole, through a temporary file (a run cut short leaves the last good one)."""
    rows = [f"    {key}: ({mv}, {value}),  # {comment}\n" for key, (mv, value, comment) in sorted(entries.items())]
    text = ('"""Generated by `python -m ai.connect4.build_book solved` (do not edit by hand); see book.py.\n\n'
            f'{how}\n"""\n\n'
            "# mirror-normalised position key -> (move in the key's orientation, exact value for the side to\n"
            "# move: 1 win, 0 draw); the comment gives the game's moves, the move (as played) and how it was found\n"
            "SOLVED = {\n" + "".join(rows) + "}\n")
    tmp = SOLVED_OUT.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(SOLVED_OUT)
    print(f"wrote {SOLVED_OUT} ({len(entries)} solved positions)", flush=True)


def solved(play_spec: str | None, games: int, dirs: list[str], lines: list[str], lo: int, hi: int,
           seconds: float) -> None:
    entries = {}  # the entries already there, comments kept
    if SOLVED_OUT.exists():
        for m in _SOLVED_LINE.finditer(SOLVED_OUT.read_text(encoding="utf-8")):
            entries[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), m.group(4))
    how = "Entries added by `solved` runs (README, Connect 4 against nmahoude's bot); each comment says where."

    def add(key: int, mv: int, value: int, comment: str) -> None:
        if entries.get(key, ())[:2] != (mv, value):  # the same entry keeps the comment of its first find
            entries[key] = (mv, value, comment)
            write_solved(entries, how)  # as it goes: a long run may be cut short

    for line in lines:
        for entry in given_line(line, seconds):
            add(*entry)
    paths = [p for d in dirs for p in sorted(Path(d).glob("*.txt"))]
    with tempfile.TemporaryDirectory(prefix="c4book-") as tmp:
        if play_spec:
            play(play_spec, games, Path(tmp))
            paths += sorted(Path(tmp).glob("*.txt"))
        seen = set()
        for path in paths:
            moves = tuple(savefile.parse(path.read_text(encoding="utf-8"), expect_game="connect4")[0].moves)
            if moves in seen:  # both programs are nearly deterministic: the same games recur
                continue
            seen.add(moves)
            for entry in mistakes(path, lo, hi, seconds):
                add(*entry)
    write_solved(entries, how)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=["table", "lines", "solved"])
    ap.add_argument("--depth", type=int, default=None, help="search depth per position (plies)")
    ap.add_argument("--plies", type=int, default=4, help="book depth in plies (2..4)")
    ap.add_argument("--from-log", default=None, help="table: rebuild from a previous run's printed lines")
    ap.add_argument("--won", default=None, metavar="MOVES",
                    help="lines: book level 6's moves of a game it won (up to its last book move)")
    ap.add_argument("--play", default=None, metavar="SPEC", help="solved: first play level 6 against SPEC")
    ap.add_argument("-n", "--games-to-play", type=int, default=10, help="solved: games to play with --play")
    ap.add_argument("--games", nargs="*", default=[], metavar="DIR", help="solved: directories of recorded games")
    ap.add_argument("--line", action="append", default=[], metavar="MOVES",
                    help="solved: a game's moves up to a book move to check and add (e.g. \"2 STEAL 3 3\")")
    ap.add_argument("--min-empty", type=int, default=28, help="solved: fewest empty cells of a position solved")
    ap.add_argument("--max-empty", type=int, default=40, help="solved: most empty cells of a position solved")
    ap.add_argument("--seconds", type=float, default=600, help="solved: time limit of one probe")
    args = ap.parse_args()
    if args.phase == "solved":
        solved(args.play, args.games_to_play, args.games, args.line, args.min_empty, args.max_empty, args.seconds)
    elif args.phase == "table":
        depth = args.depth or 12
        reply, first, notes = table(depth, args.from_log)
        write(reply, first, notes, {}, {}, [f"STEAL table and first move: `table --depth {depth}`.",
                                            "Book lines: none yet (run the `lines` phase)."])
    elif args.won:
        won_line(args.won.split())
    else:
        from ai.connect4 import opening_book as ob

        depth = args.depth or 10
        book, comments = lines(ob.REPLY, ob.FIRST_MOVE, depth, args.plies)
        how = [ob.__doc__.splitlines()[2], f"Book lines: `lines --depth {depth} --plies {args.plies}`."]
        write(ob.REPLY, ob.FIRST_MOVE, list(ob.TABLE_NOTES), book, comments, how)


if __name__ == "__main__":
    main()
