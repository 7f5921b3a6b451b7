"""Game setup: who plays (human, AI level 1-6, or an external bot command), who moves first, the seed.

Seat 0 moves first in every game, so "who moves first" decides which player sits in seat 0.
"""
from __future__ import annotations

import random

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from tui.screens.arena import ArenaPage
from tui.widgets.footer import GameFooter

from ai.levels import describe_level
from ai.ratings import describe_elo, level_elo
from engines import get_game
from engines.base import quote
from tui.core.specs import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL, PlayerSpec, SpecError, parse_spec
from tui.widgets.boards import board_class

KINDS = [("Human", "human"), ("AI", "ai"), ("Bot command", "cmd")]
LEVELS = [(f"Level {n}", n) for n in range(MIN_LEVEL, MAX_LEVEL + 1)]
FIRST = [("Player 1", 0), ("Player 2", 1), ("Random", -1)]
DEFAULT_SPECS = (PlayerSpec("human"), PlayerSpec("ai", level=DEFAULT_LEVEL))


class SetupScreen(ArenaPage, Screen):
    AUTO_FOCUS = "#start"
    BINDINGS = [
        Binding("ctrl+s", "start", "start"),
        Binding("escape", "back", "games"),
    ]

    def __init__(self, game_id: str, specs=None, seed: int | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.cls = get_game(game_id)
        self.side_names = board_class(game_id).side_names
        self.specs = tuple(specs) if specs else DEFAULT_SPECS
        self.seed = seed
        # each level with its measured strength (ai/ratings.py)
        self.levels = [(f"Level {n} · {level_elo(game_id, n)[0]}", n) for _, n in LEVELS]

    def compose(self) -> ComposeResult:
        with Vertical(id="setup"):
            yield Static(Text(f"New game: {self.cls.title}", style="bold"), id="setup-title")
            yield Static(Text(self.cls.description, style="dim"))
            with Grid(id="setup-grid"):
                for n, spec in enumerate(self.specs):
                    yield Label(f"Player {n + 1}")
                    with Horizontal(classes="player-row"):
                        yield Select(KINDS, value=spec.kind, allow_blank=False, compact=True,
                                     id=f"kind{n}", classes="kind")
                        yield Select(self.levels, value=spec.level or DEFAULT_LEVEL, allow_blank=False,
                                     compact=True, id=f"level{n}", classes="level")
                        yield Input(spec.command or "", placeholder="bot command, e.g. python3 mybot.py",
                                    id=f"cmd{n}", classes="cmd")
                yield Label("Moves first")
                with Horizontal(classes="player-row"):
                    yield Select(FIRST, value=0, allow_blank=False, compact=True, id="first")
                    yield Static(id="first-note")
                yield Label("Seed")
                with Horizontal(classes="player-row"):
                    yield Input("" if self.seed is None else str(self.seed), placeholder="random",
                                id="seed", classes="seed")
                    yield Static(Text(self._seed_note(), style="dim"))
            yield Static(id="level-notes")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start (ctrl+s)", variant="primary", id="start")
                yield Button("Back (esc)", id="back")
        yield GameFooter()

    def _seed_note(self) -> str:
        if get_game(self.game_id).seeded:
            return "the map comes from the seed"
        return "not used by this game"

    def on_mount(self) -> None:
        self._sync()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._sync()

    def _sync(self) -> None:
        """Show the level or the command field that goes with each player's kind, and what levels mean."""
        notes = []
        for n in (0, 1):
            kind = self.query_one(f"#kind{n}", Select).value
            self.query_one(f"#level{n}", Select).display = kind == "ai"
            self.query_one(f"#cmd{n}", Input).display = kind == "cmd"
            if kind == "ai":
                level = self.query_one(f"#level{n}", Select).value
                try:
                    notes.append(f"Player {n + 1}, level {level} ({describe_elo(self.game_id, level)}): "
                                 f"{describe_level(self.game_id, level)}")
                except Exception as e:  # an AI module that fails to load must not break the setup
                    notes.append(f"Player {n + 1}: the AI cannot load ({e})")
        self.query_one("#level-notes", Static).update(Text("\n".join(notes), style="dim"))
        first = self.query_one("#first", Select).value
        who = "chosen at random" if first == -1 else f"Player {first + 1}"
        self.query_one("#first-note", Static).update(
            Text(f"{who} plays {self.side_names[0]} and moves first", style="dim"))

    # ------------------------------------------------------------------ reading the form

    def read_specs(self) -> list[PlayerSpec]:
        specs = []
        for n in (0, 1):
            kind = self.query_one(f"#kind{n}", Select).value
            if kind == "ai":
                specs.append(parse_spec(f"ai:{self.query_one(f'#level{n}', Select).value}"))
            elif kind == "cmd":
                command = self.query_one(f"#cmd{n}", Input).value.strip()
                if not command:
                    raise SpecError(f"Player {n + 1} is a bot: type the command that starts it")
                specs.append(parse_spec("cmd:" + command))
            else:
                specs.append(PlayerSpec("human"))
        first = self.query_one("#first", Select).value
        if first == -1:
            first = random.randrange(2)
        return specs if first == 0 else [specs[1], specs[0]]

    def read_seed(self) -> int | None:
        text = self.query_one("#seed", Input).value.strip()
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            raise SpecError(f"the seed must be a whole number, not {quote(text)}") from None

    def action_start(self) -> None:
        try:
            specs, seed = self.read_specs(), self.read_seed()
        except SpecError as e:
            error = self.query_one("#setup-error", Static)
            error.update(Text(str(e), style="bold red"))
            error.display = True
            return
        self.arena.start_game(self.game_id, specs, seed)

    def action_back(self) -> None:
        self.arena.show_picker()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()
