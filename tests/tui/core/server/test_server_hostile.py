"""Hostile clients at the server, over TLS on loopback, while two players play a whole game: garbage, a
10 MB line, a flood, control codes and look-alikes in names, a crash in one session, and hundreds of idle
connections are cut off; the game goes on to its end and the server lets the next player in."""
from __future__ import annotations

import asyncio
import random

import pytest

from tests.helpers.server import Peer, Side, login, running_server, start_game
from tui.core.net.gate import GateLimits
from tui.core.server.lobby import ServerLimits

STRANGER = "127.0.0.2"
LIMITS = ServerLimits(per_address=16, handshake_s=1.0, gate=GateLimits(auth_s=1.0, pending=64, pending_per_address=8))

ATTACKS = {
    "garbage": (b"\x00\xff\xfe junk \x07\n", "not UTF-8"),
    "http": (b"GET / HTTP/1.1\n", "unknown message"),
    "join-a-host": (b"HELLO termarena 1 play code\n", "termarena online"),
    "escape-in-name": (b"HELLO termarena 1 lobby \x1b[31mred\n", "control characters"),
    "bidi-in-name": ("HELLO termarena 1 lobby ab\u202edc\n".encode(), "control characters"),
    "look-alike-name": ("HELLO termarena 1 lobby \u0430lice\n".encode(), "is not 1 to 20"),
    "long-name": (b"HELLO termarena 1 lobby " + b"n" * 21 + b"\n", "is not 1 to 20"),
    "10MB-line": (b"X" * (10 * 1024 * 1024), "line too long"),
    "flood": (b"HELLO termarena 1 lobby flooder\n" + b"LIST seeks -\n" * 10_000, "too many messages"),
    "move-outside-a-game": (b"HELLO termarena 1 lobby mover\nDATA abc\n", "not a message a client sends"),
}


async def last_words(peer: Peer) -> str | None:
    """The server's BYE (the lines before it skipped); None when the connection broke first."""
    while True:
        msg = await peer.read()
        if msg is None:
            return None
        if msg.verb == "BYE":
            return msg.text


async def attack(port: int, data: bytes) -> str | None:
    peer = await Peer.connect(port, source=STRANGER)
    peer.writer.write(data)
    try:
        return await last_words(peer)
    finally:
        peer.close()


async def test_hostile_clients_are_cut_off_while_a_game_goes_on(tmp_path):
    logged: list[str] = []
    async with running_server(tmp_path, LIMITS, logged.append) as (server, port):
        a, b, game_id = await start_game(port)
        game = asyncio.gather(Side(a, random.Random(5)).follow(), Side(b, random.Random(6)).follow())
        for name, (data, reason) in ATTACKS.items():
            words = await attack(port, data)
            assert words is None or reason in words, (name, words)
        sides = await game
        assert sides[0].game.is_over() and sides[0].moves == sides[1].moves
        assert (await login(port, "dave", source=STRANGER)).name == "dave"  # the next one gets in
        assert not any("internal error" in line for line in logged)


async def test_a_crash_in_one_session_cuts_that_one_off_only(tmp_path, monkeypatch):
    logged: list[str] = []
    async with running_server(tmp_path, LIMITS, logged.append) as (server, port):
        a, b, game_id = await start_game(port)
        game = asyncio.gather(Side(a, random.Random(5)).follow(), Side(b, random.Random(6)).follow())

        def broken(self, member, msg):
            raise RuntimeError("\x1b]52;c;evil\x07 bug")
        monkeypatch.setitem(__import__("tui.core.server.lobby", fromlist=["_HANDLERS"])._HANDLERS, "FETCH", broken)
        victim = await login(port, "victim")
        victim.send("FETCH", 1)
        assert await last_words(victim) == "internal error"
        sides = await game
        assert sides[0].game.is_over()
        assert any("RuntimeError" in line and "\\x1b" in line and "\x1b" not in line for line in logged)


@pytest.mark.slow  # hundreds of real connections: over 1 s
async def test_hundreds_of_idle_connections_are_closed_and_cannot_keep_a_player_out(tmp_path):
    async with running_server(tmp_path, LIMITS) as (server, port):
        a, b, game_id = await start_game(port)
        game = asyncio.gather(Side(a, random.Random(5)).follow(), Side(b, random.Random(6)).follow())
        # TCP without TLS: closed after the handshake bound
        raw = [await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.3", 0)) for _ in range(300)]
        # TLS without HELLO: 8 wait at most from one address (the oldest give way), then time out
        idle = [await Peer.connect(port, source=STRANGER) for _ in range(20)]
        assert (await login(port, "erin")).name == "erin"  # from another address, at once
        words = await asyncio.gather(*(last_words(p) for p in idle))
        assert words.count("no HELLO within 1 s") == 8
        assert all("waiting to log in" in w for w in words[:12])
        # logged in: 16 connections at most from one address
        many = [await login(port, f"p{i}", source=STRANGER) for i in range(16)]
        assert await attack(port, b"") == "too many connections from your address"
        for p in many:
            p.close()
        for reader, writer in raw:
            assert await asyncio.wait_for(reader.read(), 20) == b""
            writer.close()
        sides = await game
        assert sides[0].game.is_over()
