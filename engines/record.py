"""A recorded game's turns: what each bot answered, how long it took, what both bots printed on stderr.

It is the `[record]` section of a save file of format 2 (engines/savefile.py), one line a fact:

    [record]
    1 p1 out 12 4             turn 1: p1 answered `4` after 12 ms
    1 p1 err depth 5 eval 0.3   a line p1 printed on stderr during turn 1
    1 p2 err loading book       p2 printed it during turn 1 too (while p1 was thinking)
    2 p2 out 8 STEAL
    3 p1 none 100             turn 3: p1 gave no answer within the 100 ms it was given

A turn runs from the moment its question is sent to the moment the next question is sent, so each
stderr line belongs to the turn during which it arrived.  A game a bot lost by a timeout, a crash or
a rejected output has one turn more than it has moves: the turn that ended it.

Text a bot printed is escaped (`\\`, `\\n`, `\\r`, `\\t`, `\\xHH`, `\\uHHHH`, `\\UHHHHHHHH` for every
character that is not printable, and a space at the end), so any bytes stay one line each, cannot fake
a section header and cannot move a terminal's cursor when shown.  Everything is bounded: the lines of a
turn, the characters of a line, and the bytes of a whole record (so a recorded game fits a save file).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engines.base import shorten
from engines.numbers import NumberError, parse_int

OUTPUT_CHARS = 200  # of an answer line kept (the move itself is in [moves], whole)
STDERR_CHARS = 500  # of a stderr line kept
TURN_STDERR_LINES = 100  # a bot's stderr lines kept for one turn, the marker of skipped lines included
RECORD_BYTES = 1_200_000  # of a whole record as written, and as a loader accepts: a save file holds 2,000,000
# What the answers of the longest game may take: 151 turns (150 and the one that ended it) of at most
# TURN_COST + 2,000 bytes (200 characters, each an escape of up to 10).  Stderr stops where it would eat it.
ANSWER_RESERVE = 400_000
TURN_COST = 40  # counted for a turn's line beside its answer: `151 p1 out 10000000000 ` is 23 bytes
LINE_COST = 20  # counted for a stderr line beside its text: `151 p1 err ` is 11 bytes
MAX_MS = 10 ** 10  # an answer time (ms); a game without time limits may wait long, not that long
SEATS = ("p1", "p2")


class RecordError(ValueError):
    """A record line that cannot be read; the message says why (the save format adds the line number)."""


@dataclass
class TurnRecord:
    """One turn: `seat` was asked and answered `output` (None: no answer) after `ms` milliseconds;
    `stderr[s]` is what seat s printed on stderr while the turn ran."""

    turn: int
    seat: int
    output: str | None
    ms: int
    stderr: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))


# ---------------------------------------------------------------------------- escaping

_SIMPLE = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape(text: str) -> str:
    """`text` as one line of printable characters; `unescape` gives it back exactly."""
    if text.isprintable() and "\\" not in text and not text.endswith(" "):
        return text
    out = []
    for ch in text:
        if ch in _SIMPLE:
            out.append(_SIMPLE[ch])
        elif ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    if out and out[-1] == " ":  # editors drop trailing spaces
        out[-1] = "\\x20"
    return "".join(out)


_ESCAPE = re.compile(r"\\(?:(?P<simple>[\\nrt])|x(?P<x>[0-9a-f]{2})|u(?P<u>[0-9a-f]{4})|U(?P<U>[0-9a-f]{8})|(?P<bad>.?))")
_UNSIMPLE = {"\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def unescape(text: str) -> str:
    """The text `escape` made; RecordError for a text it cannot have made (a raw control character,
    an unknown escape, a code point that is no character)."""
    if not text.isprintable():
        raise RecordError("an unescaped control character")

    def one(m: re.Match) -> str:
        if m["simple"]:
            return _UNSIMPLE[m["simple"]]
        if m["bad"] is not None:
            raise RecordError(f"unknown escape {m.group(0)!r}")
        code = int(m["x"] or m["u"] or m["U"], 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise RecordError(f"escape {m.group(0)!r} is not a character")
        return chr(code)

    return _ESCAPE.sub(one, text) if "\\" in text else text


# ---------------------------------------------------------------------------- gathering a game's record


class Recorder:
    """The turns of a game being played, kept within RECORD_BYTES: once stderr and answers have spent
    all but ANSWER_RESERVE of it, stderr is no longer kept (one line says so); answers and times always
    are, in the reserve.  Each line is counted at more than it takes when written."""

    def __init__(self, budget: int = RECORD_BYTES - ANSWER_RESERVE) -> None:
        self.turns: list[TurnRecord] = []
        self._left = budget
        self._full = False

    def add(self, seat: int, output: str | None, ms: float, stderr: tuple[list[str], list[str]]) -> TurnRecord:
        out = None if output is None else shorten(output, OUTPUT_CHARS)
        turn = TurnRecord(len(self.turns) + 1, seat, out, min(MAX_MS, max(0, round(ms))), ([], []))
        self._left -= TURN_COST + (0 if out is None else _size(out))
        for s, lines in enumerate(stderr):
            kept = turn.stderr[s]
            for line in lines[:TURN_STDERR_LINES]:
                line = shorten(line, STDERR_CHARS)
                self._left -= LINE_COST + _size(line)
                if self._left < 0:
                    if not self._full:
                        kept.append("… stderr is not recorded from here on: the record is full")
                        self._full = True
                    break
                kept.append(line)
        self.turns.append(turn)
        return turn


def _size(text: str) -> int:
    return len(escape(text).encode("utf-8"))


# ---------------------------------------------------------------------------- the section's text


def to_lines(turns: list[TurnRecord]) -> list[str]:
    lines = []
    for t in turns:
        who = f"{t.turn} {SEATS[t.seat]}"
        lines.append(f"{who} none {t.ms}" if t.output is None else f"{who} out {t.ms} {escape(t.output)}".rstrip())
        for seat in (0, 1):
            lines += [f"{t.turn} {SEATS[seat]} err {escape(line)}".rstrip() for line in t.stderr[seat]]
    return lines


def _number(text: str, hi: int, what: str) -> int:
    try:
        return parse_int(text, 0, hi, what)
    except NumberError as e:
        raise RecordError(str(e)) from None


def parse_line(line: str, turns: list[TurnRecord], max_turn: int) -> None:
    """Add one line of the section to `turns` (what came before it); RecordError when it does not fit."""
    if not line.isprintable():
        raise RecordError("an unescaped control character (a record line is printable text)")
    parts = line.split(" ", 3)
    if len(parts) < 3:
        raise RecordError("expected `<turn> p1|p2 out|none|err ...`")
    turn_text, seat_text, tag = parts[:3]
    rest = parts[3] if len(parts) > 3 else ""
    turn = _number(turn_text, max_turn, "turn")
    if seat_text not in SEATS:
        raise RecordError(f"seat {shorten(seat_text)!r} is not p1 or p2")
    seat = SEATS.index(seat_text)
    if tag in ("out", "none"):
        expected = len(turns) + 1
        if turn != expected:
            raise RecordError(f"turn {turn} where turn {expected} was expected")
        if tag == "none":
            turns.append(TurnRecord(turn, seat, None, _number(rest, MAX_MS, "time")))
            return
        ms_text, _, output = rest.partition(" ")
        ms = _number(ms_text, MAX_MS, "time")
        output = unescape(output)
        if len(output) > OUTPUT_CHARS:
            raise RecordError(f"an answer of more than {OUTPUT_CHARS} characters")
        turns.append(TurnRecord(turn, seat, output, ms))
        return
    if tag != "err":
        raise RecordError(f"{shorten(tag)!r} is not out, none or err")
    if not turns or turn != turns[-1].turn:
        raise RecordError(f"a stderr line of turn {turn} outside that turn (its `out` or `none` line comes first)")
    text = unescape(rest)
    if len(text) > STDERR_CHARS:
        raise RecordError(f"a stderr line of more than {STDERR_CHARS} characters")
    kept = turns[-1].stderr[seat]
    if len(kept) >= TURN_STDERR_LINES:
        raise RecordError(f"more than {TURN_STDERR_LINES} stderr lines of {seat_text} in turn {turn}")
    kept.append(text)


def last_answers(turns: list[TurnRecord], upto: int) -> tuple[TurnRecord | None, TurnRecord | None]:
    """Each seat's latest turn among turns 1..upto: both bots' answer times at that point."""
    latest: list[TurnRecord | None] = [None, None]
    for t in turns[:upto]:
        latest[t.seat] = t
    return latest[0], latest[1]
