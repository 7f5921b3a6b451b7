"""The Textual app: game picker -> setup -> game, with one AI worker process shared by all games.

`create_app(...)` is the app factory (used by `run_app`, which the command line calls, and by the tests);
`run_app(game, specs, seed, load, overrides=..., saves=...)` runs it in the terminal.

Pages (picker, setup, game) replace each other (`_show`); the load screen and the replay screen are
pushed over the page they were opened from, so leaving them returns there.  Saves live in the folder of
`--saves-dir`, $TERMARENA_SAVES or ./saves (tui.core.storage.saves_dir); the game in progress is autosaved
there after every change (tui.core.autosave) and offered on the next start without a game.
"""
from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from dataclasses import replace

from textual.app import App, SystemCommand
from textual.notifications import Notification, Notify
from textual.screen import ModalScreen, Screen
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from engines.base import EngineError, quote
from engines.savefile import SavedGame, dump
from engines.visible import visible
from tui.commands import GameCommands
from tui.ending import Terminal, exit_later
from tui.core.clock import ClockError, ClockSpec, GameClock, clock_from_header, parse_clock
from tui.core.autosave import Autosaver, autosave_path, resumable, set_aside_unreadable_autosave
from tui.core.opponents import AIOpponent
from tui.screens.dialogs import ConfirmScreen, MessageScreen
from tui.screens.game import WATCH_DELAY_S, GameScreen
from tui.screens.connecting import ConnectingScreen
from tui.screens.picker import PickerScreen
from tui.screens.setup import SetupScreen
from tui.core.session import Session
from tui.core.net import NetPlan  # light: the networking itself is imported when a network game begins
from tui.core.specs import DEFAULT_LEVEL, PlayerSpec, SpecError, parse_spec
from tui.core.settings import Settings, load_settings, save_settings, settings_path
from tui.core.storage import StorageError, load_game, remove_stale_temps, saves_dir
from tui.screens.settings import SettingsScreen
from tui.widgets.advantage_chart import AdvantageChart
from tui.widgets.boards.base import Board
from tui.widgets.boards.looks import AsciiFilter, ascii_key
from tui.widgets.footer import GameFooter
from tui.plain import plain_lines


class AutosaveResult(Message):
    """Posted by the autosave thread after each write: error is None when it worked."""

    def __init__(self, error: OSError | None) -> None:
        super().__init__()
        self.error = error


class TermArenaApp(App):
    CSS_PATH = "styles/app.tcss"
    TITLE = "termarena"
    COMMANDS = App.COMMANDS | {GameCommands}
    # `?` on a screen without a help of its own (the game screens have one): Textual's panel of its keys
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True),
                Binding("question_mark", "toggle_keys", "keys", key_display="?", show=False)]
    # how far compiling the fast searches (Paper Soccer's) ahead is ("compiling… 40%"; "": not compiling), shown by
    # the picker and, while the AI searches in pure Python meanwhile, the game's status
    preparing: reactive[str] = reactive("")

    def __init__(self, game: str | None = None, specs: list[PlayerSpec] | None = None,
                 seed: int | None = None, load: str | None = None, *, start: str | None = None,
                 moves: list[str] | None = None, ai_think_ms: int | None = None,
                 watch_delay_s: float = WATCH_DELAY_S,
                 overrides: list[PlayerSpec | None] | None = None,
                 saves: str | Path | None = None, autosave: bool = True, bot_time_limits: bool = True,
                 replay: SavedGame | None = None, replay_title: str = "",
                 settings_file: Path | None = None,
                 clock: ClockSpec | None = None, clock_now=time.monotonic, net: NetPlan | None = None):
        super().__init__()
        self.start_replay = (replay, replay_title) if replay is not None else None  # `termarena replay FILE`
        self.settings_file = settings_file or settings_path()
        loaded = load_settings(self.settings_file)  # never raises: a broken file gives the defaults
        self.settings: Settings = loaded.settings
        self.settings_problem = loaded.problem
        self.start_game_id = game
        self.start_specs = specs
        self.start_seed = seed
        self.start_position = start  # a position text to play on from (tests, saved positions)
        self.start_moves = moves  # moves already played from there
        self.load = load
        self.overrides = overrides  # --p1/--p2 given explicitly with --load: they replace the file's players
        self.ai = AIOpponent(think_ms=ai_think_ms)
        # the analysis key's own search process: `termarena analyse`'s node budget per game, no clock
        self.analyst = AIOpponent()
        self.bot_time_limits = bot_time_limits  # False: wait for external bots as long as they take
        self.watch_delay_s = watch_delay_s  # between moves when no human plays
        self.saves_folder = saves_dir(saves)
        self.autosaver = Autosaver(autosave_path(self.saves_folder), self._autosave_done) \
            if autosave and self.settings.autosave else None
        self._autosave_error: str | None = None
        self.clock_spec = clock  # --clock: every new game of this app gets it (human seats only)
        self.clock_now = clock_now  # the clocks' time source (tests pass a fake one)
        self.net_plan = net  # host, join or watch a network game instead of the picker
        self.network = None  # its tui.network.NetworkPlay once it starts
        self.exit_line: str | None = None  # one line run_app prints on stderr once the terminal is back
        self._terminal: Terminal | None = None  # the terminal the app draws on (None: headless, served)
        self.compile_ahead = None  # its ai.compile_ahead.CompileAhead while it runs
        self.compiled_title = ""  # the titles of the games whose compiled search it prepares

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Every notification is plain text with its control characters escaped: they quote files
        (settings, autosaves) and their folders."""
        self.notification(message, title=title, severity=severity, timeout=timeout)

    def notification(self, message: str, *, title: str = "", severity="information",
                     timeout: float | None = None) -> Notification:
        """`notify`, returning the notification so that it can be withdrawn before its time."""
        note = Notification(plain_lines(message), plain_lines(title), severity,
                            self.NOTIFICATION_TIMEOUT if timeout is None else timeout, markup=False)
        self.post_message(Notify(note))
        return note

    def withdraw(self, note: Notification) -> None:
        """Take a notification away (if it is still shown, or about to be)."""
        if note in self._notifications:
            self._unnotify(note)
        else:  # posted, not taken in yet: it would come after this
            self.call_later(lambda: note in self._notifications and self._unnotify(note))

    def on_mount(self) -> None:
        if not self.is_headless:
            self._end_on_signals()
        remove_stale_temps(self.saves_folder)  # what saves killed mid-write left (a folder listing is rare)
        online = self.net_plan is not None and self.net_plan.mode == "online"
        if not self.is_headless and not online:  # a server's lobby plays people: no AI search to compile
            self._start_compile_ahead()
        self._apply_theme()
        if self.settings_problem:
            self.notify(self.settings_problem, title="Settings", severity="warning", timeout=30, markup=False)
        if self.autosaver is not None:  # an unfinished game kept from being written over: say where it went
            self.autosaver.on_set_aside = lambda aside: self.notify(
                aside.message(), title="Autosave", severity="warning", timeout=30, markup=False)
        if self.start_replay is not None:
            self.show_replay(*self.start_replay)
            return
        if self.net_plan is not None:
            self._start_network(self.net_plan)
            return
        if self.load and self._load(self.load):
            return
        if self.start_game_id and self.start_specs:
            self.start_game(self.start_game_id, self.start_specs, self.start_seed,
                            start=self.start_position, moves=self.start_moves)
        elif self.start_game_id:
            self.show_setup(self.start_game_id, self.start_specs, self.start_seed)
        else:
            self.show_picker()
            self._offer_resume()

    def _load(self, path: str) -> bool:
        """Open a saved game (or position) to play on (`--load`); on failure say why and return False
        (the app starts a new game instead: the autosave's unfinished game is kept, see tui.core.autosave)."""
        file = Path(path).expanduser()
        try:
            saved, _ = load_game(file, self.start_game_id)
        except StorageError as e:
            self.call_after_refresh(self.push_screen, MessageScreen("Cannot load the game", str(e)))
            return False
        if saved.seed is None and self.start_seed is not None:
            saved.seed = self.start_seed  # a position file without a seed: --seed seeds the AI
        started = self.play_saved(saved, overrides=self.overrides)
        if started and self.autosaver is not None and _same_file(file, self.autosaver.path):
            self.autosaver.adopt()  # going on with the autosaved game: it is written over, not kept aside
        return started

    def _end_on_signals(self) -> None:
        """SIGTERM and SIGHUP (the terminal closed) end the app cleanly: the autosave is written, the AI
        worker and the bots end, the exit status says which signal it was."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                loop.add_signal_handler(sig, self._end_by_signal, sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread, or not POSIX: the guards and the worker's watch still hold
        self._terminal = Terminal.of_the_app()
        if self._terminal is not None:
            self._terminal.resume_only_while_here()

    def _end_by_signal(self, signum: int) -> None:
        from engines.referee.process import end_all_bots

        exit_later(128 + signum)  # only if something below hangs
        end_all_bots()  # this process is ending: bots being waited for fail at once, no new bot starts
        self.shutdown()
        if self._terminal is not None and self._terminal.gone():
            # Nothing to restore on a terminal that hung up, and Textual's teardown would write to it
            # (its writer thread dies on the first write, then its queue blocks): end here, all is done.
            os._exit(128 + signum)
        self.exit(return_code=128 + signum)

    def shutdown(self) -> None:
        """End what the app started and write the autosave: the network link, the AI and analysis
        processes, the autosave thread (what is pending is written first).  The one place the app ends
        them, whatever ended it: a signal, quit (through unmount), `run_app` after an app that died.
        Safe to call again (unmount calls it after a signal did: a search started meanwhile ends too)."""
        if self.network is not None:
            self.network.close()
        if self.compile_ahead is not None:
            self.compile_ahead.close()
        self.ai.close()
        self.analyst.close()
        if self.autosaver is not None:
            self.autosaver.close()

    def on_unmount(self) -> None:
        self.shutdown()

    # ------------------------------------------------------------------ the compiled search

    def _start_compile_ahead(self) -> None:
        """With the `fast` extra: load the compiled searches (Paper Soccer's) in a process of its own,
        which compiles them the first time (ai/compile_ahead.py)."""
        from ai.compile_ahead import CompileAhead, wanted

        if not wanted():
            return
        ahead = CompileAhead()
        try:
            ahead.start()
        except Exception:  # no process to be had: the AI worker loads it itself, as without this
            return
        self.follow_compile_ahead(ahead)

    def follow_compile_ahead(self, ahead) -> None:
        """Follow a started `CompileAhead` (tests give a fake one) to its end: `preparing` says how far it
        is, and its news (compiling, compiled, failed) is told at the picker and in the games it concerns
        only, never over another game: news that comes elsewhere waits until the player is there."""
        from ai.compile_ahead import accelerated_games
        from engines import get_game

        self.compile_ahead = ahead
        self._compiled_games = set(accelerated_games())
        self.compiled_title = " and ".join(get_game(gid).title for gid in sorted(self._compiled_games))
        self._compile_news = None  # (message, severity, timeout) waiting for a place where it belongs
        self._compile_notice = None  # the notification of that news while it is shown
        self._compile_announced = False  # "compiling" was said: "compiled" will be too
        self._hold_compiled(True)
        self.screen_change_signal.subscribe(self, lambda _: self._place_compile_news())
        self._compile_ahead_timer = self.set_interval(COMPILE_AHEAD_POLL_S, self._compile_ahead_tick)

    def _hold_compiled(self, held: bool) -> None:
        """While compiling ahead, the AI processes search in Python rather than compile it a second time."""
        self.ai.load_compiled = self.analyst.load_compiled = not held

    def _compile_ahead_tick(self) -> None:
        ahead = self.compile_ahead
        if ahead is None or not ahead.poll():
            return
        progress, title = ahead.progress, self.compiled_title
        if not progress.finished:
            if progress.compiling:
                if not self.preparing:
                    self._compile_news = (f"Compiling the fast {title} search, once after installing or "
                                          "upgrading (about half a minute of CPU); level 6 searches in pure "
                                          "Python meanwhile.", "information", 10)
                self.preparing = f"compiling… {progress.percent}%"
            self._place_compile_news()
            return
        self._compile_ahead_timer.stop()
        self.compile_ahead = None
        self._hold_compiled(False)
        self.preparing = ""
        self._compile_news = None  # "compiling" not told yet: it is over, nothing more to tell
        if progress.error:
            self._compile_news = (f"The fast {title} search is not available: {visible(progress.error, 300)}; "
                                  "level 6 searches in pure Python.", "warning", 20)
        elif progress.compiling and self._compile_announced:
            self._compile_news = (f"The fast {title} search is compiled: level 6 uses it from its next move.",
                                  "information", 10)
        self._place_compile_news()

    def _place_compile_news(self) -> None:
        """Tell the compiling's news if the player is where it belongs; take it away when they leave."""
        if not self._compile_news_here():
            if self._compile_notice is not None:
                self.withdraw(self._compile_notice)
                self._compile_notice = None
            return
        if self._compile_news is None:
            return
        message, severity, timeout = self._compile_news
        self._compile_news = None
        if self._compile_notice is not None:
            self.withdraw(self._compile_notice)
        self._compile_notice = self.notification(message, title=self.compiled_title, severity=severity,
                                                 timeout=timeout)
        self._compile_announced = True

    def _compile_news_here(self) -> bool:
        """The page shown (under any dialog) is the picker or a game with a compiled search."""
        page = next((s for s in reversed(self.screen_stack) if not isinstance(s, ModalScreen)), None)
        if isinstance(page, PickerScreen):
            return True
        return isinstance(page, GameScreen) and page.session.game_id in self._compiled_games

    # ------------------------------------------------------------------ settings and looks

    def _apply_theme(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.set_class(self.ascii_style, "-ascii")  # the stylesheet's ASCII borders

    @property
    def ascii_style(self) -> bool:
        return self.settings.board_style == "ascii"

    _ascii_filter = AsciiFilter()

    def get_line_filters(self):
        filters = super().get_line_filters()
        return [*filters, self._ascii_filter] if self.ascii_style else filters

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return ascii_key(shown, binding.key) if self.ascii_style else shown

    def _redraw_everything(self) -> None:
        """Every widget of every screen drawn again (Textual keeps each widget's lines until it changes):
        the board style changes glyphs everywhere, the footers' keys included."""
        for screen in self.screen_stack:
            for widget in screen.walk_children(with_self=True):
                widget.refresh()
                if hasattr(widget, "looks_changed"):  # the panels with the sides' marks
                    widget.looks_changed()
            for footer in screen.query(GameFooter):
                footer.redraw_keys()

    def watch_theme(self, theme: str) -> None:
        """A theme chosen from the command palette (Textual's "Theme" command) is kept for next time."""
        if theme != self.settings.theme and theme in self.available_themes:
            self.change_settings(replace(self.settings, theme=theme))

    def change_settings(self, settings: Settings) -> None:
        """Apply new settings now (theme, board looks; the defaults apply to the next game) and save them."""
        restyled = settings.board_style != self.settings.board_style
        self.settings = settings
        self._apply_theme()
        if restyled:
            self._redraw_everything()
        for board in self.screen.query(Board):
            board.refresh()
        for chart in self.screen.query(AdvantageChart):
            chart.refresh()
        try:
            save_settings(settings, self.settings_file)
        except StorageError as e:
            self.notify(str(e), title="Settings", severity="error", timeout=20, markup=False)

    def action_toggle_keys(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_settings(self) -> None:
        def done(settings: Settings | None) -> None:
            if settings is not None:
                self.change_settings(settings)

        self.push_screen(SettingsScreen(self.settings, sorted(self.available_themes)), done)

    def get_system_commands(self, screen):
        yield from super().get_system_commands(screen)
        yield SystemCommand("Settings", "Theme, board style, colours, a new game's opponent, clock, autosave",
                            self.action_settings)
        other_style = "unicode" if self.settings.board_style == "ascii" else "ascii"
        # each command says what it switches to (the style or palette in use is the other one)
        style_words = {"ascii": "ASCII everywhere, for terminals without box-drawing glyphs",
                       "unicode": "box-drawing lines and round pieces (the style in use is ASCII)"}
        yield SystemCommand(f"Board style: {other_style}", style_words[other_style],
                            lambda: self.change_settings(replace(self.settings, board_style=other_style)))
        other_palette = "standard" if self.settings.palette == "colour-blind" else "colour-blind"
        palette_words = {"colour-blind": "colours that red-green colour blindness keeps apart",
                         "standard": "the games' own colours (the palette in use is colour-blind)"}
        yield SystemCommand(f"Colours: {other_palette}", palette_words[other_palette],
                            lambda: self.change_settings(replace(self.settings, palette=other_palette)))

    # ------------------------------------------------------------------ moving between screens

    def start_game(self, game_id: str, specs: list[PlayerSpec], seed: int | None = None, *,
                   start: str | None = None, moves: list[str] | None = None,
                   redo: list[str] | None = None, saved: SavedGame | None = None, note: str = "") -> bool:
        try:
            clock = self._clock_for(specs, saved)
            session = Session(game_id, specs, seed, start=start, moves=moves, redo=redo, clock=clock)
        except (EngineError, ClockError) as e:  # after a refresh: over whatever page the caller shows instead
            self.call_after_refresh(self.push_screen, MessageScreen("Cannot start the game", str(e)))
            return False
        if saved is not None:
            session.restore_forfeit(saved)
        self._show(GameScreen(session, self.ai))
        if note:
            self.call_after_refresh(self.push_screen, MessageScreen("Loaded, with a change of players", note))
        return True

    def _clock_for(self, specs: list[PlayerSpec], saved: SavedGame | None) -> GameClock | None:
        """The clocks of a new game: --clock, else those of the saved game, resumed where they stood, else
        the settings' clock for a new game; a seat has one when a person plays it."""
        clocked = (specs[0].kind in ("human", "net"), specs[1].kind in ("human", "net"))
        if self.clock_spec is not None:
            return GameClock(self.clock_spec, clocked, now=self.clock_now)
        if saved is not None:
            return clock_from_header(saved.extra, clocked, self.clock_now)
        if self.settings.clock:  # checked when the settings were read or saved
            return GameClock(parse_clock(self.settings.clock), clocked, now=self.clock_now)
        return None

    def show_setup(self, game_id: str, specs=None, seed: int | None = None) -> None:
        self.ai.cancel()
        if not specs:  # a new game: you against the opponent of the settings
            specs = [PlayerSpec("human"), parse_spec(self.settings.opponent)]
        self._show(SetupScreen(game_id, specs, seed))

    def show_picker(self) -> None:
        self._show(PickerScreen())

    def _page(self) -> Screen | None:
        """The page (picker, setup or game: PAGES) at the bottom of what is shown, if any."""
        return next((s for s in self.screen_stack if isinstance(s, PAGES)), None)

    def _show(self, screen) -> None:
        """Replace the current page with another; what was pushed over it (dialogs, load, replay) goes too."""
        if self._page() is None:
            self.push_screen(screen)
            return
        while not isinstance(self.screen, PAGES):
            self.pop_screen()
        self.switch_screen(screen)

    def leave_page(self, screen) -> None:
        """Leave a screen pushed over a page (load, replay): back to what was under it."""
        if self.screen is screen and self._page() is not None:
            self.pop_screen()
        elif self.start_replay is not None and self._page() is None:
            self.exit()  # `termarena replay FILE`: leaving the replay ends the command
        else:
            self.show_picker()

    def running_game(self) -> GameScreen | None:
        """The game screen somewhere in the stack whose game is in progress, if any."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen.game_running():
                return screen
        return None

    def _leave_game_then(self, go) -> None:
        """Do `go()` after asking, when it would leave a game in progress."""
        if self.running_game() is None:
            go()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                go()

        question = "Leave the game in progress?"
        if self.autosaver is not None:
            question += (" It stays in the autosave until a move is made in the next game "
                         "(ctrl+s saves it for good).")
        self.push_screen(ConfirmScreen(question), answer)

    # ------------------------------------------------------------------ network games

    def _start_network(self, plan: NetPlan) -> None:
        from tui.network import NetworkPlay

        self.network = NetworkPlay(self, plan)
        self.network.start()

    @property
    def net_link(self):
        """The network game's NetHost or NetClient (None without one)."""
        return None if self.network is None else self.network.link

    @property
    def _net_screen(self):
        return None if self.network is None else self.network.screen

    @property
    def net_error(self) -> str | None:
        """Why join or watch could not get in."""
        return None if self.network is None else self.network.error

    # ------------------------------------------------------------------ saved games

    def show_load(self) -> None:
        from tui.screens.load import LoadScreen

        self.push_screen(LoadScreen(self.saves_folder))

    def open_saved(self, path: Path, replay: bool | None = None) -> None:
        """Open a file of the load screen: replay it (a finished game by default), or play on from it."""
        try:
            saved, final = load_game(path)
        except StorageError as e:
            self.push_screen(MessageScreen("Cannot load the game", str(e)))
            return
        finished = saved.result != "*" or final.outcome() is not None
        if replay or (replay is None and finished and saved.moves):
            self.show_replay(saved, path.stem)
        else:
            self.play_saved(saved, confirm=True)

    def show_replay(self, saved: SavedGame, title: str = "", chart: bool = False) -> None:
        from tui.screens.replay import ReplayScreen

        try:
            screen = ReplayScreen(saved, title, chart=chart)
        except EngineError as e:
            self.push_screen(MessageScreen("Cannot replay the game", str(e)))
            return
        self.push_screen(screen)

    def play_saved(self, saved: SavedGame, overrides: list[PlayerSpec | None] | None = None,
                   confirm: bool = False) -> bool:
        """Play on from a saved game: its players (an external bot cannot join a game in progress),
        levels, moves, redo line and seed.  With `confirm`, ask first when a game is in progress.
        A bot command written in the file is started only if the person at the keyboard says yes to
        the exact command line (default no: the AI plays that seat instead).
        Returns False when the game could not start (the reason is shown)."""
        has_moves = bool(saved.moves)
        specs, note = specs_for_saved(saved.players, has_moves, self.start_specs, overrides)
        from_file = [seat for seat, spec in enumerate(specs)
                     if spec.kind == "cmd" and not (overrides and overrides[seat] is not None)]

        def go(specs=specs, note=note) -> bool:
            return self.start_game(saved.game, specs, saved.seed, start=saved.start, moves=saved.moves,
                                   redo=saved.redo, saved=saved, note=note)

        def ask_then_go() -> None:
            def answer(yes: bool | None) -> None:
                if yes:
                    go()
                else:
                    kept, why = decline_file_bots(specs, from_file)
                    go(kept, "\n".join(n for n in (note, why) if n))

            self.push_screen(ConfirmScreen(file_bots_question(specs, from_file), yes="Start them",
                                           no="Do not run"), answer)

        if from_file:
            if confirm:
                self._leave_game_then(ask_then_go)
            else:
                self.call_after_refresh(ask_then_go)
            return True
        if confirm:
            self._leave_game_then(go)
            return True
        return go()

    # ------------------------------------------------------------------ autosave

    def autosave(self, session: Session) -> None:
        """Queue the autosave of the game in progress (written atomically by a background thread)."""
        if self.autosaver is None:
            return
        try:
            text = dump(session.to_saved(), session.game)
        except Exception as e:  # never let saving break the game
            self._autosave_failed(f"{type(e).__name__}: {e}")
            return
        self.autosaver.submit(text)

    def _autosave_done(self, error: OSError | None) -> None:  # in the autosave thread
        self.post_message(AutosaveResult(error))

    def on_autosave_result(self, message: AutosaveResult) -> None:
        if message.error is None:
            if self._autosave_error is not None:
                self._autosave_error = None
                self._tell_game("Autosave works again")
            return
        self._autosave_failed(message.error.strerror or str(message.error))

    def _autosave_failed(self, reason: str) -> None:
        if reason == self._autosave_error:
            return  # said once; not on every move
        self._autosave_error = reason
        self._tell_game(f"Autosave failed: {reason} ({self.autosaver.path if self.autosaver else ''}); "
                        "the game goes on, the previous autosave is kept", error=True)

    def _tell_game(self, text: str, error: bool = False) -> None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                screen.say(text, error)
                return

    def _offer_resume(self) -> None:
        aside = set_aside_unreadable_autosave(self.saves_folder)  # a bad file must not stop every start
        if aside is not None:
            self.call_after_refresh(self.push_screen, MessageScreen("The autosave could not be read", aside.message()))
            return
        found = resumable(self.saves_folder)
        if found is None:
            return
        from tui.screens.save import ResumeScreen

        saved, final = found

        def answer(choice: str | None) -> None:
            if choice == "resume":
                if self.play_saved(saved) and self.autosaver is not None:
                    self.autosaver.adopt()  # the same game goes on: written over, not kept aside
            elif choice == "discard":
                try:
                    autosave_path(self.saves_folder).unlink()
                except OSError as e:
                    self.push_screen(MessageScreen("Cannot discard the autosave", str(e)))

        self.call_after_refresh(self.push_screen, ResumeScreen(saved, final), answer)

    async def action_quit(self) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen) and screen.game_running():
            def answer(yes: bool | None) -> None:
                if yes:
                    self.exit()

            self.push_screen(ConfirmScreen(screen.quit_question(self.autosaver is not None)), answer)
            return
        if isinstance(screen, ConfirmScreen):
            return
        self.exit()


COMPILE_AHEAD_POLL_S = 0.25


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


# The pages replace each other (_show); load, replay and dialogs are pushed over them.
PAGES = (PickerScreen, SetupScreen, GameScreen, ConnectingScreen)


def specs_for_saved(players: tuple[str, str], has_moves: bool, fallback: list[PlayerSpec] | None,
                    overrides: list[PlayerSpec | None] | None = None) -> tuple[list[PlayerSpec], str]:
    """Who plays a loaded game: the players written in the save, or those given explicitly
    (`overrides`, --p1/--p2); an external bot cannot join a game that has moves already (it only
    understands a game from its start), so a human takes its seat.
    Returns the specs and a note for the user when a seat changed."""
    specs, notes = [], []
    for seat, label in enumerate(players):
        override = overrides[seat] if overrides else None
        if override is not None:
            spec = override
        else:
            try:
                spec = parse_spec(label)
            except SpecError:
                spec = fallback[seat] if fallback else PlayerSpec("human")
                notes.append(f"p{seat + 1}: {quote(label)} is not a player spec; {spec.label} plays instead")
        if spec.kind == "cmd" and has_moves:
            notes.append(f"p{seat + 1}: the bot {quote(spec.command)} cannot join a game in progress "
                         "(a bot only understands a game from its start); a human plays instead")
            spec = PlayerSpec("human")
        specs.append(spec)
    return specs, "\n".join(notes)


def file_bots_question(specs: list[PlayerSpec], seats: list[int]) -> str:
    """The question asked before a save file may start programs: each exact command line, and where."""
    import os

    # each command whole and with its control characters escaped: a concealing `CSI 8m` must not hide
    # the end of the command the question is about
    lines = [f"  p{seat + 1} = {visible(specs[seat].command or '')}" for seat in seats]
    return ("This file asks termarena to start programs on this computer:\n" + "\n".join(lines)
            + f"\n(run in {visible(os.getcwd())})\nStart them? Only say yes if you trust the file. "
              f"If not, the AI (level {DEFAULT_LEVEL}) plays those seats.")


def decline_file_bots(specs: list[PlayerSpec], seats: list[int]) -> tuple[list[PlayerSpec], str]:
    """The players when the file's bots are refused: the AI at the default level in their seats."""
    kept = list(specs)
    for seat in seats:
        kept[seat] = PlayerSpec("ai", level=DEFAULT_LEVEL, text=f"ai:{DEFAULT_LEVEL}")
    words = ", ".join(f"p{seat + 1}" for seat in seats)
    return kept, f"{words}: the file's bot was not started; the AI (level {DEFAULT_LEVEL}) plays instead"


def create_app(game: str | None = None, specs: list[PlayerSpec] | None = None, seed: int | None = None,
               load: str | None = None, **options) -> TermArenaApp:
    """The app factory: the command line and the tests build the app the same way."""
    return TermArenaApp(game, specs, seed, load, **options)


def run_app(game: str | None = None, specs: list[PlayerSpec] | None = None, seed: int | None = None,
            load: str | None = None, *, overrides: list[PlayerSpec | None] | None = None,
            saves: str | None = None, bot_time_limits: bool = True, ai_think_ms: int | None = None,
            replay: SavedGame | None = None, replay_title: str = "",
            clock: ClockSpec | None = None, net: NetPlan | None = None, autosave: bool = True,
            **run_options) -> int:
    """Run the app in the terminal; returns the exit status (not 0 when the app died on an error)."""
    app = create_app(game, specs, seed, load, overrides=overrides, saves=saves, bot_time_limits=bot_time_limits,
                     ai_think_ms=ai_think_ms, replay=replay, replay_title=replay_title, clock=clock, net=net,
                     autosave=autosave)
    try:
        app.run(**run_options)
    finally:
        app.shutdown()  # done already when the app unmounted; not when it died before
    if app.exit_line:
        sys.stderr.write(visible(app.exit_line) + "\n")  # it may quote a network peer
    return app.return_code or 0
