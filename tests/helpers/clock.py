"""A stand-in for `time.monotonic` that moves on only when read, for tests of when code stops.

Code under test reads the clock every so much work (a search every 128 nodes, say): with each read
worth `step` seconds, when a deadline passes depends on the work done, not on the machine or its load,
and a test can assert how much of its time a search used without a wall-clock window.  A step of 0
freezes the clock (a computed deadline is then exact)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TickingClock:
    step: float
    now: float = 1000.0
    reads: int = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now
