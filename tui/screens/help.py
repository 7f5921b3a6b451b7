"""The help screen (`?`): every key of the game screen and of the board in play, and what they do."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.core.session import Session

GENERAL_KEYS = [
    ("?", "this help"),
    (":", "type a move in the game's CodinGame notation, e.g. {example}"),
    ("u  ctrl+z", "undo: one move in hot-seat, back to your own turn against the AI"),
    ("r  ctrl+y", "redo what was undone"),
    ("H", "hint: the strongest AI level (6) suggests a move, without playing it"),
    ("n", "new game (asks first while a game runs)"),
    ("ctrl+s", "save the game to a file of the save folder (asks a name)"),
    ("ctrl+o", "load a saved game: play on, or replay a finished one (← → Home End)"),
    ("L", "show or hide the bots' stderr (games with an external bot)"),
    ("ctrl+r", "ask the AI again after it failed"),
    ("ctrl+q", "quit (asks first while a game runs; the game is autosaved and offered next time)"),
]


def key_table(rows: list[tuple[str, str]]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, what in rows:
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter", "close", "close help")]

    def __init__(self, session: Session, board_cls) -> None:
        super().__init__()
        self.session = session
        self.board_cls = board_cls

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help"):
            yield Static(Text(f"Keys: {self.session.cls.title}", style="bold"), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                yield Static(key_table(self.board_cls.help_keys))
                for note in self.board_cls.help_notes:
                    yield Static(Text("• " + note, style="dim"))
                yield Static(Text("\nEverywhere in a game", style="bold"))
                example = self.board_cls.move_example or "the move a bot would print"
                yield Static(key_table([(k, what.format(example=example)) for k, what in GENERAL_KEYS]))
                yield Static(Text("\n" + "\n".join(self.session_notes()), style="italic"))
            yield Static(Text("↑ ↓ PgUp PgDn scroll · esc or ? closes this help", style="dim"))

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def session_notes(self) -> list[str]:
        notes = []
        if self.session.has_bot:
            notes.append("Undo is not available in this game: an external bot only understands a game "
                         "played from its start, so it cannot be rewound.")
        if not self.session.has_human:
            notes.append("No human plays in this game: sit back and watch.")
        notes.append("Illegal input is refused with the referee's own reason in the message line; "
                     "nothing changes.")
        return notes

    def action_close(self) -> None:
        self.dismiss(None)
