"""The load screen: every file of the save folder, newest first, with its game, players, date, result and
a small preview of its last position.  Files that cannot be loaded are listed too, with the reason
(bad content, broken or looping links, FIFOs, devices, folders, no permission: storage.list_saves).

Enter opens the highlighted save: an unfinished game (or a position) to play on, a finished game to
replay; `v` replays any game; `d` deletes a file (after a question).  The folder is read in a thread
worker (every file is replayed to check it), so a large folder never freezes the screen; whatever goes
wrong there is shown in the note line, which never stays at "Reading the folder…".

Everything a file says (its players, date, errors quoting it) and its name are shown with their control
characters escaped (tui.plain) and never as markup: a `CSI 8m` in a header conceals nothing here.
"""
from __future__ import annotations

from pathlib import Path

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engines import get_game
from engines.endings import summary
from engines.visible import visible
from tui.screens.arena import ArenaPage
from tui.screens.dialogs import ConfirmScreen
from tui.core.storage import AUTOSAVE_NAME, SaveEntry, list_saves, shown
from tui.core.words import counted
from tui.widgets.footer import GameFooter
from tui.widgets.preview import position_preview
from tui.plain import plain

def result_words(entry: SaveEntry) -> str:
    if entry.error:
        return "cannot be loaded"
    return summary(entry.result, entry.reason, get_game(entry.game))


def short_date(date: str) -> str:
    return visible(date.replace("T", " ")[:16])


def entry_label(entry: SaveEntry) -> Table:
    """One file in the list: its name, then the facts on a second line."""
    table = Table.grid()
    table.add_column(no_wrap=True, overflow="ellipsis")
    name = shown(entry.path.stem)
    if entry.error:
        table.add_row(Text.assemble(("✗ ", "bold red"), (name, "bold red")))
        table.add_row(plain("  " + first_line_of(entry.error, entry.path), style="red"))
        return table
    title = get_game(entry.game).title
    tag = "  (the game in progress)" if name == AUTOSAVE_NAME else ""
    table.add_row(Text.assemble((name, "bold"), (tag, "italic dim")))
    size = counted(entry.turns, "move") if entry.turns else "a position"
    players = f"{visible(entry.players[0])} vs {visible(entry.players[1])}"
    table.add_row(Text(f"  {title} · {size} · {players}", style="dim"))
    table.add_row(Text(f"  {short_date(entry.date) or 'no date'} · {result_words(entry)}", style="dim"))
    return table


def first_line_of(error: str, path: Path) -> str:
    """The reason without the file name the storage layer puts first (the name is shown above)."""
    prefix = f"{shown(path)}: "
    return error[len(prefix):] if error.startswith(prefix) else error


class LoadScreen(ArenaPage, Screen):
    BINDINGS = [
        Binding("enter", "open", "open", priority=True),
        Binding("v", "replay", "replay"),
        Binding("d,delete", "delete", "delete"),
        Binding("escape,q", "back", "back"),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.entries: list[SaveEntry] = []
        self.loaded = False

    def compose(self) -> ComposeResult:
        with Vertical(id="load"):
            yield Static(Text.assemble(("Saved games", "bold"), (f"  in {shown(self.folder)}", "dim")), id="load-title")
            with Horizontal(id="load-body"):
                yield OptionList(id="saves")
                with VerticalScroll(id="load-side"):
                    yield Static(id="load-preview")
                    yield Static(id="load-facts")
            yield Static(Text("Reading the folder…", style="dim"), id="load-note")
        yield GameFooter()

    def on_mount(self) -> None:
        self.refresh_list()

    # ------------------------------------------------------------------ reading the folder

    def refresh_list(self) -> None:
        self._read_folder()

    @work(thread=True, exclusive=True, group="load-list", exit_on_error=False)
    def _read_folder(self) -> None:
        try:
            entries, error = list_saves(self.folder), None
        except Exception as e:  # list_saves does not raise; if it ever did, say so rather than wait forever
            entries, error = [], f"cannot read {shown(self.folder)}: {type(e).__name__}: {e}"
        self.app.call_from_thread(self._show_entries, entries, error)

    def _show_entries(self, entries: list[SaveEntry], error: str | None) -> None:
        if not self.is_attached:
            return
        self.entries = entries
        self.loaded = True
        options = self.query_one("#saves", OptionList)
        options.clear_options()
        options.add_options([Option(entry_label(e), id=str(i)) for i, e in enumerate(entries)])
        note = self.query_one("#load-note", Static)
        if error:
            note.update(plain(error, style="bold red"))
        elif not entries:
            note.update(Text(f"No saved games in {shown(self.folder)} yet. In a game, ctrl+s saves it.", style="dim"))
        else:
            bad = sum(1 for e in entries if e.error)
            words = counted(len(entries), "file")
            if bad:
                words += f", {bad} that cannot be loaded (the reason is shown)"
            note.update(Text(words + " · ⏎ open (play on, or replay a finished game)", style="dim"))
        if entries:
            options.highlighted = 0
            options.focus()
        self._show_selected()
        self.refresh_bindings()

    # ------------------------------------------------------------------ the highlighted file

    def selected(self) -> SaveEntry | None:
        index = self.query_one("#saves", OptionList).highlighted
        if index is None or not 0 <= index < len(self.entries):
            return None
        return self.entries[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_selected()
        self.refresh_bindings()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def _show_selected(self) -> None:
        entry = self.selected()
        preview = self.query_one("#load-preview", Static)
        facts = self.query_one("#load-facts", Static)
        if entry is None:
            preview.update("")
            facts.update("")
            return
        if entry.error:
            preview.update(Text("This file cannot be loaded:", style="bold red"))
            facts.update(plain(first_line_of(entry.error, entry.path), style="red"))
            return
        cls = get_game(entry.game)
        try:
            final = cls.from_text(entry.preview)
        except Exception as e:
            preview.update(plain(f"(no preview: {e})", style="dim"))
            final = None
        else:
            preview.update(position_preview(final, self.app.settings.board_style == "ascii"))
        names = cls.side_names
        text = Text()
        text.append(f"\n{cls.title}", "bold")
        text.append(f"  {shown(entry.path.name)}\n", "dim")
        text.append(f"{names[0]}: {visible(entry.players[0])}\n{names[1]}: {visible(entry.players[1])}\n")
        if entry.result == "*" and final is not None and final.outcome() is None:
            size = counted(entry.turns, "move") if entry.turns else "A position"
            text.append(f"{size}, {names[final.current_player()]} to move\n")
            if entry.redo:
                text.append(f"{counted(entry.redo, 'undone move')} to redo\n")
        else:
            text.append(f"{counted(entry.turns, 'move')}, {result_words(entry)}\n")
        if entry.recorded is not None:
            text.append(f"recorded: {entry.recorded} turns of answers, times and stderr (v replays)\n")
        if entry.date:
            text.append(f"saved {short_date(entry.date)}\n", "dim")
        facts.update(text)

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        entry = self.selected() if self.loaded else None
        if action == "open":
            return entry is not None and not entry.error
        if action == "replay":
            return entry is not None and not entry.error and entry.turns > 0
        if action == "delete":
            return entry is not None
        return True

    def action_open(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        if entry.error:
            self.query_one("#load-note", Static).update(plain(entry.error, style="bold red"))
            return
        self.arena.open_saved(entry.path)

    def action_replay(self) -> None:
        entry = self.selected()
        if entry is not None and not entry.error and entry.turns > 0:
            self.arena.open_saved(entry.path, replay=True)

    def action_delete(self) -> None:
        entry = self.selected()
        if entry is None:
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                entry.path.unlink()
            except OSError as e:
                self.query_one("#load-note", Static).update(
                    Text(f"Cannot delete {shown(entry.path)}: {e.strerror or e}", style="bold red"))
                return
            self.refresh_list()

        self.app.push_screen(ConfirmScreen(f"Delete {shown(entry.path.name)}? It cannot be undone.", "Delete"), answer)

    def action_back(self) -> None:
        self.arena.leave_page(self)
