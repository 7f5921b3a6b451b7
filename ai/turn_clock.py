"""When a bot's answer to a turn is due: a share of the turn's CodinGame limit, counted from when the
turn's input came, brought forward when this game's answers came late.

The referee's clock runs from when it sends the input to when it has read the answer, and the bot
sees only the middle of that: from the input's first byte to its answer written.  The ends (the
bot waking up on its input, the referee waking up on the answer) grow with the machine's load, and
so does the bot's own lateness, the time from its deadline to its answer written (a search stops at
its next clock check, a generation or the output cannot be cut short, the process waits for a core).
So each answer's lateness is kept (`answered`, fading by LATE_FADE a turn), counted twice (once for
itself, once for the ends it hints at), and the next deadlines come earlier by what that takes
beyond the limit's unused share, less SPARE of it: a few milliseconds late change nothing (a level-6
Paper Soccer answer came 2-12 ms late now and then, beside a CPU-bound process), 50 ms late takes 40 ms
off the next 200 ms turn.  Measured at CodinGame's Paper Soccer limits on 2 busy cores (README, "Level
6's deadline on a busy machine"): a level-6 answer reached the referee up to 15 ms after it was
written once the compiled search ran, up to 40 ms while it loaded.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

SHARE = 0.6  # of each turn's limit, when no answer of this game came late and the machine is not overloaded
# The 1-minute load average a core up to which the whole share holds; beyond it the share shrinks in
# proportion.  On 2 cores, in 26 matches of 20 games, level 6 answered no turn after the first in more
# than 170 ms in 6,300 turns while the load stayed under 7, and lost games on time, or answered in
# 170-350 ms, in every match where it went over 7.
CALM_LOAD = 3.0
MIN_SHARE = 0.25  # the least share left to the search, however late earlier answers came
SPARE = 0.1  # of the limit, kept free beyond the doubled lateness
LATE_FACTOR = 2.0
LATE_FADE = 0.8  # per turn: a late answer's weight halves in three turns


@dataclass
class TurnClock:
    share: float = SHARE
    late_s: float = 0.0  # the lateness remembered (the latest answers', fading)

    def deadline(self, start: float, limit_s: float, load: float = 0.0) -> float:
        """When the answer to a turn whose input came at `start` (a time.monotonic() value) is due, on a
        machine whose load a core is `load` (`machine_load`)."""
        share = self.share
        if load > CALM_LOAD:
            share = max(min(share, MIN_SHARE), share * CALM_LOAD / load)
        reserve = LATE_FACTOR * self.late_s - (1 - SPARE - share) * limit_s
        reserve = min(max(0.0, reserve), max(0.0, share - MIN_SHARE) * limit_s)
        return start + share * limit_s - reserve

    def answered(self, deadline: float, written: float) -> None:
        """The answer due at `deadline` was written at `written`."""
        self.late_s = max(written - deadline, LATE_FADE * self.late_s, 0.0)


def machine_load() -> float:
    """The 1-minute load average a core this process may run on (0 where the system does not say)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        return os.getloadavg()[0] / max(1, cores)
    except (AttributeError, OSError):
        return 0.0
