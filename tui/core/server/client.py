"""The `online` side: a TLS connection to a server's lobby, its certificate pinned on first use, and,
in a game, the same link the `join` game screen uses (a NetClient: the server referees).

Before a byte of the protocol is sent, the server's certificate is compared with the one pinned for
that address (tui.core.server.pins): a changed one ends everything with the warning.  Then HELLO with
the token kept for that server (or the name asked for, the first time), and the lobby's messages
become events for the lobby screen; a game's messages become the game screen's events, as from a host.
A dropped connection is tried again with the token; a game in progress comes back with it.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from engines.savefile import MAX_SAVE_BYTES
from tui.core.net.client import CONNECT_TIMEOUT_S, HOST_BURST, HOST_RATE_PER_S, RETRY_S, NetClient
from tui.core.net.events import Lost
from tui.core.net.protocol import MAX_LINE, PRODUCT, VERSION, Message, ProtocolError, RateLimit
from tui.core.net.wire import Connection
from tui.core.server.pins import CertificateChanged, check_pin, load_token, save_token
from tui.core.server.protocol import LIST_KINDS, MAX_ROWS, VERBS, check_name, check_token
from tui.core.server.tls import client_context, fingerprint
from tui.core.storage import StorageError


@dataclass(frozen=True)
class Pinned:  # the server's certificate: pinned now (new) or the one pinned before
    fingerprint: str
    new: bool


@dataclass(frozen=True)
class InLobby:  # logged in as `name`
    name: str


@dataclass(frozen=True)
class Offered:  # a seek opened (OFFER): id, author, game, clock, rated
    words: tuple[str, ...]


@dataclass(frozen=True)
class Withdrawn:  # a seek went (GONE)
    seek_id: str


@dataclass(frozen=True)
class Listed:  # the rows of a LIST, each the words of one OFFER, PLAYER, GAME or RATING
    kind: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Started:  # a game starts for us (play) or we follow one (watch); the game protocol follows
    game_id: int
    role: str


@dataclass(frozen=True)
class Over:  # that game ended: back in the lobby
    game_id: int
    result: str
    reason: str


@dataclass(frozen=True)
class Downloaded:  # a finished game's save file, as the server sent it (check it before use)
    game_id: int
    text: str


@dataclass(frozen=True)
class Said:  # the server refused a lobby request (NO): why
    text: str


class OnlineClient(NetClient):
    def __init__(self, host: str, port: int, name: str, on_event: Callable[[object], None], config: Path) -> None:
        super().__init__(host, port, "play", "", on_event)
        self.name, self.config = name, config
        self.revision = 1  # what the server's lobby knows (LOBBY): 2 and later take RESIGN and ABORT
        self.game_id: int | None = None
        self._rows: list[tuple[str, ...]] = []
        self._download: tuple[int, int, list[bytes]] | None = None
        self._listing = 0  # LISTs asked and not answered yet: the OFFERs that come are their rows, not news

    async def run(self) -> None:
        """Connect, check the pin, log in; follow the lobby (and games) until shutdown or a refusal."""
        self._logged_in = False  # once: a drop after it is retried
        while not self._stopped:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(self.host, self.port, limit=MAX_LINE, ssl=client_context(),
                                            ssl_handshake_timeout=CONNECT_TIMEOUT_S), CONNECT_TIMEOUT_S)
            except (OSError, asyncio.TimeoutError) as e:
                if not self._logged_in:
                    why = getattr(e, "strerror", None) or str(e) or "no answer"
                    self.on_event(Lost(f"cannot connect to {self.host}:{self.port}: {why}", False))
                    return
                await asyncio.sleep(RETRY_S)
                continue
            self.conn = Connection(reader, writer, RateLimit(HOST_RATE_PER_S, HOST_BURST), VERBS)
            try:
                self._check_pin(writer)
            except (CertificateChanged, StorageError) as e:
                self.conn.close()
                self.on_event(Lost(str(e), False))
                return
            kept = load_token(self.config, self.host, self.port)
            if kept is not None:
                self.conn.send("HELLO", PRODUCT, VERSION, "resume", kept[1])
            else:
                self.conn.send("HELLO", PRODUCT, VERSION, "lobby", self.name)
            self.welcomed = False
            self.undo_waiting = self.undo_question = False
            self._rows, self._listing, self._download = [], 0, None
            if not await self._follow("server", lambda: self._logged_in):
                return
            await asyncio.sleep(RETRY_S)

    def _check_pin(self, writer: asyncio.StreamWriter) -> None:
        der = writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
        pin = check_pin(self.config, self.host, self.port, fingerprint(der))
        self.on_event(Pinned(pin.fingerprint, pin.status == "new"))

    # ------------------------------------------------------------------ what the lobby screen sends

    def request(self, verb: str, *words: object) -> bool:
        if not self.connected:
            return False
        self.conn.send(verb, *words)
        return True

    @property
    def can_resign(self) -> bool:
        """The server takes RESIGN and ABORT (an older one would cut the connection off for them)."""
        return self.revision >= 2

    def close(self, reason: str = "goodbye") -> None:
        """The game screen is left: stop following a watched game; the connection stays (shutdown ends it)."""
        if self.role == "watch" and self.game_id is not None:
            self.request("LEAVE")
            self.game_id = None

    def shutdown(self, reason: str = "goodbye") -> None:
        NetClient.close(self, reason)

    # ------------------------------------------------------------------ what the server sends

    def _handle(self, msg: Message) -> None:
        verb, words = msg.verb, msg.words
        if verb == "LOBBY":
            self.revision = msg.number(0, what="lobby revision")
            self._logged_in = True
            self.name = check_name(words[1])
            token = check_token(words[2])
            save_token(self.config, self.host, self.port, self.name, token)
            self.on_event(InLobby(self.name))
        elif verb == "OFFER" and not self._listing:
            self.on_event(Offered(words))
        elif verb in ("OFFER", "PLAYER", "GAME", "RATING"):
            if len(self._rows) < MAX_ROWS:
                self._rows.append(words)
        elif verb == "LISTED":
            rows, self._rows = tuple(self._rows), []
            self._listing = max(0, self._listing - 1)
            self.on_event(Listed(msg.choice(0, LIST_KINDS), rows))
        elif verb == "GONE":
            self.on_event(Withdrawn(words[0]))
        elif verb == "START":
            self.game_id = msg.number(0, what="game id")
            self.role = msg.choice(1, ("play", "watch"))
            self.welcomed, self.seat = False, None
            self.on_event(Started(self.game_id, self.role))
        elif verb == "OVER":
            game_id = msg.number(0, what="game id")
            if game_id == self.game_id:
                self.game_id = None
            self.on_event(Over(game_id, words[1], words[2]))
        elif verb == "NO":
            self.on_event(Said(msg.text))
        elif verb in ("SAVE", "DATA"):
            self._file(msg)
        else:
            super()._handle(msg)

    def list(self, kind: str, arg: str = "-") -> bool:
        if self.request("LIST", kind, arg):
            self._listing += 1
            return True
        return False

    def _file(self, msg: Message) -> None:
        if msg.verb == "SAVE":
            size = msg.number(1, hi=MAX_SAVE_BYTES, what="save size")
            self._download = (msg.number(0, what="game id"), size, [])
            return
        if self._download is None:
            raise ProtocolError("DATA without SAVE")
        game_id, size, parts = self._download
        try:
            parts.append(base64.b64decode(msg.words[0], validate=True))
        except (binascii.Error, ValueError):
            raise ProtocolError("DATA that is not base64") from None
        got = sum(len(p) for p in parts)
        if got > size:
            raise ProtocolError("more DATA than the SAVE announced")
        if got == size:
            self._download = None
            self.on_event(Downloaded(game_id, b"".join(parts).decode("utf-8", "replace")))
