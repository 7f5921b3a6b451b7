"""The server's one database writer: a thread that commits what the event loop asks, many jobs at a time.

A commit with synchronous=FULL waits for the disk (an fsync, milliseconds); done on the event loop it
stopped every connection for each move.  Here the loop hands a job (a function of the connection) to the
thread and awaits its future; the thread takes every job waiting, runs each in its own savepoint (a
failing job does not undo the others), commits them together (one fsync for the lot: group commit) and
only then resolves their futures.  So a move is still on disk before anyone hears of it, and the more
moves arrive at once, the fewer fsyncs each costs.
"""
from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")
MAX_BATCH = 1024  # jobs in one transaction: a bound on how long the first of them waits

_Job = tuple[Callable[[sqlite3.Connection], object], asyncio.AbstractEventLoop, asyncio.Future]


class Writer:
    def __init__(self, path: Path) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._opened = threading.Event()
        self._error: sqlite3.Error | None = None
        self.commits = 0  # transactions committed (the load generator shows jobs per commit)
        self._thread = threading.Thread(target=self._run, args=(path,), name="termarena-db-writer", daemon=True)
        self._thread.start()
        self._opened.wait()
        if self._error is not None:
            raise self._error

    def submit(self, job: Callable[[sqlite3.Connection], T]) -> "asyncio.Future[T]":
        """Run `job(connection)` in the next transaction; the future is resolved once it is committed
        (with the job's result), or with the error that kept it from being committed."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if not self._thread.is_alive():
            future.set_exception(sqlite3.OperationalError("the database writer has stopped"))
        else:
            self._jobs.put((job, loop, future))
        return future

    def close(self) -> None:
        """Commit what is queued, then stop (the jobs queued after this fail)."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()

    # ------------------------------------------------------------------ the thread

    def _run(self, path: Path) -> None:
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.Error as e:
            self._error = e
            self._opened.set()
            return
        self._opened.set()
        try:
            stop = False
            while not stop:
                first = self._jobs.get()
                if first is None:
                    break
                batch = [first]
                while len(batch) < MAX_BATCH:
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is None:
                        stop = True
                        break
                    batch.append(job)
                self._commit(db, batch)
        finally:
            db.close()

    def _commit(self, db: sqlite3.Connection, batch: list[_Job]) -> None:
        outcomes: list[tuple[bool, object]] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for job, _, _ in batch:
                db.execute("SAVEPOINT job")
                try:
                    outcomes.append((True, job(db)))
                    db.execute("RELEASE job")
                except Exception as e:  # this job's error is its caller's; the others go on
                    db.execute("ROLLBACK TO job")
                    db.execute("RELEASE job")
                    outcomes.append((False, e))
            db.execute("COMMIT")
            self.commits += 1
        except sqlite3.Error as e:  # nothing of this batch is on disk: every job fails
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            outcomes = [(False, e)] * len(batch)
        for (_, loop, future), outcome in zip(batch, outcomes):
            try:
                loop.call_soon_threadsafe(_resolve, future, outcome)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass


def _resolve(future: asyncio.Future, outcome: tuple[bool, object]) -> None:
    if future.done():  # its waiter was cancelled (the connection went)
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)  # type: ignore[arg-type]
