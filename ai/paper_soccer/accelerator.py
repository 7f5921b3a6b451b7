"""Whether the compiled tree search (`compiled.py`, the `fast` extra) is there, loaded in the background.

Importing numba and loading the compiled functions from numba's disk cache takes about a second,
and compiling them (the first run after an install) about a minute: longer than a turn, even the
first one at CodinGame's limits (1,000 ms).  So the first search of a process starts the loading in
a thread and goes on with the pure-Python tree; each later search uses the compiled one once it is
ready.  Both give the same answer at a given node budget, so only the speed changes.
"""
from __future__ import annotations

import os
import threading
from types import ModuleType

_lock = threading.Lock()
_thread: threading.Thread | None = None
_module: ModuleType | None = None
_failed = False
error = ""  # why the compiled tree could not be loaded (shown by `termarena bench`)


def pure_python_wanted() -> bool:
    """TERMARENA_PURE_PYTHON=1: searches that may choose (`fast=None`) keep to the pure-Python tree."""
    return os.environ.get("TERMARENA_PURE_PYTHON") == "1"


def _load() -> None:
    global _module, _failed, error
    try:
        from ai.paper_soccer import compiled
        compiled.warm_up()
    except ImportError:
        error = "numba is not installed: pip install 'termarena[fast]'"
        _failed = True
        return
    except Exception as e:  # a numba or LLVM failure must not take the search down: it goes on in Python
        error = f"the compiled search failed to load: {type(e).__name__}: {e}"
        _failed = True
        return
    _module = compiled


def compiled_tree(wait: bool = False) -> ModuleType | None:
    """The compiled tree module once loaded, else None (not installed, or still loading when not
    `wait`); the first call starts the loading."""
    global _thread
    if _module is not None or _failed:
        return _module
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_load, name="paper-soccer-compile", daemon=True)
            _thread.start()
    if wait:
        _thread.join()
    return _module


def loading() -> bool:
    """Whether the loading thread is at work (it takes about half of the interpreter meanwhile)."""
    return _thread is not None and _thread.is_alive()
