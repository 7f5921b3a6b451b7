"""The settings screen: looks (theme, board style, palette) and a new game's defaults (opponent,
clock, autosave).  Save (ctrl+s) applies them at once and writes them to the config folder
(tui.core.settings); Esc leaves them as they were."""
from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from tui.core.settings import BOARD_STYLES, PALETTES, Settings, SettingsError, check_clock
from tui.core.specs import MAX_LEVEL, MIN_LEVEL

OPPONENTS = [("Human (hot-seat)", "human")] + [(f"AI level {n}", f"ai:{n}") for n in range(MIN_LEVEL, MAX_LEVEL + 1)]
STYLE_NAMES = {"unicode": "Unicode (box drawing, blocks)", "ascii": "ASCII (any terminal)"}
PALETTE_NAMES = {"standard": "Standard", "colour-blind": "Colour-blind safe (Okabe-Ito)"}


class SettingsScreen(ModalScreen[Settings | None]):
    """Dismisses with the new settings (saved by the caller), or None when cancelled."""

    BINDINGS = [
        Binding("ctrl+s", "save", "save"),
        Binding("escape", "cancel", "cancel"),
    ]

    def __init__(self, settings: Settings, themes: list[str]) -> None:
        super().__init__()
        self.settings = settings
        self.themes = themes

    def compose(self) -> ComposeResult:
        s = self.settings
        opponents = OPPONENTS if any(v == s.opponent for _, v in OPPONENTS) else OPPONENTS + [(s.opponent, s.opponent)]
        with Vertical(classes="dialog", id="settings"):
            yield Static(Text("Settings", style="bold"), classes="dialog-title")
            with Grid(id="settings-grid"):
                yield Label("Theme")
                yield Select([(t, t) for t in self.themes], value=s.theme if s.theme in self.themes else self.themes[0],
                             allow_blank=False, compact=True, id="theme")
                yield Label("Board style")
                yield Select([(STYLE_NAMES[b], b) for b in BOARD_STYLES], value=s.board_style, allow_blank=False,
                             compact=True, id="board_style")
                yield Label("Colours")
                yield Select([(PALETTE_NAMES[p], p) for p in PALETTES], value=s.palette, allow_blank=False,
                             compact=True, id="palette")
                yield Label("Opponent")
                yield Select(opponents, value=s.opponent, allow_blank=False, compact=True, id="opponent")
                yield Label("Clock")
                yield Input(s.clock, placeholder="none, or MIN+INC e.g. 5+3", id="clock")
                yield Label("Autosave")
                yield Select([("on: after every move", True), ("off", False)], value=s.autosave, allow_blank=False,
                             compact=True, id="autosave")
            yield Static(id="settings-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save")
                yield Button("Cancel (esc)", id="cancel")

    def read(self) -> Settings:
        clock = check_clock(self.query_one("#clock", Input).value.strip())
        return replace(self.settings, theme=self.query_one("#theme", Select).value,
                       board_style=self.query_one("#board_style", Select).value,
                       palette=self.query_one("#palette", Select).value,
                       opponent=self.query_one("#opponent", Select).value, clock=clock,
                       autosave=self.query_one("#autosave", Select).value)

    def action_save(self) -> None:
        try:
            settings = self.read()
        except SettingsError as e:
            self.query_one("#settings-error", Static).update(Text(str(e), style="bold red"))
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_save() if event.button.id == "save" else self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_save()
