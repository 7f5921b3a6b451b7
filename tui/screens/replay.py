"""Replay: step through a game forwards and backwards on its board (← → one move, Home End the start and
the end, PgUp PgDn ten moves); the move list marks where you are.  `p` leaves the replay to play on
from the position shown, with the rest of the game kept as the redo line.

The replay owns a Session of the whole game and moves along it one ply at a time (Session.step_back /
step_forward); nobody is asked to move, nothing is autosaved.  A game that ended by a forfeit (a bot
that crashed) shows that result at its last move only.

A recorded game (`referee`/`match --record`) adds a panel with both bots' answers, times and stderr
for the turn on the board (tui/widgets/record_panel.py); a game a bot lost by a timeout, a crash or a
refused output has one step more than it has moves, the turn that ended it, which `f` jumps to.  On a
wide terminal the side panel grows so that stderr lines wrap less.
"""
from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Static

from engines.endings import first_upper, short
from engines.savefile import SavedGame
from engines.visible import visible
from tui.screens.analysis import ANALYSIS_BINDING, AnalysisHost
from tui.screens.arena import ArenaPage
from tui.screens.chart import CHART_BINDINGS, ChartHost
from tui.core.session import Session
from tui.core.specs import PlayerSpec, SpecError, parse_spec
from tui.widgets.advantage_chart import AdvantageChart
from tui.widgets.analysis_panel import AnalysisPanel
from tui.widgets.boards import board_class
from tui.widgets.layout import board_with_side
from tui.widgets.move_list import MoveList
from tui.widgets.record_panel import RecordPanel, turn_text
from tui.widgets.refused import refused_action
from tui.widgets.status import MessageLine, StatusPanel

WIDE = 120  # terminal columns from which the side panel of a recorded replay grows


def display_spec(label: str) -> PlayerSpec:
    try:
        return parse_spec(label)
    except SpecError:
        return PlayerSpec("human")


class ReplayScreen(ChartHost, AnalysisHost, ArenaPage, Screen):
    # priority: the keys are the replay's even though boards use arrows for their cursors
    BINDINGS = [
        Binding("left", "step(-1)", "back", key_display="←", priority=True),
        Binding("right", "step(1)", "forward", key_display="→", priority=True),
        Binding("home", "go(0)", "first", show=False, priority=True),  # (the footer's room: A and c)
        Binding("end", "go(-1)", "last", show=False, priority=True),
        Binding("pageup", "step(-10)", "-10", show=False, priority=True),
        Binding("pagedown", "step(10)", "+10", show=False, priority=True),
        Binding("f", "go_fault", "fault", id="replay.fault",
                tooltip="jump to the turn where a bot timed out, crashed or was refused"),
        Binding("up", "scroll_record(-1)", "scroll stderr", show=False, priority=True),
        Binding("down", "scroll_record(1)", "scroll stderr", show=False, priority=True),
        Binding("p", "play_on", "play on"),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("escape,q", "back", "leave"),
        replace(ANALYSIS_BINDING, show=True),  # the replay's footer has room for it
        *CHART_BINDINGS,
    ]

    def __init__(self, saved: SavedGame, title: str = "", chart: bool = False) -> None:
        """`chart`: open at the last move with the advantage chart shown (from the game-over dialog)."""
        super().__init__()
        self.open_chart = chart
        self.saved = saved
        self.title_text = title
        specs = [display_spec(label) for label in saved.players]
        self.session = Session(saved.game, specs, saved.seed, start=saved.start, moves=saved.moves)
        self.board_cls = board_class(saved.game)
        self.session.restore_forfeit(saved)
        self.final_forced = self.session.forced
        self.length = self.session.ply
        self.record = saved.record
        # the turn that ended the game by a forfeit, when it was recorded: one step past the last move
        self.fault = self.length + 1 if self.record and len(self.record) > self.length else None
        self.last = self.fault or self.length
        self.step_shown = 0
        self.chart_moves = list(self.session.notation)
        self.board = self.board_cls(self.session)
        self.board.can_focus = False  # its keys (arrows...) must not compete with the replay's
        self._go(0)

    def compose(self) -> ComposeResult:
        below = [RecordPanel(id="record")] if self.record is not None else []
        chart = AdvantageChart(self.board_cls.side_names, self.board_cls.side_styles, id="chart")
        yield from board_with_side(self.board, Static(id="replay-info"), *below, AnalysisPanel(id="analysis"),
                                   chart)

    def on_mount(self) -> None:
        self.set_class(self.record is not None, "recorded")
        if self.open_chart:
            self._go(self.length)
            self.action_toggle_chart()
        self._changed()

    def on_resize(self) -> None:
        self.set_class(self.size.width >= WIDE, "wide")

    # ------------------------------------------------------------------ moving along the game

    @property
    def ply(self) -> int:
        return self.step_shown

    def _go(self, step: int) -> None:
        step = max(0, min(self.last, step))
        ply = min(step, self.length)
        session = self.session
        session.forced = None
        while session.ply > ply:
            session.step_back()
        while session.ply < ply:
            session.step_forward()
        self.step_shown = step
        if step == self.last:
            session.forced = self.final_forced

    def _changed(self) -> None:
        self.board.position_changed()
        self.refresh_analysis()
        self.show_chart()
        self.query_one(StatusPanel).show(self.session, self.board)
        self.query_one(MoveList).show(self.session, self.board_cls, replay=True)
        info = Text()
        info.append("Replay", "bold reverse")
        if self.title_text:
            # a recorded game's file name is long: its start (the game) and end (game number, seed) tell
            # most, so the middle goes rather than a wrap over three lines of a narrow side panel
            room = 60 if self.size.width >= WIDE else 17
            title = visible(self.title_text)  # a file name
            if len(title) > room:
                title = title[:room // 2 - 1] + "…" + title[-(room - room // 2):]
            info.append(f" {title}", "dim")
        if self.fault is not None and self.ply == self.fault:
            info.append(f"\nturn {self.fault}: the game's end")
        else:
            # moves numbered from the game's first, as the move list does (here the session is at self.ply)
            s = self.session
            info.append(f"\nmove {s.game.game_ply} of {s.start_ply + self.length}")
        if self.ply == self.last and self.saved.result == "*":
            info.append(" (game unfinished)", "dim")
        if self.ply == self.last and self.session.is_over():
            headline, reason = self.session.result_words(self.board_cls.side_names)
            if self.fault is not None:  # the whole sentence (long: a bot's stderr) is in the record panel
                reason = first_upper(short(self.session.cls, self.saved.reason))
            info.append(f"\n{headline}: ", "bold")
            info.append(visible(reason))
        self.query_one("#replay-info", Static).update(info)
        if self.record is not None:
            fault = self.ply == self.fault
            text = turn_text(self.record, self.ply, self.board_cls.side_names, self.board_cls.side_styles,
                             failed=fault)
            if fault and self.session.forced is not None:
                text.append("\n" + self.session.result_words(self.board_cls.side_names)[1], "red")
            self.query_one(RecordPanel).show(text)
        self.refresh_bindings()

    def jump_to(self, ply: int) -> None:
        self._go(ply)
        self._changed()

    def action_step(self, delta: int) -> None:
        self._go(self.ply + delta)
        self._changed()

    def action_go(self, where: int) -> None:
        self._go(self.last if where < 0 else where)
        self._changed()

    def action_go_fault(self) -> None:
        if self.fault is not None:
            self.action_go(self.fault)

    def action_scroll_record(self, lines: int) -> None:
        for panel in self.query(RecordPanel):
            panel.scroll_relative(y=lines, animate=False)

    def action_help(self) -> None:
        from tui.screens.help import KeysScreen

        notes = ["A recorded game: the panel under the moves shows, for the turn on the board, each bot's "
                 "answer and time and what both printed on stderr during that turn."] if self.record is not None else []
        self.app.push_screen(KeysScreen(f"Keys: replay of {self.session.cls.title}", self.BINDINGS, notes))

    def on_key(self, event: Key) -> None:
        # A key of the replay that cannot act here would do nothing silently: say why instead.
        refused = refused_action(self, event.key)
        if refused is not None:
            event.stop()
            self.query_one(MessageLine).say(self.key_refusal(*refused), error=True)

    def key_refusal(self, action: str, parameters: tuple[object, ...]) -> str:
        """Why a key of the replay does nothing on the move shown, in one line."""
        if action in ("step", "go"):
            back = int(parameters[0]) < 0 if action == "step" else parameters[0] == 0
            return "This is the start of the game: nothing before it" if back else \
                "This is the end of the game: nothing after it"
        if action == "go_fault":
            return ("No bot timed out, crashed or was refused in this game" if self.fault is None
                    else "This is the turn where the game was lost by a fault")
        if action == "scroll_record":
            return "Not a recorded game: no bots' output to scroll"
        if action == "play_on":
            return "The game is over here: step back (←) to play on from earlier"
        return "Not available on this move"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            return self.ply > 0 if parameters and int(parameters[0]) < 0 else self.ply < self.last
        if action == "go":
            return self.ply > 0 if parameters and parameters[0] == 0 else self.ply < self.last
        if action == "go_fault":
            return self.fault is not None and self.ply != self.fault
        if action == "scroll_record":
            return self.record is not None
        if action == "play_on":
            return not self.session.is_over()
        return True

    # ------------------------------------------------------------------ leaving

    def action_play_on(self) -> None:
        if self.session.is_over():  # the palette runs it unchecked
            self.query_one(MessageLine).say(self.key_refusal("play_on", ()), error=True)
            return
        players = list(self.saved.players)
        if "human" not in players:  # a game between programs: you take over the side to move
            players[self.session.to_move()] = "human"
        saved = SavedGame(game=self.saved.game, moves=list(self.session.notation), start=self.saved.start,
                          seed=self.session.seed, players=tuple(players),
                          redo=self.session.redo_moves)
        self.arena.play_saved(saved, confirm=True)

    def action_back(self) -> None:
        self.arena.leave_page(self)
