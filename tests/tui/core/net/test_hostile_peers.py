"""A peer that breaks the protocol is cut off with a reason, and neither app stops: garbage, a 10 MB
line, a flood of 10,000 messages, a wrong join code, and a fake host doing the same to a joiner (strangers
who guess codes or hold connections open: test_strangers.py)."""
from __future__ import annotations

import asyncio

import pytest

from tests.helpers.app import message
from tests.helpers.net import CODE, client_app, host_app, listening, net_session, raw_peer, until
from tui.core.net.protocol import MAX_LINE

HELLO = f"HELLO termarena 1 play {CODE}\n".encode()


async def bye_line(reader) -> str | None:
    """The host's last words before it closes: the BYE line (other lines before it are skipped); None
    when the host's close reset the connection first (TCP does so when unread data is left behind)."""
    try:
        while True:
            line = await asyncio.wait_for(reader.readline(), 10)
            assert line, "closed without BYE"
            if line.startswith(b"BYE"):
                assert await asyncio.wait_for(reader.read(), 10) == b""  # and the connection is closed
                return line.decode().strip()
    except (ConnectionResetError, ValueError):  # ValueError: a line over the reader's limit
        return None


async def flood(writer, data: bytes) -> None:
    writer.write(data)
    try:
        await writer.drain()
    except OSError:
        pass  # the host hung up mid-flood: that is the point


ATTACKS = {
    "garbage": (b"\x00\xff\xfe junk \x07\n", "not UTF-8"),
    "http": (b"GET / HTTP/1.1\n", "unknown message"),
    "wrong-code": (HELLO.replace(CODE.encode(), b"guess-1234"), "wrong join code"),
    "version": (HELLO.replace(b" 1 ", b" 3 "), "protocol version 3 is not supported"),  # it speaks 1 and 2
    "bad-move": (HELLO + b"MOVE 1\n", "MOVE lacks its text"),
    "10MB-line": (HELLO + b"X" * (10 * 1024 * 1024), "line too long"),
    "10000-messages": (HELLO + b"UNDO ASK\n" * 10_000, "too many messages"),
}


@pytest.mark.parametrize("attack, reason", list(ATTACKS.values()), ids=list(ATTACKS))
async def test_the_host_cuts_a_bad_peer_off_with_the_reason_and_plays_on(attack, reason):
    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        async with raw_peer(port) as (reader, writer):
            sender = asyncio.ensure_future(flood(writer, attack))
            bye = await bye_line(reader)
            await sender
        assert bye is None or reason in bye
        await until(hp, lambda: reason in message(host))
        # the host still works: it lets the next one in
        async with raw_peer(port) as (reader, writer):
            writer.write(f"HELLO termarena 1 watch {CODE}\n".encode())
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"WELCOME 1 watch - connect4 5 - ")


async def test_a_joiner_with_a_wrong_code_is_refused_and_told_why():
    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        joiner = client_app(port, code="wrong")
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: joiner.return_code is not None)
        assert joiner.return_code == 1 and net_session(joiner) is None and not host.net_link.connected
        assert "wrong join code" in joiner.net_error
        await until(hp, lambda: "wrong join code" in message(host))


async def fake_host(lines: bytes):
    """A server that welcomes a joiner, then sends `lines`; returns (server, port, got) with what it read."""
    got: list[bytes] = []

    async def serve(reader, writer):
        got.append(await reader.readline())
        writer.write(b"WELCOME 1 play 2 connect4 5 - 0\n" + lines)
        try:
            await writer.drain()
            got.append(await reader.read(10_000))
        except ConnectionError:
            pass
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1], got


HOSTS = {
    "escape-codes": (b"MOVE 1 4\nMOVE 2 \x1b[2J\n", "control characters"),
    "illegal-move": (b"MOVE 1 12\n", "refuses"),  # the joiner's own engine checks the host's moves
    "10MB-line": (b"PEER " + b"a" * (MAX_LINE * 2500), "line too long"),
    "10000-messages": (b"PEER back\n" * 10_000, "too many messages"),
    "command": (b"RUN rm -rf /\n", "unknown message"),
}


@pytest.mark.parametrize("lines, reason", list(HOSTS.values()), ids=list(HOSTS))
async def test_a_joiner_stops_following_a_host_that_breaks_the_protocol(lines, reason):
    server, port, got = await fake_host(lines)
    async with server:
        joiner = client_app(port)
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and reason in message(joiner))
            assert "Disconnected" in message(joiner)
            assert got[0] == f"HELLO termarena 2 play {CODE}\n".encode()  # it offers version 2; WELCOME 1 is taken
            await jp.press("5")  # the app is alive, and takes no move for a game it no longer follows
            assert net_session(joiner).ply <= 1


async def test_a_flood_of_connections_is_turned_away_and_a_real_joiner_still_gets_in():
    from tui.core.net.gate import GateLimits

    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(50)]
        per_address = GateLimits().pending_per_address
        for reader, _ in idle[:-per_address]:  # the oldest give way: a pending slot is all they held
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"BYE too many connections")
        joiner = client_app(port)  # from the same address, while the newest idle ones still wait
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and host.net_link.connected)
        for _, writer in idle:
            writer.close()


async def test_a_host_asking_to_take_back_25_times_puts_one_question_on_the_joiners_screen():
    server, port, got = await fake_host(b"UNDO ASK\n" * 25 + b"MOVE 1 4\n")
    async with server:
        joiner = client_app(port)
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and net_session(joiner).ply == 1)
            assert [type(s).__name__ for s in joiner.screen_stack].count("ConfirmScreen") == 1


async def test_a_move_the_host_refuses_is_told_in_the_player_s_numbers():
    # a joiner's own engine checks its moves first, so only a joiner that skips it (this raw one) hears
    # the host's refusal: column 4 (the wire's "3") filled, then once more
    host = host_app(seat=1)  # the joiner moves first
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        async with raw_peer(port) as (reader, writer):
            async def heard(verb: str) -> str:
                while not (line := (await asyncio.wait_for(reader.readline(), 10)).decode()).startswith(verb):
                    assert line, f"closed while waiting for {verb}"
                return line.strip()

            writer.write(HELLO)
            assert (await heard("WELCOME")).startswith("WELCOME 1 play 1 connect4")
            for number in range(1, 8):
                if number % 2:
                    writer.write(f"MOVE {number} 3\n".encode())
                else:
                    await hp.press("4")
                await until(hp, lambda: net_session(host).ply == number)
            await hp.press("1")
            await until(hp, lambda: net_session(host).ply == 8)
            writer.write(b"MOVE 9 3\n")
            assert await heard("REFUSED") == ("REFUSED 9 illegal move '4': Chosen column is already filled: "
                                              "wrong action \"4\" (Already filled column)")
