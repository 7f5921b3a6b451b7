"""The wire protocol of network games: line-based UTF-8 text, versioned (README "Playing over the network").

Each message is one line ending in `\\n`: a verb in capitals, then words separated by single spaces;
some verbs end with free text (a move in CodinGame notation, which may hold spaces; a reason).
Nothing received is ever executed or evaluated: a line is split into words, each word checked
against what its verb allows, and anything else is a `ProtocolError` whose message is the reason the
connection is closed with (`BYE <reason>`).

Pure: bytes in, `Message` out (and back), plus the rate limit both ends apply to what they read.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from engines.numbers import NumberError, parse_int, quote

PRODUCT = "termarena"
VERSION = 1  # the base protocol: every peer speaks it, the server's lobby only it
# Version 2 is version 1 and WATCHERS, which a host sends only to a peer whose HELLO said 2: a host
# answers a HELLO in the version both speak (WELCOME's first word), and a client that offered 2 to a
# host of version 1 (refused: "protocol version 2 is not supported") says HELLO again in version 1.
WATCHERS_VERSION = 2
MAX_LINE = 4096  # bytes of one line, newline included: far above any message (a Cultist Wars move is ~20)
MAX_TEXT = 200  # characters of the free text at the end of a line (a move, a reason)
ROLES = ("play", "watch")

# verb -> (number of words after the verb, whether free text follows them: "no", "optional", "required")
VERBS: dict[str, tuple[int, str]] = {
    "HELLO": (4, "no"),      # HELLO termarena <version> play|watch <join code>            (client -> host)
    "WELCOME": (7, "no"),    # WELCOME <version> <role> <seat 1|2|-> <game> <seed> <clock|-> <moves>
    "MOVE": (1, "required"),  # MOVE <number> <move>: a move played (host) or to play (client)
    "REFUSED": (1, "required"),  # REFUSED <number> <why>: the client's move was not played
    "CLOCK": (3, "no"),      # CLOCK <seconds seat 1|-> <seconds seat 2|-> <running 1|2|->
    "UNDO": (1, "no"),       # UNDO ASK|YES|NO: a take-back asked, agreed, refused
    "UNDONE": (1, "no"),     # UNDONE <moves>: the game went back to its first <moves> moves
    "END": (2, "no"),        # END <result> <reason>: ended by the host's referee outside the rules (time)
    "PEER": (1, "no"),       # PEER away|back: the joining player's connection (for the watchers)
    "WATCHERS": (1, "no"),   # WATCHERS <count>: the watchers connected, after every change (version 2)
    "BYE": (0, "optional"),  # BYE [why]: the connection is closing
}


class ProtocolError(Exception):
    """A line that breaks the protocol; the message is the reason given to the peer when cutting it off."""


@dataclass(frozen=True)
class Message:
    verb: str
    words: tuple[str, ...] = ()
    text: str = ""

    def number(self, index: int, hi: int = 1_000_000, what: str = "number") -> int:
        try:
            return parse_int(self.words[index], lo=0, hi=hi, what=what)
        except NumberError as e:
            raise ProtocolError(f"{self.verb}: {e}") from None

    def choice(self, index: int, allowed: tuple[str, ...]) -> str:
        word = self.words[index]
        if word not in allowed:
            raise ProtocolError(f"{self.verb}: {quote(word)} is not one of {', '.join(allowed)}")
        return word


def encode(verb: str, *words: object, text: str = "") -> bytes:
    """One line of the protocol; words must be single printable words (checked: a bug here must not
    let a move or a reason inject a second line)."""
    parts = [verb] + [str(w) for w in words]
    for part in parts:
        if not part or not part.isprintable() or " " in part:
            raise ValueError(f"not a protocol word: {part!r}")
    line = " ".join(parts)
    if text:
        line += " " + " ".join(text.split())[:MAX_TEXT]  # one line: any line break becomes a space
    return (line + "\n").encode("utf-8")


def decode(raw: bytes, verbs: dict[str, tuple[int, str]] = VERBS) -> Message:
    """A received line (without its limit checked: the reader cut it at MAX_LINE) as a Message of
    `verbs` (a server's lobby adds its own verbs to these: tui.core.server.protocol)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("a message that is not UTF-8 text") from None
    line = line.removesuffix("\n").removesuffix("\r")
    if not line.isprintable():
        raise ProtocolError("a message with control characters")
    verb, _, rest = line.partition(" ")
    if verb not in verbs:
        raise ProtocolError(f"unknown message {quote(verb)}")
    count, text_kind = verbs[verb]
    pieces = rest.split(" ", count) if rest else []
    words = pieces[:count]
    text = pieces[count] if len(pieces) > count else ""
    if len(words) < count or any(not w for w in words):
        raise ProtocolError(f"{verb} needs {count} words separated by single spaces")
    if text_kind == "no" and text:
        raise ProtocolError(f"{verb} takes {count} words, got more")
    if text_kind == "required" and not text.strip():
        raise ProtocolError(f"{verb} lacks its text")
    if len(text) > MAX_TEXT:
        raise ProtocolError(f"{verb}: text longer than {MAX_TEXT} characters")
    return Message(verb, tuple(words), text)


class RateLimit:
    """A token bucket: `burst` messages at once, then `per_s` a second; `allow()` is False past that."""

    def __init__(self, per_s: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        self.per_s, self.burst, self._now = per_s, burst, now
        self._tokens = float(burst)
        self._last = now()

    def allow(self) -> bool:
        now = self._now()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.per_s)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def seat_word(seat: int | None) -> str:
    """Seats on the wire are 1 and 2 (as on the command line), `-` for none."""
    return "-" if seat is None else str(seat + 1)


def seat_of(word: str, verb: str) -> int | None:
    if word == "-":
        return None
    if word not in ("1", "2"):
        raise ProtocolError(f"{verb}: seat {quote(word)} is not 1, 2 or -")
    return int(word) - 1


def check_hello(hello: Message, what: str, versions: tuple[int, ...] = (VERSION,)) -> int:
    """A connection's first line must be our HELLO in one of our `versions`; `what` the side that answers
    ("host", "server"), named in the refusal.  Returns the version, the one spoken with that peer;
    ProtocolError otherwise."""
    if hello.verb != "HELLO":
        raise ProtocolError(f"expected HELLO, got {hello.verb}")
    if hello.words[0] != PRODUCT:
        raise ProtocolError(f"this is a {PRODUCT} {what}")
    version = hello.number(1, what="protocol version")
    if version not in versions:
        raise ProtocolError(f"protocol version {version} is not supported (this {what} speaks {max(versions)})")
    return version
