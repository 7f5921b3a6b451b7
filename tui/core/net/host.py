"""The host of a network game: a TCP server whose own engine (the session) referees every move.

One player may join (the other seat) with the join code; watchers (with the same code) get every move
and can send nothing but BYE.  Peers of protocol version 2 are told how many watchers there are.  A player who drops can come back with the code and gets the game so
far; a second connection with the code takes the seat over (the first is told why and closed).  The
host keeps its clocks: the joiner's clock runs while it is to move, connected or not.

A connection holds a seat or a watcher slot only once its HELLO carried the code; before that it holds a
pending slot, for at most GateLimits.auth_s, and wrong codes are rationed per address (tui.core.net.gate).
One take-back request waits for an answer at a time, whichever side asked: another is answered NO at once.

Textual-free: the game screen calls `sync()` after every change of the session (it sends what
changed: moves, take-backs, clocks, an end on time) and handles the events `on_event` gets.  Every
peer is hostile until proven otherwise: see tui.core.net.wire for the limits.
"""
from __future__ import annotations

import asyncio
import hmac
import math
import secrets
import time
from typing import Awaitable, Callable

from engines.base import InvalidOutput
from engines.savefile import outcome_result
from tui.core.net.events import CutOff, Joined, Left, PeerMoved, UndoAnswered, UndoAsked, WatcherLeft
from tui.core.net.gate import Gate, GateLimits, Pending, address_key
from tui.core.net.protocol import (
    MAX_LINE, ROLES, VERSION, WATCHERS_VERSION, Message, ProtocolError, RateLimit, check_hello, seat_word,
)
from tui.core.net.wire import Closed, Connection
from tui.core.session import Session
from tui.core.words import refused_move

MAX_WATCHERS = 16
PEER_RATE_PER_S, PEER_BURST = 10.0, 30  # a person sends a few messages a minute
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread


def new_join_code() -> str:
    """8 random letters and digits (40 bits), as `k3x9-p2mq`."""
    chars = "".join(secrets.choice(CODE_LETTERS) for _ in range(8))
    return chars[:4] + "-" + chars[4:]


class NetHost:
    referees = True

    def __init__(self, session: Session, seat: int, code: str, on_event: Callable[[object], None], *,
                 limits: GateLimits = GateLimits(), now: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.session = session
        self.seat = seat  # the host's own seat; the joiner plays the other
        self.peer_seat = 1 - seat
        self.code = code
        self.on_event = on_event
        self.player: Connection | None = None
        self.watchers: set[Connection] = set()
        self.ever_joined = False
        self.undo_asked_by: int | None = None  # the seat whose take-back request waits for an answer
        self._sent: list[str] = []  # the moves every connection has been sent
        self._end_sent = False
        self._server: asyncio.AbstractServer | None = None
        self.limits = limits
        self.gate = Gate(limits, now)
        self._pending: Pending[Connection] = Pending(limits.pending, limits.pending_per_address)
        self._sleep = sleep  # the wait before a code from a failing address is checked (tests record it)
        self.port = 0
        session.clock_held = True  # no clock runs before the opponent is here
        session.sync_clock()

    @property
    def connected(self) -> bool:
        return self.player is not None

    async def start(self, bind: str, port: int) -> int:
        """Listen on bind:port (0: any free port); returns the port.  OSError when it cannot."""
        self._server = await asyncio.start_server(self._serve, bind, port, limit=MAX_LINE)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def close(self, reason: str = "the host has left") -> None:
        for conn in list(self.watchers) + ([self.player] if self.player else []) + list(self._pending):
            conn.bye(reason)
        self.player = None
        self.watchers.clear()
        if self._server is not None:
            self._server.close()
            self._server = None

    # ------------------------------------------------------------------ what the screen calls

    def sync(self) -> None:
        """Tell every connection what changed in the session since the last call."""
        conns = self._all()
        notation = self.session.notation
        common = 0
        while common < min(len(self._sent), len(notation)) and self._sent[common] == notation[common]:
            common += 1
        if common < len(self._sent):
            for conn in conns:
                conn.send("UNDONE", common)
        for number in range(common, len(notation)):
            for conn in conns:
                conn.send("MOVE", number + 1, text=notation[number])
        self._sent = list(notation)
        for conn in conns:
            self._send_clock(conn)
        if self.session.forced is not None and not self._end_sent:
            self._end_sent = True
            for conn in conns:
                self._send_end(conn)

    def ask_undo(self) -> str | None:
        """Ask the joiner to agree to take back to our last turn; returns why not, or None when asked."""
        if self.player is None:
            return "your opponent is not connected"
        if self.session.is_over() or self.session.back_to_turn_of(self.seat) is None:
            return "nothing to take back"
        if self.undo_asked_by == self.seat:
            return "you asked already: waiting for the answer"
        if self.undo_asked_by is not None:
            return "answer your opponent's request first"
        self.undo_asked_by = self.seat
        self.player.send("UNDO", "ASK")
        return None

    def answer_undo(self, yes: bool) -> bool:
        """Answer the joiner's request; with yes the game goes back to the joiner's last turn.
        Returns True when the session changed (the screen redraws and calls sync)."""
        if self.undo_asked_by != self.peer_seat:
            return False
        self.undo_asked_by = None
        if yes and self._take_back_for(self.peer_seat):
            return True
        if self.player is not None:
            self.player.send("UNDO", "NO")
        return False

    def _take_back_for(self, seat: int) -> bool:
        """An agreed take-back, whichever side asked: the game goes back to `seat`'s last turn (the
        screen redraws, which sends everyone the new position).  False when there is none to go back to."""
        kept = self.session.back_to_turn_of(seat)
        if kept is None or self.session.is_over():
            return False
        self.session.take_back_to(kept)
        return True

    # ------------------------------------------------------------------ connections

    def _all(self) -> list[Connection]:
        return ([self.player] if self.player else []) + list(self.watchers)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(reader, writer, RateLimit(PEER_RATE_PER_S, PEER_BURST))
        key = address_key(conn.address)
        locked = self.gate.locked_for(key)
        if locked:  # refused before a byte is read: no slot, no event (the lock was announced once)
            conn.bye(_locked_out(conn.address, locked, "more "))
            return
        for older in self._pending.add(conn, key):
            older.bye("too many connections are waiting to join: try again")
        try:
            await self._converse(conn, key)
        except asyncio.CancelledError:  # the loop is ending; a cancelled handler makes Python 3.11 log a traceback
            conn.close()

    async def _authenticate(self, conn: Connection, key: str) -> str:
        """HELLO with the code within the time bound, after the address's wait: the role let in."""
        try:
            try:
                hello = await asyncio.wait_for(conn.read(), self.limits.auth_s)
            except asyncio.TimeoutError:
                raise ProtocolError(f"no HELLO within {self.limits.auth_s:g} s") from None
            wait = self.gate.delay(key)
            if wait > 0:
                await self._sleep(wait)
            if conn.closed:  # gave way to a newer connection while waiting: its code is never checked
                raise Closed("the connection was closed")
            return self._admit(conn, hello, key)
        finally:
            self._pending.remove(conn)

    async def _converse(self, conn: Connection, key: str) -> None:
        role = None
        why = "the connection was closed"
        try:
            role = await self._authenticate(conn, key)
            while True:
                self._handle(conn, role, await conn.read())
        except ProtocolError as e:
            why = f"cut off: {e}"
            conn.bye(str(e))
        except Closed as e:
            why = str(e)
        except Exception as e:  # a bug of ours must not take the host down: cut this peer off only
            why = f"cut off: internal error ({type(e).__name__})"
            conn.bye("internal error")
        finally:
            conn.close()
            self._gone(conn, role, why)

    def _admit(self, conn: Connection, hello: Message, key: str) -> str:
        conn.version = check_hello(hello, "host", (VERSION, WATCHERS_VERSION))
        role = hello.choice(2, ROLES)
        locked = self.gate.locked_for(key)  # other connections may have locked it while this one waited
        if locked:
            conn.bye(_locked_out(conn.address, locked, "more "))
            raise Closed("refused: its address is locked out")
        if not hmac.compare_digest(hello.words[3].encode(), self.code.encode()):
            if self.gate.failed(key):
                raise ProtocolError(f"wrong join code; {_locked_out(conn.address, self.limits.lock_s)}")
            raise ProtocolError("wrong join code")
        if role == "watch":
            if len(self.watchers) >= MAX_WATCHERS:
                raise ProtocolError(f"too many watchers (at most {MAX_WATCHERS})")
            self.watchers.add(conn)
        else:
            if self.player is not None:
                self.player.bye("replaced by a new connection with the join code")
            self.player = conn
            again = self.ever_joined
            if not self.ever_joined:
                self.ever_joined = True
                self.session.clock_held = False
                self.session.sync_clock()
            for watcher in self.watchers:
                watcher.send("PEER", "back")
        self._welcome(conn, role)
        self._tell_watchers()
        self.on_event(Joined(role, conn.peer, again=role == "play" and again))
        return role

    def _tell_watchers(self) -> None:
        """The watcher count, to every connection of version 2 that has not got it yet."""
        count = len(self.watchers)
        for conn in self._all():
            if conn.version >= WATCHERS_VERSION and conn.last_watchers != count:
                conn.last_watchers = count
                conn.send("WATCHERS", count)

    def _welcome(self, conn: Connection, role: str) -> None:
        s = self.session
        seat = seat_word(self.peer_seat if role == "play" else None)
        clock = s.clock.spec.text if s.clock is not None else "-"
        conn.send("WELCOME", conn.version, role, seat, s.game_id, s.seed, clock, len(self._sent))
        for number, text in enumerate(self._sent, 1):
            conn.send("MOVE", number, text=text)
        self._send_clock(conn)
        if self._end_sent:
            self._send_end(conn)
        if role == "watch" and self.ever_joined and self.player is None:
            conn.send("PEER", "away")

    def _clock_words(self) -> tuple[str, str, str] | None:
        clock = self.session.clock
        if clock is None:
            return None
        return (*clock.left_words(), seat_word(clock.running))

    def _send_clock(self, conn: Connection) -> None:
        words = self._clock_words()
        if words is not None and words != conn.last_clock:  # a redraw without a change sends nothing
            conn.last_clock = words
            conn.send("CLOCK", *words)

    def _send_end(self, conn: Connection) -> None:
        result, reason = outcome_result(self.session.forced)
        conn.send("END", result, reason)

    def _handle(self, conn: Connection, role: str, msg: Message) -> None:
        if msg.verb == "BYE":
            raise Closed("they closed their game")
        if role != "play":
            raise ProtocolError(f"a watcher cannot send {msg.verb}")
        if conn is not self.player:
            raise Closed("replaced")
        if msg.verb == "MOVE":
            self._peer_move(msg.number(0, what="move number"), msg.text)
        elif msg.verb == "UNDO":
            answer = msg.choice(0, ("ASK", "YES", "NO"))
            if answer == "ASK":
                if (self.undo_asked_by is not None  # one request at a time: never a second question
                        or self.session.is_over() or self.session.back_to_turn_of(self.peer_seat) is None):
                    conn.send("UNDO", "NO")
                else:
                    self.undo_asked_by = self.peer_seat
                    self.on_event(UndoAsked())
            elif self.undo_asked_by == self.seat:  # an answer to our request (a late one is ignored)
                self.undo_asked_by = None
                self.on_event(UndoAnswered(self._take_back_for(self.seat) if answer == "YES" else False))
        else:
            raise ProtocolError(f"{msg.verb} is not a message a player sends")

    def _peer_move(self, number: int, text: str) -> None:
        s = self.session
        refusal = None
        if s.is_over():
            refusal = "the game is over"
        elif number != s.ply + 1:
            refusal = f"move {number} is not the next one ({s.ply + 1})"
        elif s.to_move() != self.peer_seat:
            refusal = "it is not your turn"
        if refusal is None:
            try:
                played = s.play(text)
            except InvalidOutput as e:
                refusal = refused_move(s.cls, text, e)
            else:
                self.on_event(PeerMoved(played))
                return
        if self.player is not None:
            self.player.send("REFUSED", number, text=refusal)
        self.on_event(PeerMoved(None))

    def _gone(self, conn: Connection, role: str | None, why: str) -> None:
        if role != "play" and why.startswith("cut off"):
            self.on_event(CutOff(conn.peer, why.removeprefix("cut off: ")))
        if role == "watch" and conn in self.watchers:
            self.watchers.discard(conn)
            self._tell_watchers()
            self.on_event(WatcherLeft(conn.peer))
        elif role == "play" and self.player is conn:
            self.player = None
            if self.undo_asked_by is not None:
                self.undo_asked_by = None
            for watcher in self.watchers:
                watcher.send("PEER", "away")
            self.on_event(Left(conn.peer, why))


def _locked_out(address: str, seconds: float, more: str = "") -> str:
    return f"too many wrong join codes: {address} is refused for {math.ceil(seconds)} s {more}".rstrip()
