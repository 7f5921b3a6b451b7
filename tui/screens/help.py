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
from tui.widgets.boards.looks import ascii_words

def binding_rows(bindings: list[Binding], example: str) -> list[tuple[str, str]]:
    """One help row per key of `bindings`, in the words of its tooltip (a key bound twice: the binding
    that has one), else its description: the help is made from the bindings, never kept beside them."""
    rows: dict[str, str] = {}
    for b in bindings:
        keys = "  ".join(format_key(k) for k in b.key.split(","))
        if b.tooltip or keys not in rows:
            rows[keys] = (b.tooltip or b.description).format(example=example)
    return list(rows.items())


def format_key(key: str) -> str:
    return {"question_mark": "?", "colon": ":"}.get(key.strip(), key.strip())


MOVE_ACTIONS = ("type_move", "hint", "undo", "redo")  # keys of a player, not of someone watching
APP_ROWS = [("ctrl+p", "command palette: every command of this screen by name (new game, save, undo, hint…)"),
            ("ctrl+q", "quit (asks first while a game runs; the game is autosaved and offered next time)")]


def key_table(rows: list[tuple[str, str]], ascii_style: bool = False) -> Table:
    words = ascii_words if ascii_style else str
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, what in rows:
        table.add_row(words(key), words(what))
    return table


def in_style(app, text: str) -> str:
    """Help text in the app's board style (ASCII: arrows as words)."""
    return ascii_words(text) if app.settings.board_style == "ascii" else text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter", "close", "close help")]

    def __init__(self, session: Session, board_cls, bindings: list[Binding]) -> None:
        super().__init__()
        self.session = session
        self.board_cls = board_cls
        self.bindings = bindings  # the game screen's: the help shows exactly the keys it has

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help"):
            yield Static(Text(f"Keys: {self.session.cls.title}", style="bold"), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                ascii_style = self.app.settings.board_style == "ascii"
                playing = self.session.has_human  # a watcher is offered no key that makes a move
                if playing:
                    yield Static(key_table(self.board_cls.help_keys, ascii_style))
                for note in self.board_cls.help_notes:
                    yield Static(Text("• " + in_style(self.app, note), style="dim"))
                yield Static(Text("\nEverywhere in a game", style="bold"))
                example = self.board_cls.move_example or "the move a bot would print"
                bindings = [b for b in self.bindings if playing or b.action.split("(")[0] not in MOVE_ACTIONS]
                self.key_rows = binding_rows(bindings, example) + APP_ROWS
                yield Static(key_table(self.key_rows, ascii_style), id="help-keys")
                yield Static(Text("\n" + "\n".join(self.session_notes()), style="italic"))
            yield Static(Text(in_style(self.app, "↑ ↓ PgUp PgDn scroll · esc or ? closes this help"), style="dim"))

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


class KeysScreen(ModalScreen[None]):
    """The keys of a screen that plays no game (the replay), made from its bindings as the help is."""

    BINDINGS = [Binding("escape,question_mark,q,enter", "close", "close help")]

    def __init__(self, title: str, bindings: list[Binding], notes: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.key_rows = binding_rows(bindings, "") + APP_ROWS
        self.notes = notes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                yield Static(key_table(self.key_rows, self.app.settings.board_style == "ascii"), id="help-keys")
                for note in self.notes:
                    yield Static(Text("\n" + in_style(self.app, note), style="italic"))
            yield Static(Text("esc or ? closes this help", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
