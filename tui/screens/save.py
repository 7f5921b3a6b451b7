"""Dialogs of saving: the save dialog (a name, checked; errors shown in place) and the offer to resume
the autosaved game on start."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from engines.base import Game
from engines.savefile import SavedGame
from tui.screens.dialogs import ConfirmScreen, TakesTypedAhead
from tui.core.storage import StorageError, safe_path, shown
from tui.core.words import counted
from tui.plain import plain
from tui.widgets.preview import position_preview


class SaveScreen(TakesTypedAhead, ModalScreen[Path | None]):
    """Asks a name (the default one is selected, so typing replaces it) and saves into `folder`.

    `write(path)` does the saving and raises StorageError; a refused name, a failed write (a full disk)
    is shown in the dialog, which stays open: nothing is lost and another name or a retry can follow.
    Dismisses with the path written, or None when cancelled.
    """

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, folder: Path, default: str, write: Callable[[Path], None]) -> None:
        super().__init__()
        self.folder, self.default, self.write = folder, default, write

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="save-dialog"):
            yield Static(Text("Save the game", style="bold"), classes="dialog-title")
            yield Static(Text(f"Name of the file in {shown(self.folder)}/ (.txt is added):", style="dim"))
            yield Input(self.default, id="save-name")
            yield Static(id="save-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (⏎)", variant="primary", id="save")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#save-name", Input).focus()

    def error(self, text: str) -> None:
        self.query_one("#save-error", Static).update(plain(text, style="bold red"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.submit(self.query_one("#save-name", Input).value)
        else:
            self.dismiss(None)

    def submit(self, name: str) -> None:
        try:
            path = safe_path(self.folder, name)
        except StorageError as e:
            self.error(str(e))
            return
        if path.exists():
            def answer(yes: bool | None) -> None:
                if yes:
                    self._write(path)

            self.app.push_screen(ConfirmScreen(f"{path.name} exists already: replace it?", "Replace"), answer)
            return
        self._write(path)

    def _write(self, path: Path) -> None:
        try:
            self.write(path)
        except StorageError as e:
            self.error(str(e))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


def describe_players(players: tuple[str, str], side_names: tuple[str, str]) -> str:
    return f"{side_names[0]} {players[0]} · {side_names[1]} {players[1]}"


class ResumeScreen(ModalScreen[str]):
    """The unfinished game found in the autosave: dismisses with "resume", "discard" or "later"."""

    BINDINGS = [
        Binding("r,enter", "choose('resume')", "resume"),
        Binding("d", "choose('discard')", "discard"),
        Binding("escape", "choose('later')", "not now"),
    ]

    def __init__(self, saved: SavedGame, final: Game) -> None:
        super().__init__()
        self.saved, self.final = saved, final

    def compose(self) -> ComposeResult:
        from tui.widgets.boards import board_class

        board_cls = board_class(self.saved.game)
        saved = self.saved
        mover = board_cls.side_names[self.final.current_player()]
        facts = (f"{self.final.title} · {describe_players(saved.players, board_cls.side_names)}\n"
                 f"{counted(len(saved.moves), 'move')}, {mover} to move"
                 + (f" · {len(saved.redo)} to redo" if saved.redo else "")
                 + (f"\nautosaved {saved.date.replace('T', ' ')}" if saved.date else ""))
        with Vertical(classes="dialog", id="resume-dialog"):
            yield Static(Text("Resume the unfinished game?", style="bold"), classes="dialog-title")
            yield Static(plain(facts), classes="dialog-text")  # the players and date come from the file
            yield Static(position_preview(self.final, self.app.settings.board_style == "ascii"), id="resume-preview")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Resume (r)", variant="primary", id="resume")
                yield Button("Discard (d)", variant="error", id="discard")
                yield Button("Not now (esc)", id="later")

    def on_mount(self) -> None:
        self.query_one("#resume", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
