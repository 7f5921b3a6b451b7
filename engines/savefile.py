"""The save file format: a whole game (or just a position) as UTF-8 text a person can read and diff.

    # termarena save
    format = 1
    game = connect4
    date = 2026-11-21T18:04:05
    p1 = human
    p2 = ai:3
    seed = 7
    result = 1-0
    reason = connected

    [start]                 (only when the game did not start from the standard position)
    <the position in the game's text form>

    [moves]
    1 4                     (one turn per line: its number, then the move in CodinGame notation)
    2 STEAL

    [final]
    <the position after the moves, in the game's text form>

Header lines are `key = value` facts (unknown keys are kept, so later versions can add facts).
Loading replays the moves through the engine, so an illegal move is reported with its line, and the
stored final position is compared with the replayed one.  Pure text in, text out: no file access here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engines import GAME_IDS, UnknownGame, get_game, resolve_game_id
from engines.base import EngineError, Game, InvalidOutput, PositionError

FORMAT_VERSION = 1
MAGIC = "# termarena save"
MAX_SAVE_BYTES = 2_000_000  # far above any real game (Lines of Action's 150 turns are ~2 KB)
SECTIONS = ("start", "moves", "redo", "final")


class SaveFormatError(EngineError):
    """A save text that cannot be loaded; the message names the line and the problem."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass
class SavedGame:
    game: str
    moves: list[str] = field(default_factory=list)
    start: str | None = None  # position text of a custom start
    seed: int | None = None
    players: tuple[str, str] = ("human", "human")
    date: str = ""
    result: str = "*"  # "1-0" (seat 0 won), "0-1", "1/2-1/2", or "*" while unfinished
    reason: str = ""
    redo: list[str] = field(default_factory=list)  # moves undone but not yet replaced
    extra: dict[str, str] = field(default_factory=dict)  # header facts this version does not know

    def start_position(self) -> Game:
        cls = get_game(self.game)
        return cls.from_text(self.start) if self.start is not None else cls.new(self.seed)


def result_text(game: Game) -> tuple[str, str]:
    out = game.outcome()
    if out is None:
        return "*", ""
    if out.winner is None:
        return "1/2-1/2", out.reason
    return ("1-0" if out.winner == 0 else "0-1"), out.reason


def dump(saved: SavedGame, final: Game) -> str:
    """The text of a save; `final` is the position after `saved.moves` (its text is stored to check loads)."""
    head = [MAGIC, f"format = {FORMAT_VERSION}", f"game = {saved.game}"]
    if saved.date:
        head.append(f"date = {saved.date}")
    head += [f"p1 = {_one_line(saved.players[0])}", f"p2 = {_one_line(saved.players[1])}"]
    if saved.seed is not None:
        head.append(f"seed = {saved.seed}")
    head.append(f"result = {saved.result}")
    if saved.reason:
        head.append(f"reason = {saved.reason}")
    head.append(f"turns = {len(saved.moves)}")
    for k, v in saved.extra.items():
        head.append(f"{k} = {_one_line(v)}")
    parts = ["\n".join(head)]
    if saved.start is not None:
        parts.append("[start]\n" + saved.start.rstrip("\n"))
    parts.append("\n".join(["[moves]"] + [f"{i} {m}" for i, m in enumerate(saved.moves, 1)]))
    if saved.redo:
        parts.append("\n".join(["[redo]"] + [f"{i} {m}" for i, m in enumerate(saved.redo, len(saved.moves) + 1)]))
    parts.append("[final]\n" + final.to_text().rstrip("\n"))
    return "\n\n".join(parts) + "\n"


def _one_line(value: str) -> str:
    return " ".join(str(value).split())


KNOWN_KEYS = {"format", "game", "date", "p1", "p2", "seed", "result", "reason", "turns"}


def parse(text: str, expect_game: str | None = None) -> tuple[SavedGame, Game]:
    """Read a save text, replay it and check it; returns the save and its final position (history included).

    Raises SaveFormatError naming the line for every problem: not a save, unknown version, wrong game,
    a bad header, an illegal move, a final position that differs from the replay.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SAVE_BYTES:
        raise SaveFormatError(f"the file is larger than {MAX_SAVE_BYTES // 1000} KB: not a termarena save")
    if "\x00" in text:
        raise SaveFormatError("the file holds binary data: not a termarena save")
    lines = text.splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise SaveFormatError(f"the file does not start with {MAGIC!r}: not a termarena save", 1)

    header: dict[str, tuple[str, int]] = {}
    sections: dict[str, tuple[int, list[str]]] = {}
    current = None
    for n, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip()
            if name not in SECTIONS:
                raise SaveFormatError(f"unknown section [{name}]", n)
            if name in sections:
                raise SaveFormatError(f"section [{name}] appears twice", n)
            current = name
            sections[name] = (n + 1, [])
            continue
        if current is not None:
            sections[current][1].append(raw)
            continue
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise SaveFormatError(f"expected `key = value` in the header, found {line[:60]!r}", n)
        key = key.strip().lower()
        if key in header:
            raise SaveFormatError(f"header key {key!r} appears twice", n)
        header[key] = (value.strip(), n)

    def need(key: str) -> tuple[str, int]:
        if key not in header:
            raise SaveFormatError(f"the header has no `{key} = ...` line (is the file truncated?)")
        return header[key]

    version, vline = need("format")
    if not version.isdigit():
        raise SaveFormatError(f"format version {version!r} is not a number", vline)
    if int(version) != FORMAT_VERSION:
        raise SaveFormatError(f"format version {version} is not supported (this termarena reads "
                              f"version {FORMAT_VERSION}); a newer termarena wrote this file?", vline)
    game_name, gline = need("game")
    try:
        game_id = resolve_game_id(game_name)
    except UnknownGame:
        raise SaveFormatError(f"unknown game {game_name!r} (known: {', '.join(GAME_IDS)})", gline) from None
    if expect_game is not None and resolve_game_id(expect_game) != game_id:
        raise SaveFormatError(f"this is a {game_id} save, not {resolve_game_id(expect_game)}", gline)
    seed = None
    if "seed" in header:
        value, sline = header["seed"]
        try:
            seed = int(value)
        except ValueError:
            raise SaveFormatError(f"seed {value!r} is not a whole number", sline) from None
    # A position file (written by hand, say) may be just a header and a [start] block.
    position_only = "start" in sections and "moves" not in sections and "final" not in sections
    if not position_only:
        for name in ("moves", "final"):
            if name not in sections:
                raise SaveFormatError(f"the file has no [{name}] section (is it truncated?)")

    saved = SavedGame(
        game=game_id, seed=seed,
        players=(header.get("p1", ("human", 0))[0], header.get("p2", ("human", 0))[0]),
        date=header.get("date", ("", 0))[0], result=header.get("result", ("*", 0))[0],
        reason=header.get("reason", ("", 0))[0],
        extra={k: v for k, (v, _) in header.items() if k not in KNOWN_KEYS})
    cls = get_game(game_id)
    if "start" in sections:
        first, body = sections["start"]
        saved.start = _block(body)
        try:
            game = cls.from_text(saved.start)
        except PositionError as e:
            raise SaveFormatError(f"the [start] position cannot be read: {e}", first) from None
    else:
        game = cls.new(seed)

    if position_only:
        return saved, game
    saved.moves = _numbered_moves(sections["moves"], 1)
    if "turns" in header:
        value, tline = header["turns"]
        if value != str(len(saved.moves)):
            raise SaveFormatError(f"the header says {value} turns but [moves] has {len(saved.moves)} "
                                  f"(is the file truncated?)", tline)
    for text, n in saved.moves:
        if game.outcome() is not None:
            raise SaveFormatError(f"move {text!r} comes after the end of the game", n)
        try:
            game.play(text)
        except InvalidOutput as e:
            raise SaveFormatError(f"illegal move {text!r} on turn {game.ply + 1}: {e}", n) from None
    saved.moves = [t for t, _ in saved.moves]
    if "redo" in sections:
        redo = _numbered_moves(sections["redo"], len(saved.moves) + 1)
        probe = game.copy()
        for text, n in redo:
            try:
                probe.play(text)
            except InvalidOutput as e:
                raise SaveFormatError(f"illegal move {text!r} in [redo]: {e}", n) from None
        saved.redo = [t for t, _ in redo]

    first, body = sections["final"]
    stored = _block(body)
    try:
        stored_pos = cls.from_text(stored)
    except PositionError as e:
        raise SaveFormatError(f"the [final] position cannot be read: {e}", first) from None
    if stored_pos.key() != game.key():
        raise SaveFormatError(
            f"the [final] position differs from the one the {len(saved.moves)} moves lead to "
            f"(edited by hand? the moves are kept as the truth only when they agree)", first)
    return saved, game


def _block(body: list[str]) -> str:
    while body and not body[-1].strip():
        body = body[:-1]
    return "\n".join(body) + "\n"


def _numbered_moves(section: tuple[int, list[str]], first_number: int) -> list[tuple[str, int]]:
    first_line, body = section
    out = []
    for offset, raw in enumerate(body):
        n = first_line + offset
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        number, sep, move = line.partition(" ")
        expected = first_number + len(out)
        if not number.isdigit() or not sep:
            raise SaveFormatError(f"expected `<turn number> <move>`, found {line[:60]!r}", n)
        if int(number) != expected:
            raise SaveFormatError(f"turn number {number} where {expected} was expected", n)
        # the move is kept exactly as written after the single separating space (CodinGame outputs
        # may themselves contain spaces, e.g. `3 MOVE 4 5`)
        out.append((raw.lstrip().partition(" ")[2].rstrip("\r\n"), n))
    return out
