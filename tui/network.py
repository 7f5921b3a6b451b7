"""A network game seen from the app: `termarena host`, `join`, `watch` and `online`.

`NetworkPlay` owns what the app needs for one: the link (tui/core/net: a NetHost that referees, or a
NetClient), the game screen it plays on, and why it could not get in.  The app starts it from its
plan, closes it in its one `shutdown`, and otherwise leaves the network to it; the link's events come
here, and once the game screen is up they go to it.
"""
from __future__ import annotations

from engines.base import EngineError
from tui.core.clock import GameClock
from tui.core.net import NetPlan
from tui.core.session import Session
from tui.core.specs import REMOTE, PlayerSpec
from tui.screens.connecting import ConnectingScreen


class NetworkPlay:
    def __init__(self, app, plan: NetPlan) -> None:
        self.app = app
        self.plan = plan
        self.link = None  # its NetHost or NetClient
        self.screen = None  # the NetGameScreen, once the game is known
        self.error: str | None = None  # why join or watch could not get in

    def start(self) -> None:
        from tui.core.net.client import NetClient
        from tui.core.net.host import NetHost

        app, plan = self.app, self.plan
        if plan.mode == "online":  # a server's lobby: its screen owns the connection and opens the games
            from tui.core.settings import config_dir
            from tui.screens.lobby import LobbyScreen

            app.push_screen(LobbyScreen(plan, config_dir()))
            return
        if plan.mode == "host":
            specs = [PlayerSpec("human"), REMOTE] if plan.seat == 0 else [REMOTE, PlayerSpec("human")]
            try:
                session = Session(plan.game, specs, plan.seed, clock=app._clock_for(specs, None))
            except EngineError as e:
                self._end(f"termarena: {e}", 2)
                return
            self.link = NetHost(session, plan.seat, plan.code, self.on_event)
            self._show_game(session)
            app.run_worker(self._listen(), group="net", exit_on_error=False)
        else:
            app._show(ConnectingScreen(f"{plan.address}:{plan.port}"))
            self.link = NetClient(plan.address, plan.port, plan.role, plan.code, self.on_event)
            app.run_worker(self.link.run(), group="net", exit_on_error=False)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()

    async def _listen(self) -> None:
        plan = self.plan
        try:
            port = await self.link.start(plan.address, plan.port)
        except OSError as e:
            self._end(f"termarena: cannot listen on {plan.address}:{plan.port}: {e.strerror or e}", 1)
            return
        where = "ADDRESS" if plan.address in ("0.0.0.0", "::", "") else plan.address
        self.screen.say(f"The other player runs: termarena join {where}:{port} --password {plan.code}")
        self.screen._show_thinking()

    def _show_game(self, session: Session) -> None:
        from tui.screens.net_game import NetGameScreen

        self.screen = NetGameScreen(session, self.app.ai, self.link)
        self.app._show(self.screen)

    def on_event(self, event) -> None:
        """Events of the link: the first welcome opens the game, the rest go to its screen."""
        from tui.core.net.events import Lost, Welcome

        if self.screen is not None:
            self.screen.net_event(event)
        elif isinstance(event, Welcome):
            human = PlayerSpec("human")
            specs = [human if event.seat == seat else REMOTE for seat in (0, 1)]
            clock = (GameClock(event.clock, (True, True), now=self.app.clock_now)
                     if event.clock is not None else None)
            try:
                session = Session(event.game, specs, event.seed, clock=clock)
            except EngineError as e:
                self.link.close(f"cannot start the game: {e}")
                self._end(f"termarena: the host's game cannot start here: {e}", 1)
                return
            self._show_game(session)
            self.screen.net_event(event)  # it says whom we play (queued until the screen is up)
        elif isinstance(event, Lost):  # never got in: say why on the command line
            self.error = event.reason
            self._end(f"termarena: {event.reason}", 1)

    def _end(self, line: str, code: int) -> None:
        self.app.exit_line = line
        self.app.exit(return_code=code)
