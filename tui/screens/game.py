"""The game screen: the board, the side panel (players, turn, AI progress, moves, messages), the footer.

Every change of position goes through `_position_changed`, which redraws, then hands the turn to whoever
sits in the seat to move: a human (the board takes input), the AI (a search in another process, waited
for in a thread worker that posts its progress as messages) or an external bot (asked in a thread
worker).  Answers that arrive for a position that
is gone (after an undo, a new game) are dropped: each turn has a token.
"""
from __future__ import annotations

import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from engines.base import EngineError, InvalidOutput, quote
from engines.referee.process import Answer, BotCrashed, BotError
from tui.core.words import counted, illegal_move
from tui.screens.analysis import ANALYSIS_BINDING, AnalysisHost
from tui.screens.arena import ArenaPage
from tui.core.opponents import HINT_LEVEL, AIOpponent, BotSeat
from tui.screens.dialogs import ConfirmScreen, GameOverScreen, MovePrompt
from tui.screens.help import HelpScreen
from tui.core.session import Played, Session, SessionError
from tui.widgets.boards import board_class
from tui.widgets.boards.base import Board
from tui.widgets.analysis_panel import AnalysisPanel
from tui.widgets.bot_log import BotLog
from tui.widgets.layout import board_with_side
from tui.widgets.move_list import MoveList
from tui.widgets.refused import refused_action
from tui.widgets.status import MessageLine, StatusPanel, ThinkingLine

TICK_S = 0.05
AI_WAIT_S = 0.1  # how long the AI's waiting worker blocks at a time (a cancel waits at most this)
WATCH_DELAY_S = 0.6  # between moves when no human plays, so the game can be followed
CLOCK_TICK_S = 0.1  # the clocks show tenths under 10 s


class BotAnswered(Message):
    def __init__(self, token: int, seat: int, answer: Answer | None, error: BotError | None) -> None:
        super().__init__()
        self.token, self.seat, self.answer, self.error = token, seat, answer, error


class BotStderr(Message):
    def __init__(self, seat: int, line: str) -> None:
        super().__init__()
        self.seat, self.line = seat, line


class AIReport(Message):
    """Progress, the move or a failure of a search, posted by the worker that waits for it."""

    def __init__(self, search, event) -> None:
        super().__init__()
        self.search, self.event = search, event


class GameScreen(AnalysisHost, ArenaPage, Screen):
    # Declared once: the footer shows `description`, the help screen `tooltip` (the longer words) and
    # the command palette runs the same actions; `id`s name the keys for tests and keymaps.
    BINDINGS = [
        Binding("question_mark", "help", "help", id="game.help", tooltip="this help"),
        # priority: the prompt is on top before the keys typed after `:` are handed out (TakesTypedAhead)
        Binding("colon", "type_move", "type move", show=False, id="game.type_move", priority=True,
                tooltip="type a move as the move list writes it, e.g. {example}"),
        Binding("u,ctrl+z", "undo", "undo", id="game.undo",
                tooltip="undo: one move in hot-seat, back to your own turn against the AI"),
        Binding("r,ctrl+y", "redo", "redo", id="game.redo", tooltip="redo what was undone"),
        Binding("H", "hint", "hint", id="game.hint",
                tooltip="hint: the strongest AI level (6) suggests a move, without playing it"),
        Binding("n", "new_game('shown')", "new game", id="game.new_game_over"),  # in the footer once over
        Binding("n", "new_game", "new game", show=False, id="game.new_game",
                tooltip="new game (asks first while a game runs)"),
        Binding("g", "game_over", "result", id="game.game_over",  # in the footer once over
                tooltip="the game-over panel again: the result, save, replay, chart of the game just played"),
        # not in the footer (no room at 80 columns); the help screen lists them
        Binding("ctrl+s", "save", "save", show=False, id="game.save", priority=True,
                tooltip="save the game to a file of the save folder (asks a name)"),
        Binding("ctrl+o", "load", "load", show=False, id="game.load",
                tooltip="load a saved game: play on, or replay a finished one (← → Home End)"),
        Binding("L", "toggle_log", "bot log", id="game.bot_log",
                tooltip="show or hide the bots' stderr (games with an external bot)"),
        Binding("ctrl+r", "retry_ai", "retry AI", id="game.retry_ai", tooltip="ask the AI again after it failed"),
        ANALYSIS_BINDING,
    ]

    def __init__(self, session: Session, ai: AIOpponent) -> None:
        super().__init__()
        self.session = session
        self.ai = ai
        self.board_cls = board_class(session.game_id)
        self.board: Board = self.board_cls(session)
        self.bots: dict[int, BotSeat] = {}
        self._token = 0
        self._frame = 0
        self._ai_failed: str | None = None
        self._over_shown = False
        self._watch_timer = None
        self._bot_waiting: tuple[int, float] | None = None  # (seat, since when) while a bot thinks
        self._autosaved = session.changes  # the session's change count the autosave has seen
        self._tree = ""  # the AI's search as its last report named it ("compiled", "pure Python"; "": unnamed)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        log = [BotLog(id="bot-log")] if self.session.has_bot else []
        yield from board_with_side(self.board, ThinkingLine(id="thinking"), AnalysisPanel(id="analysis"), *log)

    def on_mount(self) -> None:
        # Runs only while an opponent thinks: it animates the spinner and the clock of the thinking line.
        self._ticker = self.set_interval(TICK_S, self._tick, pause=True)
        if self.session.clock is not None:  # the clocks tick while the game runs
            self.set_interval(CLOCK_TICK_S, self._clock_tick)
        self._start_bots()
        self._position_changed()
        self.watch(self.app, "preparing", lambda _: self._show_status(), init=False)

    def on_unmount(self) -> None:
        self._stop_opponents()
        for bot in self.bots.values():
            bot.close()

    # ------------------------------------------------------------------ the flow of turns

    def game_running(self) -> bool:
        return not self.session.is_over() and self.session.ply > 0

    def _position_changed(self) -> None:
        self._token += 1
        self.board.position_changed()
        self.refresh_analysis()
        self._refresh_panels()
        self.refresh_bindings()
        session = self.session
        if session.changes != self._autosaved:  # a move, an undo, a redo, a forfeit: autosave it
            self._autosaved = session.changes
            self.arena.autosave(session)
        if session.is_over():
            self.board.accepting = False
            self._stop_opponents()
            self._show_game_over()
            return
        self._over_shown = False
        kind = session.kind(session.to_move())
        self.board.accepting = kind == "human"
        if kind == "human":
            self.board.focus()
            note = self.board.turn_note()
            if note:
                self.say(note)
        elif session.has_human or session.ply == 0:
            self._hand_out_turn()
        else:  # nobody to wait for: pause between moves so the game can be followed
            token = self._token
            self._watch_timer = self.set_timer(self.arena.watch_delay_s, lambda: self._hand_out_turn(token))

    def _hand_out_turn(self, token: int | None = None) -> None:
        """Ask the AI or the bot in the seat to move for its move."""
        if token is not None and token != self._token:
            return
        self._watch_timer = None
        seat = self.session.to_move()
        if self.session.kind(seat) == "ai":
            self._start_ai()
        else:
            self._ask_bot(seat)

    def _moved(self, played: Played) -> None:
        side = self.board_cls.side_names[played.seat]
        self.say(f"{side} played {self.board.describe_move(played.text)}")
        self._position_changed()

    def _refresh_panels(self) -> None:
        self._show_status()
        self.query_one(MoveList).show(self.session, self.board_cls)
        self._show_thinking()

    def say(self, text: str, error: bool = False) -> None:
        self.query_one(MessageLine).say(text, error)

    def _show_status(self) -> None:
        self.query_one(StatusPanel).show(self.session, self.board, self._search_note())

    def _search_note(self) -> str:
        """Which search the AI runs, once a report named it, and the fast one's compiling while it runs."""
        if not self._tree:
            return ""
        preparing = self.arena.preparing if self._tree == "pure Python" else ""
        return f"AI search: {self._tree}" + (f" · fast one {preparing}" if preparing else "")

    def _stop_opponents(self) -> None:
        if self._watch_timer is not None:
            self._watch_timer.stop()
            self._watch_timer = None
        self.ai.cancel()
        self.workers.cancel_group(self, "ai")
        self.workers.cancel_group(self, "bot")
        self._bot_waiting = None

    # ------------------------------------------------------------------ human input

    def on_board_move_chosen(self, message: Board.MoveChosen) -> None:
        message.stop()
        if self._flag_fell() or not self.session.human_to_move():
            return
        if self.ai.search is not None:  # a hint still thinking: the player decided without it
            self.ai.cancel()
        try:
            played = self.session.play(message.text)
        except InvalidOutput as e:
            self.say(illegal_move(self.session.cls, message.text, e), error=True)
            return
        except EngineError as e:
            self.say(f"Cannot play {quote(message.text)}: {e}", error=True)
            return
        except Exception as e:  # an engine bug: say so, keep the game open
            self.say(f"Internal error playing {quote(message.text)}: {type(e).__name__}: {e}", error=True)
            return
        self._moved(played)

    def on_board_notice(self, message: Board.Notice) -> None:
        message.stop()
        self.say(message.text, message.error)

    # ------------------------------------------------------------------ the AI

    def _start_ai(self) -> None:
        spec = self.session.specs[self.session.to_move()]
        self._ai_failed = None
        try:
            self.ai.start(self.session, spec.level or 1, "move")
            self._wake()
        except Exception as e:  # the worker process could not start
            self._ai_failed = f"the AI could not start: {e}"
            self.say(self._ai_failed + " (ctrl+r to try again)", error=True)
        self._show_thinking()
        self.refresh_bindings()

    def _wake(self) -> None:
        self._ticker.resume()
        if self.ai.search is not None:
            self._wait_for_ai(self.ai.search)

    @work(thread=True, exclusive=True, group="ai", exit_on_error=False)
    def _wait_for_ai(self, search) -> None:
        worker = get_current_worker()
        for events in self.ai.follow(search, lambda: worker.is_cancelled, AI_WAIT_S):
            for ev in events:
                self.post_message(AIReport(search, ev))

    @on(AIReport)
    def _ai_report(self, message: AIReport) -> None:
        search, ev = message.search, message.event
        if search is not self.ai.search:
            return  # cancelled meanwhile: a position that is gone
        if ev.info is not None and ev.info.tree and ev.info.tree != self._tree:
            self._tree = ev.info.tree
            self._show_status()
        if ev.kind == "done":
            self.ai.finished()
            self._ai_done(search, ev.move)
        elif ev.kind == "error":
            self.ai.finished()
            self._ai_error(search, ev.error or "unknown error")
        self._show_thinking()

    # ------------------------------------------------------------------ clocks

    def _clock_tick(self) -> None:
        if not self._flag_fell() and not self.session.is_over() and self.session.clock.running is not None:
            self._show_status()  # only a running clock changes

    def _flag_fell(self) -> bool:
        """End the game when the running clock reached zero (the loser is told the reason)."""
        if self.session.check_flag() is None:
            return False
        self._say_ending()
        self._position_changed()
        return True

    def _tick(self) -> None:
        self._frame += 1
        self._show_thinking()
        if self.ai.search is None and self._bot_waiting is None:
            self._ticker.pause()

    def _ai_done(self, search, move: str | None) -> None:
        if search.ply != self.session.ply or move is None:
            return  # a search about a position that is gone
        if search.purpose == "hint":
            self.say(f"Hint (AI level {HINT_LEVEL}): {self.board.describe_move(move)}")
            self.board.show_hint(move)
            self.refresh_bindings()
            return
        try:
            played = self.session.play(move)
        except Exception as e:  # EngineError, or an engine bug: the AI's turn failed, in words
            self._ai_error(search, f"it chose {quote(str(move))}, which the referee refuses: {e}")
            return
        self._moved(played)

    def _ai_error(self, search, error: str) -> None:
        if search.purpose == "hint":
            self.say(f"The hint failed: {error}", error=True)
            return
        self._ai_failed = f"The AI failed: {error}"
        self.say(self._ai_failed + " (ctrl+r to try again)", error=True)
        self.refresh_bindings()

    def _show_thinking(self) -> None:
        line = self.query_one(ThinkingLine)
        search = self.ai.search
        if search is not None:
            elapsed = time.monotonic() - search.started
            who = (f"hint: AI level {HINT_LEVEL} thinking" if search.purpose == "hint"
                   else f"{self.board_cls.side_names[search.seat]} (AI) thinking")
            detail = search.info.describe() if search.info is not None else "starting…"
            line.show(f"{who} {elapsed:.1f}s", detail, self._frame)
        elif self._bot_waiting is not None:
            seat, started = self._bot_waiting
            line.show(f"{self.board_cls.side_names[seat]} (bot) thinking {time.monotonic() - started:.1f}s",
                      "", self._frame)
        else:
            line.show("")

    # ------------------------------------------------------------------ external bots

    def _start_bots(self) -> None:
        for seat, spec in enumerate(self.session.specs):
            if spec.kind != "cmd":
                continue
            try:
                self.bots[seat] = BotSeat(seat, spec.command or "", on_stderr=self._stderr_callback(seat))
            except BotError as e:
                self.session.forfeit(seat, e.reason, str(e))
                self._say_ending()
                return

    def _stderr_callback(self, seat: int):
        def on_stderr(line: str) -> None:  # runs in the bot's stderr thread
            try:
                self.post_message(BotStderr(seat, line))
            except Exception:
                pass
        return on_stderr

    def on_bot_stderr(self, message: BotStderr) -> None:
        for log in self.query(BotLog):
            log.add(self.board_cls.side_names[message.seat], message.line)

    def _ask_bot(self, seat: int) -> None:
        bot = self.bots.get(seat)
        if bot is None:
            return
        lines = self.session.game.bot_input(bot.first)
        limit_s = self.session.cls.limits.for_turn(bot.first) / 1000 if self.app.bot_time_limits else None
        bot.first = False
        self._bot_waiting = (seat, time.monotonic())
        self._wake()
        self._bot_worker(bot, lines, limit_s, self._token)

    @work(thread=True, exclusive=True, group="bot", exit_on_error=False)
    def _bot_worker(self, bot: BotSeat, lines: list[str], timeout_s: float | None, token: int) -> None:
        try:
            answer, error = bot.ask(lines, timeout_s), None
        except BotError as e:
            answer, error = None, e
        except Exception as e:  # anything else on the pipe counts as the bot dying, never a hang
            answer, error = None, BotCrashed(f"{type(e).__name__}: {e}")
        if not get_current_worker().is_cancelled:
            self.post_message(BotAnswered(token, bot.seat, answer, error))

    def on_bot_answered(self, message: BotAnswered) -> None:
        if message.token != self._token:
            return
        self._bot_waiting = None
        seat = message.seat
        if message.error is not None:
            self.session.forfeit(seat, message.error.reason, str(message.error))
            self._say_ending()
            self._position_changed()
            return
        line = message.answer.line
        try:
            played = self.session.play(line)
        except InvalidOutput as e:
            self.session.forfeit(seat, "invalid", str(e), output=line)
            self._say_ending()
            self._position_changed()
            return
        self._moved(played)

    def _say_ending(self) -> None:
        """A forfeit (a bot's failure, a clock that fell) on the message line, as the game-over screen says it."""
        self.say(self.session.result_words(self.board_cls.side_names)[1], error=True)

    # ------------------------------------------------------------------ game over

    def _covered(self) -> bool:
        """Another page (the load screen, a replay) is over this one: dialogs of this game wait."""
        stack = self.app.screen_stack
        if self not in stack:
            return True
        return any(not screen.is_modal for screen in stack[stack.index(self) + 1:])

    def on_screen_resume(self) -> None:
        if self.session.is_over() and not self._over_shown:
            self._show_game_over()  # the game ended (the AI's move) while another page was shown

    def _show_game_over(self) -> None:
        if self._over_shown or self._covered():
            return
        self._over_shown = True
        headline, reason = self.session.result_words(self.board_cls.side_names)
        # the referee's scores mean nothing to a player (Paper Soccer's -1:1); where they count (Cultist
        # Wars' units left) the reason says them
        length = counted(self.session.game.game_ply, "move")  # the game's turns, a loaded position's included
        self.app.push_screen(GameOverScreen(headline, reason, length, self.session.can_undo(), self.offers_new_game()),
                             self._after_game_over)

    def offers_new_game(self) -> bool:
        """Whether this screen can set up another game once this one is over (a network game cannot)."""
        return True

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.arena.show_setup(self.session.game_id, self.session.specs, self.session.seed)
        elif choice == "undo":
            self.action_undo()
        elif choice == "save":
            self.action_save(then=self.action_game_over)  # back to the panel: replay and chart are there
        elif choice in ("replay", "chart"):
            self.arena.show_replay(self.session.to_saved(), "of this game", chart=choice == "chart")
        elif choice == "quit":
            self.app.exit()

    # ------------------------------------------------------------------ keys of the screen

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.session
        if action == "undo":
            return False if session.has_bot else session.can_undo()
        if action == "redo":
            return session.can_redo()
        if action == "type_move":
            return session.human_to_move()
        if action == "hint":  # dimmed while the opponent moves, hidden once the game is over
            if session.is_over() or not session.has_human:
                return False
            return True if session.human_to_move() and self.ai.search is None else None
        if action == "new_game" and parameters:
            return session.is_over()
        if action == "toggle_log":
            return session.has_bot
        if action == "retry_ai":
            return self._ai_failed is not None and self.ai.search is None
        if action == "game_over":
            return session.is_over()
        return True

    def quit_question(self, autosaved: bool) -> str:
        """What quitting now does to this game, asked before it does it."""
        question = "Quit the game in progress?"
        if autosaved:
            question += " It is autosaved: termarena without arguments offers to resume it next time."
        return question

    def on_key(self, event: Key) -> None:
        # A key of this screen that is hidden or dimmed now would do nothing silently: say why instead.
        refused = refused_action(self, event.key)
        if refused is not None:
            event.stop()
            self.say(self.key_refusal(*refused), error=True)

    def on_board_refused(self, message: Board.Refused) -> None:
        message.stop()
        self.say(message.why or self.why_no_move(), error=True)

    def why_no_move(self) -> str:
        """Why no move can be made now, in one line (the network screen adds its own reasons)."""
        session = self.session
        if session.is_over():
            return "The game is over: g shows the result, n sets up a new game"
        if not session.has_human:
            return "No human plays in this game: you are watching"
        if self.ai.search is not None and self.ai.search.purpose == "hint":
            return "Wait: the hint is still thinking"
        return f"Not your turn: {self.board_cls.side_names[session.to_move()]} is to move"

    def key_refusal(self, action: str, parameters: tuple[object, ...]) -> str:
        """Why a key of this screen does nothing now, in one line."""
        session = self.session
        if action == "undo":
            return session.undo_refusal() or "nothing to undo"
        if action == "redo":
            return "nothing to redo"
        if action == "hint":
            if session.is_over():
                return "The game is over: no hint to give"
            return "Hints are for a human player" if not session.has_human else self.why_no_move()
        if action == "type_move":
            return self.why_no_move()
        if action == "toggle_log":
            return "No external bot plays in this game: there is no bot log"
        if action == "retry_ai":
            return "The AI has not failed: nothing to retry"
        if action == "game_over":
            return "The game is not over yet"
        return "Not available now"

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session, self.board_cls, self.BINDINGS))

    def action_undo(self) -> None:
        refusal = self.session.undo_refusal()
        if refusal is not None:  # checked first: a refused undo must not stop the AI thinking
            self.say(refusal, error=True)
            return
        self._stop_opponents()
        count = self.session.undo()
        self._ai_failed = None
        self.say(f"Took back {counted(count, 'move')}")
        self._position_changed()

    def action_redo(self) -> None:
        if not self.session.can_redo():
            self.say("nothing to redo", error=True)
            return
        self._stop_opponents()
        try:
            count = self.session.redo()
        except (SessionError, EngineError) as e:
            self.say(str(e), error=True)
            return
        self.say(f"Replayed {counted(count, 'move')}")
        self._position_changed()

    def action_hint(self) -> None:
        if not self.session.human_to_move() or self.ai.search is not None:  # the palette runs it unchecked
            self.say(self.key_refusal("hint", ()), error=True)
            return
        try:
            self.ai.start(self.session, HINT_LEVEL, "hint")
            self._wake()
        except Exception as e:
            self.say(f"The hint failed: {e}", error=True)
            return
        self.say(f"Asking AI level {HINT_LEVEL} for a hint…")
        self._show_thinking()
        self.refresh_bindings()

    def action_type_move(self) -> None:
        def typed(text: str | None) -> None:
            if not text:
                return
            try:  # typed in the player's notation, played in CodinGame's
                output = self.session.cls.player_to_output(text)
            except InvalidOutput as e:
                self.say(str(e), error=True)
                return
            self.board.choose(output)

        self.app.push_screen(MovePrompt(self.board_cls.move_example), typed)

    def action_save(self, _shown: str = "", then=None) -> None:
        from tui.screens.save import SaveScreen
        from tui.core.storage import default_name, save_game

        folder = self.arena.saves_folder

        def write(path) -> None:  # the game as it is when the name is confirmed
            save_game(path, self.session.to_saved(), self.session.game)

        def saved(path) -> None:
            if path is not None:
                self.say(f"Saved to {path}")
            if then is not None:
                then()

        self.app.push_screen(SaveScreen(folder, default_name(self.session.game_id), write), saved)

    def action_load(self) -> None:
        self.arena.show_load()

    def action_retry_ai(self) -> None:
        if self._ai_failed is not None and self.session.kind(self.session.to_move()) == "ai":
            self._start_ai()
        else:
            self.say(self.key_refusal("retry_ai", ()), error=True)

    def action_game_over(self) -> None:
        if not self.session.is_over():
            self.say(self.key_refusal("game_over", ()), error=True)
            return
        self._over_shown = False
        self._show_game_over()

    def action_toggle_log(self) -> None:
        for log in self.query(BotLog):
            log.collapsed = not log.collapsed

    def action_new_game(self, _shown: str = "") -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.arena.show_setup(self.session.game_id, self.session.specs, self.session.seed)

        if self.game_running():
            self.app.push_screen(ConfirmScreen("Abandon this game and set up a new one?"), answer)
        else:
            answer(True)
