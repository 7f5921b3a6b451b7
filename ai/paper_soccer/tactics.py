"""Exact two-turn tactics for the root of the Paper Soccer search: the *shutting* reply.

Every turn that does not end the game ends on a fresh point, and a turn ending on a point the
opponent can score from loses.  A reply of the opponent can leave the mover no turn at all that is
safe: the mover is shut in.  In 40 games level 6 lost to a C++ bot that searches every distinct turn,
the killing blow was such a reply in most games, and the search's generators (a few turns per end
point) had not listed it: the reply reaches an end point they reach too, but draws other edges.
`shutting_reply` looks at every reply (the complete generator) with a cheap exact test each.
"""
from __future__ import annotations

import time

from ai.paper_soccer.board import apply, flood, gen_ends, gen_turns, reach_possible, touched_of, undo, unlisted


class Limits:
    """What a check may spend: a deadline (None: none) and a number of exact looks (`_safe_after`, a
    generation each), so that without a deadline a check still ends in bounded work, the same on
    every machine."""

    __slots__ = ("deadline", "looks")

    def __init__(self, deadline: float | None = None, looks: int = 1 << 62) -> None:
        self.deadline = deadline
        self.looks = looks

    def spent(self) -> bool:
        return self.looks <= 0 or (self.deadline is not None and time.monotonic() >= self.deadline)


def has_safe_turn(pm: list[int], ball: int, seat: int, max_states: int = 20_000,
                  limits: Limits | None = None) -> bool | None:
    """Whether `seat` has a turn that scores or after which the opponent cannot score at once: True,
    False (proven), or None when a budget or a limit ran out."""
    limits = limits or Limits()
    win, ends, _losing, _complete = gen_ends(pm, ball, seat)
    if win is not None:
        return True
    # a turn only draws edges and touches the point it ends on, so a fresh end point the opponent could
    # not score from before the turn (outside `flood`'s danger set) is safe after it
    danger = flood(pm, 1 - seat, touched_of(pm))[1]
    if any(not danger >> end & 1 for end, _eb, _path in ends):
        return True
    unknown = False
    for end, _eb, path in ends:
        verdict = _safe_after(pm, path, end, seat, max_states, limits)
        if verdict:
            return True
        unknown |= verdict is None
    r = gen_turns(pm, ball, seat, max_states=max_states)
    if r.win is not None:
        return True
    for end, _eb, path in unlisted(ends, r.turns):
        if not danger >> end & 1:
            return True
        verdict = _safe_after(pm, path, end, seat, max_states, limits)
        if verdict:
            return True
        unknown |= verdict is None
    return None if unknown or not r.complete else False


def _safe_after(pm, path, end, seat, max_states, limits: Limits) -> bool | None:
    """Whether the opponent cannot score after `seat`'s turn `path` (None: a budget or limit ran out)."""
    if limits.spent():
        return None
    limits.looks -= 1
    apply(pm, path)
    try:
        if not reach_possible(pm, end, 1 - seat):
            return True
        r = gen_turns(pm, end, 1 - seat, max_states=max_states)
        if r.win is not None:
            return False
        return True if r.complete else None
    finally:
        undo(pm, path)


REPLY_STATES = 3_000  # `shutting_reply`'s defaults (the compiled twin in compiled.py takes the same)
LOOK_STATES = 1_500
LOOKS = 4_000


def shutting_reply(pm: list[int], end: int, seat: int, *, max_states: int = REPLY_STATES,
                   look_states: int = LOOK_STATES, deadline: float | None = None, looks: int = LOOKS):
    """After a turn of `seat` that ended on `end`: a reply of the opponent after which `seat` has no
    safe turn (its path), False when every reply leaves one (proven), or None when unknown (a budget,
    the deadline or the `looks` ran out, or the opponent can score at once: the root drops such turns
    itself).  `max_states` bounds the generation of the replies, `look_states` each generation after
    one (a generation is not interrupted by the deadline: 3,000 states take about 25 ms); `looks`
    the exact looks in all (about 0.1 ms each: a position where nearly every turn is shut in needs
    hundreds a reply)."""
    limits = Limits(deadline, looks)
    opp = 1 - seat
    r = gen_turns(pm, end, opp, max_states=max_states)
    if r.win is not None:
        return None
    unknown = not r.complete
    for rend, _eb, rpath in r.turns:
        if limits.spent():
            return None
        apply(pm, rpath)
        try:
            verdict = has_safe_turn(pm, rend, seat, look_states, limits)
        finally:
            undo(pm, rpath)
        if verdict is False:
            return rpath
        unknown |= verdict is None
    return None if unknown else False
