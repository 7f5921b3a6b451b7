"""Compiling a game's compiled search (the `fast` extra; today Paper Soccer's) ahead of the first game,
in a process of its own, with its progress.

A game's AI package that has such a search names its loader module as `ACCELERATOR` (a dotted path,
imported only here and only when wanted); the module offers `Progress`-reporting `prepare(report)`,
`hold(held)` and `pure_python_wanted()`.

The first load after installing or upgrading compiles the tree (about half a minute of CPU; numba then
keeps it in its cache, and every later process loads it in about a second).  The app starts a
`CompileAhead` at its start when numba is installed: the process loads the tree, compiling what the
cache lacks, and reports `Progress` as JSON over a pipe (no pickles), so the app can say
what is going on; meanwhile the app's AI worker is put on hold (`SearchRequest.load_compiled`): level 6
searches in Python instead of compiling the same functions a second time.  The process ends with the
app, however the app ends (it watches its parent, like the AI worker).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import multiprocessing as mp
from dataclasses import asdict, dataclass
from types import ModuleType

MAX_REPORT_BYTES = 4096


@dataclass(frozen=True)
class Progress:
    """How far the loading is: functions ready of all, whether numba's cache lacked some (then they are
    compiled: about half a minute of CPU, once after installing or upgrading), and how it ended."""

    ready: int = 0
    total: int = 0
    compiling: bool = False
    finished: bool = False
    error: str = ""  # why there is no compiled tree (finished)

    @property
    def percent(self) -> int:
        return 100 if self.finished and not self.error else (100 * self.ready // self.total if self.total else 0)


def accelerated_games() -> list[str]:
    """The ids of the registered games whose AI package has a compiled search (no loader imported)."""
    from ai.levels import ai_part
    from engines import game_ids

    return [gid for gid in game_ids() if ai_part(gid, "ACCELERATOR", None)]


def accelerators() -> list[tuple[str, ModuleType]]:
    """(game id, loader module) of every registered game whose AI package has a compiled search."""
    from ai.levels import ai_part

    return [(gid, importlib.import_module(ai_part(gid, "ACCELERATOR"))) for gid in accelerated_games()]


def wanted() -> bool:
    """numba is installed (found without importing it), a game has a compiled search, and it is not
    turned off."""
    try:
        found = importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        found = False
    return found and any(not acc.pure_python_wanted() for _, acc in accelerators())


def hold_loading(held: bool) -> None:
    """In the AI worker: whether its searches may start loading the compiled tree (see the module's doc)."""
    for _, acc in accelerators():
        acc.hold(held)


def prepare_all(report) -> Progress:
    """Load (compiling what numba's cache lacks) every game's compiled search; `report(Progress)` as it
    goes.  The last progress: finished, with the first error met."""
    final = Progress(finished=True)
    for _, acc in accelerators():
        final = acc.prepare(report)
        if final.error:
            break
    return final


def _prepare(conn) -> None:  # in the child process
    from ai.child import end_with_parent

    end_with_parent()
    try:
        prepare_all(lambda p: conn.send_bytes(json.dumps(asdict(p)).encode()))
    except (OSError, ValueError):  # the app has gone
        pass


def _decode(data: bytes) -> Progress:
    d = json.loads(data)
    return Progress(int(d["ready"]), int(d["total"]), bool(d["compiling"]), bool(d["finished"]),
                    str(d["error"])[:300])


class CompileAhead:
    """The compile-ahead process seen from the app: `start`, then `poll` from time to time (it never
    blocks) until `progress.finished`; `close` ends the process at once."""

    def __init__(self) -> None:
        self.progress = Progress()
        self._proc = None
        self._conn = None

    def start(self) -> None:
        from ai.child import real_std_streams

        ctx = mp.get_context("spawn")  # fork would copy the UI's threads and locks
        with real_std_streams():
            self._conn, child = ctx.Pipe(duplex=False)
            self._proc = ctx.Process(target=_prepare, args=(child,), name="termarena-compile-ahead", daemon=True)
            self._proc.start()
        child.close()

    def poll(self) -> bool:
        """Take what the process reported since the last call; True when the progress changed."""
        before = self.progress
        conn = self._conn
        try:
            while conn is not None and conn.poll():
                self.progress = _decode(conn.recv_bytes(MAX_REPORT_BYTES))
        except (EOFError, OSError, ValueError, KeyError, TypeError):
            # the process ended (or said something unreadable) without finishing
            if not self.progress.finished:
                code = self._proc.exitcode if self._proc is not None else None
                self.progress = Progress(self.progress.ready, self.progress.total, self.progress.compiling,
                                         True, f"the compiling process ended (exit code {code})")
        if self.progress.finished:
            self.close()
        return self.progress != before

    def close(self) -> None:
        proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        if proc is not None:
            proc.kill()
            proc.join(timeout=2)
        if conn is not None:
            conn.close()
