"""Helpers of the server tests: a server on loopback with TLS, and peers speaking its protocol by hand."""
from __future__ import annotations

import asyncio
import atexit
import contextlib
import random
import re
import shutil
import ssl
import sys
import tempfile
from pathlib import Path

from engines import get_game
from tui.core.net.protocol import Message, decode, encode
from tui.core.server.lobby import Server, ServerLimits
from tui.core.server.protocol import VERBS
from tui.core.server.tls import CERT_NAME, KEY_NAME, client_context, ensure_certificate, server_context

WAIT_S = 20.0  # only a bound against a hang: nothing is measured


_made: list[Path] = []


def give_certificate(data: Path) -> None:
    """One certificate for the whole test run (openssl takes a while), copied into `data`."""
    if not _made:
        _made.append(Path(tempfile.mkdtemp(prefix="termarena-cert-")))
        atexit.register(shutil.rmtree, _made[0], True)
        ensure_certificate(_made[0])
    data.mkdir(parents=True, exist_ok=True)
    for name in (CERT_NAME, KEY_NAME):
        if not (data / name).exists():
            shutil.copy(_made[0] / name, data / name)


@contextlib.asynccontextmanager
async def running_server(data: Path, limits: ServerLimits = ServerLimits(), log=None, port: int = 0):
    give_certificate(data)
    context, _ = server_context(data)
    server = Server(data, limits=limits, log=log or (lambda line: None))
    port = await server.start("127.0.0.1", port, context)
    try:
        yield server, port
    finally:
        server.close()


# what a server process says once each of its ports listens
_LISTENING = {"tls": r"listening on 127\.0\.0\.1:(\d+)", "ssh": r"ssh on 127\.0\.0\.1:(\d+)",
              "web": r"browsers on 127\.0\.0\.1:(\d+)"}


@contextlib.asynccontextmanager
async def server_process(data: Path, *options: str):
    """A real `termarena server --data DATA --port 0 OPTIONS` (`--web-port 0`, `--ssh-port 0`): (the
    process, its ports by front: "tls", "web", "ssh"), once they all listen; killed after the block."""
    wanted = {"tls"} | {front for front in ("ssh", "web") if f"--{front}-port" in options}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui", "server", "--data", str(data), "--port", "0", *options,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        start_new_session=True)
    ports: dict[str, int] = {}
    try:
        while set(ports) != wanted:
            line = (await asyncio.wait_for(proc.stderr.readline(), 30)).decode()
            assert line, "the server ended before listening"
            for front in wanted:
                if found := re.search(_LISTENING[front], line):
                    ports[front] = int(found.group(1))
        yield proc, ports
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


class Peer:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.name = self.token = ""

    @classmethod
    async def connect(cls, port: int, source: str = "127.0.0.1", tls: ssl.SSLContext | None = None) -> "Peer":
        reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=tls or client_context(),
                                                       local_addr=(source, 0), limit=1 << 16)
        return cls(reader, writer)

    def send(self, verb: str, *words: object, text: str = "") -> None:
        self.writer.write(encode(verb, *words, text=text))

    async def read(self) -> Message | None:
        """The next message; None when the server closed the connection."""
        try:
            line = await asyncio.wait_for(self.reader.readline(), WAIT_S)
        except (ConnectionError, ssl.SSLError):
            return None
        return decode(line, VERBS) if line else None

    async def expect(self, *verbs: str) -> Message:
        """The next message of one of `verbs` (others are skipped)."""
        while True:
            msg = await self.read()
            assert msg is not None, f"closed while waiting for {verbs}"
            if msg.verb in verbs:
                return msg

    async def listed(self, kind: str, arg: str = "-") -> list[Message]:
        self.send("LIST", kind, arg)
        rows = []
        while (msg := await self.expect("OFFER", "PLAYER", "GAME", "RATING", "LISTED")).verb != "LISTED":
            rows.append(msg)
        return rows

    def close(self) -> None:
        self.writer.close()


async def login(port: int, name: str, **options) -> Peer:
    peer = await Peer.connect(port, **options)
    peer.send("HELLO", "termarena", 1, "lobby", name)
    msg = await peer.expect("LOBBY", "BYE")
    assert msg.verb == "LOBBY", msg
    peer.name, peer.token = msg.words[1], msg.words[2]
    return peer


async def resume(port: int, token: str) -> Peer:
    peer = await Peer.connect(port)
    peer.send("HELLO", "termarena", 1, "resume", token)
    msg = await peer.expect("LOBBY", "BYE")
    assert msg.verb == "LOBBY", msg
    peer.name, peer.token = msg.words[1], msg.words[2]
    return peer


async def start_game(port: int, game: str = "connect4", clock: str = "5+3", rated: bool = True,
                     names=("alice", "bob")) -> tuple[Peer, Peer, int]:
    """Two players logged in, the first seeks, the second accepts: (first, second, game id)."""
    a, b = await login(port, names[0]), await login(port, names[1])
    a.send("SEEK", game, clock, "rated" if rated else "casual")
    offer = await b.expect("OFFER")
    b.send("ACCEPT", offer.words[0])
    started = [await p.expect("START") for p in (a, b)]
    assert started[0].words == started[1].words
    return a, b, int(started[0].words[0])


class Side:
    """One player's or watcher's view of a game, from the protocol: WELCOME, then MOVEs."""

    def __init__(self, peer: Peer, rng: random.Random | None = None, stop_after: int | None = None) -> None:
        self.peer, self.rng, self.stop_after = peer, rng, stop_after
        self.seat: int | None = None
        self.game = None
        self.moves: list[str] = []
        self.over: Message | None = None
        self.ended: Message | None = None
        self.sent = 0
        self.known = 0

    async def follow(self) -> "Side":
        """Play random legal moves on our turns (a player) until OVER, or until `stop_after` moves."""
        while True:
            if self.stop_after is not None and len(self.moves) >= self.stop_after:
                return self
            msg = await self.peer.read()
            assert msg is not None, "the server closed the connection mid-game"
            if msg.verb == "WELCOME":
                self.seat = None if msg.words[2] == "-" else int(msg.words[2]) - 1
                self.game = get_game(msg.words[3]).new(int(msg.words[4]))
                self.moves, self.sent, self.known = [], 0, int(msg.words[6])  # the game so far follows
            elif msg.verb == "MOVE":
                number = int(msg.words[0])
                assert number == len(self.moves) + 1
                self.game.play(msg.text)
                self.moves.append(msg.text)
            elif msg.verb == "END":
                self.ended = msg
            elif msg.verb == "OVER":
                self.over = msg
                return self
            elif msg.verb in ("REFUSED", "BYE", "NO"):
                raise AssertionError(f"unexpected {msg}")
            self._maybe_move()

    def _maybe_move(self) -> None:
        g = self.game
        if (self.rng is None or g is None or self.seat is None or g.is_over() or g.current_player() != self.seat
                or self.sent > len(self.moves) or len(self.moves) < self.known):
            return
        move = self.rng.choice(g.legal_moves())
        self.sent = len(self.moves) + 1
        self.peer.send("MOVE", self.sent, text=g.move_to_str(move))
