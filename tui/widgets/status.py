"""The side panel's text: who plays which side, whose turn it is, what the AI is doing, the last message."""
from __future__ import annotations

import os
import shlex

from rich.text import Text
from textual.widgets import Static

from engines.endings import first_upper
from engines.visible import visible
from tui.core.clock import LOW_TIME_S, show_time
from tui.core.session import Session
from tui.core.specs import PlayerSpec
from tui.plain import plain
from tui.widgets.boards.looks import side_mark

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def describe_spec(spec: PlayerSpec, width: int = 40, over_network: bool = False) -> str:
    """How the side panel names a player; `over_network`: the other side plays from elsewhere, so the
    person at this keyboard is "you" (beside the opponent's name on a server), not one of two humans."""
    if spec.kind == "ai":
        return f"AI level {spec.level}"
    if spec.kind == "cmd":
        return "bot " + visible(bot_name(spec.command or ""), width)  # a command from a file or the user
    if spec.kind == "net":  # a server game names its players (checked names, shown as text all the same)
        return visible(spec.text or "remote", width)
    return "you" if over_network else "human"


def bot_name(command: str) -> str:
    """A short name for a bot command: its script's file name (`python3 bots/my_bot.py` -> `my_bot.py`)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if not words:
        return command
    files = [w for w in words[1:] if not w.startswith("-") and ("/" in w or "." in w)]
    return os.path.basename(files[0] if files else words[0]) or words[0]


class StatusPanel(Static):
    """Title, the two sides (the one to move marked), and whose turn it is or how the game ended."""

    _shown: tuple | None = None

    def looks_changed(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)

    def on_resize(self) -> None:  # where the seed goes depends on the width
        self.looks_changed()

    def show(self, session: Session, board, note: str = "", stopped: str = "") -> None:
        """`note`: a last dim line (which search the AI runs); `stopped`: how a game that ended outside its
        rules (an abort) ended, said instead of whose turn it is."""
        self._shown = (session, board, note, stopped)
        board_cls = type(board)
        ascii_style = self.app.settings.board_style == "ascii"
        text = Text()
        text.append(session.cls.title, "bold")
        if session.cls.seeded:
            seed = f"seed {session.seed}"
            # on a line of its own when the title's has no room: wrapped, "seed" and its number came apart
            fits = len(session.cls.title) + 2 + len(seed) <= (self.content_size.width or 1 << 30)
            text.append(("  " if fits else "\n") + seed, "dim")
        text.append("\n")
        over = session.outcome()
        mover = session.to_move()
        over_network = any(spec.kind == "net" for spec in session.specs)
        for seat in (0, 1):
            arrow = "▶ " if over is None and not stopped and seat == mover else "  "
            text.append(arrow, "bold")
            text.append(side_mark(board_cls, seat, ascii_style) + " ", board_cls.side_styles[seat])
            text.append(f"{board_cls.side_names[seat]:<7}", board_cls.side_styles[seat])
            text.append(" " + describe_spec(session.specs[seat], 11, over_network))
            left = session.clock.left(seat) if session.clock is not None else None
            if left is not None:  # the low-time warning: red from LOW_TIME_S down, tenths shown
                text.append(" " + show_time(left), "bold white on red" if left <= LOW_TIME_S else "bold")
            text.append("\n")
        if stopped:
            text.append("Game over: ", "bold")
            text.append(stopped, "bold")
        elif over is None:
            # the move list's number of the turn to play, the one numbering of turns on the screen (a board
            # may say how many are left: Cultist Wars once said "turn 8/150", its turns played, beside "Turn 9")
            text.append(f"Turn {session.turn_number(session.ply)}: ")
            text.append(board_cls.side_names[mover], board_cls.side_styles[mover])
            text.append(" to move")
        else:
            headline, _ = session.result_words(board_cls.side_names)
            text.append("Game over: ", "bold")
            text.append(headline, "bold green")
        for line in (board.extra_status(), note):
            if line:
                text.append("\n" + line, "dim")
        self.update(text)


class ThinkingLine(Static):
    """What the opponent is doing: the AI's progress (depth, nodes, eval) or a bot being waited for."""

    def show(self, what: str, detail: str = "", frame: int | None = 0, style: str = "cyan") -> None:
        """`frame` None: no spinner (a state that waits on nothing turning, e.g. a lost connection)."""
        if not what:
            self.update("")
            self.display = False
            return
        self.display = True
        text = Text()
        if frame is not None:
            text.append(SPINNER[frame % len(SPINNER)] + " ", "bold cyan")
        text.append(what, style)
        if detail:
            text.append("\n" + detail, "dim")
        self.update(text)


class MessageLine(Static):
    """The last message: a refused input with the referee's reason (red), or information.

    Never cut: it wraps, and grows up to MAX_LINES; a message longer than that (a long referee reason in
    a narrow panel) is shown whole in a notification as well, and the line says so where it stops."""

    MAX_LINES = 12
    DEFAULT_CSS = f"MessageLine {{ height: auto; max-height: {MAX_LINES}; }}"
    FALLBACK_WIDTH = 25  # the side panel's text width at 80 columns, before the layout is known
    MORE = "… (whole message in the notification)"

    _said: tuple[str, bool] = ("", False)

    def say(self, text: str, error: bool = False) -> None:
        # a sentence, whoever worded it (a board's refusal, the session's, the referee's reason)
        self._said = (first_upper(text), error)
        if self._show() and self.is_attached:  # too long for the line: whole where it fits
            self.app.notify(self._said[0], severity="error" if error else "information",
                            timeout=max(10, len(text) // 15))

    def on_resize(self) -> None:
        self._show()

    def _show(self) -> bool:
        """Show the message; True when it does not fit and the line ends with MORE."""
        text, error = self._said
        if not text:
            self.update("")
            return False
        shown = plain(text, style="bold red" if error else "green")  # it may quote a bot, a file, a peer
        width = self.content_region.width or self.FALLBACK_WIDTH
        console = self.app.console if self.is_attached else None
        if console is None or len(shown.wrap(console, width)) <= self.MAX_LINES:
            self.update(shown)
            return False
        lines = shown.wrap(console, width)[: self.MAX_LINES - 2]
        cut = Text("\n").join(lines)
        cut.append("\n" + self.MORE, "dim")
        self.update(cut)
        return True
