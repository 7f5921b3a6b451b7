"""The players the app does not control directly: the built-in AI (a search in another process) and
external bots (child processes spoken to with the CodinGame protocol).

Both are driven from the game screen; nothing here blocks the UI thread:
* `AIOpponent.start` returns at once; `wait` blocks up to a timeout for the search's next events, so
  the screen calls it in a thread worker that posts them as messages; cancelling (from the UI thread)
  kills the search process at once.
* `BotSeat.ask` waits for the bot's answer (with the game's time limit), so the screen runs it in a
  thread worker; closing the bot makes a waiting `ask` return at once with an error.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ai.analysis import MoveVerdict
from ai.player import SearchInfo
from ai.worker import SearchEvent, SearchProcess, SearchRequest
from engines.referee.process import Answer, BotCrashed, BotProcess
from tui.core.session import Session
from tui.core.specs import SERVED_ENV

HINT_LEVEL = 6
ANALYSES = {"analysis": "position", "chart": "game"}  # search purposes that are analyses, as the worker names them


@dataclass
class Search:
    sid: int
    purpose: str  # "move" (the AI's own turn), "hint" (advice for a human) or "analysis"
    seat: int
    ply: int  # the position it is about: the session's ply when it started
    started: float
    info: SearchInfo | None = None
    lines: tuple[tuple[str, float], ...] = ()  # analysis: the best moves and their scores so far
    line: tuple[str, ...] = ()  # analysis: the best move and the best replies after it
    verdicts: list = field(default_factory=list)  # chart: MoveVerdict of each move judged so far


class AIOpponent:
    """One reusable search process for the whole app; at most one search at a time."""

    def __init__(self, think_ms: int | None = None, nodes: int | None = None) -> None:
        self.think_ms = think_ms  # None: each level's own budget (a game's analysis: no clock)
        self.nodes = nodes  # a game's analysis: nodes per position (None: the game's own budget)
        self.load_compiled = True  # False while the app compiles the compiled search ahead (SearchRequest)
        self._process: SearchProcess | None = None
        self.search: Search | None = None
        # start and cancel run on the UI thread, wait in a worker thread: the process is used by one
        # thread at a time (a wait holds the lock for at most its timeout)
        self._lock = threading.Lock()

    def start(self, session: Session, level: int, purpose: str = "move", moves: list[str] | None = None,
              played: str | None = None) -> Search:
        """A search for the position of `session`; purpose "analysis" asks for `termarena analyse`'s
        evaluation of it instead of a move (with the verdict on `played`, the move made from there, in
        `verdicts`), "chart" for a verdict on each of its moves (`verdicts`, in order) of `moves`
        (default: the session's)."""
        request = SearchRequest(game=session.game_id, moves=tuple(session.notation if moves is None else moves),
                                level=level,
                                seed=session.seed, start=session.start, think_ms=self.think_ms,
                                ai_seed=session.seed + session.ply, analyse=ANALYSES.get(purpose, ""),
                                load_compiled=self.load_compiled, nodes=self.nodes, played=played)
        with self._lock:
            if self._process is None:
                self._process = SearchProcess()
            sid = self._process.start(request)
            self.search = Search(sid, purpose, session.to_move(), session.ply, time.monotonic())
        return self.search

    def wait(self, search: Search, timeout: float) -> list[SearchEvent]:
        """The events of `search` that arrive within `timeout` seconds (none once it is not the current
        search any more); updates `search.info`.  Blocks: call it from a worker thread."""
        with self._lock:
            if self._process is None or self.search is not search:
                return []
            out = [ev for ev in self._process.events(timeout) if ev.search_id == search.sid]
        for ev in out:
            if ev.kind == "info":
                search.info = ev.info
                if ev.lines is not None:
                    search.lines = ev.lines
                if ev.line is not None:
                    search.line = ev.line
                if ev.verdict is not None:
                    try:
                        search.verdicts.append(MoveVerdict(**ev.verdict))
                    except TypeError:  # not a verdict: a garbled message, skipped
                        pass
        return out

    def follow(self, search: Search, cancelled: Callable[[], bool], timeout: float) -> Iterator[list[SearchEvent]]:
        """The events of `search`, a batch at a time, until its last ("done" or "error"), until it is no
        longer the current search, or until `cancelled()`.  Blocks: iterate in a worker thread."""
        while not cancelled() and self.search is search:
            events = self.wait(search, timeout)
            if events:
                yield events
                if any(ev.kind in ("done", "error") for ev in events):
                    return

    def finished(self) -> None:
        self.search = None

    def cancel(self) -> None:
        # Not by waiting for the lock first: the thread waiting for the search's events holds it and takes
        # it again at once (locks are not fair), which could take several of its waits.  With `search`
        # cleared that thread stops at its next turn, and killed, the search's pipe ends, so the wait it
        # is in returns now.
        search, self.search = self.search, None
        process = self._process
        if search is not None and process is not None:
            process.kill()
            with self._lock:
                process.cancel()

    def close(self) -> None:
        self.cancel()
        with self._lock:
            if self._process is not None:
                self._process.close()
                self._process = None


class BotSeat:
    """An external bot in one seat for the whole game (a bot cannot be rewound or restarted)."""

    def __init__(self, seat: int, command: str, on_stderr=None) -> None:
        self.seat = seat
        self.command = command
        self.first = True
        # BotCrashed here (no such program, bad quoting) is reported by the caller as a forfeit.
        if os.environ.get(SERVED_ENV):
            raise BotCrashed("external bots are off in an app served to browsers: a visitor must not start "
                             "programs on the serving machine")
        self.process = BotProcess(command, on_stderr=on_stderr, name=f"seat{seat}")

    def ask(self, lines: list[str], timeout_s: float | None) -> Answer:
        """Blocking: send one turn's input and read the answer (raises BotError)."""
        return self.process.ask(lines, timeout_s)

    def close(self) -> None:
        try:
            self.process.close()
        except Exception:  # closing must never fail the UI
            pass
