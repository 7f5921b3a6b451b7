"""A turn built one direction at a time, for a person at the board."""
from __future__ import annotations

from engines.base import IllegalMove

from .game import PaperSoccer
from .geometry import (
    DIGITS, FULL, NB, N_FIELD, OPP, XY,
)
from .geometry import _bounces, _fmt_xy

# ------------------------------------------------------------------------------------ turn builder

class TurnBuilder:
    """A turn built one direction at a time (for a human at the board).

    Works on a scratch copy of the position: `game` is never changed.  After each `step` the turn
    either goes on (`ended` False: the ball bounced) or is complete (`ended` True), and `move` is the
    string to push.  `back()` takes the last step back.
    """

    def __init__(self, game: PaperSoccer):
        self.game = game
        self._scratch = game.copy()
        self._scratch.move_stack = []
        self._scratch._undo = []
        self.start = game.ball()
        self._path: list[int] = []
        self._points: list[int] = [self.start]

    @property
    def move(self) -> str:
        return "".join(DIGITS[d] for d in self._path)

    @property
    def ball(self) -> int:
        return self._points[-1]

    @property
    def points(self) -> list[int]:
        return self._points[:]

    @property
    def ended(self) -> bool:
        """True once the directions so far make a complete turn."""
        if not self._path or self.game.is_over():
            return False
        p = self._points[-1]
        pm = self._scratch._pm
        return p >= N_FIELD or pm[p] == FULL[p] or not _bounces(pm[p])

    def legal_steps(self) -> list[int]:
        """The directions that may be played next (none once the turn has ended)."""
        if self.ended or self.game.is_over():
            return []
        return self._scratch.free_directions(self.ball)

    def can_step(self, d: int) -> bool:
        return d in self.legal_steps()

    def step(self, d: int) -> bool:
        """Play one direction; returns True when the turn goes on (a bounce), False when it has ended."""
        if not self.can_step(d):
            raise IllegalMove(f"direction {d} is not playable from {_fmt_xy(self.ball)}")
        p = self.ball
        q = NB[p * 8 + d]
        pm = self._scratch._pm
        pm[p] |= 1 << d
        pm[q] |= 1 << OPP[d]
        self._path.append(d)
        self._points.append(q)
        return not self.ended

    def back(self) -> bool:
        """Take the last step back; False when there was none."""
        if not self._path:
            return False
        d = self._path.pop()
        q = self._points.pop()
        p = self._points[-1]
        pm = self._scratch._pm
        pm[p] &= ~(1 << d)
        pm[q] &= ~(1 << OPP[d])
        return True

    def drawn_edges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """All drawn edges with the steps of this turn so far."""
        return self._scratch.drawn_edges()

    def turn_edges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The edges this turn has drawn so far, in order."""
        return [(XY[a], XY[b]) for a, b in zip(self._points, self._points[1:])]

