"""A game against a person on another machine: the game screen, with a network link in the other seat.

The link is a `NetHost` (this app referees: the joiner's moves arrive checked by our engine, and
`sync()` sends every change) or a `NetClient` (the host referees: our moves are checked locally, sent,
and played when the host sends them back; the host's moves are checked by our engine as they come).
Both run on the app's event loop (asyncio streams) and call `net_event` with the values of
tui.core.net.events.  Undo needs the other side's agreement; redo, hints and a new game are not offered.
"""
from __future__ import annotations

from textual.binding import Binding

from engines.base import EngineError, InvalidOutput
from tui.core.net import events as ev
from tui.core.words import counted, illegal_move
from tui.screens.dialogs import ConfirmScreen
from tui.screens.game import GameScreen
from tui.widgets.boards.base import Board
from tui.widgets.status import ThinkingLine


class NetGameScreen(GameScreen):
    # Once the other side is gone for good, saving is what is left to do: the footer offers it.  A
    # subclass's binding of a key replaces its base's: the game screen's ctrl+s is listed again after it,
    # so that ctrl+s saves at any time (the first binding check_action allows runs). Both are priority
    # bindings, as the game screen's is (TakesTypedAhead).
    BINDINGS = [Binding("ctrl+s", "save('shown')", "save", id="net.save_when_gone", priority=True),
                next(b for b in GameScreen.BINDINGS if b.id == "game.save")]

    def __init__(self, session, ai, link) -> None:
        super().__init__(session, ai)
        self.link = link
        session.referees_clock = link.referees
        self._pending: int | None = None  # the number of our move sent and not yet played by the host
        self._queue: list[object] | None = []  # events that came before the screen was up (None after)
        self._away = False  # the other player's connection is gone (host), or ours (client)
        self._lost: str | None = None  # the connection ended for good (client)
        self._undo_dialog = False  # the other side's take-back question is on screen (one at a time)
        self._watchers: int | None = None  # client: the host's watcher count (None: a host of version 1)
        self._welcomed = False  # client: the host let us in once (a later welcome is a reconnection)

    # Textual runs GameScreen's own on_mount and on_unmount as well (handlers are called along the MRO)
    def on_mount(self) -> None:
        self.call_after_refresh(self._drain)

    def _drain(self) -> None:
        queued, self._queue = self._queue or [], None  # from now on events are handled as they come
        for event in queued:
            self.net_event(event)

    def on_unmount(self) -> None:
        self.link.close()

    # ------------------------------------------------------------------ the flow of turns

    def _position_changed(self) -> None:
        super()._position_changed()
        self.link.sync()
        if not self._ready():
            self.board.accepting = False

    def _ready(self) -> bool:
        """Our moves can go out: the opponent is here (host), we are connected with no move in flight (client)."""
        if self.link.referees:
            return self.link.ever_joined
        return self.link.connected and self._pending is None and self._lost is None

    def _hand_out_turn(self, token: int | None = None) -> None:
        """The remote seat moves by itself: its moves arrive as network events."""
        self._watch_timer = None

    def on_board_move_chosen(self, message: Board.MoveChosen) -> None:
        message.prevent_default()  # GameScreen's handler runs only when called here
        if self.link.referees:
            if not self._ready():
                message.stop()
                self.say("Wait for your opponent to join", error=True)
                return
            GameScreen.on_board_move_chosen(self, message)
            return
        message.stop()
        session = self.session
        if not session.human_to_move() or not self._ready():
            return
        try:
            written = session.game.move_to_str(session.game.parse_output(message.text))
        except (InvalidOutput, EngineError) as e:  # checked here first: an illegal move never leaves
            self.say(illegal_move(session.cls, message.text, e), error=True)
            return
        if not self.link.send_move(session.ply + 1, written):
            self.say("Not connected: the move was not sent", error=True)
            return
        self._pending = session.ply + 1
        self.board.accepting = False
        self.say(f"Sent {self.board.describe_move(written)}")
        self._show_thinking()

    def _show_thinking(self) -> None:
        if self.ai.search is not None:
            super()._show_thinking()
            return
        words = self._net_state()
        detail = ""
        if self.link.referees and not self.link.connected and self.link.port:
            detail = f"join code {self.link.code}, port {self.link.port}"  # what the other player needs
        elif self._gone():
            detail = "ctrl+s saves the game, ctrl+q quits"
        # no spinner: nothing here turns while it waits, and a spinner on a lost connection would lie
        self.query_one(ThinkingLine).show(words, detail, None, "bold red" if self._gone() else "cyan")

    def _gone(self) -> bool:
        """The game cannot go on from here: the connection to the host is lost (for good or retrying)."""
        return not self.link.referees and not self.session.is_over() and (
            self._lost is not None or not self.link.connected)

    def _search_note(self) -> str:
        """Everyone sees how many watch: the host counts its connections, a joiner or a watcher is told
        (WATCHERS, from a host of protocol version 2; a watcher is one of them)."""
        count = len(self.link.watchers) if self.link.referees else self._watchers
        if not count:
            return super()._search_note()
        words = f"{counted(count, 'watcher')} connected"
        if not self.session.has_human:  # short enough for the side panel's line
            others = count - 1
            words = f"you and {counted(others, 'other watcher')}" if others else "you are the only watcher"
        return "\n".join(n for n in (super()._search_note(), words) if n)

    def _net_state(self) -> str:
        session, names = self.session, self.board_cls.side_names
        if self._lost is not None:
            return "disconnected" if session.is_over() else "disconnected: the game cannot go on"
        if self.link.referees:
            if not self.link.ever_joined:
                return "waiting for an opponent"
            if not self.link.connected:
                return f"{names[self.link.peer_seat]} is away"
        elif not self.link.connected:
            return "connection lost: trying again"
        elif self._away:
            return "the joining player is away"
        if self._pending is not None:
            return "sending your move…"
        if not session.is_over() and session.kind(session.to_move()) == "net":
            return f"waiting for {names[session.to_move()]}"
        return ""

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return (self.session.ply > 0 and not self.session.is_over() and self.session.has_human
                    and not self._gone())
        if action in ("redo", "hint", "retry_ai", "new_game"):
            return False
        if action == "save" and parameters:  # the footer's save: while the other side is gone
            away = self._gone() or (self.link.referees and self.link.ever_joined and not self.link.connected)
            return away and self.session.ply > 0 and not self.session.is_over()
        return super().check_action(action, parameters)

    def quit_question(self, autosaved: bool) -> str:
        if not self.session.has_human:
            return "Stop watching? The game goes on without you."
        other = "your opponent" if self.link.referees else "the host"
        question = (f"Quit the network game? The connection to {other} closes and the game cannot go on "
                    "over the network.")
        if autosaved:
            return question + (" It is autosaved: termarena without arguments offers to play it on here, "
                               "as a game between two people on this computer.")
        return question + " ctrl+s saves it first (answer no, then ctrl+s)."

    def why_no_move(self) -> str:
        session = self.session
        if not session.is_over() and session.has_human:
            if self._lost is not None:
                return f"Disconnected ({self._lost}): no move can be made; ctrl+s saves the game"
            if self.link.referees and not self.link.ever_joined:
                return "Wait for your opponent to join"
            if not self.link.referees and not self.link.connected:
                return "Not connected to the host (trying again): no move can be made now"
            if self._pending is not None:
                return "Your move is on its way to the host"
        if not session.has_human and not session.is_over():
            return "You are watching: the players make the moves"
        return super().why_no_move()

    def key_refusal(self, action: str, parameters: tuple[object, ...]) -> str:
        if action == "undo" and self._gone():
            return "Not connected to the host: no take-back can be asked"
        if action == "undo" and not self.session.has_human:
            return "You are watching: only the players can take back"
        if action in ("redo", "hint", "retry_ai", "new_game"):
            what = {"redo": "No redo", "hint": "No hints", "retry_ai": "No AI",
                    "new_game": "No new game"}[action]
            return f"{what} in a network game: ctrl+s saves it, ctrl+q quits"
        return super().key_refusal(action, parameters)

    def action_undo(self) -> None:
        if self.session.is_over() or not self.session.has_human:
            return
        if self.session.back_to_turn_of(self.link.seat) is None:
            self.say("You have no move to take back yet", error=True)
            return
        refusal = self.link.ask_undo()
        self.say(refusal or "Asked your opponent to agree to take back", error=refusal is not None)

    def offers_new_game(self) -> bool:
        return False

    def _after_game_over(self, choice: str | None) -> None:
        if choice in ("new", "undo"):
            self.say("A network game ends here: ctrl+q quits, ctrl+s saves it")
            return
        super()._after_game_over(choice)

    # ------------------------------------------------------------------ the network

    def net_event(self, event: object) -> None:
        if self._queue is not None:  # in order: after those that came before the screen was up
            self._queue.append(event)
            return
        try:
            self._net_event(event)
        except EngineError as e:  # the host sent a move our engine refuses: stop following it
            self._give_up(f"the host sent a move this termarena refuses: {e}")
        self._show_thinking()
        self.refresh_bindings()

    def _give_up(self, why: str) -> None:
        self._lost = why
        self.link.close(why)
        self._stop_clocks()
        self.board.accepting = False
        self.board.closed = True
        self.say(f"Disconnected: {why}", error=True)

    def _net_event(self, event: object) -> None:
        names = self.board_cls.side_names
        session = self.session
        match event:
            # --- host
            case ev.Joined(role="watch", peer=peer):
                self.say(f"A watcher joined from {peer}")
                self._show_status()
            case ev.WatcherLeft(peer=peer):
                self.say(f"The watcher from {peer} left")
                self._show_status()
            case ev.Joined(peer=peer, again=again):
                self.say(f"{names[self.link.peer_seat]} {'is back' if again else 'joined'} ({peer})")
                self._position_changed()
            case ev.Left(reason=reason):
                self.say(f"{names[self.link.peer_seat]} is away ({reason}); they can rejoin with the join code",
                         error=True)
                self.board.accepting = self._ready() and session.human_to_move()
            case ev.CutOff(peer=peer, reason=reason):
                self.say(f"Cut off {peer}: {reason}", error=True)
            case ev.PeerMoved(played=played):
                if played is not None:
                    self._moved(played)
                else:
                    self._position_changed()
            case ev.UndoAnswered(yes=yes):
                if not yes:
                    self.say("Your opponent said no to taking back", error=True)
                elif self.link.referees:  # the host has taken back already (tui/core/net/host.py)
                    self.say("Your opponent agreed: taken back")
                    self._stop_opponents()
                    self._position_changed()
            case ev.UndoAsked() if not self._undo_dialog:
                self._undo_dialog = True
                self.app.push_screen(ConfirmScreen("Your opponent asks to take back their last move. Agree?",
                                                   yes="Agree", no="Refuse"), self._answer_undo)
            # --- client
            case ev.Welcome() if (event.game, event.seed) != (session.game_id, session.seed):
                self._give_up("the host is playing another game now (was it restarted?)")
            case ev.Welcome():
                if session.ply > event.moves:
                    session.take_back_to(event.moves)
                self._lost = None
                self._pending = None
                self.board.closed = False
                if self._welcomed:
                    self.say("Connected again: the game is in sync with the host")
                else:
                    self.say(f"Connected: you play {names[event.seat]}" if event.seat is not None
                             else "Connected: you are watching")
                self._welcomed = True
                self._position_changed()
            case ev.MoveIn(number=number, text=text):
                self._move_in(number, text)
            case ev.ClockIn(left=left, running=running):
                if session.clock is not None:
                    session.clock.set(left, running)
                    self._clock_tick()
            case ev.Undone(kept=kept):
                session.take_back_to(min(kept, session.ply))
                self._pending = None
                self.say(f"Taken back to move {kept}")
                self._position_changed()
            case ev.Ended(result=result):
                if not session.is_over():
                    loser = 1 if result == "1-0" else 0
                    session.lose_on_time(loser)  # the host ends a game early only on time
                    self._say_ending()
                    self._position_changed()
            case ev.MoveRefused(why=why):
                self._pending = None
                self.say(f"The host refused your move: {why}", error=True)
                self._position_changed()
            case ev.WatcherCount(count=count):
                before, self._watchers = self._watchers, count
                if before is not None and count != before and session.has_human:
                    self.say(f"A watcher {'joined' if count > before else 'left'} ({count} watching)")
                self._show_status()
            case ev.Presence(away=away):
                self._away = away
                self.say("The joining player is away" if away else "The joining player is back", error=away)
            case ev.Lost(reason=reason, retrying=retrying):
                self._stop_clocks()  # only the host keeps time: ours would tick on for nothing
                self.board.accepting = False
                self.board.closed = True  # no move key until the host welcomes us back
                if retrying:
                    self.say(f"Connection lost: {reason}", error=True)
                else:
                    self._lost = reason
                    self.say(f"Disconnected: {reason}. The game cannot go on.", error=True)
                self._show_status()

    def _stop_clocks(self) -> None:
        clock = self.session.clock
        if clock is not None and not self.link.referees:
            clock.run(None)

    def _move_in(self, number: int, text: str) -> None:
        session = self.session
        if number <= session.ply:
            if session.notation[number - 1] == text:
                return  # a move we have (a rejoin sends the whole game)
            session.take_back_to(number - 1)
        if number != session.ply + 1:
            raise EngineError(f"move {number} came when move {session.ply + 1} was expected")
        if number == self._pending:
            self._pending = None
        played = session.play(text)  # InvalidOutput (an EngineError) when our engine refuses it
        self._moved(played)

    def _answer_undo(self, yes: bool | None) -> None:
        self._undo_dialog = False
        if self.link.answer_undo(bool(yes)):  # the host took back: redraw, and tell everyone
            self._stop_opponents()
            self.say("Taken back, as your opponent asked")
            self._position_changed()
        elif not yes:
            self.say("You said no to taking back")
