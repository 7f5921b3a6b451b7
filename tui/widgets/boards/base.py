"""What every board widget shares: it draws the session's engine position and turns keys and clicks into
moves, which it hands to the game screen as a `Board.MoveChosen` message (the screen plays them through
the engine).  A board keeps only input state (a cursor, a selection, a turn being built): the rules and
the position stay in the engine.
"""
from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.events import Click, Key, MouseMove
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from engines.base import EngineError, Game
from tui.core.session import Session
from tui.core.words import counted
from tui.widgets.boards.canvas import Canvas, centre_offset
from tui.widgets.boards.looks import ascii_table, palette_styler
from tui.widgets.refused import refused_action


ANALYSIS_STYLE = "bold bright_cyan"  # the analysis' best move, on every board
ANALYSIS_LINE_STYLE = "bold black on cyan"  # the best line's later moves (numbered), where a board draws them
ANALYSIS_BG = "#2a6f8f"


class Board(Widget, can_focus=True):
    DEFAULT_CSS = """
    Board {
        width: 1fr;
        height: 1fr;
    }
    """

    side_names: ClassVar[tuple[str, str]] = Game.side_names  # a board takes its engine class's
    side_styles: ClassVar[tuple[str, str]] = ("bold red", "bold yellow")
    side_marks: ClassVar[tuple[str, str]] = ("●", "●")
    # (keys, what they do) for the help screen; the footer shows the bindings themselves.
    help_keys: ClassVar[list[tuple[str, str]]] = []
    help_notes: ClassVar[list[str]] = []
    move_example: ClassVar[str] = ""  # a move in the player's notation, for the typed-move prompt
    ascii_glyphs: ClassVar[dict[str, str]] = {}  # this board's own ASCII stand-ins (see looks.py)

    accepting: reactive[bool] = reactive(False)  # a human is to move and the board takes input
    closed: reactive[bool] = reactive(False)  # no move can be made here any more (a network game cut off)

    class MoveChosen(Message):
        """The player entered a complete move, in the game's CodinGame output form (the board translates
        what the player pressed; the engine reads only CodinGame's notation)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Notice(Message):
        """Something to tell the player in the message line (a refused input, a hint of what to do)."""

        def __init__(self, text: str, error: bool = False) -> None:
            super().__init__()
            self.text = text
            self.error = error

    class Refused(Message):
        """A key of this board did nothing now: `why` says why in the board's words, or None when the
        screen knows better (the game is over, nobody plays here, the opponent is to move)."""

        def __init__(self, why: str | None) -> None:
            super().__init__()
            self.why = why

    def __init__(self, session: Session, *, id: str | None = "board") -> None:
        super().__init__(id=id)
        self.session = session
        self.origin = (0, 0)  # where the drawing starts inside the widget, for mouse clicks
        self.analysis_move: str | None = None  # the analysis' best move, marked by the drawing
        self.analysis_line: tuple[str, ...] = ()  # the best line (best move first), where a board draws it
        self.analysis_positions: list[tuple[str, object]] = []  # its later moves with their positions

    @property
    def game(self) -> Game:
        return self.session.game

    # ------------------------------------------------------------------ for the screen

    def position_changed(self) -> None:
        """The position changed (a move, an undo): forget input in progress and redraw."""
        self.reset_input()
        self.refresh()

    def reset_input(self) -> None:
        pass

    def turn_note(self) -> str:
        """Something the player to move should know now (a special move they may or must make), or ""."""
        return ""

    def describe_move(self, text: str) -> str:
        """A move (CodinGame's output form, as recorded) in the player's notation for the message line
        and the hint (boards may add words to it)."""
        return type(self.game).output_to_player(text)

    @classmethod
    def move_glyphs(cls, move: str) -> str:
        """The move drawn in glyphs for the move list, beside its notation (boards may add them)."""
        return ""

    def extra_status(self) -> str:
        """Facts about the position for the side panel (counts, the turn limit); empty if none."""
        return ""

    def turns_left(self) -> str:
        """The turns left before the referee's turn limit, the one to play included ("142 turns left"):
        how a board that shows the limit says it, beside the status line's "Turn 9"."""
        left = self.game.max_turns - self.game.game_ply
        return f"{counted(left, 'turn')} left"

    def show_hint(self, text: str) -> None:
        """Point at a suggested move (boards that can, move their cursor there)."""

    def show_analysis(self, text: str | None, line: tuple[str, ...] = ()) -> None:
        """Mark the analysis' best move on the board (None: no mark) and, on boards that can, the best line
        after it (`line`: the best move first, then the best replies, numbered 2, 3, ... on the board);
        unlike a hint it moves no cursor, so the player's input is left alone while the analysis deepens."""
        line = line if text is not None else ()
        if text != self.analysis_move or line != self.analysis_line:
            self.analysis_move, self.analysis_line = text, line
            self.analysis_positions = self._line_positions(line)
            self.refresh()

    def line_positions(self) -> list[tuple[str, object]]:
        """The moves of the analysis' line after the best one, each with the position it is played in
        (a copy of the game), for boards that draw the line."""
        return self.analysis_positions

    def _line_positions(self, line: tuple[str, ...]) -> list[tuple[str, object]]:
        # Worked out once a line (a board redraws on every mouse move); the screen clears the line
        # whenever its position changes, so these never outlive it.  Stops at a move the engine refuses.
        out, game = [], self.game.copy()
        for k, move in enumerate(line):
            if k:
                out.append((move, game.copy()))
            try:
                game.play(move)
            except EngineError:  # the position moved on since the line was found
                break
        return out

    def watch_accepting(self, accepting: bool) -> None:
        self.refresh()  # the screen refreshes the bindings once it has handed out the turn

    def watch_closed(self, closed: bool) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Game keys work only while a human is to move; meanwhile the footer shows them dimmed (so it
        # does not jump about on every turn).  Keys that make no sense now or any more are hidden.
        # With no human in the game (a watcher, AI against AI) no move key is offered at all.
        if (self.session.is_over() or self.closed or not self.session.has_human
                or not self.available(action, parameters)):
            return False
        return True if self.accepting else None

    def refusal(self, action: str, parameters: tuple[object, ...]) -> str | None:
        """Why a key that `available` hides now does nothing, in one line (boards word their own keys)."""
        return None

    def on_key(self, event: Key) -> None:
        # A key whose bindings are all hidden or dimmed would do nothing silently: say why instead.
        refused = refused_action(self, event.key)
        if refused is None:
            return
        event.stop()
        action, parameters = refused
        why = None
        if (not self.session.is_over() and not self.closed and self.session.has_human
                and not self.available(action, parameters)):
            why = self.refusal(action, parameters)
        self.post_message(self.Refused(why))

    def available(self, action: str, parameters: tuple[object, ...]) -> bool:
        """Whether a key of this board means something in the current state (boards override)."""
        return True

    def choose(self, text: str) -> None:
        self.post_message(self.MoveChosen(text))

    def notice(self, text: str, error: bool = False) -> None:
        self.post_message(self.Notice(text, error))

    # ------------------------------------------------------------------ drawing

    def draw(self, width: int, height: int) -> Canvas:
        """The board drawn for a region of this size (the canvas may be smaller; it is centred)."""
        raise NotImplementedError

    @property
    def ascii_style(self) -> bool:
        return self.app.settings.board_style == "ascii"

    def render(self) -> Text:
        width, height = self.content_size
        canvas = self.draw(width, height)
        styler = palette_styler(self.app.settings.palette)
        if self.ascii_style or styler is not None:
            canvas.restyle(ascii_table(self.ascii_glyphs) if self.ascii_style else None, styler)
        left, top = centre_offset(width, canvas.width), centre_offset(height, canvas.height)
        self.origin = (left, top)
        text = Text(no_wrap=True, overflow="crop", end="")
        text.append("\n" * top)
        body = canvas.to_text()
        for i, line in enumerate(body.split("\n", allow_blank=True)):
            if i:
                text.append("\n")
            text.append(" " * left)
            text.append_text(line)
        return text

    def canvas_xy(self, event: Click | MouseMove) -> tuple[int, int]:
        """A mouse position in the drawing's coordinates."""
        return event.x - self.origin[0], event.y - self.origin[1]


def digit_bindings(action: str, description: str, keys: str) -> list[Binding]:
    """One binding per key, `action(i)` for the i-th key; the footer shows them as one entry (`1-9`)."""
    first = Binding(keys[0], f"{action}(0)", description, key_display=f"{keys[0]}-{keys[-1]}")
    return [first] + [Binding(k, f"{action}({i})", description, show=False) for i, k in enumerate(keys) if i]
