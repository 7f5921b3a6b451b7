"""Chess clocks: `--clock MIN+INC` (MIN minutes, may be a decimal; INC seconds added after each move).

Pure logic, no Textual and no timers: the time source is a function (`time.monotonic` in the app, a
fake in tests), so nothing here depends on how fast the machine is.  Only the seat to move has a
running clock; a seat without a clock (an AI, a bot) never runs one.  A clock that reaches zero has
*fallen*; whoever referees the game (the app, or the host of a network game) ends it with reason
`timeout` (`Session.check_flag`).

In a save file a clock is two extra header lines, which older readers keep as unknown keys:

    clock = 5+3
    clock_left = 287.4 300.0      (seconds left for seat 1 and seat 2; `-` for a seat without a clock)
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Callable

MAX_MINUTES = 24 * 60.0
MAX_INCREMENT_S = 3600.0
LOW_TIME_S = 10.0  # at or under this, a clock is shown as a warning
HEADER_CLOCK, HEADER_LEFT = "clock", "clock_left"
# ASCII only: no '²', no '1_0', no exponent; up to 7 digits, as many as MAX_LEFT_S has (each value is
# checked against its own bound after)
_DECIMAL = re.compile(r"^[0-9]{1,7}(?:\.[0-9]{1,3})?$")


class ClockError(ValueError):
    """A clock setting or saved clock that cannot be used; the message says why, in one line."""


@dataclass(frozen=True)
class ClockSpec:
    base_s: float
    increment_s: float

    @property
    def text(self) -> str:
        return f"{_num(self.base_s / 60)}+{_num(self.increment_s)}"


def _num(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".")


def _decimal(text: str, what: str, hi: float) -> float:
    if not _DECIMAL.match(text):
        raise ClockError(f"{what} {text[:20]!r} is not a number like 5 or 0.5")
    value = float(text)
    if value > hi:
        raise ClockError(f"{what} {text} is above {_num(hi)}")
    return value


def parse_clock(text: str) -> ClockSpec:
    """`MIN+INC`: `5+3` is 5 minutes and 3 s a move, `0.5+2` 30 s and 2 s, `3` is `3+0`."""
    minutes, sep, inc = text.strip().partition("+")
    base = _decimal(minutes, "the minutes", MAX_MINUTES) * 60
    increment = _decimal(inc, "the increment", MAX_INCREMENT_S) if sep else 0.0
    if base <= 0:
        raise ClockError("a clock needs some time: MIN must be above 0 (e.g. 0.5 for 30 seconds)")
    return ClockSpec(base, increment)


class GameClock:
    """Two chess clocks, of which at most one runs: the one of the seat to move, while the game goes on."""

    def __init__(self, spec: ClockSpec, clocked: tuple[bool, bool] = (True, True),
                 left: tuple[float, float] | None = None, now: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec
        self.clocked = clocked
        self._left = list(left) if left is not None else [spec.base_s, spec.base_s]
        self._now = now
        self.running: int | None = None
        self._since = 0.0

    def left(self, seat: int) -> float | None:
        """Seconds left for `seat` now (never below 0), or None when the seat has no clock."""
        if not self.clocked[seat]:
            return None
        left = self._left[seat]
        if self.running == seat:
            left -= self._now() - self._since
        return max(0.0, left)

    def fallen(self) -> int | None:
        """The seat whose clock has reached zero, if any."""
        if self.running is not None and self.left(self.running) == 0.0:
            return self.running
        return None

    def run(self, seat: int | None) -> None:
        """Stop the running clock (no increment) and start `seat`'s (None: all stopped)."""
        self._settle()
        self.running = seat if seat is not None and self.clocked[seat] else None
        self._since = self._now()

    def moved(self, seat: int, next_seat: int | None) -> None:
        """`seat` has moved: its clock stops, gains the increment, and `next_seat`'s starts."""
        self._settle()
        if self.clocked[seat]:
            self._left[seat] += self.spec.increment_s
        self.running = None
        self.run(next_seat)

    def set(self, left: tuple[float | None, float | None], running: int | None) -> None:
        """Take the times another clock reports (the host's, over the network)."""
        for seat, value in enumerate(left):
            if value is not None:
                self._left[seat] = value
        self.running = None
        self.run(running)

    def _settle(self) -> None:
        if self.running is not None:
            now = self._now()
            self._left[self.running] = max(0.0, self._left[self.running] - (now - self._since))
            self._since = now

    # ------------------------------------------------------------------ save file header

    def left_words(self) -> tuple[str, str]:
        """The seconds left by seat as written in save files and sent to network peers (`read_left`)."""
        words = ["-" if (v := self.left(seat)) is None else f"{v:.1f}" for seat in (0, 1)]
        return words[0], words[1]

    def header(self) -> dict[str, str]:
        return {HEADER_CLOCK: self.spec.text, HEADER_LEFT: " ".join(self.left_words())}


MAX_LEFT_S = MAX_MINUTES * 60 + 1e6  # a clock's base plus any number of increments a game could gain


def read_left(word: str) -> float | None:
    """One word of `GameClock.left_words` (None: a seat without a clock); ClockError when it is bad."""
    return None if word == "-" else _decimal(word, "the seconds left", MAX_LEFT_S)


def clock_from_header(extra: dict[str, str], clocked: tuple[bool, bool],
                      now: Callable[[], float] = time.monotonic) -> GameClock | None:
    """The clock a save file's header holds (None when it has none); ClockError when it is bad."""
    if HEADER_CLOCK not in extra:
        return None
    spec = parse_clock(extra[HEADER_CLOCK])
    left: list[float] = [spec.base_s, spec.base_s]
    words = extra.get(HEADER_LEFT, "").split()
    if words:
        if len(words) != 2:
            raise ClockError(f"clock_left holds {len(words)} values, expected 2")
        for seat, word in enumerate(words):
            if (value := read_left(word)) is not None:
                left[seat] = value
    return GameClock(spec, clocked, (left[0], left[1]), now)


def show_time(seconds: float) -> str:
    """`4:05`, or `0:07.3` under LOW_TIME_S (tenths matter then), `1:02:03` from an hour up."""
    if seconds < LOW_TIME_S:
        return f"0:{math.floor(seconds * 10) / 10:04.1f}"  # floored: 0.05 s left is not "0:00.1"
    whole = math.ceil(seconds)  # a clock that has just started shows its full minutes
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
