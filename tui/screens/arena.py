"""What the screens may ask of the app, typed: `self.arena.show_setup(...)` instead of untyped
`self.app` calls or `getattr(self.app, ...)`.  A Protocol rather than the app class itself, because
tui/app.py imports the screens (importing it here would be a cycle)."""
from __future__ import annotations

from pathlib import Path
from typing import Protocol, cast

from engines.savefile import SavedGame
from tui.core.session import Session
from tui.core.specs import PlayerSpec


class ArenaApp(Protocol):
    saves_folder: Path
    watch_delay_s: float
    preparing: str  # how far compiling the fast searches ahead is ("": not compiling)
    compiled_title: str  # the titles of the games whose fast search is compiled ahead

    def show_picker(self) -> None: ...
    def show_setup(self, game_id: str, specs: list[PlayerSpec] | None = None, seed: int | None = None) -> None: ...
    def show_load(self) -> None: ...
    def show_replay(self, saved: SavedGame, title: str = "", chart: bool = False) -> None: ...
    def start_game(self, game_id: str, specs: list[PlayerSpec], seed: int | None = None) -> bool: ...
    def play_saved(self, saved: SavedGame, confirm: bool = False) -> bool: ...
    def open_saved(self, path: Path, replay: bool | None = None) -> None: ...
    def leave_page(self, screen) -> None: ...
    def autosave(self, session: Session) -> None: ...


class ArenaPage:
    """Mixed into the app's screens: `arena` is the app, typed."""

    @property
    def arena(self) -> ArenaApp:
        return cast(ArenaApp, self.app)  # type: ignore[attr-defined]
