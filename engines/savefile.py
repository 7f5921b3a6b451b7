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

    [record]                (format 2: a game played by `referee`/`match --record`, see engines/record.py)
    1 p1 out 12 4           (turn by turn: each bot's answer, its time in ms, both bots' stderr lines)
    1 p1 err depth 5

Header lines are `key = value` facts (unknown keys are kept, so later versions can add facts).
Loading replays the moves through the engine, so an illegal move is reported with its line, and the
stored final position is compared with the replayed one.  Pure text in, text out: no file access here.

Files are not trusted: every number is read by engines.numbers.parse_int (ASCII digits, bounded
length and range), every problem is a SaveFormatError of one line naming the line of the file, and
file content quoted in a message is cut short.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engines import UnknownGame, game_ids, get_game, resolve_game_id, start_position
from engines.base import FORFEIT_REASONS, EngineError, Game, Outcome, Termination
from engines.numbers import SEED_MAX, SEED_MIN, NumberError, one_line, parse_int, quote
from engines.record import RECORD_BYTES, RecordError, TurnRecord, parse_line, to_lines
from engines.visible import is_hidden, visible

FORMAT_VERSION = 2  # the newest this termarena reads and writes
RECORD_FORMAT = 2  # the first with a [record]; a file without one is still written as format 1
PLAIN_FORMAT = 1
MAGIC = "# termarena save"
MAX_SAVE_BYTES = 2_000_000  # far above any real game (Lines of Action's 150 turns are ~2 KB)
SECTIONS = ("start", "moves", "redo", "final", "record")
DETAIL_CHARS = 500  # the `detail` header line: how the game ended, in words
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MAX_FORMAT = 999_999  # a format version, even of a far later termarena, is a small number
MAX_TURN_NUMBER = MAX_SAVE_BYTES  # a turn takes at least one line: no file holds more


class SaveFormatError(EngineError):
    """A save text that cannot be loaded; the message names the line and the problem."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(one_line(f"line {line}: {message}" if line is not None else message))


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
    detail: str = ""  # a forfeit's seat, output and broken rule, as engines.endings.fault_line says it
    redo: list[str] = field(default_factory=list)  # moves undone but not yet replaced
    extra: dict[str, str] = field(default_factory=dict)  # header facts this version does not know
    record: list[TurnRecord] | None = None  # a recorded game's turns (format 2)

    def start_position(self) -> Game:
        return start_position(self)  # the fields it reads are a GameRecord's


def outcome_result(out: Outcome | None) -> tuple[str, str]:
    """The save file's `result` and `reason` of an outcome: "1-0", "0-1", "1/2-1/2", or "*" unfinished."""
    return ("*", "") if out is None else (out.result(), out.reason)


def result_text(game: Game) -> tuple[str, str]:
    return outcome_result(game.outcome())


def dump(saved: SavedGame, final: Game) -> str:
    """The text of a save; `final` is the position after `saved.moves` (its text is stored to check loads)."""
    version = RECORD_FORMAT if saved.record is not None else PLAIN_FORMAT
    date, detail = _one_line(saved.date), _one_line(saved.detail)[:DETAIL_CHARS].rstrip()
    head = [MAGIC, f"format = {version}", f"game = {saved.game}"]
    if date:
        head.append(f"date = {date}")
    head += [f"p1 = {_one_line(saved.players[0])}", f"p2 = {_one_line(saved.players[1])}"]
    if saved.seed is not None:
        head.append(f"seed = {saved.seed}")
    head.append(f"result = {saved.result}")
    if saved.reason:
        head.append(f"reason = {saved.reason}")
    if detail:
        head.append(f"detail = {detail}")
    head.append(f"turns = {len(saved.moves)}")
    for k, v in saved.extra.items():
        head.append(f"{_one_line(k)} = {_one_line(v)}")
    parts = ["\n".join(head)]
    if saved.start is not None:
        parts.append("[start]\n" + _start_text(saved).rstrip("\n"))
    parts.append("\n".join(["[moves]"] + [f"{i} {visible(m)}" for i, m in enumerate(saved.moves, 1)]))
    if saved.redo:
        parts.append("\n".join(["[redo]"] + [f"{i} {visible(m)}" for i, m in enumerate(saved.redo, len(saved.moves) + 1)]))
    parts.append("[final]\n" + final.to_text().rstrip("\n"))
    if saved.record is not None:
        parts.append("\n".join(["[record]"] + to_lines(saved.record)))
    return "\n\n".join(parts) + "\n"


def _start_text(saved: SavedGame) -> str:
    """The [start] block: the text it was read from, or the position's own text when that holds a control
    character (a comment of a hand-written position file may, and the position reads the same without)."""
    start = saved.start or ""
    if not any(is_hidden(ch) for ch in start.replace("\n", "")):
        return start
    return get_game(saved.game).from_text(start).to_text()


def _one_line(value: str) -> str:
    """A header value as written: one line, and no control character from whoever wrote it (a bot's
    command or words, another file's header) reaches the file, or a terminal that shows it."""
    return visible(" ".join(str(value).split()))


KNOWN_KEYS = {"format", "game", "date", "p1", "p2", "seed", "result", "reason", "detail", "turns"}


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
                raise SaveFormatError(f"unknown section {quote(line)}", n)
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
            raise SaveFormatError(f"expected `key = value` in the header, found {quote(line)}", n)
        key = key.strip().lower()
        if key in header:
            raise SaveFormatError(f"header key {quote(key)} appears twice", n)
        header[key] = (value.strip(), n)

    def need(key: str) -> tuple[str, int]:
        if key not in header:
            raise SaveFormatError(f"the header has no `{key} = ...` line (is the file truncated?)")
        return header[key]

    def number(key: str, lo: int, hi: int, what: str) -> int:
        value, n = need(key)
        try:
            return parse_int(value, lo=lo, hi=hi, what=what)
        except NumberError as e:
            raise SaveFormatError(str(e), n) from None

    version = number("format", 0, MAX_FORMAT, "format version")
    if not PLAIN_FORMAT <= version <= FORMAT_VERSION:
        raise SaveFormatError(f"format version {version} is not supported (this termarena reads "
                              f"versions {PLAIN_FORMAT} to {FORMAT_VERSION}); a newer termarena wrote this file?", header["format"][1])
    game_name, gline = need("game")
    try:
        game_id = resolve_game_id(game_name)
    except UnknownGame:
        raise SaveFormatError(f"unknown game {quote(game_name)} (known: {', '.join(game_ids())})", gline) from None
    if expect_game is not None and resolve_game_id(expect_game) != game_id:
        raise SaveFormatError(f"this is a {game_id} save, not {resolve_game_id(expect_game)}", gline)
    seed = number("seed", SEED_MIN, SEED_MAX, "seed") if "seed" in header else None
    result, rline = header.get("result", ("*", 0))
    if result not in RESULTS:
        raise SaveFormatError(f"result {quote(result)} is not one of {', '.join(RESULTS)}", rline)
    reason, why_line = header.get("reason", ("", 0))
    if reason and reason not in set(Termination):
        raise SaveFormatError(f"reason {quote(reason)} is not one of {', '.join(Termination)}", why_line)
    if "record" in sections and version < RECORD_FORMAT:
        raise SaveFormatError(f"a [record] section in a file of format {version} (records came with format "
                              f"{RECORD_FORMAT})", sections["record"][0] - 1)
    # A position file (written by hand, say) may be just a header and a [start] block.
    position_only = "start" in sections and "moves" not in sections and "final" not in sections
    if not position_only:
        for name in ("moves", "final"):
            if name not in sections:
                raise SaveFormatError(f"the file has no [{name}] section (is it truncated?)")

    saved = SavedGame(
        game=game_id, seed=seed,
        players=(header.get("p1", ("human", 0))[0], header.get("p2", ("human", 0))[0]),
        date=header.get("date", ("", 0))[0], result=result,
        reason=reason, detail=one_line(header.get("detail", ("", 0))[0], DETAIL_CHARS),
        extra={k: v for k, (v, _) in header.items() if k not in KNOWN_KEYS})
    cls = get_game(game_id)
    if "start" in sections:
        first, body = sections["start"]
        saved.start = _block(body)
        try:
            game = cls.from_text(saved.start)
        except EngineError as e:
            raise SaveFormatError(f"the [start] position cannot be read: {e}", first) from None
    else:
        game = cls.new(seed)

    if position_only:
        return saved, game
    saved.moves = _numbered_moves(sections["moves"], 1)
    if "turns" in header:
        turns = number("turns", 0, MAX_TURN_NUMBER, "turns")
        if turns != len(saved.moves):
            raise SaveFormatError(f"the header says {turns} turns but [moves] has {len(saved.moves)} "
                                  f"(is the file truncated?)", header["turns"][1])
    start = game.copy()  # a record's answers are read again from here (_record)
    for text, n in saved.moves:
        if game.outcome() is not None:
            raise SaveFormatError(f"move {quote(text)} comes after the end of the game", n)
        try:
            game.play(text)
        except EngineError as e:
            raise SaveFormatError(f"illegal move {quote(text)} on turn {game.ply + 1}: {e}", n) from None
    saved.moves = [t for t, _ in saved.moves]
    if "record" in sections:
        saved.record = _record(sections["record"], start, saved.moves, game, reason)
    if "redo" in sections:
        redo = _numbered_moves(sections["redo"], len(saved.moves) + 1)
        probe = game.copy()
        for text, n in redo:
            try:
                probe.play(text)
            except EngineError as e:
                raise SaveFormatError(f"illegal move {quote(text)} in [redo]: {e}", n) from None
        saved.redo = [t for t, _ in redo]

    first, body = sections["final"]
    stored = _block(body)
    try:
        stored_pos = cls.from_text(stored)
    except EngineError as e:
        raise SaveFormatError(f"the [final] position cannot be read: {e}", first) from None
    if stored_pos.key() != game.key():
        raise SaveFormatError(
            f"the [final] position differs from the one the {len(saved.moves)} moves lead to "
            f"(edited by hand? the moves are kept as the truth only when they agree)", first)
    return saved, game


def _record(section: tuple[int, list[str]], start: Game, moves: list[str], final: Game,
            reason: str) -> list[TurnRecord]:
    """The [record] section: one turn a move, in order, each asked of the seat that played it and
    answered with that move (the answer, read by the engine in the position it was given in, is the
    move [moves] has); one turn more only for the turn that ended the game by a forfeit (asked of the
    seat that lost by it).  At most RECORD_BYTES, as termarena writes it."""
    first_line, body = section
    size = sum(len(raw.encode("utf-8", "surrogatepass")) + 1 for raw in body)
    if size > RECORD_BYTES:
        raise SaveFormatError(f"[record] holds {size:,} bytes; a record has at most {RECORD_BYTES:,}", first_line - 1)
    turns: list[TurnRecord] = []
    ended_by_forfeit = reason in FORFEIT_REASONS and final.outcome() is None
    last = len(moves) + (1 if ended_by_forfeit else 0)
    position = start.copy()  # before the move of the next turn
    for offset, raw in enumerate(body):
        n = first_line + offset
        if not raw.strip() or raw.startswith("#"):
            continue
        known = len(turns)
        try:
            parse_line(raw, turns, MAX_TURN_NUMBER)
        except RecordError as e:
            raise SaveFormatError(f"in [record]: {e}, in {quote(raw)}", n) from None
        if len(turns) == known:  # a stderr line of the turn
            continue
        t = turns[-1]
        if t.turn > last:
            raise SaveFormatError(f"in [record]: turn {t.turn}, but the game has {len(moves)} moves"
                                  + (" and ended by a forfeit" if ended_by_forfeit else ""), n)
        mover = position.current_player()
        if t.seat != mover:
            raise SaveFormatError(f"in [record]: turn {t.turn} was p{mover + 1}'s, not p{t.seat + 1}'s", n)
        if t.turn > len(moves):
            continue
        if t.output is None:
            raise SaveFormatError(f"in [record]: turn {t.turn} has a move but no answer", n)
        _check_answer(position, t, moves[t.turn - 1], n)
        position.play(moves[t.turn - 1])
    if len(turns) not in (len(moves), last):
        raise SaveFormatError(f"[record] has {len(turns)} turns for {len(moves)} moves (is the file truncated?)",
                              first_line)
    return turns


def _check_answer(position: Game, turn: TurnRecord, move: str, n: int) -> None:
    """The answer a record shows for a turn must be the move the game has: a record whose answers say
    otherwise is not what was played."""
    try:
        answered = position.parse_output(turn.output)
    except EngineError as e:
        raise SaveFormatError(f"in [record]: turn {turn.turn}'s answer {quote(turn.output)} is not a move there "
                              f"({e}); [moves] has {quote(move)}", n) from None
    if answered != position.parse_output(move):
        raise SaveFormatError(f"in [record]: turn {turn.turn}'s answer {quote(turn.output)} is another move than "
                              f"{quote(move)} of [moves]", n)


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
        number_text, sep, _ = line.partition(" ")
        expected = first_number + len(out)
        if not sep:
            raise SaveFormatError(f"expected `<turn number> <move>`, found {quote(line)}", n)
        try:
            number = parse_int(number_text, lo=1, hi=MAX_TURN_NUMBER, what="turn number")
        except NumberError as e:
            raise SaveFormatError(f"{e}, in {quote(line)}", n) from None
        if number != expected:
            raise SaveFormatError(f"turn number {number} where {expected} was expected", n)
        # the move is kept exactly as written after the single separating space (CodinGame outputs
        # may themselves contain spaces, e.g. `3 MOVE 4 5`)
        out.append((raw.lstrip().partition(" ")[2].rstrip("\r\n"), n))
    return out
