"""What a child process the app starts with multiprocessing needs (the AI worker, the compile-ahead):
starting it while Textual has captured stdout and stderr, and ending it with its parent."""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import sys
import threading


def end_with_parent() -> None:
    """In the child: exit the moment the parent process ends (its sentinel becomes ready)."""
    parent = mp.parent_process()
    if parent is None:
        return

    def watch() -> None:
        from multiprocessing.connection import wait

        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="termarena-ai-parent-watch", daemon=True).start()


@contextlib.contextmanager
def real_std_streams():
    """Starting a process passes `sys.stdout/stderr.fileno()` to the child; an app that captures them
    (Textual does) leaves objects whose fileno is -1, and the start fails with "bad value(s) in
    fds_to_keep".  Put the real streams back while the process starts (and multiprocessing's resource
    tracker, which a spawn starts too: it ends when the worker and this process have both ended)."""
    saved = sys.stdout, sys.stderr
    for name in ("stdout", "stderr"):
        stream, real = getattr(sys, name), getattr(sys, f"__{name}__")
        try:
            ok = stream.fileno() >= 0
        except Exception:
            ok = False
        if not ok and real is not None:
            setattr(sys, name, real)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
