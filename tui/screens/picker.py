"""The game picker: the registered games, one line each; Enter (or 1-9, or a click) opens its setup."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static

from tui.screens.arena import ArenaPage
from tui.widgets.footer import GameFooter
from textual.widgets.option_list import Option

from engines import game_ids, get_game


def entry(index: int, title: str, line: str, style: str = "dim") -> Table:
    """One game in the list: its number (the key), its title, and its description indented below."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=2, no_wrap=True)
    table.add_column()
    table.add_row(Text(str(index + 1), "bold cyan"), Text(title, "bold"))
    table.add_row("", Text(line, style))
    return table


COUNTS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")


class PickerScreen(ArenaPage, Screen):
    BINDINGS = [
        # keys 1-9; those past the last game do nothing, and `?`'s panel of keys leaves them out
        *[Binding(str(i + 1), f"pick({i})", "set up this game", show=False) for i in range(9)],
        Binding("q", "app.quit", "quit", show=False),
        Binding("l,ctrl+o", "load", "load a saved game"),
        Binding("o", "app.settings", "settings"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters and parameters[0] >= len(game_ids()):
            return False
        return True

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(Text("termarena", style="bold"), id="picker-title")
            ids = game_ids()
            count = COUNTS[len(ids)] if len(ids) < len(COUNTS) else str(len(ids))
            yield Static(Text(f"{count} CodinGame arena games in the terminal. Pick one:", style="dim"))
            options = []
            for i, gid in enumerate(ids):
                try:
                    cls = get_game(gid)
                except Exception as e:  # an engine that cannot load must not take the picker down
                    options.append(Option(entry(i, gid, f"not available: {type(e).__name__}: {e}", "red"),
                                          id=gid, disabled=True))
                    continue
                options.append(Option(entry(i, cls.title, cls.description), id=gid))
            yield OptionList(*options, id="games")
            yield Static(Text(f"Enter or 1-{min(9, len(ids))}: set up a game · l: load a saved game · o: settings · "
                              "?: keys · ctrl+q: quit", style="dim"))
            yield Static("", id="preparing")
        yield GameFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "preparing", self._show_preparing)

    def _show_preparing(self, text: str) -> None:
        """What compiling the fast search ahead is doing (the app's `preparing`), under the games."""
        line = self.query_one("#preparing", Static)
        line.update(Text(f"{self.arena.compiled_title}'s fast search: {text} (once after installing)", style="cyan"))
        line.display = bool(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.arena.show_setup(event.option.id)

    def action_load(self) -> None:
        self.arena.show_load()

    def action_pick(self, index: int) -> None:
        ids = game_ids()
        if index < len(ids):
            self.arena.show_setup(ids[index])
