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
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Callable, Iterable, TypeVar

from engines.referee.process import end_all_bots

T = TypeVar("T")
R = TypeVar("R")
Runner = Callable[[Callable[[T], R], Iterable[T], int, Callable[[R], object]], None]


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
    would serialise.  `play` must be picklable (a module-level function or class)."""
    if jobs <= 1:
        return in_order(play, items, jobs, on_result)
    with mp.get_context("fork").Pool(jobs) as pool:
        for result in pool.imap_unordered(play, items):
            if on_result(result):
                return
