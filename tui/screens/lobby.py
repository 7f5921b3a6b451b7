"""`termarena online`: the lobby of a server (seeks, games to watch, ratings, history), and its games
played on the same screen as `join` (NetGameScreen over the client's link: the server referees).

A command line at the bottom (`seek c4 5+3`, `accept 3`, `watch 2`, `ratings c4`, `history`, `fetch 7`,
`players`, `games`, `cancel`); enter on a row of the table does what fits it (accept a seek, watch a
game, download a finished one).  Everything the server sends is shown as plain text (tui.plain).
"""
from __future__ import annotations

import os
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.worker import Worker, WorkerState
from textual.widgets import DataTable, Input, Static

from engines.base import EngineError
from engines.endings import summary
from engines.savefile import parse
from engines.visible import visible
from tui.core.clock import GameClock
from tui.core.net import NetPlan
from tui.core.net import events as ev
from tui.core.server import client as online
from tui.core.server.protocol import ABORT_BEFORE, ABORTED, is_guest
from tui.core.session import Session
from tui.core.specs import REMOTE, SERVED_ENV, PlayerSpec
from tui.widgets.status import StatusPanel
from tui.core.storage import StorageError, safe_path, save_game
from tui.plain import plain
from tui.screens.arena import ArenaPage
from tui.screens.dialogs import ConfirmScreen
from tui.screens.net_game import NetGameScreen
from tui.widgets.footer import GameFooter

COLUMNS = {
    "seeks": ("seek", "player", "game", "clock", "rated"),
    "players": ("player", "in game"),
    "games": ("game id", "game", "clock", "rated", "player 1", "player 2", "result", "reason"),
    "history": ("game id", "game", "clock", "rated", "player 1", "player 2", "result", "reason"),
    "ratings": ("game", "player", "rating", "mu", "sigma", "games"),
}
HELP = ("seek GAME CLOCK [casual] · accept ID · cancel · watch ID · games · players · "
        "ratings GAME · history [NAME] · fetch ID")


def shown_row(kind: str, row: tuple[str, ...]) -> tuple[str, ...]:
    """A game's row in words where the protocol sends PGN's `*` (no result yet, or none) and `-` (no reason)."""
    if kind not in ("games", "history") or len(row) < 8:
        return row
    result, reason = row[6], row[7]
    if result == "*":
        result = "playing" if reason == "-" else "none"
    return (*row[:6], result, "" if reason == "-" else reason, *row[8:])


class OnlineGameScreen(NetGameScreen):
    """A server game: escape goes back to the lobby once it is over (or aborted), or at once for a
    watcher; ctrl+x aborts it before both sides have moved, resigns it after (asked first); the
    opponent's connection going and coming is said (PEER away|back)."""

    BINDINGS = [
        Binding("escape", "lobby", "lobby"),
        Binding("ctrl+x", "give_up('abort')", "abort", id="online.abort",
                tooltip="end the game with no result, before both sides have moved"),
        Binding("ctrl+x", "give_up('resign')", "resign", id="online.resign", tooltip="give up this game"),
    ]

    def __init__(self, session, ai, link) -> None:
        super().__init__(session, ai, link)
        self.aborted = False

    def action_lobby(self) -> None:
        if self.session.has_human and not self.session.is_over() and not self.aborted:
            self.say("The game goes on: your clock runs (ctrl+x resigns; escape leaves once it is over)",
                     error=True)
            return
        self.dismiss()

    def quit_question(self, autosaved: bool) -> str:
        if not self.session.has_human or self.aborted:
            return super().quit_question(autosaved)
        # unlike a host's game, a server's goes on without this app: saying otherwise would make a player
        # think that quitting ends it, and lose on time
        return ("Quit? The game goes on on the server and your clock runs when it is your turn: come back "
                "under the same name to play on, or answer no and resign with ctrl+x.")

    def _after_game_over(self, choice: str | None) -> None:
        if choice in ("new", "quit"):
            self.dismiss()
            return
        super()._after_game_over(choice)

    def name_players(self, p1: str, p2: str) -> None:
        session = self.session
        session.specs = tuple(spec if spec.kind == "human" else PlayerSpec("net", text=name)
                              for spec, name in zip(session.specs, (p1, p2)))
        if self._queue is None:  # up and drawn (else its first drawing shows them)
            self._show_status()

    # ------------------------------------------------------------------ resign, abort

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return False  # the server takes nothing back (a rated game could be gamed)
        if action == "give_up":
            s = self.session
            if (not s.has_human or s.is_over() or self.aborted or self._lost is not None
                    or not self.link.can_resign):
                return False
            return (parameters[0] == "abort") == (s.ply < ABORT_BEFORE)
        return super().check_action(action, parameters)

    def key_refusal(self, action: str, parameters: tuple[object, ...]) -> str:
        if action == "undo":
            return "Server games take nothing back (ctrl+x resigns)"
        if action == "give_up":
            if not self.session.has_human:
                return "You are watching: only the players can resign"
            if not self.link.can_resign:
                return "This server does not know resigning (an older termarena): the clock decides"
            return "The game is over" if self.session.is_over() or self.aborted else "Not connected to the server"
        return super().key_refusal(action, parameters)

    def action_give_up(self, what: str) -> None:
        question = ("Abort this game? It ends with no result, and no rating moves." if what == "abort" else
                    "Resign this game? Your opponent wins it.")
        self.app.push_screen(ConfirmScreen(question, yes=what.capitalize(), no="Play on"),
                             lambda yes: self._give_up_now(what) if yes else None)

    def _give_up_now(self, what: str) -> None:
        if self.session.is_over() or self.aborted:
            return
        if not self.link.request(what.upper()):
            self.say("Not connected: try again in a moment", error=True)

    def _show_status(self) -> None:
        self.query_one(StatusPanel).show(self.session, self.board, self._search_note(),
                                         "aborted, no result" if self.aborted else "")

    def ended_by(self, result: str, reason: str) -> None:
        """The server ended the game without a move or a clock: a resignation, or an abort."""
        session = self.session
        if session.is_over() or self.aborted:
            return
        if reason == ABORTED:
            self.aborted = True
            self._stop_clocks()
            self.board.accepting = False
            self.board.closed = True
            self.say("The game was aborted: no result, no rating moved. Escape goes back to the lobby.")
            self._show_status()
        elif reason == "resign" and result in ("1-0", "0-1"):
            session.forfeit(1 if result == "1-0" else 0, "resign")
            self._say_ending()
            self._position_changed()
        self._show_thinking()
        self.refresh_bindings()

    # ------------------------------------------------------------------ presence

    def _net_event(self, event: object) -> None:
        if isinstance(event, ev.Presence) and self.session.has_human:
            self._away = event.away
            other = self.board_cls.side_names[1 - (self.link.seat or 0)]
            self.say(f"{other} left: their clock runs when it is their turn, and the game goes on when they "
                     f"come back" if event.away else f"{other} is back", error=event.away)
            return
        super()._net_event(event)

    def _net_state(self) -> str:
        if self._away and self.link.connected and self._lost is None and not self.session.is_over():
            return f"{self.board_cls.side_names[1 - (self.link.seat or 0)]} is away"
        if self.aborted:
            return "aborted"
        return super()._net_state()


class LobbyScreen(ArenaPage, Screen):
    BINDINGS = [Binding("f5", "refresh", "seeks"), Binding("ctrl+q", "app.quit", "quit")]

    def __init__(self, plan: NetPlan, config: Path) -> None:
        super().__init__()
        self.plan = plan
        self.client = online.OnlineClient(plan.address, plan.port, plan.code, self.server_event, config)
        self.kind = "seeks"
        self.rows: list[tuple[str, ...]] = []
        self.offers: dict[str, tuple[str, ...]] = {}
        self.game: OnlineGameScreen | None = None
        self.role = "play"
        self.game_id: int | None = None  # the game of the last START
        self._naming: int | None = None  # the game whose players' names were asked for (LIST games ID)
        self._pinned = ""  # the note of a certificate pinned now, said again with the login
        self.logged_in = False

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            # a front's app (ssh, a browser) reaches its server by a loopback port that means nothing to its player
            where = "" if os.environ.get(SERVED_ENV) else f" · {self.plan.address}:{self.plan.port}"
            yield Static(plain(f"termarena online{where}"), id="lobby-title")
            yield Static(plain("Connecting…"), id="lobby-status")
            yield DataTable(id="lobby-table", cursor_type="row")
            yield Static(plain(HELP), id="lobby-help")
            yield Input(placeholder="seek c4 5+3", id="lobby-command")
        yield GameFooter()

    def on_mount(self) -> None:
        self._show_rows()
        self.query_one("#lobby-command", Input).focus()  # typing a command is what one does first; tab: the rows
        self.run_worker(self.client.run(), group="online", exit_on_error=False)

    def on_unmount(self) -> None:
        self.client.shutdown()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A bug of ours met while following the server ends the link: said, not a silent freeze."""
        if event.worker.group == "online" and event.state == WorkerState.ERROR:
            error = event.worker.error
            why = visible(f"the link to the server stopped on an error: {type(error).__name__}: {error}", 200)
            self.say(why)
            if self.game is not None:
                self.game.net_event(ev.Lost(why, False))

    def say(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(plain(text))

    # ------------------------------------------------------------------ the table

    def _show_rows(self) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(*COLUMNS[self.kind])
        rows = list(self.offers.values()) if self.kind == "seeks" else self.rows
        for row in rows:
            table.add_row(*(plain(word) for word in shown_row(self.kind, row)))

    def on_data_table_row_selected(self, message: DataTable.RowSelected) -> None:
        rows = list(self.offers.values()) if self.kind == "seeks" else self.rows
        if not 0 <= message.cursor_row < len(rows):
            return
        row = rows[message.cursor_row]
        action = {"seeks": "accept", "games": "watch", "history": "fetch"}.get(self.kind)
        if action:
            self.command(f"{action} {row[0]}")

    def action_refresh(self) -> None:
        self.command("seeks")

    # ------------------------------------------------------------------ commands

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.input.value = ""
        self.command(message.value)

    def command(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        c = self.client
        sent = True
        if verb == "seek" and len(args) in (2, 3) and args[2:] in ([], ["rated"], ["casual"]):
            rated = args[2:] == ["rated"] or (not args[2:] and not is_guest(c.name))  # guests play casual games
            sent = c.request("SEEK", args[0], args[1], "rated" if rated else "casual")
        elif verb in ("accept", "watch", "fetch") and len(args) == 1 and args[0].isdigit():
            sent = c.request(verb.upper(), args[0])
        elif verb == "cancel" and not args:
            sent = c.request("CANCEL")
        elif verb in ("seeks", "players", "games") and not args:
            self.kind = verb
            sent = c.list(verb)
        elif verb == "ratings" and len(args) == 1:
            self.kind = verb
            sent = c.list(verb, args[0])
        elif verb == "history" and len(args) <= 1:
            self.kind = verb
            sent = c.list(verb, args[0] if args else c.name)
        else:
            self.say(f"Unknown command: {line[:60]} ({HELP})")
            return
        if not sent:
            self.say("Not connected: try again in a moment")
        else:
            self._show_rows()

    # ------------------------------------------------------------------ what the server sends

    def server_event(self, event: object) -> None:
        if self.game is not None and not isinstance(event, (online.Over, online.Said, online.Offered,
                                                            online.Withdrawn, online.Listed, online.Downloaded)):
            self.game.net_event(event)
            if not isinstance(event, ev.Lost):
                return
        match event:
            case online.Pinned(fingerprint=fp, new=True):
                self._pinned = f" New server: its certificate {fp} is now pinned (ask its owner whether it is theirs)."
                self.say(self._pinned.strip())
            case online.InLobby(name=name):
                self.logged_in = True
                self.say(f"In the lobby as {name}.{self._pinned}")  # (the commands are on the line below)
                self._pinned = ""
                self.command("seeks")
            case online.Offered(words=words):
                new = words[0] not in self.offers
                self.offers[words[0]] = words
                if self.kind == "seeks":
                    self._show_rows()
                seek_id, name, game, clock, rated = words
                if new and name == self.client.name:
                    self.say(f"Your seek {seek_id} is open: {game} {clock} {rated}, waiting for someone to "
                             "accept it (cancel withdraws it)")
                elif new and self.game is None:
                    self.say(f"{name} seeks {game} {clock} {rated}: accept {seek_id} plays it")
            case online.Withdrawn(seek_id=seek_id):
                self.offers.pop(seek_id, None)
                if self.kind == "seeks":
                    self._show_rows()
            case online.Listed(kind="games", rows=rows) if self._naming is not None:
                self._name_players(rows)
            case online.Listed(kind=kind, rows=rows):
                if kind == "seeks":
                    self.offers = {row[0]: row for row in rows}
                else:
                    self.rows = list(rows)
                if kind == self.kind:
                    self._show_rows()
            case online.Said(text=text):
                self.say(f"The server says: {text}")
            case online.Started(game_id=game_id, role=role):
                self.role, self.game_id = role, game_id
                if self.client.list("games", str(game_id)):  # its row names its players
                    self._naming = game_id
            case ev.Welcome():
                self._open_game(event)
            case online.Over(game_id=game_id, result=result, reason=reason):
                if self.game is not None and game_id == self.game_id:
                    self.game.ended_by(result, reason)
                    how = summary(result, reason, self.game.session.cls)
                else:
                    how = f"{result} ({reason})"
                self.say(f"Game {game_id} was aborted (no result)" if reason == ABORTED else
                         f"Game {game_id} is over: {how}")
            case online.Downloaded(game_id=game_id, text=text):
                self._keep(game_id, text)
            case ev.Lost(reason=reason, retrying=retrying):
                if not self.logged_in and not retrying:  # never got in: say why on the command line
                    self.app.exit_line = f"termarena: {reason}"
                    self.app.exit(return_code=1)
                    return
                self.say(f"Connection: {reason}")

    def _open_game(self, event: ev.Welcome) -> None:
        specs = [PlayerSpec("human") if event.seat == seat else REMOTE for seat in (0, 1)]
        clock = GameClock(event.clock, (True, True), now=self.app.clock_now) if event.clock is not None else None
        try:
            session = Session(event.game, specs, event.seed, clock=clock)
        except EngineError as e:
            self.say(f"This game cannot be shown here: {e}")
            return
        self.game = OnlineGameScreen(session, self.app.ai, self.client)
        self.app.push_screen(self.game, lambda _: self._game_left())

    def _name_players(self, rows: tuple[tuple[str, ...], ...]) -> None:
        """The game's row came (LIST games ID): its players' names in the game's side panel."""
        game_id, self._naming = self._naming, None
        for row in rows:
            if row[0] == str(game_id) and self.game is not None and game_id == self.game_id:
                self.game.name_players(row[4], row[5])

    def _game_left(self) -> None:
        self.game = None
        self.command("seeks")

    def _keep(self, game_id: int, text: str) -> None:
        """A downloaded game, checked like any save file, into the saves folder."""
        try:
            saved, final = parse(text)
            path = safe_path(self.arena.saves_folder, f"online-{game_id}.txt")
            save_game(path, saved, final)
        except (EngineError, StorageError, ValueError) as e:
            self.say(f"Game {game_id} was not kept: {e}")
            return
        self.say(f"Game {game_id} saved as {path.name} (ctrl+o in a game, or termarena replay)")
