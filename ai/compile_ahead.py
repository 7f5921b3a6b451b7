"""Compiling Paper Soccer's compiled search (the `fast` extra) ahead of the first game, in a process of
its own, with its progress.

The first load after installing or upgrading compiles the tree (about half a minute of CPU; numba then
keeps it in its cache, and every later process loads it in about a second).  The app starts a
`CompileAhead` at its start when numba is installed: the process loads the tree, compiling what the
cache lacks, and reports `accelerator.Progress` as JSON over a pipe (no pickles), so the app can say
what is going on; meanwhile the app's AI worker is put on hold (`SearchRequest.load_compiled`): level 6
searches in Python instead of compiling the same functions a second time.  The process ends with the
app, however the app ends (it watches its parent, like the AI worker).
"""
from __future__ import annotations

import importlib.util
import json
import multiprocessing as mp
from dataclasses import asdict

from ai.paper_soccer.accelerator import Progress, pure_python_wanted

MAX_REPORT_BYTES = 4096


def wanted() -> bool:
    """numba is installed (found without importing it) and the compiled tree is not turned off."""
    try:
        found = importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        found = False
    return found and not pure_python_wanted()


def hold_loading(held: bool) -> None:
    """In the AI worker: whether its searches may start loading the compiled tree (see the module's doc)."""
    from ai.paper_soccer import accelerator

    accelerator.hold(held)


def _prepare(conn) -> None:  # in the child process
    from ai.paper_soccer import accelerator
    from ai.child import end_with_parent

    end_with_parent()
    try:
        accelerator.prepare(lambda p: conn.send_bytes(json.dumps(asdict(p)).encode()))
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
