"""One TCP connection speaking the protocol, with the limits both ends apply to their peer.

* a line longer than MAX_LINE bytes: the reader never holds more (asyncio's stream limit), the peer is cut
  off with `BYE line too long`;
* more messages than the rate limit allows: `BYE too many messages`;
* a peer that does not read what it is sent (its unread data passing MAX_UNSENT): closed;
* anything that is not a message of the protocol: `BYE <what was wrong>`.
"""
from __future__ import annotations

import asyncio
import socket

from tui.core.net.protocol import MAX_LINE, VERBS, VERSION, Message, ProtocolError, RateLimit, decode, encode

MAX_UNSENT = 1 << 20  # bytes queued for a peer that does not read: a watcher that stopped reading goes


class Closed(Exception):
    """The connection ended; the message says how (for the user)."""


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, rate: RateLimit,
                 verbs: dict[str, tuple[int, str]] = VERBS) -> None:
        self.reader, self.writer, self.rate, self.verbs = reader, writer, rate, verbs
        peer = writer.get_extra_info("peername")
        known = isinstance(peer, tuple) and len(peer) >= 2
        self.address = str(peer[0]) if known else "?"  # what wrong codes and pending slots are counted by
        self.peer = f"{peer[0]}:{peer[1]}" if known else "?"
        self.closed = False
        _keep_alive(writer)
        self.last_clock: tuple[str, ...] | None = None  # the host's clocks as this peer last got them
        self.version = VERSION  # the protocol version spoken with this peer (its HELLO's, at a host)
        self.last_watchers: int | None = None  # the watcher count this peer last got (version 2)

    async def read(self) -> Message:
        """The next message; ProtocolError for a bad one (the caller says BYE), Closed at the end."""
        if self.closed:
            raise Closed("the connection is closed")
        try:
            raw = await self.reader.readuntil(b"\n")
        except asyncio.LimitOverrunError:
            raise ProtocolError(f"line too long (over {MAX_LINE} bytes)") from None
        except asyncio.IncompleteReadError as e:
            raise Closed("the connection was closed" if not e.partial else "the connection ended mid-line") from None
        except (ConnectionError, OSError) as e:
            raise Closed(f"the connection was lost ({e.strerror or type(e).__name__})") from None
        if not self.rate.allow():
            raise ProtocolError("too many messages")
        return decode(raw, self.verbs)

    def send(self, verb: str, *words: object, text: str = "") -> None:
        self.send_lines(encode(verb, *words, text=text))

    def send_lines(self, data: bytes) -> None:
        """Lines already encoded (a server sends one batch to many peers)."""
        if self.closed:
            return
        transport = self.writer.transport
        if transport is None or transport.is_closing():
            self.close()
            return
        if transport.get_write_buffer_size() > MAX_UNSENT:
            self.close()  # the peer does not read: never queue without bound
            return
        self.writer.write(data)

    def bye(self, reason: str) -> None:
        self.send("BYE", text=reason)
        self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.writer.close()
            except Exception:  # closing must never fail the app
                pass


def _keep_alive(writer: asyncio.StreamWriter) -> None:
    """TCP keep-alive probes: a peer whose machine vanished (no goodbye, no reset) counts as gone after
    about 30 s instead of never, so the host says "away" and the joiner tries again."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 15), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
    except OSError:
        pass  # not every platform takes every option: the connection works without them
