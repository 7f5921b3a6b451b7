"""The page `join` and `watch` show until the host lets them in: light, so the app imports the
networking only when a network game begins."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from tui.screens.arena import ArenaPage
from tui.widgets.footer import GameFooter
from tui.plain import plain


class ConnectingScreen(ArenaPage, Screen):
    """Shown by `join` and `watch` until the host lets us in (if it does not, the app ends saying why)."""

    BINDINGS = [Binding("q", "app.quit", "quit")]

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(Text("termarena", style="bold"), id="picker-title")
            yield Static(plain(f"Connecting to {self.address}…"), id="connect-status")  # as typed, not markup
        yield GameFooter()
