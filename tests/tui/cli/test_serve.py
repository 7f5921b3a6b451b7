"""`termarena serve` without a browser: the apps it starts end with it (SIGKILL of the server included),
and a served app starts no external bot."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time

import pytest

from engines.referee.process import BotCrashed
from tests.helpers.serving import served
from tui.core.opponents import BotSeat
from tui.core.specs import SERVED_ENV


def session_pids(sid: int) -> set[int]:
    out = subprocess.run(["pgrep", "-s", str(sid)], capture_output=True, text=True).stdout.split()
    return {int(p) for p in out if not _zombie(int(p))}


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.slow  # a real server and the apps it starts
def test_the_served_apps_end_when_the_server_is_killed(tmp_path):
    aiohttp = pytest.importorskip("aiohttp", reason="textual-serve is not installed (pip install -e '.[web]')")
    with served(tmp_path) as (server, port):
        async def open_a_tab() -> None:  # what a browser's page does: the server starts an app for it
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24",
                                           origin=f"http://127.0.0.1:{port}")
                received = 0
                while received < 20_000:  # the app is up: its picker screen has come
                    received += len((await asyncio.wait_for(ws.receive(), 60)).data or b"")
                os.kill(server.pid, signal.SIGKILL)  # the server dies without a chance to close anything
                await ws.close()

        asyncio.run(open_a_tab())
        server.wait(10)
        end = time.monotonic() + 30
        while session_pids(server.pid) and time.monotonic() < end:
            time.sleep(0.1)
        assert not session_pids(server.pid), "a served app outlived the server"


@pytest.mark.slow  # a real server process
def test_the_command_refuses_other_origins_and_host_names_with_403(tmp_path):
    """The guard of tui/web_server.py (tested in test_serve_door.py) is the one `termarena serve` runs."""
    import http.client

    with served(tmp_path) as (server, port):
        def ask(path: str, **headers) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request("GET", path, headers=headers)
                return conn.getresponse().status
            finally:
                conn.close()

        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        assert ask("/ws", Origin="http://evil.example", **upgrade) == 403
        assert ask("/", Host=f"attacker.example:{port}") == 403
        assert ask("/ws", Origin=f"http://localhost:{port}", **upgrade) == 101  # the page's own (localhost form)


def test_a_served_app_starts_no_external_bot(monkeypatch):
    monkeypatch.setenv(SERVED_ENV, "1")
    with pytest.raises(BotCrashed, match="served to browsers"):
        BotSeat(1, "python3 -c 'print(1)'")
