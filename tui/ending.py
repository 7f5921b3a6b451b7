"""How the app's process ends on a signal when something holds it up, and the terminal it draws on.

SIGTERM and SIGHUP end the app through `TermArenaApp.shutdown` (tui/app.py).  Two things here keep that
way out short: a fallback that ends the process a few seconds later whatever hangs (a daemon thread,
so that it never holds the exit up itself: a plain `threading.Timer` is waited for by the interpreter
on its way out, which made every exit take its whole delay), and `Terminal`, which says whether the
terminal has hung up (then nothing is left to restore, and writing to it can only block).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

FALLBACK_EXIT_S = 3.0  # after a signal, the process ends by then even if something hangs
FALLBACK_ENV = "TERMARENA_EXIT_FALLBACK_S"


def fallback_exit_s() -> float:
    """FALLBACK_EXIT_S, or $TERMARENA_EXIT_FALLBACK_S: the tests put it beyond their patience, so that
    only the ordinary way out can end the app in time for them."""
    try:
        seconds = float(os.environ.get(FALLBACK_ENV, FALLBACK_EXIT_S))
    except ValueError:
        return FALLBACK_EXIT_S
    return seconds if 0 < seconds < 86_400 else FALLBACK_EXIT_S


def exit_later(status: int) -> None:
    """End the process with `status` after fallback_exit_s(), unless it has ended by then."""
    def wait_then_exit() -> None:
        time.sleep(fallback_exit_s())
        os._exit(status)

    threading.Thread(target=wait_then_exit, name="termarena-exit-fallback", daemon=True).start()


class Terminal:
    """The terminal Textual's Linux driver draws on (stderr): whether it has hung up since."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    @classmethod
    def of_the_app(cls) -> "Terminal | None":
        """None when the app draws on no terminal (served to a browser, output redirected)."""
        try:
            fd = sys.__stderr__.fileno()
        except (AttributeError, OSError, ValueError):
            return None
        return cls(fd) if os.isatty(fd) else None

    def gone(self) -> bool:
        return not os.isatty(self.fd)  # a hung-up terminal answers EIO, so it is no tty any more

    def resume_only_while_here(self) -> None:
        """Textual answers SIGCONT by starting its terminal mode again (after a suspend).  A terminal that
        hangs up sends SIGCONT with its SIGHUP, before the app's SIGHUP handler runs, and Textual's writer
        thread dies on the first write to it: its queue then fills and the app blocks for good.  So
        SIGCONT reaches Textual only while the terminal is here.  Call from the main thread."""
        resume = signal.getsignal(signal.SIGCONT)
        if not callable(resume):
            return  # not Textual's Linux driver: nothing to guard

        def on_continue(signum, frame) -> None:
            if not self.gone():
                resume(signum, frame)

        try:
            signal.signal(signal.SIGCONT, on_continue)
        except ValueError:  # not the main thread
            pass
