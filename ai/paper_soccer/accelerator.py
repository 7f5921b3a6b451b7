"""Whether the compiled tree search (`compiled.py`, the `fast` extra) is there, loaded in the background.

Importing numba and loading the compiled functions from numba's disk cache takes about half a second
(0.45 s at load 2, of which importing numba 0.21 s), and compiling them (the first run after an install)
about half a minute: longer than a turn, even the first one at CodinGame's limits (1,000 ms).  So the
loading runs in a thread: a bot starts it before its first input (`Searcher.get_ready`), and a search the
clock binds waits for it (`await_loaded`) unless numba turns out to be compiling; otherwise, or meanwhile,
the search goes on with the pure-Python tree.  Both give the same answer at a given node budget, so only
the speed changes.  (Before the bot waited, a level-6 bot process searched its first 6-24 turns in
Python, at a tenth of the nodes, and used the compiled tree only 0.9-2.1 s after it started.  Waiting 40% of
each turn, it still searched its first four to six turns in Python against an opponent that answers in a
few milliseconds, at 400-1,000 nodes: the loading holds the interpreter's lock, so a search beside it gets
a tenth of its usual rate.  Level 6 now plays its first turn from `first_turns` and gives that turn, the
longest, to the loading: against such an opponent, 23 games of 40 then had no turn searched in Python.)

`prepare` loads it in the foreground, compiling what numba's cache lacks, and reports its progress:
`termarena prepare`, and the app at its start in a process of its own (ai/compile_ahead.py), do that
ahead of the first game.  Meanwhile the app's AI worker is put on `hold`: it searches in Python and does
not compile the same functions a second time; it loads the cached tree (about a second) once released.
The best-first search (`compiled_best_first`, level 6's) loads with the tree when a searcher
asks for it before the loading starts (`want_best_first`), and in `prepare`: otherwise its first search
would compile it, or load it from the cache, within a turn.
"""
from __future__ import annotations

import os
import threading
import time
from types import ModuleType
from typing import Callable

from ai.compile_ahead import Progress

_lock = threading.Lock()
_thread: threading.Thread | None = None
_module: ModuleType | None = None
_failed = False
_seen: ModuleType | None = None  # the compiled module once imported, while its functions load or compile
_held = False
_best_first = False  # load compiled_best_first with the tree
_seen_best_first: ModuleType | None = None
error = ""  # why the compiled tree could not be loaded (shown by `termarena bench`)


def pure_python_wanted() -> bool:
    """TERMARENA_PURE_PYTHON=1: searches that may choose (`fast=None`) keep to the pure-Python tree."""
    return os.environ.get("TERMARENA_PURE_PYTHON") == "1"


def _load() -> None:
    global _module, _failed, _seen, _seen_best_first, error
    try:
        from ai.paper_soccer import compiled
        _seen = compiled
        if _best_first:  # seen before either compiles: the progress' total is known from the start
            from ai.paper_soccer import compiled_best_first
            _seen_best_first = compiled_best_first
        compiled.warm_up()
        if _seen_best_first is not None:
            _seen_best_first.warm_up()
    except ImportError:
        error = "numba is not installed: pip install 'termarena[fast]'"
        _failed = True
        return
    except Exception as e:  # a numba or LLVM failure must not take the search down: it goes on in Python
        error = f"the compiled search failed to load: {type(e).__name__}: {e}"
        _failed = True
        return
    _module = compiled


def want_best_first() -> None:
    """Load the best-first search with the tree (a searcher that will search best-first, before the
    loading starts)."""
    global _best_first
    _best_first = True


def hold(held: bool) -> None:
    """While held, a search that may choose does not start the loading (another process is compiling
    the tree: the cache will have it); `wait` loads regardless."""
    global _held
    _held = held


def compiled_tree(wait: bool = False) -> ModuleType | None:
    """The compiled tree module once loaded, else None (not installed, or still loading when not
    `wait`, or on `hold`); the first call starts the loading."""
    global _thread
    if _module is not None or _failed:
        return _module
    if _held and not wait and _thread is None:
        return None
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_load, name="paper-soccer-compile", daemon=True)
            _thread.start()
    if wait:
        _thread.join()
    return _module


def await_loaded(until: float) -> ModuleType | None:
    """Wait for the loading under way until `until` (time.monotonic()), but not while numba compiles (its
    cache lacked a function: half a minute); the module once loaded, else None."""
    thread = _thread
    while thread is not None and thread.is_alive() and not compiling():
        left = until - time.monotonic()
        if left <= 0:
            break
        thread.join(min(left, 0.005))
    return _module


def compiling() -> bool:
    """Whether the loading has met a function numba's cache lacks (it is compiling it)."""
    return _compiled_any(_functions())


def loading() -> bool:
    """Whether the loading thread is at work (it takes about half of the interpreter meanwhile)."""
    return _thread is not None and _thread.is_alive()


def progress() -> Progress:
    """The loading's progress now (call `compiled_tree` first to start it)."""
    functions = _functions()
    if _failed or _module is not None:
        return Progress(len(functions), len(functions), _compiled_any(functions), True, error)
    if _seen is None:
        return Progress()
    return Progress(sum(1 for f in functions if f.overloads), len(functions), _compiled_any(functions))


def _functions() -> list:
    """The compiled functions of the modules the loading has met so far."""
    return [f for module in (_seen, _seen_best_first) if module is not None for f in module.functions()]


def _compiled_any(functions) -> bool:
    return any(sum(f.stats.cache_misses.values()) for f in functions)


def prepare(on_progress: Callable[[Progress], None] | None = None, every_s: float = 0.25) -> Progress:
    """Load the compiled tree now, the best-first search with it, compiling what numba's cache lacks;
    `on_progress` hears each change."""
    hold(False)
    want_best_first()
    compiled_tree()
    last = None
    while True:
        now = progress()
        if now != last and on_progress is not None:
            on_progress(now)
        last = now
        if now.finished:
            return now
        time.sleep(every_s)
