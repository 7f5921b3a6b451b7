"""The moves played so far, one per line, in the game's player notation (engines.base.Game.output_to_player:
what the keys, the hint and the analysis say), coloured by side.  A move read
from a file (the redo line, say) may carry a bot's comment: shown with its control characters escaped."""
from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from engines.visible import visible
from tui.core.session import Session
from tui.widgets.advantage_chart import MARKS
from tui.widgets.boards.looks import side_mark

# analysis labels after a move in the replay, as chess annotations: the chart's marks and colours
LABEL_MARKS = {label: (wide, style) for label, (wide, _narrow, style) in MARKS.items()}


class MoveList(VerticalScroll, can_focus=False):
    DEFAULT_CSS = """
    MoveList { height: 1fr; }
    MoveList > Static { width: 1fr; }
    """

    labels: dict[int, str] = {}  # ply -> analysis label (the replay's chart sets them)

    def compose(self):
        yield Static(id="move-lines")

    _shown: tuple | None = None

    def looks_changed(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)

    def _mark(self, board_cls, seat: int) -> str:
        return side_mark(board_cls, seat, self.app.settings.board_style == "ascii") + " "

    def show(self, session: Session, board_cls, replay: bool = False) -> None:
        self._shown = (session, board_cls, replay)
        if replay:
            self._show_replay(session, board_cls)
            return
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Moves", "bold underline")
        if not session.notation:
            text.append("\n(none yet)", "dim")
        shown = session.cls.output_to_player
        for i, move in enumerate(session.notation):
            seat = session.seat_of_ply(i)
            text.append(f"\n{session.turn_number(i):>3} ", "dim")
            text.append(self._mark(board_cls, seat), board_cls.side_styles[seat])
            text.append(visible(shown(move)))
            self._glyphs(text, board_cls, move)
        redo = session.redo_moves
        if redo:
            text.append(f"\n    ({len(redo)} to redo: {visible(' '.join(map(shown, redo[:3])))}{' …' if len(redo) > 3 else ''})", "dim")
        self.query_one("#move-lines", Static).update(text)
        self.call_after_refresh(self.scroll_end, animate=False)

    def _glyphs(self, text: Text, board_cls, move: str) -> None:
        glyphs = board_cls.move_glyphs(move)
        if glyphs and self.app.settings.board_style != "ascii":  # (ASCII: the digits say it all)
            text.append(f" {glyphs}", "cyan")

    def _show_replay(self, session: Session, board_cls) -> None:
        """The whole game, the moves not yet replayed dimmed, the position shown marked with ▶."""
        line = session.notation + session.redo_moves
        here = session.ply
        shown = session.cls.output_to_player
        text = Text(no_wrap=True, overflow="ellipsis")
        # counted as the rows are, from the game's first move (a loaded position's turns included)
        text.append(f"Moves  {session.game.game_ply}/{session.start_ply + len(line)}", "bold underline")
        text.append("\n▶   start" if here == 0 else "\n    start", "reverse bold" if here == 0 else "dim")
        for i, move in enumerate(line):
            seat = session.seat_of_ply(i)
            current, future = i + 1 == here, i >= here
            row = Text()
            row.append("▶" if current else " ", "bold")
            row.append(f"{session.turn_number(i):>3} ", "dim")
            row.append(self._mark(board_cls, seat), "dim" if future else board_cls.side_styles[seat])
            row.append(visible(shown(move)), "dim" if future else "")
            self._glyphs(row, board_cls, move)
            label = self.labels.get(i + 1)
            if label in LABEL_MARKS:
                row.append(LABEL_MARKS[label][0], LABEL_MARKS[label][1])
            if current:
                row.stylize("reverse")
            text.append("\n")
            text.append_text(row)
        self.query_one("#move-lines", Static).update(text)
        # keep the current move in view, a few lines of context above it
        self.call_after_refresh(lambda: self.scroll_to(y=max(0, here + 1 - self.size.height // 2), animate=False))
