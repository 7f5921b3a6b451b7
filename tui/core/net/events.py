"""What a network link tells the game screen: small values, posted in the order they happen."""
from __future__ import annotations

from dataclasses import dataclass

from tui.core.clock import ClockSpec
from tui.core.session import Played


@dataclass(frozen=True)
class Joined:  # host: a player or a watcher came in
    role: str
    peer: str
    again: bool = False  # the player came back after a drop


@dataclass(frozen=True)
class Left:  # host: the player's connection is gone (it may come back)
    peer: str
    reason: str


@dataclass(frozen=True)
class WatcherLeft:  # host: a watcher's connection is gone
    peer: str


@dataclass(frozen=True)
class CutOff:  # host: a connection was refused or cut off (wrong join code, a flood, garbage)
    peer: str
    reason: str


@dataclass(frozen=True)
class PeerMoved:  # host: the joiner's move was played by the host's engine (None: refused, see the session)
    played: Played | None


@dataclass(frozen=True)
class Welcome:  # client: the host let us in; the moves follow as MoveIn
    seat: int | None  # None for a watcher
    game: str
    seed: int
    clock: ClockSpec | None
    moves: int


@dataclass(frozen=True)
class MoveIn:  # client: move number n of the game (1-based), as the host's referee accepted it
    number: int
    text: str


@dataclass(frozen=True)
class ClockIn:  # client: the host's clocks
    left: tuple[float | None, float | None]
    running: int | None


@dataclass(frozen=True)
class Undone:  # client: the game went back to its first `kept` moves
    kept: int


@dataclass(frozen=True)
class Ended:  # client: the host ended the game (a clock fell)
    result: str
    reason: str


@dataclass(frozen=True)
class MoveRefused:  # client: the host did not play our move
    number: int
    why: str


@dataclass(frozen=True)
class Presence:  # client (watchers): the joining player is away or back
    away: bool


@dataclass(frozen=True)
class WatcherCount:  # client: how many watchers the host has (a watcher counts itself); version 2 hosts
    count: int


@dataclass(frozen=True)
class UndoAsked:  # either side: the other side asks to take back
    pass


@dataclass(frozen=True)
class UndoAnswered:  # either side: the other side said yes or no to our request
    yes: bool


@dataclass(frozen=True)
class Lost:  # client: the connection is gone; `retrying` when we try to get back in
    reason: str
    retrying: bool
