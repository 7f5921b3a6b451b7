"""The autosave of the game in progress: `<saves>/autosave.txt`, rewritten after every change of the game.

The text is made on the UI thread (a consistent snapshot of the session) and written by one background
thread, so a slow disk never freezes the app: writes happen in order, and when several texts queue up
while one is being written only the newest is written next.  Each write is atomic (storage.atomic_write),
so a crash at any moment leaves the previous autosave or the new one, never half a file: at most the
move being made is lost.

What the app does with it: on start without a game (`termarena`) an unfinished autosave is offered
(resume / discard); a finished game's autosave is not offered.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from tui.storage import AUTOSAVE_NAME, SUFFIX, StorageError, atomic_write, load_game

FLUSH_TIMEOUT_S = 5.0


def autosave_path(folder: Path) -> Path:
    return folder / (AUTOSAVE_NAME + SUFFIX)


class Autosaver:
    """One writer thread per app; `submit(text)` returns at once."""

    def __init__(self, path: Path, on_result: Callable[[OSError | None], None] | None = None) -> None:
        self.path = path
        self.on_result = on_result  # called in the writer thread after each write (None: it worked)
        self._cond = threading.Condition()
        self._pending: str | None = None
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.writes = 0  # successful writes, for tests and diagnostics

    def submit(self, text: str) -> None:
        with self._cond:
            if self._closed:
                return
            self._pending = text
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="termarena-autosave", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float = FLUSH_TIMEOUT_S) -> bool:
        """Wait until everything submitted is written (or failed); False if it took longer than `timeout`."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def close(self, timeout: float = FLUSH_TIMEOUT_S) -> None:
        """Write what is pending, then stop the thread."""
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:  # closed, nothing left to write
                    return
                text, self._pending, self._busy = self._pending, None, True
            error: OSError | None = None
            try:
                atomic_write(self.path, text)
                self.writes += 1
            except OSError as e:
                error = e
            except Exception as e:  # never let the writer thread die silently
                error = OSError(str(e))
            with self._cond:
                self._busy = False
                self._cond.notify_all()
            if self.on_result is not None:
                try:
                    self.on_result(error)
                except Exception:
                    pass


def resumable(folder: Path):
    """The autosave if it holds an unfinished game that loads: (saved, final position), else None."""
    path = autosave_path(folder)
    if not path.is_file():
        return None
    try:
        saved, final = load_game(path)
    except StorageError:
        return None
    if saved.result != "*" or final.outcome() is not None:
        return None
    return saved, final
