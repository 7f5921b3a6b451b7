"""Running many games at once: the one contract every way of playing them follows.

A runner is called as `runner(play, items, jobs, on_result)`: `play(item)` for every item, at most `jobs`
at a time, and `on_result(result)` in the calling thread as each finishes; `on_result` returning True
stops the lot (no new game starts).  `in_threads` runs games on this machine's threads (each refereed
game's bots are processes of their own); `in_processes` runs in-process players on forked processes;
`in_order` plays one game after the other in this thread; tui.core.cluster.RayCluster.play runs them as
Ray tasks.
"""
from __future__ import annotations

import multiprocessing as mp
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, wait
from typing import Callable, Iterable, TypeVar

from engines.referee.process import end_all_bots

T = TypeVar("T")
R = TypeVar("R")
Runner = Callable[[Callable[[T], R], Iterable[T], int, Callable[[R], object]], None]
WAKE_S = 0.25  # how often in_processes' waiting thread wakes to run a signal's handler


def in_order(play: Callable[[T], R], items: Iterable[T], jobs: int, on_result: Callable[[R], object]) -> None:
    """One game after the other, here (`jobs` is ignored): what a game prints comes in order."""
    for item in items:
        if on_result(play(item)):
            return


def in_threads(play: Callable[[T], R], items: Iterable[T], jobs: int, on_result: Callable[[R], object]) -> None:
    """Ctrl-C or a signal, even while `on_result` runs, ends the games under way at once (their bots are
    ended) and starts no new one.  After a stop by `on_result`, the games under way are played out and
    their results dropped."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        pending = {pool.submit(play, item) for item in items}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    if on_result(fut.result()):
                        for other in pending:
                            other.cancel()
                        return
        except BaseException as e:
            pool.shutdown(wait=False, cancel_futures=True)  # no new game starts
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                # leaving the pool must not wait for the games under way to be played out
                end_all_bots()
            raise


def in_processes(play: Callable[[T], R], items: Iterable[T], jobs: int,
                 on_result: Callable[[R], object]) -> None:
    """`jobs` forked processes (in this one with 1): for players that search in Python, which threads
    would serialise.  `play` must be picklable (a module-level function or class).  Ctrl-C, a signal or
    a stop by `on_result` kills the workers: a game under way is not played out."""
    if jobs <= 1:
        return in_order(play, items, jobs, on_result)
    # concurrent.futures, not multiprocessing.Pool: Pool.terminate waits for a lock a killed worker may
    # hold, and a worker that ran termarena's SIGTERM handler could hang in its own exit (it was forked
    # while another thread held a lock): termarena stayed, asleep, after a SIGTERM to its whole group
    pool = ProcessPoolExecutor(jobs, mp_context=mp.get_context("fork"), initializer=_worker_signals)
    queue = iter(items)
    try:
        pending = {pool.submit(play, item) for _, item in zip(range(jobs), queue)}
        while pending:
            # a bounded wait: a signal may reach another thread, and this one runs its handler only
            # once it wakes (Ctrl-C waited for the next game's end, or for ever)
            finished, pending = wait(pending, timeout=WAKE_S, return_when=FIRST_COMPLETED)
            for fut in finished:
                if on_result(fut.result()):
                    return
                for item in queue:  # one more game for the worker that is free
                    pending.add(pool.submit(play, item))
                    break
    finally:
        workers = list((pool._processes or {}).values())  # no public way to reach them
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.join()


def _worker_signals() -> None:
    """In a worker: SIGTERM and SIGHUP end it at once, as they would any process (no Python clean-up
    that could wait on a lock), Ctrl-C is its parent's to handle (the parent kills it), and it ends with
    its parent, SIGKILL included (`ai.child.end_with_parent`, as the app's AI worker does)."""
    from ai.child import end_with_parent

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent()
