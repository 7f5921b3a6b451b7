"""AI search in a separate process, so the UI thread never waits on it (the GIL would starve the UI).

`SearchProcess` keeps one long-lived worker process (spawned once, reused for every move).  A search
is asked for with the game's record (start position and moves as text: only plain strings cross the
process boundary), reports `SearchInfo` progress while it runs and ends with the chosen move.
Cancelling kills the worker, which is the only way to stop a search at once; the next search starts a
fresh one.
"""
from __future__ import annotations

import contextlib
import itertools
import multiprocessing as mp
import queue
import sys
import time
from dataclasses import dataclass
from typing import Iterator

from ai.player import SearchInfo

INFO_EVERY_S = 0.1  # progress reports at most this often


@dataclass(frozen=True)
class SearchRequest:
    game: str
    moves: tuple[str, ...]
    level: int
    seed: int | None = None  # the game's seed (Cultist Wars map)
    start: str | None = None  # position text when not the standard start
    think_ms: int | None = None
    ai_seed: int | None = None  # the AI's own randomness (low levels' noise)


@dataclass(frozen=True)
class SearchEvent:
    search_id: int
    kind: str  # "info", "done" or "error"
    info: SearchInfo | None = None
    move: str | None = None  # with "done": the move in CodinGame notation
    error: str | None = None


def _serve(requests, events) -> None:  # runs in the worker process
    from ai.levels import make_player
    from engines import GameRecord, replay

    while True:
        item = requests.get()
        if item is None:
            return
        sid, req = item
        try:
            game = replay(GameRecord(req.game, list(req.moves), req.seed, req.start))
            player = make_player(req.game, req.level, think_ms=req.think_ms, seed=req.ai_seed)
            last = [0.0]

            def on_info(info: SearchInfo, sid=sid) -> None:
                now = time.monotonic()
                if now - last[0] >= INFO_EVERY_S:
                    last[0] = now
                    events.put(SearchEvent(sid, "info", info=info))

            move = player.choose(game, None, on_info)
            events.put(SearchEvent(sid, "done", move=game.move_to_str(move)))
        except Exception as e:  # reported to the UI, which shows it instead of a traceback
            events.put(SearchEvent(sid, "error", error=f"{type(e).__name__}: {e}"))


@contextlib.contextmanager
def _real_std_streams():
    """Starting a process passes `sys.stdout/stderr.fileno()` to the child; an app that captures them
    (Textual does) leaves objects whose fileno is -1, and the start fails with "bad value(s) in
    fds_to_keep".  Put the real streams back while the process starts."""
    saved = sys.stdout, sys.stderr
    for name in ("stdout", "stderr"):
        stream, real = getattr(sys, name), getattr(sys, f"__{name}__")
        try:
            ok = stream.fileno() >= 0
        except Exception:
            ok = False
        if not ok and real is not None:
            setattr(sys, name, real)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class SearchProcess:
    """A reusable AI worker process.  Not thread-safe: use it from one thread."""

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")  # fork would copy the UI's threads and locks
        self._proc = None
        self._requests = None
        self._events = None
        self._ids = itertools.count(1)
        self.current: int | None = None

    def _ensure_started(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            return
        # Queues start multiprocessing's resource tracker, a process too: all of it needs real streams.
        with _real_std_streams():
            self._requests = self._ctx.Queue()
            self._events = self._ctx.Queue()
            self._proc = self._ctx.Process(target=_serve, args=(self._requests, self._events),
                                           name="termarena-ai", daemon=True)
            self._proc.start()

    def start(self, request: SearchRequest) -> int:
        """Begin a search; returns its id.  A search still running is cancelled first."""
        if self.current is not None:
            self.cancel()
        self._ensure_started()
        sid = next(self._ids)
        self.current = sid
        self._requests.put((sid, request))
        return sid

    def events(self, timeout: float = 0.1) -> Iterator[SearchEvent]:
        """Events of the current search that arrive within `timeout` seconds (stale ones are dropped)."""
        if self._events is None:
            return
        end = time.monotonic() + timeout
        while True:
            remaining = end - time.monotonic()
            try:
                ev = self._events.get(timeout=max(0.0, remaining))
            except queue.Empty:
                if self._proc is not None and not self._proc.is_alive() and self.current is not None:
                    sid, self.current = self.current, None
                    yield SearchEvent(sid, "error", error=f"the AI process died (exit code {self._proc.exitcode})")
                return
            except (EOFError, OSError):
                return
            if ev.search_id != self.current:
                continue
            if ev.kind in ("done", "error"):
                self.current = None
            yield ev
            if self.current is None or remaining <= 0:
                return

    def wait(self, search_id: int, timeout: float | None = None) -> SearchEvent:
        """Block until the search ends (for scripts and tests); returns its done/error event."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            for ev in self.events(0.2):
                if ev.search_id == search_id and ev.kind in ("done", "error"):
                    return ev
            if end is not None and time.monotonic() > end:
                raise TimeoutError(f"search {search_id} still running after {timeout} s")

    def cancel(self) -> None:
        """Stop the current search now (the worker is killed and restarted on the next search)."""
        self.current = None
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(timeout=2)
            self._proc = None
        for q in (self._requests, self._events):
            if q is not None:
                q.close()
                q.cancel_join_thread()
        self._requests = self._events = None

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive() and self.current is None:
            try:
                self._requests.put(None)
                self._proc.join(timeout=1)
            except Exception:
                pass
        self.cancel()

    def __enter__(self) -> "SearchProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
