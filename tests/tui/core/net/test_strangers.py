"""Strangers at the host's door, over real loopback sockets: a stranger guessing codes from 127.0.0.2 is
slowed then refused, idle connections cannot keep the real joiner (127.0.0.1) out and are closed after
the time bound, and a burst of take-back requests puts one question on the host's screen.  The host's
waits are recorded, not slept, and its clock is the test's."""
from __future__ import annotations

import asyncio
import contextlib

import pytest

from tests.helpers.app import message
from tests.helpers.net import CODE, host_app, listening, until
from tui.core.net.events import CutOff
from tui.core.net.gate import GateLimits
from tui.core.net.host import NetHost
from tui.core.session import Session
from tui.core.specs import REMOTE, PlayerSpec

STRANGER = "127.0.0.2"


@contextlib.asynccontextmanager
async def bare_host(**options):
    """A NetHost without the app (its events in a list), listening on loopback: (host, port, events)."""
    events: list[object] = []
    host = NetHost(Session("connect4", [PlayerSpec("human"), REMOTE], 5), 0, CODE, events.append, **options)
    port = await host.start("127.0.0.1", 0)
    try:
        yield host, port, events
    finally:
        host.close()


def recorded(waits: list[float]):
    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0)
    return sleep


async def knock(port: int, code: str, source: str = STRANGER, role: str = "play") -> str:
    """HELLO with `code` from `source`: the host's first line ("" when it closed without one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(f"HELLO termarena 1 {role} {code}\n".encode())
        return (await asyncio.wait_for(reader.readline(), 10)).decode().strip()
    except ConnectionResetError:
        return ""
    finally:
        writer.close()


async def first_words(port: int, source: str = STRANGER) -> str:
    """Connect and say nothing: the host's first line, and it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        line = await asyncio.wait_for(reader.readline(), 10)
        assert await asyncio.wait_for(reader.read(), 10) == b""
        return line.decode().strip()
    finally:
        writer.close()


def wrong_codes(events) -> list[str]:
    return [e.reason for e in events if isinstance(e, CutOff) and e.reason.startswith("wrong join code")]


async def test_wrong_codes_from_one_address_are_slowed_then_refused_and_the_real_joiner_gets_in():
    now, waits = [0.0], []
    async with bare_host(now=lambda: now[0], sleep=recorded(waits)) as (host, port, events):
        answers = [await knock(port, f"guess-{n}") for n in range(10)]
        assert all(a.startswith("BYE wrong join code") for a in answers)
        assert answers[-1] == "BYE wrong join code; too many wrong join codes: 127.0.0.2 is refused for 600 s"
        assert waits == [1, 2, 4, 8, 8, 8, 8]  # the 4th to 10th codes waited before they were checked
        assert len(wrong_codes(events)) == 10 and "refused for 600 s" in wrong_codes(events)[-1]
        now[0] += 100
        # locked out: refused at once, without a slot, the right code included, and the host says it once
        assert await first_words(port) == "BYE too many wrong join codes: 127.0.0.2 is refused for 500 s more"
        assert (await knock(port, CODE)).startswith(("BYE too many wrong join codes", ""))
        assert host.player is None and len(wrong_codes(events)) == 10
        assert (await knock(port, CODE, source="127.0.0.1")).startswith("WELCOME 1 play 2 connect4 5")
        now[0] += 500  # the lock is over: the stranger's count starts again, with no wait
        assert (await knock(port, "guess-11")) == "BYE wrong join code" and len(waits) == 7


@pytest.mark.slow  # 400 real connections: over 1 s
async def test_400_wrong_codes_at_once_get_ten_checked_while_the_real_joiner_gets_in():
    now, waits = [0.0], []
    async with bare_host(now=lambda: now[0], sleep=recorded(waits)) as (host, port, events):
        flood = [asyncio.ensure_future(knock(port, f"guess-{n}")) for n in range(400)]
        joiner = asyncio.ensure_future(knock(port, CODE, source="127.0.0.1"))
        answers = await asyncio.gather(*flood)
        assert (await joiner).startswith("WELCOME 1 play 2 connect4 5")
        assert len(wrong_codes(events)) <= 10  # the rest gave way to newer ones, or met the lock
        while not host.gate.locked_for("127.0.0.2"):  # the stranger goes on, one at a time
            assert (await knock(port, "guess")).startswith("BYE wrong join code")
        assert len(wrong_codes(events)) == 10
        assert {a.split(":")[0] for a in answers} <= {
            "BYE wrong join code", "BYE wrong join code; too many wrong join codes", "BYE too many wrong join codes",
            "BYE too many connections are waiting to join", ""}


async def test_idle_connections_cannot_keep_the_real_joiner_out():
    async with bare_host() as (host, port, events):
        # 40 idle connections from 40 addresses: 32 pending slots, the oldest give way to the newest
        idle = [await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.1.{n}", 0)) for n in range(40)]
        assert (await knock(port, CODE, source="127.0.0.1")).startswith("WELCOME")
        for reader, _ in idle[:9]:  # the joiner took a slot too
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"BYE too many connections are waiting")
        # 40 from the joiner's own address (everyone is 127.0.0.1 through an ssh tunnel): 4 pending slots
        idle += [await asyncio.open_connection("127.0.0.1", port) for _ in range(40)]
        assert (await knock(port, CODE, source="127.0.0.1")).startswith("WELCOME")
        # a stranger who reconnects as fast as it can, all along
        stop = asyncio.Event()

        async def reconnect() -> None:
            while not stop.is_set():
                idle.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(STRANGER, 0)))
                idle.pop(0)[1].close()

        stranger = asyncio.ensure_future(reconnect())
        for _ in range(5):
            assert (await knock(port, CODE, source="127.0.0.1")).startswith("WELCOME")
        stop.set()
        await stranger
        assert len(host._pending) <= 32 and host.player is not None
        for _, writer in idle:
            writer.close()


async def test_a_connection_without_its_code_is_closed_after_the_bound():
    async with bare_host(limits=GateLimits(auth_s=0.2)) as (host, port, events):
        assert await first_words(port) == "BYE no HELLO within 0.2 s"
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"HELLO termarena 1 play test-")  # half a line, and no more (slowloris)
        assert await asyncio.wait_for(reader.readline(), 10) == b"BYE no HELLO within 0.2 s\n"
        writer.close()
        assert len(host._pending) == 0
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while not len(host._pending):  # the host has taken it in
            await asyncio.sleep(0.01)
        host.close()  # a host that quits lets no waiting connection in after it
        assert await asyncio.wait_for(reader.readline(), 10) == b"BYE the host has left\n"
        writer.close()


async def test_a_burst_of_take_back_requests_asks_the_host_once():
    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"HELLO termarena 1 play {CODE}\n".encode())
        assert (await reader.readline()).startswith(b"WELCOME")
        await until(hp, lambda: host.net_link.connected)
        await hp.press("5")
        assert await reader.readline() == b"MOVE 1 4\n"
        writer.write(b"MOVE 2 3\n" + b"UNDO ASK\n" * 25)
        assert await reader.readline() == b"MOVE 2 3\n"
        for _ in range(24):  # every request but the first is refused at once
            assert await asyncio.wait_for(reader.readline(), 10) == b"UNDO NO\n"
        await until(hp, lambda: type(host.screen).__name__ == "ConfirmScreen")
        assert [type(s).__name__ for s in host.screen_stack].count("ConfirmScreen") == 1
        await hp.press("y")  # the one question, answered: taken back to the joiner's turn
        assert await asyncio.wait_for(reader.readline(), 10) == b"UNDONE 1\n"
        await until(hp, lambda: "ConfirmScreen" not in [type(s).__name__ for s in host.screen_stack])
        assert "Taken back" in message(host)
        writer.close()
