"""The browser front of `termarena server --web-port 8080`: open http://HOST:8080 and the lobby is there.

Each browser tab gets the app (`termarena online`, the same lobby screen and game screen as everyone's)
through textual-serve, as `termarena serve` gives it (tui.web_server: the Host/Origin door, the cap of
sessions, bounded sizes), logged in to the lobby as a guest of its own through the server's loopback
front port (tui.core.server.sessions, as the ssh front does): a browser proves no name, so its player
is `guest-` and six hex digits and plays casual games.  The app runs with the served apps' rule (no
external bot), in a folder of the tab's own under DIR/web-sessions/, removed when the tab closes, and
ends with the server (even after a SIGKILL: TERMARENA_SERVED).

textual-serve (the `[web]` extra) is imported only when the browser front is asked for.
"""
from __future__ import annotations

import contextlib
import shlex
from pathlib import Path
from typing import AsyncIterator

from aiohttp import web

from engines.visible import visible
from tui.core.python_module import module_argv
from tui.core.server.lobby import Server
from tui.core.server.sessions import MAX_SESSIONS, PER_ADDRESS, NotYours, clear_sessions, front_session
from tui.web_server import AppPlan, GuardedServer, SessionRefused

SESSIONS_DIR = "web-sessions"


class _LobbyPages(GuardedServer):
    who = "termarena server"

    def __init__(self, front: "WebFront", host: str, port: int, names: tuple[str, ...]) -> None:
        super().__init__("termarena online", host, port, title="termarena", max_sessions=front.max_sessions,
                         per_address=PER_ADDRESS, names=names)
        self.front = front

    def say(self, text: str) -> None:
        self.front.log(f"web: {text}")

    async def on_startup(self, app: web.Application) -> None:
        """(textual-serve's banner is for its own command: the server logs its own line.)"""

    @contextlib.asynccontextmanager
    async def session_app(self, request: web.Request) -> AsyncIterator[AppPlan]:
        front = self.front
        try:
            async with front_session(front.server, front.data / SESSIONS_DIR, front.front_port,
                                     front.fingerprint) as session:
                front.log(f"web: {session.name} from {visible(request.remote or '?', 60)}")
                argv = [*front.program, *session.online]
                # exec: the app's parent is the server (it ends with it); cd: the tab's folder is its own
                command = f"cd {shlex.quote(str(session.folder))} && exec {shlex.join(argv)}"
                yield AppPlan(command, session.env)
        except NotYours as e:  # (a guest's name is new: only a full table of names refuses it)
            raise SessionRefused(str(e)) from None


class WebFront:
    def __init__(self, server: Server, data: Path, front_port: int, fingerprint: str, log=lambda line: None,
                 sessions: int = MAX_SESSIONS, program: tuple[str, ...] = tuple(module_argv("tui"))) -> None:
        """`front_port`: the lobby's loopback port for fronts (Server.start_front_port), whose certificate
        has `fingerprint` (pinned for each tab's app); `program`: termarena (`online ...` follows)."""
        self.server, self.data, self.front_port, self.log = server, data, front_port, log
        self.fingerprint = fingerprint
        self.max_sessions, self.program = sessions, program
        self.pages: _LobbyPages | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, host: str, port: int, names: tuple[str, ...] = ()) -> int:
        """Listen for browsers on host:port (0: a free one); `names`: the public names players type."""
        clear_sessions(self.data / SESSIONS_DIR)
        self.pages = _LobbyPages(self, host, port, names)
        self._runner = web.AppRunner(await self.pages._make_app(), handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError:
            await self.close()
            raise
        self.port = self._runner.addresses[0][1]
        if port == 0:  # the door checks the port browsers name: the one chosen now
            self.pages.door.port = self.port
        return self.port

    async def close(self) -> None:
        if self.pages is not None:
            self.pages.kill_apps()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
