"""The cyclic garbage collector stays off while a search runs.

The searches make no reference cycles, and a full collection over their tables would only pause
them (tens of ms: a whole CodinGame turn of some games).  Pauses nest: an inner one leaves the
collector as the outer one found it.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
