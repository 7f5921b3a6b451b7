"""The Textual app: game picker -> setup -> game, with one AI worker process shared by all games.

`create_app(...)` is the app factory (used by `run_app`, which the command line calls, and by the tests);
`run_app(game, specs, seed, load)` runs it in the terminal.
"""
from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.binding import Binding

from engines.base import EngineError
from tui.opponents import AIOpponent
from tui.screens.dialogs import ConfirmScreen, MessageScreen
from tui.screens.game import WATCH_DELAY_S, GameScreen
from tui.screens.picker import PickerScreen
from tui.screens.setup import SetupScreen
from tui.session import Session
from tui.specs import PlayerSpec, SpecError, parse_spec


class TermArenaApp(App):
    CSS_PATH = "styles/app.tcss"
    TITLE = "termarena"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, game: str | None = None, specs: list[PlayerSpec] | None = None,
                 seed: int | None = None, load: str | None = None, *, start: str | None = None,
                 moves: list[str] | None = None, ai_think_ms: int | None = None,
                 watch_delay_s: float = WATCH_DELAY_S):
        super().__init__()
        self.start_game_id = game
        self.start_specs = specs
        self.start_seed = seed
        self.start_position = start  # a position text to play on from (tests, saved positions)
        self.start_moves = moves  # moves already played from there
        self.load = load
        self.ai = AIOpponent(think_ms=ai_think_ms)
        self.watch_delay_s = watch_delay_s  # between moves when no human plays

    def on_mount(self) -> None:
        if self.load and self._load(self.load):
            return
        if self.start_game_id and self.start_specs:
            self.start_game(self.start_game_id, self.start_specs, self.start_seed,
                            start=self.start_position, moves=self.start_moves)
        elif self.start_game_id:
            self.show_setup(self.start_game_id, self.start_specs, self.start_seed)
        else:
            self.show_picker()

    def _load(self, path: str) -> bool:
        """Open a saved game (or position) to play on; on failure say why and return False."""
        try:
            from tui.storage import StorageError, load_game
        except ImportError:
            self.call_after_refresh(self.push_screen, MessageScreen(
                "Loading saved games is not supported yet",
                f"--load {path}: this version cannot open saved games yet; a new game starts instead."))
            return False
        try:
            saved, _ = load_game(Path(path).expanduser(), self.start_game_id)
        except StorageError as e:
            self.call_after_refresh(self.push_screen, MessageScreen("Cannot load the game", str(e)))
            return False
        specs, note = specs_for_saved(saved.players, bool(saved.moves), self.start_specs)
        self.start_game(saved.game, specs, saved.seed, start=saved.start, moves=saved.moves, redo=saved.redo)
        if note:
            self.call_after_refresh(self.push_screen, MessageScreen("Loaded, with a change of players", note))
        return True

    def on_unmount(self) -> None:
        self.ai.close()

    # ------------------------------------------------------------------ moving between screens

    def start_game(self, game_id: str, specs: list[PlayerSpec], seed: int | None = None, *,
                   start: str | None = None, moves: list[str] | None = None,
                   redo: list[str] | None = None) -> None:
        try:
            session = Session(game_id, specs, seed, start=start, moves=moves, redo=redo)
        except EngineError as e:
            self.push_screen(MessageScreen("Cannot start the game", str(e)))
            return
        self._show(GameScreen(session, self.ai))

    def show_setup(self, game_id: str, specs=None, seed: int | None = None) -> None:
        self.ai.cancel()
        self._show(SetupScreen(game_id, specs, seed))

    def show_picker(self) -> None:
        self._show(PickerScreen())

    def _show(self, screen) -> None:
        """Replace the current page (picker, setup or game) with another; dialogs over it go too."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) < 2:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    async def action_quit(self) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen) and screen.game_running():
            def answer(yes: bool | None) -> None:
                if yes:
                    self.exit()

            self.push_screen(ConfirmScreen("Quit and abandon the game in progress?"), answer)
            return
        if isinstance(screen, ConfirmScreen):
            return
        self.exit()


def specs_for_saved(players: tuple[str, str], has_moves: bool,
                    fallback: list[PlayerSpec] | None) -> tuple[list[PlayerSpec], str]:
    """Who plays a loaded game: the players written in the save; an external bot cannot join a game
    that has moves already (it only understands a game from its start), so a human takes its seat.
    Returns the specs and a note for the user when a seat changed."""
    specs, notes = [], []
    for seat, label in enumerate(players):
        try:
            spec = parse_spec(label)
        except SpecError:
            spec = fallback[seat] if fallback else PlayerSpec("human")
            notes.append(f"seat {seat}: {label!r} is not a player spec; {spec.label} plays instead")
        if spec.kind == "cmd" and has_moves:
            notes.append(f"seat {seat}: the bot {spec.command!r} cannot join a game in progress "
                         "(a bot only understands a game from its start); a human plays instead")
            spec = PlayerSpec("human")
        specs.append(spec)
    return specs, "\n".join(notes)


def create_app(game: str | None = None, specs: list[PlayerSpec] | None = None, seed: int | None = None,
               load: str | None = None, **options) -> TermArenaApp:
    """The app factory: the command line and the tests build the app the same way."""
    return TermArenaApp(game, specs, seed, load, **options)


def run_app(game: str | None = None, specs: list[PlayerSpec] | None = None, seed: int | None = None,
            load: str | None = None) -> None:
    app = create_app(game, specs, seed, load)
    try:
        app.run()
    finally:
        app.ai.close()

