"""The autosave of the game in progress: `<saves>/autosave.txt`, rewritten after every change of the game.

The text is made on the UI thread (a consistent snapshot of the session) and written by one background
thread, so a slow disk never freezes the app: writes happen in order, and when several texts queue up
while one is being written only the newest is written next.  Each write is atomic (storage.atomic_write),
so a crash at any moment leaves the previous autosave or the new one, never half a file: at most the
move being made is lost.

What the app does with it: on start without a game (`termarena`) an unfinished autosave is offered
(resume / discard); a finished game's autosave is not offered.  An autosave that cannot be loaded is
renamed to `autosave.bad-YYYYmmdd-HHMMSS.txt` at that start (`set_aside_unreadable_autosave`), so a
poisoned file never stops the app from starting; the app says where it went and why.

The rule that keeps unfinished games: an Autosaver never writes over an unfinished game it did not
write itself.  Before its first write it looks at the autosave on disk; one that holds an unfinished
game (from an earlier run, or the one a failed `--load` fell back from) is renamed to
`autosave.prev-YYYYmmdd-HHMMSS.txt`, one that cannot be read to `autosave.bad-….txt`, and the app is
told (`on_set_aside`).  A finished game is written over.  When the app resumes the autosaved game it
calls `adopt()` first: that game is the one being written, nothing is set aside.  Games left during one
run are the Autosaver's own: leaving one asks first, and the next game's first move replaces it.
If the file cannot be renamed, nothing is written (the write fails, and says why).  Only the newest
KEEP_PREV `autosave.prev-….txt` are kept: making one removes those older than the last KEEP_PREV.
"""
from __future__ import annotations

import os
import re
import stat
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tui.core.storage import (AUTOSAVE_NAME, SUFFIX, StorageError, atomic_write, load_game, move_aside,
                         remove_stale_temps, shown)

FLUSH_TIMEOUT_S = 5.0
KEEP_PREV = 5  # autosave.prev-….txt kept (the newest): games left unfinished a few starts ago


def autosave_path(folder: Path) -> Path:
    return folder / (AUTOSAVE_NAME + SUFFIX)


BAD, PREV = "bad", "prev"  # the tags of autosave.bad-….txt (cannot be loaded), autosave.prev-….txt (unfinished)
# storage.move_aside's names: the moment it was set aside, then -2, -3, ... within the same second
_PREV_NAME = re.compile(rf"^{AUTOSAVE_NAME}\.{PREV}-(?P<when>[0-9]{{8}}-[0-9]{{6}})(?:-(?P<n>[0-9]{{1,4}}))?"
                        rf"{re.escape(SUFFIX)}$")


@dataclass(frozen=True)
class SetAside:
    """An autosave renamed so that it is not lost (or that could not be renamed: `moved_to` None)."""

    path: Path
    tag: str  # BAD or PREV
    reason: str  # why it cannot be loaded (BAD), what game it holds (PREV)
    moved_to: Path | None
    error: str = ""  # why it could not be renamed

    def message(self) -> str:
        if self.moved_to is None:
            return (f"The autosave {shown(self.path)} could not be read ({self.reason}) nor moved aside "
                    f"({self.error}); it is left as it is.")
        if self.tag == BAD:
            return f"The autosave could not be read ({self.reason}); it was moved to {shown(self.moved_to)}."
        return (f"The autosave held {self.reason}; it was kept as {shown(self.moved_to)} "
                f"(ctrl+o lists it) before this game's autosave.")


def _reason_of(error: StorageError, path: Path) -> str:
    """The storage error without the file name it starts with (the message names the file anyway)."""
    text, prefix = str(error), f"{shown(path)}: "
    return text[len(prefix):] if text.startswith(prefix) else text


def set_aside_unreadable_autosave(folder: Path) -> SetAside | None:
    """At start: an autosave that cannot be loaded is renamed to autosave.bad-….txt (never over another
    file) so that it neither stops the start nor gets written over; returns where it went and why,
    None when there is no autosave or it loads."""
    path = autosave_path(folder)
    if not os.path.lexists(path):
        return None
    try:
        load_game(path)
        return None
    except StorageError as e:
        reason = _reason_of(e, path)
    try:
        return SetAside(path, BAD, reason, move_aside(path, BAD))
    except OSError as e:
        return SetAside(path, BAD, reason, None, e.strerror or str(e))


def keep_unfinished_autosave(path: Path) -> SetAside | None:
    """Before writing over `path`: rename it when it holds an unfinished game (autosave.prev-….txt) or
    cannot be read (autosave.bad-….txt).  Raises OSError when it has to be kept but cannot be renamed."""
    if not os.path.lexists(path):
        return None
    try:
        saved, final = load_game(path)
    except StorageError as e:
        return SetAside(path, BAD, _reason_of(e, path), move_aside(path, BAD))
    if saved.result != "*" or final.outcome() is not None:
        return None  # a finished game: written over, as always
    what = f"an unfinished game of {final.title} ({len(saved.moves)} moves, {saved.date or 'no date'})"
    aside = SetAside(path, PREV, what, move_aside(path, PREV))
    remove_old_prev(path.parent)
    return aside


def remove_old_prev(folder: Path, keep: int = KEEP_PREV) -> list[Path]:
    """Remove the `autosave.prev-….txt` of `folder` but the newest `keep` (by the moment in their names),
    regular files only; returns what was removed.  Never raises."""
    found = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                match = _PREV_NAME.match(entry.name)
                if match:
                    found.append(((match["when"], int(match["n"] or 1)), Path(entry.path)))
    except OSError:
        return []
    removed = []
    for _, path in sorted(found, reverse=True)[keep:]:
        try:
            if stat.S_ISREG(os.lstat(path).st_mode):
                os.unlink(path)
                removed.append(path)
        except OSError:
            continue
    return removed


class Autosaver:
    """One writer thread per app; `submit(text)` returns at once."""

    def __init__(self, path: Path, on_result: Callable[[OSError | None], None] | None = None) -> None:
        self.path = path
        self.on_result = on_result  # called in the writer thread after each write (None: it worked)
        self.on_set_aside: Callable[[SetAside], None] | None = None  # called in the writer thread too
        self.set_aside: list[SetAside] = []  # what was renamed so as not to write over it
        self._owned = False  # the file on disk is ours to write over (written by us, or adopted)
        self._cond = threading.Condition()
        self._pending: str | None = None
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.writes = 0  # successful writes, for tests and diagnostics

    def adopt(self) -> None:
        """The game on disk is the one this app goes on with (it was resumed): write over it."""
        with self._cond:
            self._owned = True

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

    def _before_writing_over(self) -> None:
        """The first time: clear temporaries of killed writers, keep an unfinished game we did not write."""
        with self._cond:
            if self._owned:
                return
        remove_stale_temps(self.path.parent)
        aside = keep_unfinished_autosave(self.path)  # OSError: nothing is written, the file stays
        with self._cond:
            self._owned = True
        if aside is not None:
            self.set_aside.append(aside)
            if self.on_set_aside is not None:
                try:
                    self.on_set_aside(aside)
                except Exception:
                    pass

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:  # closed, nothing left to write
                    return
                text, self._pending, self._busy = self._pending, None, True
            error: OSError | None = None
            try:
                self._before_writing_over()
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
    try:
        saved, final = load_game(path)
    except StorageError:
        return None
    if saved.result != "*" or final.outcome() is not None:
        return None
    return saved, final
