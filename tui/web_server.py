"""`termarena serve`'s web server: textual-serve's, with its door checked (imported by that command only).

A served app can do what a player at this terminal can (delete a save, for one), so a page elsewhere
must not drive it.  A browser lets any page open a websocket to any address, saying where the page
came from in `Origin`; DNS rebinding goes further, pointing a name of the attacker's at this machine,
which makes the page same-origin with the attacker's name in `Host`.  So every request must name this
server in `Host` (the address it serves on, its localhost/127.0.0.1 forms, this machine's own name;
with a wildcard address any IP address too, since rebinding needs a name), and a websocket must come
from a page of this server (`Origin`, which browsers always send on websockets); anything else is 403.
At most `max_sessions` apps run at once (and `per_address` from one address, when given): over that,
the new page is told so in its terminal.  A session's app ends when its websocket closes (asked to
quit, killed after STOP_S if it does not).  The page's links (its scripts, its websocket) name the
server as the browser did (the checked Host), not the address it listens on: `0.0.0.0` is no address
for a browser elsewhere.  What each tab runs is `session_app`'s: the same command for every tab here;
the lobby's browser front (tui.core.server.web) gives each tab a guest of its own.
The server's log is one line a record, its outside text (request lines, headers) through `visible`:
a malformed request is a line, not a page of traceback with its local variables.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections import Counter
from dataclasses import dataclass
from typing import Any, AsyncIterator

import aiohttp_jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from engines.visible import visible
from tui.core.net.gate import address_key

_SERVE_VARIABLES = ("TEXTUAL", "TERM_PROGRAM", "COLUMNS", "ROWS")  # what textual-serve tells its apps
STOP_S = 5.0  # an app told to quit gets this long before it is killed
MAX_SIZE = 1000  # columns or rows asked for by a page


def split_host(text: str) -> tuple[str, int | None] | None:
    """`name:port`, `name` or `[v6]:port` (a Host header, or an origin without its scheme) as
    (lower-case name, port or None); None when it is none of these."""
    text = text.strip().lower()
    port_text: str | None = None
    if text.startswith("["):
        name, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                return None
            port_text = rest[1:]
    elif text.count(":") == 1:
        name, port_text = text.split(":")
    elif ":" in text:
        return None
    else:
        name = text
    name = name.rstrip(".")
    if not name or (port_text is not None and not (port_text.isascii() and port_text.isdigit()
                                                   and 0 < len(port_text) <= 5)):
        return None
    return name, None if port_text is None else int(port_text)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Door:
    """Which Host and Origin headers name this server (pure: the machine's names are given)."""

    def __init__(self, bind: str, port: int, own_names: tuple[str, ...] = ()) -> None:
        bind = bind.strip("[]").lower()
        self.port = port
        self.any_ip = bind in ("", "0.0.0.0", "::")
        loopback = bind in ("localhost",) or (_is_ip(bind) and ipaddress.ip_address(bind).is_loopback)
        self.names = {bind, "localhost", "127.0.0.1", "::1"}
        if not loopback:
            self.names |= {n.lower().rstrip(".") for n in own_names if n}

    def host_ok(self, header: str | None) -> bool:
        return self._names_us(header or "", 80)

    def origin_ok(self, header: str | None) -> bool:
        scheme, sep, rest = (header or "").partition("://")
        scheme = scheme.lower()
        if not sep or scheme not in ("http", "https") or "/" in rest:
            return False  # `null` (a sandboxed page, a file), another scheme, or not an origin at all
        return self._names_us(rest, 443 if scheme == "https" else 80)

    def _names_us(self, text: str, default_port: int) -> bool:
        parts = split_host(text)
        if parts is None:
            return False
        name, port = parts
        return (port or default_port) == self.port and (name in self.names or (self.any_ip and _is_ip(name)))

    def refusal(self, host: str | None, origin: str | None, websocket: bool) -> str | None:
        """Why a request is refused (None: it is let in)."""
        if not self.host_ok(host):
            return f"Host '{visible(host or '', 80)}' is not this server"
        if (websocket or origin is not None) and not self.origin_ok(origin):
            return f"Origin '{visible(origin or '(none)', 80)}' is not a page of this server"
        return None


def own_names() -> tuple[str, ...]:
    """This machine's names, as a browser on the network may call it."""
    names = []
    for get in (socket.gethostname, socket.getfqdn):
        try:
            names.append(get())
        except OSError:
            pass
    return tuple(names)


class _OneLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f": {type(error).__name__}: {error}"
        return visible(f"{record.levelname.lower()}: {text}", 500)


@dataclass(frozen=True)
class AppPlan:
    """What one tab runs: a shell command (ending in `exec` of the app, so that the app's parent is the
    server), and its environment when it is not the server's own."""
    command: str
    env: dict[str, str] | None = None


class SessionRefused(Exception):
    """A tab gets no app; the message says why, on its page."""


class _BoundedApp(AppService):
    def __init__(self, *args, env: dict[str, str] | None = None, **options) -> None:
        super().__init__(*args, **options)
        self.env = env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        """textual-serve's, on the plan's environment instead of the server's when it has one."""
        environment = super()._build_environment(width, height)
        if self.env is None:
            return environment
        return {**self.env, **{k: v for k, v in environment.items() if k.startswith(_SERVE_VARIABLES)}}

    async def set_terminal_size(self, width: object, height: object) -> None:
        await super().set_terminal_size(_cells(width, 80), _cells(height, 24))

    async def stop(self) -> None:
        """Ask the app to quit and wait until its process has ended; kill it if it has not after STOP_S
        (its websocket is gone either way)."""
        process = self._process
        try:
            await asyncio.wait_for(self._quit(process), STOP_S)
        except asyncio.TimeoutError:
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()

    async def _quit(self, process) -> None:
        # textual-serve's stop returns when the app closes its output, which it does a moment before its
        # process ends: the session's place is given back once the process has ended
        await super().stop()
        if process is not None:
            await process.wait()


class GuardedServer(Server):
    who = "termarena serve"  # who speaks, on the server's terminal and on a refused page

    def __init__(self, command: str, host: str, port: int, *, max_sessions: int = 4, per_address: int | None = None,
                 names: tuple[str, ...] = (), **options) -> None:
        """`names`: more names the server is reached by (a public one), besides this machine's own."""
        super().__init__(command, host=host, port=port, **options)
        self.door = Door(host, port, own_names() + names)
        self.max_sessions, self.per_address = max_sessions, per_address
        self.sessions = 0  # apps running now
        self._by_address: Counter[str] = Counter()
        self.apps: set[_BoundedApp] = set()

    @contextlib.asynccontextmanager
    async def session_app(self, request: web.Request) -> AsyncIterator[AppPlan]:
        """What a new tab runs, for as long as it runs (SessionRefused: nothing)."""
        yield AppPlan(self.command)

    def kill_apps(self) -> None:
        """The server stops: every app still running ends now."""
        for app in list(self.apps):
            process = app._process
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """textual-serve's page, its links to this server as the browser named it (the door checked it)."""
        websocket = "wss" if request.scheme == "https" else "ws"
        return {"font_size": _cells(request.query.get("fontsize"), 16),
                "app_websocket_url": f"{websocket}://{request.host}/ws",
                "config": {"static": {"url": f"{request.scheme}://{request.host}/static/"}},
                "application": {"name": self.title}}

    def initialize_logging(self) -> None:
        handler = logging.StreamHandler()
        handler.setFormatter(_OneLine())
        logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)

    def say(self, text: str) -> None:
        self.console.print(f"{self.who}: {text}", markup=False, highlight=False, soft_wrap=True)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()

        @web.middleware
        async def check_door(request: web.Request, handler):
            websocket = request.path == "/ws"
            why = self.door.refusal(request.headers.get("Host"), request.headers.get("Origin"), websocket)
            if why is not None:
                self.say(f"refused {visible(request.remote or '?', 60)}: {why}")
                return web.Response(status=403, text=f"{self.who}: {why}\n")
            return await handler(request)

        app.middlewares.append(check_door)
        return app

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's, with the caps of sessions, bounded sizes, a bounded stop, each tab's own app
        (session_app), and one line instead of a traceback when a page sends something else than its
        protocol."""
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        address = address_key(request.remote or "?")
        refusal = None
        if self.sessions >= self.max_sessions:
            refusal = (f"all {self.max_sessions} sessions are in use; close one and reload this page.",
                       f"{self.sessions} are open (--max-sessions {self.max_sessions})")
        elif self.per_address is not None and self._by_address[address] >= self.per_address:
            refusal = (f"your address has {self.per_address} sessions open; close one and reload this page.",
                       f"{self.per_address} are open from {visible(address, 60)}")
        if refusal is not None:
            self.say(f"refused a session: {refusal[1]}")
            await self._refuse(websocket, refusal[0])
            return websocket
        width = _cells(request.query.get("width"), 80)
        height = _cells(request.query.get("height"), 24)
        self.sessions += 1
        self._by_address[address] += 1
        try:
            async with self.session_app(request) as plan:
                await self._run_app(websocket, plan, width, height)
        except SessionRefused as e:
            await self._refuse(websocket, str(e))
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as e:  # a page that breaks the protocol ends its own session, nothing else
            self.say(f"a session ended: {type(e).__name__}: {visible(str(e), 200)}")
        finally:
            self.sessions -= 1
            self._by_address[address] -= 1
            if not self._by_address[address]:
                del self._by_address[address]
        return websocket

    async def _run_app(self, websocket: web.WebSocketResponse, plan: AppPlan, width: int, height: int) -> None:
        app_service = _BoundedApp(plan.command, env=plan.env, write_bytes=websocket.send_bytes,
                                  write_str=websocket.send_str, close=websocket.close,
                                  download_manager=self.download_manager, debug=self.debug)
        self.apps.add(app_service)
        try:
            await app_service.start(width, height)
            await self._process_messages(websocket, app_service)
        finally:
            try:
                await app_service.stop()
            finally:
                self.apps.discard(app_service)

    async def _refuse(self, websocket: web.WebSocketResponse, text: str) -> None:
        """A tab that gets no app is told why in its terminal."""
        await websocket.send_bytes(f"{self.who}: {visible(text, 300)}\r\n".encode())
        await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"no session")


def _cells(value: object, default: int) -> int:
    """A terminal size a page asked for (a query word, or a number in its JSON), bounded: a page asking
    for a billion columns gets MAX_SIZE, not an app that allocates them."""
    if isinstance(value, str):
        value = int(value) if value.isascii() and value.isdigit() and len(value) <= 6 else None
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return max(1, min(value, MAX_SIZE))
