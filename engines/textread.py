"""Reading numbers and lines from text, shared by the engines' InputReaders and output parsers.

Two ways to read a number, on purpose:
- `java_parse_int`: what the official referees accept in a player's *output* (`Integer.parseInt`:
  a sign, Unicode digits, leading zeros); engines use it to judge outputs exactly as they do.
- `engines.numbers.parse_int`: what a bot accepts in a referee's *input* (and a loader in a file):
  ASCII digits only, a '-' only where the range has negatives, within the range the number may have.
  Python's `int()` and `str.isdigit()` are not used on input: they take '١٢', '²', '1_000', ' 7 '.

`LineSource` hands an InputReader the referee's lines one at a time, numbered from the start of the
whole input (across turns), so every `InputError` names the line at fault; it tells the end of the
input at a turn boundary (EOFError: the referee is done) from one in the middle of a turn (an error).
`decode_line` turns the bytes of one line into text or raises `UnreadableLine`; it has no I/O of
its own: the bot reads with a bounded `readline(MAX_LINE_BYTES + 1)` and hands it the bytes.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable

from engines.base import InputError, quote
from engines.numbers import NumberError, parse_int

MAX_LINE_BYTES = 64 * 1024  # far above any line of the four games (the longest is a Paper Soccer move)

_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
_BLANKS = " \t"
_SEPARATOR = re.compile(r"[ \t]+")


# ---------------------------------------------------------------------------- numbers


def java_parse_int(token: str) -> int:
    """`Integer.parseInt(token)` of Java: optional +/- sign then Unicode decimal digits, 32-bit range.

    Raises ValueError where Java throws NumberFormatException.  Java reads UTF-16 units and
    `Character.digit` gives -1 for a surrogate, so digits outside the BMP are rejected.  Digit by
    digit, never `int(token)`: leading zeros are legal, so a valid token may be longer than the
    4300 digits `int()` accepts.
    """
    if not token:
        raise ValueError("empty")
    negative = token[0] == "-"
    digits = token[1:] if token[0] in "+-" else token
    if not digits:
        raise ValueError("lone sign")
    value = 0
    for ch in digits:
        d = unicodedata.decimal(ch, -1) if ord(ch) < 0x10000 else -1
        if d < 0:
            raise ValueError(f"not a digit: {ch!r}")
        value = value * 10 + d
        if value > _INT_MAX + 1:  # keeps the number small; the exact bound is tested below
            raise ValueError("overflow")
    value = -value if negative else value
    if not _INT_MIN <= value <= _INT_MAX:
        raise ValueError("overflow")
    return value


# ---------------------------------------------------------------------------- lines


class UnreadableLine(Exception):
    """A line that is not text at all (raised by a `readline`); the LineSource names its number."""


def decode_line(raw: bytes) -> str:
    """One line as read by `readline(MAX_LINE_BYTES + 1)`, without its line end; raises UnreadableLine
    when it is longer than MAX_LINE_BYTES or is not UTF-8."""
    line = raw[:-1] if raw.endswith(b"\n") else raw
    if len(line) > MAX_LINE_BYTES:
        raise UnreadableLine(f"the line is longer than {MAX_LINE_BYTES} bytes")
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnreadableLine(f"not UTF-8 text (byte {e.start + 1} is {line[e.start]:#04x})") from None


class LineSource:
    """The referee's input as numbered lines, for an InputReader, which keeps one for the whole game.

    Each `read_turn` starts with `begin_turn(readline)`; `number` is then the number of the last line
    read (0 before any), counted from the start of the input.  Errors are `InputError`s naming a line.
    """

    def __init__(self) -> None:
        self.number = 0
        self._turn_start = 0
        self._readline: Callable[[], str] | None = None

    def begin_turn(self, readline: Callable[[], str]) -> None:
        self._readline = readline
        self._turn_start = self.number

    def error(self, reason: str, line: int | None = None) -> InputError:
        """An InputError about `line` (the last line read when None), for the caller to raise."""
        return InputError(self.number if line is None else line, reason)

    def read_line(self, what: str) -> str:
        """The next line, blanks (space, tab) at both ends removed; `what` names it in errors.

        EOFError when the input ends before the first line of a turn (a clean end); InputError when
        it ends later in the turn, or when the line is unreadable or holds a NUL character."""
        assert self._readline is not None, "begin_turn first"
        try:
            line = self._readline()
        except EOFError:
            if self.number == self._turn_start:
                raise
            raise InputError(self.number + 1, f"the input ended in the middle of a turn (expected {what})") from None
        except UnreadableLine as e:
            raise InputError(self.number + 1, str(e)) from None
        self.number += 1
        if "\0" in line:
            raise self.error(f"a NUL character in {what}: {quote(line)}")
        return line.strip(_BLANKS)

    def read_int(self, what: str, lo: int, hi: int) -> int:
        """The next line, which must be one integer within lo..hi."""
        return self.to_int(self.read_line(what), what, lo, hi)

    def read_fields(self, what: str, count: int) -> list[str]:
        """The next line split at blanks, which must give exactly `count` fields."""
        return self.fields(self.read_line(what), what, count)

    def fields(self, line: str, what: str, count: int) -> list[str]:
        """`line` (the last line read) split at blanks, which must give exactly `count` fields."""
        fields = _SEPARATOR.split(line) if line else []
        if len(fields) != count:
            raise self.error(f"expected {what} ({count} fields), got {len(fields)}: {quote(line)}")
        return fields

    def to_int(self, text: str, what: str, lo: int, hi: int, line: int | None = None) -> int:
        """`text` (from line `line`, the last line read when None) as an integer within lo..hi."""
        try:
            return parse_int(text, lo, hi, what)
        except NumberError as e:
            raise self.error(str(e), line) from None
