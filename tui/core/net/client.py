"""The joining side of a network game (a player or a watcher): connects, says HELLO with the join code,
and turns what the host sends into events for the game screen.

What the host sends is checked like any input: each message by the protocol (tui.core.net.protocol),
each move by the local engine (the screen plays it through its own session; a move the engine refuses
ends the connection).  A connection that drops is tried again every RETRY_S seconds (the host sends the
whole game again); one the host closes on purpose (`BYE`, a wrong code) or that breaks the protocol is
not.  Textual-free: `run()` is a coroutine the app runs in a worker.
"""
from __future__ import annotations

import asyncio
from typing import Callable

from engines import UnknownGame, resolve_game_id
from engines.savefile import RESULTS
from engines.numbers import SEED_MAX, SEED_MIN, NumberError, parse_int, quote
from tui.core.clock import ClockError, parse_clock, read_left
from tui.core.net.events import (
    ClockIn, Ended, Lost, MoveIn, MoveRefused, Presence, UndoAnswered, UndoAsked, Undone, WatcherCount, Welcome,
)
from tui.core.net.protocol import (
    MAX_LINE, PRODUCT, ROLES, VERSION, WATCHERS_VERSION, Message, ProtocolError, RateLimit, seat_of,
)
from tui.core.net.wire import Closed, Connection

RETRY_S = 1.0
CONNECT_TIMEOUT_S = 10.0
HOST_RATE_PER_S, HOST_BURST = 200.0, 2000  # a rejoin receives the whole game at once


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """`HOST:PORT`, `HOST` or `[v6 address]:PORT`; ValueError with the reason."""
    text = text.strip()
    host, port = text, default_port
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"{quote(text)} is not HOST:PORT")
            port = _port(rest[1:])
    elif text.count(":") == 1:
        host, port_text = text.split(":")
        port = _port(port_text)
    if not host:
        raise ValueError(f"{quote(text)} has no host name")
    return host, port


def _port(text: str) -> int:
    try:
        return parse_int(text, lo=1, hi=65535, what="port")
    except NumberError as e:
        raise ValueError(str(e)) from None


class NetClient:
    referees = False

    def __init__(self, host: str, port: int, role: str, code: str, on_event: Callable[[object], None]) -> None:
        self.host, self.port, self.role, self.code = host, port, role, code
        self.on_event = on_event
        self.conn: Connection | None = None
        self.seat: int | None = None
        self.welcomed = False
        self.undo_waiting = False  # our take-back request waits for the host's answer
        self.undo_question = False  # the host's request waits for ours: one question is shown at a time
        self.version = WATCHERS_VERSION  # what the HELLO offers: 1 after a host of version 1 refused 2
        self.offered = VERSION  # the version the last HELLO offered
        self._stopped = False

    @property
    def connected(self) -> bool:
        return self.conn is not None and not self.conn.closed

    async def run(self) -> None:
        """Connect and follow the game until the host ends it, refuses us, or `close()`."""
        while not self._stopped:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(self.host, self.port, limit=MAX_LINE), CONNECT_TIMEOUT_S)
            except (OSError, asyncio.TimeoutError) as e:
                why = ("connection refused (is a game hosted there, on that port?)"
                       if isinstance(e, ConnectionRefusedError) else getattr(e, "strerror", None) or "no answer")
                if not self.welcomed:  # never got in: the address is wrong or nobody hosts there
                    self.on_event(Lost(f"cannot connect to {self.host}:{self.port}: {why}", False))
                    return
                await asyncio.sleep(RETRY_S)
                continue
            self.conn = Connection(reader, writer, RateLimit(HOST_RATE_PER_S, HOST_BURST))
            self.undo_waiting = self.undo_question = False  # the host forgets requests when a connection ends
            self.offered = self.version
            self.conn.send("HELLO", PRODUCT, self.offered, self.role, self.code)
            try:
                if not await self._follow("host", lambda: self.welcomed):
                    return
            except _OlderHost:  # it speaks version 1 only: again at once, in its version
                self.conn.close()
                self.version = VERSION
                continue
            await asyncio.sleep(RETRY_S)

    async def _follow(self, peer: str, got_in: Callable[[], bool]) -> bool:
        """Hand each line of the connection to `_handle` until it ends, and tell `on_event` how (Lost):
        True when it dropped after `got_in()` and the caller connects again, False when it is over."""
        try:
            while True:
                self._handle(await self.conn.read())
        except ProtocolError as e:
            self.conn.bye(str(e))
            self.on_event(Lost(f"the {peer} broke the protocol: {e}", False))
            return False
        except _HostSaidBye as e:
            self.conn.close()
            self.on_event(Lost(f"the {peer} closed the connection: {e}", False))
            return False
        except Closed as e:
            self.conn.close()
            if self._stopped:
                return False
            self.on_event(Lost(f"{e}; trying again", got_in()))
            return got_in()

    def close(self, reason: str = "goodbye") -> None:
        self._stopped = True
        if self.conn is not None:
            self.conn.bye(reason)

    # ------------------------------------------------------------------ what the screen sends

    def send_move(self, number: int, text: str) -> bool:
        if not self.connected:
            return False
        self.conn.send("MOVE", number, text=text)
        return True

    def ask_undo(self) -> str | None:
        if not self.connected:
            return "not connected to the host"
        if self.undo_waiting:
            return "you asked already: waiting for the answer"
        if self.undo_question:
            return "answer your opponent's request first"
        self.undo_waiting = True
        self.conn.send("UNDO", "ASK")
        return None

    def answer_undo(self, yes: bool) -> bool:
        if self.connected and self.undo_question:
            self.undo_question = False
            self.conn.send("UNDO", "YES" if yes else "NO")
        return False  # the host changes the game and sends it

    def sync(self) -> None:
        """Nothing to tell: the host referees, this side only follows."""

    # ------------------------------------------------------------------ what the host sends

    def _handle(self, msg: Message) -> None:
        verb = msg.verb
        if verb == "BYE":
            if not self.welcomed and self.offered > VERSION and msg.text.startswith(f"protocol version {self.offered} "):
                raise _OlderHost()
            raise _HostSaidBye(msg.text or "no reason given")
        if verb == "WELCOME":
            self._welcome(msg)
            return
        if not self.welcomed:
            raise ProtocolError(f"expected WELCOME, got {verb}")
        if verb == "MOVE":
            self.on_event(MoveIn(msg.number(0, what="move number"), msg.text))
        elif verb == "CLOCK":
            left = tuple(_seconds(w) for w in msg.words[:2])
            self.on_event(ClockIn(left, seat_of(msg.words[2], verb)))
        elif verb == "UNDONE":
            self.undo_waiting = False
            self.on_event(Undone(msg.number(0, what="move count")))
        elif verb == "UNDO":
            if msg.choice(0, ("ASK", "NO")) == "NO":
                self.undo_waiting = False
                self.on_event(UndoAnswered(False))
            elif not self.undo_question:  # a host asking again before our answer: not a second question
                self.undo_question = True
                self.on_event(UndoAsked())
        elif verb == "END":
            self.on_event(Ended(msg.choice(0, RESULTS), msg.choice(1, ("timeout",))))
        elif verb == "REFUSED":
            self.on_event(MoveRefused(msg.number(0, what="move number"), msg.text))
        elif verb == "PEER":
            self.on_event(Presence(msg.choice(0, ("away", "back")) == "away"))
        elif verb == "WATCHERS":
            self.on_event(WatcherCount(msg.number(0, hi=1000, what="watcher count")))
        else:
            raise ProtocolError(f"{verb} is not a message a host sends")

    def _welcome(self, msg: Message) -> None:
        version = msg.number(0, what="protocol version")
        if not VERSION <= version <= self.offered:
            raise ProtocolError(f"the host speaks protocol version {version}, this termarena {self.offered}")
        if msg.choice(1, ROLES) != self.role:
            raise ProtocolError("the host welcomed us in another role")
        seat = seat_of(msg.words[2], "WELCOME")
        if (seat is None) != (self.role == "watch"):
            raise ProtocolError("the host gave a seat that does not fit the role")
        try:
            game = resolve_game_id(msg.words[3])
            seed = parse_int(msg.words[4], lo=SEED_MIN, hi=SEED_MAX, what="seed")
            clock = None if msg.words[5] == "-" else parse_clock(msg.words[5])
        except (UnknownGame, NumberError, ClockError) as e:
            raise ProtocolError(f"WELCOME: {e}") from None
        moves = msg.number(6, what="move count")
        if self.welcomed and seat != self.seat:
            raise ProtocolError("the host moved us to another seat")
        self.seat = seat
        self.welcomed = True
        self.on_event(Welcome(seat, game, seed, clock, moves))


class _HostSaidBye(Exception):
    pass


class _OlderHost(Exception):
    """The host refused the version offered, before letting us in: it speaks version 1 only."""


def _seconds(word: str) -> float | None:
    try:
        return read_left(word)
    except ClockError as e:
        raise ProtocolError(f"CLOCK: {e}") from None
