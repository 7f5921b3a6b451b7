"""The moves played so far, one per line, in the game's CodinGame notation, coloured by side."""
from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.session import Session


class MoveList(VerticalScroll, can_focus=False):
    DEFAULT_CSS = """
    MoveList { height: 1fr; }
    MoveList > Static { width: 1fr; }
    """

    def compose(self):
        yield Static(id="move-lines")

    def show(self, session: Session, board_cls) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Moves", "bold underline")
        if not session.notation:
            text.append("\n(none yet)", "dim")
        for i, move in enumerate(session.notation):
            seat = session.seat_of_ply(i)
            text.append(f"\n{i + 1:>3} ", "dim")
            text.append(board_cls.side_marks[seat] + " ", board_cls.side_styles[seat])
            text.append(move)
        redo = session.redo_moves
        if redo:
            text.append(f"\n    ({len(redo)} to redo: {' '.join(redo[:3])}{' …' if len(redo) > 3 else ''})", "dim")
        self.query_one("#move-lines", Static).update(text)
        self.call_after_refresh(self.scroll_end, animate=False)
