"""`termarena serve` lets in only pages of its own: a websocket from another origin or a request naming
another host (DNS rebinding) gets 403 and starts nothing, and at most --max-sessions apps run at once.
The server runs in this process on loopback, with a stand-in app (a few lines of Python that speak
textual-serve's start line) so that each session is cheap; test_serve.py runs the real command."""
from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import sys
import time

import pytest

from tests.helpers.serving import free_port

aiohttp = pytest.importorskip("aiohttp", reason="textual-serve is not installed (pip install -e '.[web]')")
from aiohttp.test_utils import TestServer  # noqa: E402

from tui.web_server import Door, GuardedServer  # noqa: E402

# leaves its pid in the folder, says it is a Textual app, and quits at the first byte it is sent
STAND_IN = ("import os, sys; open(os.path.join(sys.argv[1], str(os.getpid())), 'w').close(); "
            "print('__GANGLION__', flush=True); sys.stdin.buffer.read(1)")


@pytest.mark.parametrize("header, ok", [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("LOCALHOST:8000", True), ("[::1]:8000", True),
    ("localhost.:8000", True),
    ("attacker.example:8000", False), ("127.0.0.1:8001", False), ("127.0.0.1", False), ("", False),
    ("127.0.0.1:8000:1", False), ("[::1]x", False), ("127.0.0.1:+800", False), ("10.0.0.5:8000", False),
])
def test_a_loopback_server_answers_to_its_own_names_only(header, ok):
    door = Door("127.0.0.1", 8000, ("mybox",))
    assert door.host_ok(header) is ok
    assert door.origin_ok(f"http://{header}") is ok


@pytest.mark.parametrize("origin", [
    "http://evil.example", "http://127.0.0.1:8000.evil.example", "null", "file://", "ws://127.0.0.1:8000",
    "http://127.0.0.1:8000/path", "http://evil.example:8000", None,
])
def test_other_origins_are_not_pages_of_this_server(origin):
    door = Door("127.0.0.1", 8000)
    assert door.refusal("127.0.0.1:8000", origin, websocket=True)
    assert door.refusal("127.0.0.1:8000", None, websocket=False) is None  # a page load sends no Origin
    why = door.refusal("127.0.0.1:8000", f"{origin}\x1b]52;c;cm0gLXJmIH4=\x07", websocket=True)
    assert "\x1b" not in why and "\x07" not in why  # the refusal is printed on the server's terminal


def test_on_every_address_any_ip_and_the_machines_names_are_this_server_but_no_other_name():
    door = Door("0.0.0.0", 80, ("mybox", "mybox.lan."))
    for header in ("192.168.1.20", "192.168.1.20:80", "[fe80::1]", "mybox", "MyBox.lan", "localhost"):
        assert door.host_ok(header), header
    assert not door.host_ok("attacker.example") and not door.host_ok("192.168.1.20:8080")
    assert not door.origin_ok("https://mybox.lan")  # https means port 443, and this one serves on 80
    assert Door("0.0.0.0", 443, ("mybox",)).origin_ok("https://mybox")


@contextlib.asynccontextmanager
async def serving(folder, max_sessions: int = 4):
    """A GuardedServer with the stand-in app, on loopback: (its base URL, the server)."""
    port = free_port()
    command = "exec " + shlex.join([sys.executable, "-c", STAND_IN, str(folder)])
    server = GuardedServer(command, "127.0.0.1", port, max_sessions=max_sessions, title="termarena")
    server.console.quiet = True
    test_server = TestServer(await server._make_app(), host="127.0.0.1", port=port)
    await test_server.start_server()
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        await test_server.close()


async def started(folder, count: int) -> list[int]:
    """The pids of the stand-in apps once `count` have started."""
    end = time.monotonic() + 30
    while len(os.listdir(folder)) < count:
        assert time.monotonic() < end, "the app did not start"
        await asyncio.sleep(0.02)
    return [int(name) for name in os.listdir(folder)]


async def ended(pid: int) -> None:
    end = time.monotonic() + 30
    while os.path.exists(f"/proc/{pid}") and _state(pid) != "Z":
        assert time.monotonic() < end, f"app {pid} outlived its websocket"
        await asyncio.sleep(0.02)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


async def status(http, url: str, **headers) -> int:
    async with http.get(url, headers=headers) as response:
        return response.status


async def test_other_origins_and_other_host_names_get_403_and_start_no_app(tmp_path):
    async with serving(tmp_path) as (url, server), aiohttp.ClientSession() as http:
        port = url.rsplit(":", 1)[1]
        for headers in ({"Origin": "http://evil.example"}, {}, {"Origin": "null"},
                        {"Host": f"attacker.example:{port}", "Origin": f"http://attacker.example:{port}"}):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{url}/ws", headers=headers)
            assert refused.value.status == 403
        assert await status(http, url + "/", Host=f"attacker.example:{port}") == 403  # DNS rebinding
        assert await status(http, url + "/static/js/textual.js", Host=f"attacker.example:{port}") == 403
        assert await status(http, url + "/", Origin="http://evil.example") == 403
        assert await status(http, url + "/", Host=f"localhost:{port}") == 200
        assert os.listdir(tmp_path) == [] and server.sessions == 0
        # the page's own origin, in its localhost form: an app starts, and ends with its websocket
        ws = await http.ws_connect(f"{url}/ws", origin=f"http://localhost:{port}")
        [pid] = await started(tmp_path, 1)
        await ws.close()
        await ended(pid)


async def test_more_tabs_than_the_cap_are_told_to_wait_and_start_no_app(tmp_path):
    async with serving(tmp_path, max_sessions=2) as (url, server), aiohttp.ClientSession() as http:
        origin = url
        first = await http.ws_connect(f"{url}/ws", origin=origin)
        second = await http.ws_connect(f"{url}/ws", origin=origin)
        pids = await started(tmp_path, 2)
        third = await http.ws_connect(f"{url}/ws", origin=origin)
        said = await asyncio.wait_for(third.receive(), 10)
        assert b"all 2 sessions are in use" in said.data
        assert (await asyncio.wait_for(third.receive(), 10)).type == aiohttp.WSMsgType.CLOSE
        assert third.close_code == aiohttp.WSCloseCode.TRY_AGAIN_LATER
        assert len(os.listdir(tmp_path)) == 2 and server.sessions == 2
        await first.close()  # the first tab's app ends; then a new tab gets its place
        await asyncio.wait_for(_until(lambda: server.sessions == 1), 30)
        assert sum(_state(pid) not in ("Z",) for pid in pids) == 1
        fourth = await http.ws_connect(f"{url}/ws", origin=origin)
        await started(tmp_path, 3)
        for ws in (second, fourth):
            await ws.close()
        for pid in [int(n) for n in os.listdir(tmp_path)]:
            await ended(pid)


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.02)


def test_the_servers_log_is_one_line_a_record_with_no_control_character():
    import logging

    from tui.web_server import _OneLine

    try:
        raise ValueError("bad header\n  b'User-Agent: x\x1b]52;c;cm0gLXJmIH4=\x07'")
    except ValueError:
        record = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error handling %s",
                                   ("GET /\x1b[2J",), sys.exc_info())
    line = _OneLine().format(record)
    assert "\n" not in line and "\x1b" not in line and "\x07" not in line
    assert line.startswith("error: Error handling GET /\\x1b[2J: ValueError: bad header")


@pytest.mark.parametrize("value, cells", [
    ("120", 120), (10**12, 1000), ("1000000000", 80), (0, 1), (-5, 1), (True, 80), ("1e3", 80), (None, 80),
    ("١٢", 80), (2.5, 80),
])
def test_terminal_sizes_a_page_asks_for_are_bounded(value, cells):
    from tui.web_server import _cells

    assert _cells(value, 80) == cells


async def test_a_page_that_sends_junk_ends_its_own_session_only(tmp_path):
    async with serving(tmp_path) as (url, server), aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{url}/ws?width=99999999999", origin=url)
        [pid] = await started(tmp_path, 1)
        await ws.send_str("not json {")
        assert (await asyncio.wait_for(ws.receive(), 30)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        await ended(pid)
        await asyncio.wait_for(_until(lambda: server.sessions == 0), 30)
        assert await status(http, url + "/") == 200  # the server serves on
