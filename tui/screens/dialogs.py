"""Small modal dialogs: a yes/no question, a message, the game-over summary.

Their texts are shown with their control characters escaped and never read as markup (tui.plain): they
quote file names, file content, bots and peers, whose `\x1b` must not act on the terminal and whose
stray `[/x]` would stop the app with a MarkupError."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from tui.plain import plain


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; dismisses with True for yes."""

    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.question), classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="yes")
                yield Button(f"{self.no} (n)", variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class MessageScreen(ModalScreen[None]):
    """A message that needs acknowledging (an error that stops something the user asked for)."""

    BINDINGS = [Binding("escape,enter,space,q", "close", "OK")]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text, self.message = title, message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            yield Static(plain(self.message), classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("OK", variant="primary", id="ok")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    """The result and why; dismisses with "new", "undo", "save", "replay", "chart" (the replay with its
    advantage chart), "quit" or "close" (look at the board)."""

    BINDINGS = [
        Binding("n", "choose('new')", "new game"),
        Binding("u", "choose('undo')", "undo"),
        Binding("s,ctrl+s", "choose('save')", "save"),
        Binding("p", "choose('replay')", "replay"),
        Binding("c", "choose('chart')", "chart"),
        Binding("escape", "choose('close')", "view board"),
    ]

    def __init__(self, headline: str, reason: str, length: str, can_undo: bool, can_start_new: bool = True) -> None:
        """`can_start_new`: False where the game screen cannot start another (a network game): no button
        offers it, and `n` leaves it to the game screen to say why."""
        super().__init__()
        self.headline, self.reason, self.length, self.can_undo = headline, reason, length, can_undo
        self.can_start_new = can_start_new

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="game-over"):
            yield Static(Text("Game over", style="bold"), classes="dialog-title")
            yield Static(Text(self.headline, style="bold green"), id="result-headline")
            yield Static(plain(self.reason), id="result-reason", classes="dialog-text")
            yield Static(Text(self.length, style="dim"), id="result-length")
            yield Static(Text("s save the game · p replay it · c chart of who was ahead", style="dim"),
                         id="result-keys")
            with Horizontal(classes="dialog-buttons"):
                if self.can_start_new:
                    yield Button("New game (n)", variant="primary", id="new")
                if self.can_undo:
                    yield Button("Undo (u)", id="undo")
                yield Button("Board (esc)", id="close")
                yield Button("Quit (^q)", variant="error", id="quit")

    def on_mount(self) -> None:
        self.query_one("#new" if self.can_start_new else "#close", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("undo",):
            return self.can_undo
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class TakesTypedAhead:
    """For a dialog with a text input: the printable keys that come to the dialog itself go into its input.

    They are keys typed before the input had the focus. Textual hands each key to the widget focused when
    the key arrives, so of a burst such as `:5⏎` (a fast typist; an ssh connection that delivers the three
    at once) the keys after the one that opens the dialog reach the dialog before its input is mounted and
    focused; they were dropped, and Enter then submitted an empty input. The key that opens the dialog is
    a priority binding, so that the dialog is on top before the next key is handed out. A printable key
    typed into the input never comes here: the input takes it."""

    def on_key(self, event: Key) -> None:
        field = self.focused
        if event.is_printable and isinstance(field, Input) and event.character:
            event.stop()
            event.prevent_default()
            if field.selection.is_empty:
                field.insert_text_at_cursor(event.character)
            else:  # a selected default (the save name) is replaced, as when typed into the input
                field.replace(event.character, *field.selection)


class MovePrompt(TakesTypedAhead, ModalScreen[str | None]):
    """A move typed in the game's player notation, as the move list writes it (Enter plays it, Escape cancels)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, example: str) -> None:
        super().__init__()
        self.example = example

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="move-prompt"):
            yield Static(Text("Type a move as the move list writes it, Enter to play", style="bold"))
            yield Input(placeholder=f"e.g. {self.example}", id="move-input")

    def on_input_submitted(self, event) -> None:
        text = event.value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
