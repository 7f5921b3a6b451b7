"""The browser front of `termarena server --web-port`: each tab runs `termarena online` as a guest of its
own, in a folder of its own (removed when the tab closes), with nothing of the server's environment,
behind the door and the caps of `termarena serve`.  The server runs in this process on loopback, with a
stand-in for termarena that writes down what it was given (test_web_browser.py runs the real app)."""
from __future__ import annotations

import asyncio
import contextlib
import json
import sys

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="textual-serve is not installed (pip install -e '.[web]')")

from tests.helpers.server import WAIT_S, running_server  # noqa: E402
from tui.core.server.pins import load_token  # noqa: E402
from tui.core.server.tls import server_context  # noqa: E402
from tui.core.server.web import SESSIONS_DIR, WebFront  # noqa: E402

# writes its arguments, folder and environment beside the test (whole: written aside, then renamed, so
# the test never reads half a file), says it is a Textual app, and quits at the first byte it is sent
# (`online 127.0.0.1:PORT --name NAME` follow the folder it writes to)
STAND_IN = ("import json, os, sys; "
            "f = os.path.join(sys.argv[1], str(os.getpid())); "
            "out = open(f + '.part', 'w'); "
            "json.dump({'argv': sys.argv[2:], 'cwd': os.getcwd(), 'env': dict(os.environ)}, out); out.close(); "
            "os.replace(f + '.part', f); "
            "print('__GANGLION__', flush=True); sys.stdin.buffer.read(1)")


def written(seen) -> list:
    return [p for p in seen.iterdir() if p.suffix != ".part"]


@contextlib.asynccontextmanager
async def web_front(data, seen):
    async with running_server(data) as (server, port):
        context, fingerprint = server_context(data)
        front = WebFront(server, data, await server.start_front_port(context, 8), fingerprint,
                         program=(sys.executable, "-c", STAND_IN, str(seen)))
        try:
            yield server, f"http://127.0.0.1:{await front.start('127.0.0.1', 0)}", front
        finally:
            await front.close()


async def until(condition) -> None:
    for _ in range(int(WAIT_S / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def test_each_tab_is_a_guest_of_its_own_in_a_folder_of_its_own_that_goes_with_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SERVER_SECRET", "not for the players")
    data, seen = tmp_path / "data", tmp_path / "seen"
    seen.mkdir()
    async with web_front(data, seen) as (server, url, front), aiohttp.ClientSession() as http:
        async with http.get(url + "/") as page:  # the page's links name the server as the browser did
            assert page.status == 200 and f'"ws://{url[7:]}/ws"' in await page.text()
        tabs = [await http.ws_connect(f"{url}/ws", origin=url) for _ in range(2)]
        await until(lambda: len(written(seen)) == 2)
        runs = [json.loads(p.read_text()) for p in written(seen)]
        names = set()
        for run in runs:
            online, address, flag, name = run["argv"]
            assert (online, address, flag) == ("online", f"127.0.0.1:{front.front_port}", "--name")
            assert name.startswith("guest-") and len(name) == 12
            names.add(name)
            env = run["env"]
            assert "SERVER_SECRET" not in env and env["HOME"] == run["cwd"]
            assert env["TEXTUAL_DRIVER"].startswith("textual.drivers.web_driver")
            assert env["TERMARENA_SERVED"].isdigit()  # no external bot, and it ends with the server
            assert run["cwd"].startswith(str(data / SESSIONS_DIR))
            kept = load_token(data / SESSIONS_DIR / run["cwd"].rsplit("/", 1)[1] / "config" / "termarena",
                              "127.0.0.1", front.front_port)
            assert kept[0] == name and server.store.name_of(kept[1]) == name  # its token logs it in as the guest
        assert len(names) == 2
        for tab in tabs:
            await tab.close()
        await until(lambda: not list((data / SESSIONS_DIR).iterdir()) and not front.pages.sessions)
        await until(lambda: all(server.store.name_is_free(n) for n in names))  # guests that never played go


async def test_the_door_and_the_caps_of_served_apps_hold(tmp_path):
    data, seen = tmp_path / "data", tmp_path / "seen"
    seen.mkdir()
    async with web_front(data, seen) as (server, url, front), aiohttp.ClientSession() as http:
        port = url.rsplit(":", 1)[1]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{url}/ws", origin="http://evil.example")
        assert refused.value.status == 403
        async with http.get(url + "/", headers={"Host": f"attacker.example:{port}"}) as page:
            assert page.status == 403
        tabs = [await http.ws_connect(f"{url}/ws", origin=url) for _ in range(4)]
        await until(lambda: len(written(seen)) == 4)
        fifth = await http.ws_connect(f"{url}/ws", origin=url)  # four from one address at most
        said = await asyncio.wait_for(fifth.receive(), WAIT_S)
        assert b"termarena server: your address has 4 sessions open" in said.data
        assert len(written(seen)) == 4
        for tab in tabs:
            await tab.close()


def test_the_command_line_asks_for_the_browser_front(monkeypatch, capsys, tmp_path):
    from tests.helpers.cli import run_cli
    from tui.core.server import run

    asked = []
    monkeypatch.setattr(run, "run", lambda *args: asked.append(args) or 0)
    code, _ = run_cli(monkeypatch, capsys, "server", "--data", str(tmp_path), "--web-port", "8080",
                      "--web-name", "play.example.org")
    assert code == 0 and asked[0][-1] == run.Fronts(None, 8080, ("play.example.org",))
    for wrong in (["--web-name", "play.example.org"], ["--web-port", "8080", "--web-name", "a/b"]):
        code, err = run_cli(monkeypatch, capsys, "server", "--data", str(tmp_path), *wrong)
        assert code == 2 and "--web-name" in err


async def test_a_taken_port_is_one_line(tmp_path):
    from tui.core.server.run import Fronts, ServerError, serve

    async with running_server(tmp_path / "other") as (_, taken):
        with pytest.raises(ServerError, match=f"cannot listen for browsers on 127.0.0.1:{taken}"):
            await serve(tmp_path / "data", "127.0.0.1", 0, fronts=Fronts(web_port=taken), log=lambda line: None)
