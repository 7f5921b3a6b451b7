"""AI search in a separate process, so the UI thread never waits on it (the GIL would starve the UI).

`SearchProcess` keeps one long-lived worker process (spawned once, reused for every move).  A search
is asked for with the game's record (start position and moves as text), reports `SearchInfo` progress
while it runs and ends with the chosen move.  Cancelling kills the worker, which is the only way to
stop a search at once; the next search starts a fresh one.

Requests and events cross one `multiprocessing.Pipe` as JSON, not pickles: nothing read from the pipe
can make either side run code, and a pipe needs no semaphores, so multiprocessing starts no resource
tracker process.  The worker ends itself as soon as its parent has ended, however it ended (a thread
waits on the parent's sentinel), so no search outlives the app.
"""
from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing as mp
import time
from dataclasses import asdict, dataclass
from typing import Iterator

from ai.analysis import TOP_LINES  # analysis lines sent to the app
from ai.child import end_with_parent, real_std_streams
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
    # not a move: "position" = `analyse`'s evaluation of the position (ai.analysis.analyse_position), with
    # the verdict on `played` when given; "game" = a verdict on each move of `moves` from the start
    # (ai.analysis.analyse_game), one event each
    analyse: str = ""
    # False while the app compiles the compiled search ahead in another process (ai/compile_ahead.py):
    # this worker then searches without starting to load it
    load_compiled: bool = True
    nodes: int | None = None  # an analysis: the node budget per position (None: the game's own)
    played: str | None = None  # a position's analysis: the move made from it, to be judged


@dataclass(frozen=True)
class SearchEvent:
    search_id: int
    kind: str  # "info", "done" or "error"
    info: SearchInfo | None = None
    move: str | None = None  # with "done": the move in CodinGame notation
    error: str | None = None
    lines: tuple[tuple[str, float], ...] | None = None  # analysis: the best root moves and their scores
    verdict: dict | None = None  # game analysis: one move's verdict (ai.analysis.MoveVerdict's fields)
    line: tuple[str, ...] | None = None  # analysis: the best move and the best replies after it


MAX_MESSAGE_BYTES = 1 << 20  # a request is a game record: far below this
MAX_LINE_PLIES = 8  # moves of the best line the app takes


def _encode_event(ev: SearchEvent) -> bytes:
    return json.dumps(asdict(ev)).encode()


def _decode_event(data: bytes) -> SearchEvent:
    d = json.loads(data)
    info = d.get("info")
    lines = d.get("lines")
    verdict = d.get("verdict")
    line = d.get("line")
    return SearchEvent(int(d["search_id"]), str(d["kind"]), SearchInfo(**info) if info else None,
                       d.get("move"), d.get("error"),
                       None if lines is None else tuple((str(m), float(s)) for m, s in lines[:TOP_LINES]),
                       None if verdict is None else dict(verdict),
                       None if line is None else tuple(str(m) for m in line[:MAX_LINE_PLIES]))


def _decode_request(data: bytes) -> tuple[int, SearchRequest]:
    d = json.loads(data)
    req = d["request"]
    req["moves"] = tuple(req["moves"])
    return int(d["id"]), SearchRequest(**req)


def _serve(conn) -> None:  # runs in the worker process
    end_with_parent()
    from ai.compile_ahead import hold_loading
    from ai.levels import make_player
    from engines import GameRecord, replay

    def send(ev: SearchEvent) -> None:
        conn.send_bytes(_encode_event(ev))

    while True:
        try:
            data = conn.recv_bytes(MAX_MESSAGE_BYTES)
        except (EOFError, OSError):
            return
        if data == b"null":
            return
        try:
            sid, req = _decode_request(data)
        except (ValueError, KeyError, TypeError) as e:
            send(SearchEvent(0, "error", error=f"bad request: {e}"))
            continue
        try:
            hold_loading(not req.load_compiled)
            if req.analyse == "game":
                _analyse_game(GameRecord(req.game, list(req.moves), req.seed, req.start), req.nodes, req.think_ms,
                              sid, send)
                continue
            game = replay(GameRecord(req.game, list(req.moves), req.seed, req.start))
            last = [0.0]

            def on_info(info: SearchInfo, sid=sid) -> None:
                now = time.monotonic()
                if now - last[0] >= INFO_EVERY_S:
                    last[0] = now
                    send(SearchEvent(sid, "info", info=info))

            if req.analyse:
                _analyse(game, req, sid, send, on_info)
                continue
            player = make_player(req.game, req.level, think_ms=req.think_ms, seed=req.ai_seed)
            move = player.choose(game, None, on_info)
            send(SearchEvent(sid, "done", move=game.move_to_str(move)))
        except Exception as e:  # reported to the UI, which shows it instead of a traceback
            send(SearchEvent(sid, "error", error=f"{type(e).__name__}: {e}"))


def _analyse(game, req: SearchRequest, sid: int, send, on_info) -> None:  # in the worker process
    from ai.analysis import analyse_position

    ev = None
    for ev, verdict in analyse_position(game, req.played, nodes=req.nodes, think_ms=req.think_ms,
                                        on_info=on_info, ply=len(req.moves) + 1):
        send(SearchEvent(sid, "info", info=ev.info(),
                         lines=tuple((line.move, line.score) for line in ev.lines[:TOP_LINES]),
                         line=ev.line[:MAX_LINE_PLIES], verdict=None if verdict is None else asdict(verdict)))
    send(SearchEvent(sid, "done", move=None if ev is None else ev.best))


def _analyse_game(record, nodes: int | None, think_ms: int | None, sid: int, send) -> None:  # in the worker
    from ai.analysis import analyse_game
    from engines import start_position

    analyse_game(start_position(record), record.moves, nodes=nodes, think_ms=think_ms,
                 on_verdict=lambda v: send(SearchEvent(sid, "info", verdict=asdict(v))))
    send(SearchEvent(sid, "done"))


class SearchProcess:
    """A reusable AI worker process.  Not thread-safe: use it from one thread."""

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")  # fork would copy the UI's threads and locks
        self._proc = None
        self._conn = None
        self._ids = itertools.count(1)
        self.current: int | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _ensure_started(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            return
        with real_std_streams():
            self._conn, child = self._ctx.Pipe(duplex=True)
            self._proc = self._ctx.Process(target=_serve, args=(child,), name="termarena-ai", daemon=True)
            self._proc.start()
        child.close()

    def start(self, request: SearchRequest) -> int:
        """Begin a search; returns its id.  A search still running is cancelled first."""
        if self.current is not None:
            self.cancel()
        self._ensure_started()
        sid = next(self._ids)
        self.current = sid
        self._conn.send_bytes(json.dumps({"id": sid, "request": asdict(request)}).encode())
        return sid

    def events(self, timeout: float = 0.1) -> Iterator[SearchEvent]:
        """Events of the current search that arrive within `timeout` seconds (stale ones are dropped)."""
        if self._conn is None:
            return
        end = time.monotonic() + timeout
        while True:
            remaining = end - time.monotonic()
            try:
                ready = self._conn.poll(max(0.0, remaining))
                ev = _decode_event(self._conn.recv_bytes(MAX_MESSAGE_BYTES)) if ready else None
            except (EOFError, OSError, ValueError, KeyError, TypeError):
                ev, ready = None, False
                if self._proc is not None and self._proc.is_alive():
                    return  # a garbled message: the worker goes on
            if ev is None:
                if self._proc is not None and not self._proc.is_alive() and self.current is not None:
                    sid, self.current = self.current, None
                    yield SearchEvent(sid, "error", error=f"the AI process died (exit code {self._proc.exitcode})")
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

    def kill(self) -> None:
        """Kill the worker and nothing else: safe while another thread waits in `events` (which then
        reports that the process died); `cancel` or `close` afterwards cleans up."""
        proc = self._proc
        if proc is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                proc.kill()

    def cancel(self) -> None:
        """Stop the current search now (the worker is killed and restarted on the next search)."""
        self.current = None
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(timeout=2)
            self._proc = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive() and self.current is None:
            try:
                self._conn.send_bytes(b"null")
                self._proc.join(timeout=1)
            except Exception:
                pass
        self.cancel()

    def __enter__(self) -> "SearchProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
