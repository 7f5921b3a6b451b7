"""A real app on a pseudo-terminal (`python -m tui` on 80x24), for the signal tests and exit_times."""
from __future__ import annotations
import os
import pty
import select
import signal
import sys
import threading
import time
from pathlib import Path
import pytest
from tui.core.storage import load_game
from engines.referee.guard import descendants
from tests.helpers.paths import ESCAPING_BOT, ROOT
from tests.helpers.processes import alive, assert_all_end, bot_pids, wait_for  # noqa: F401

PY = sys.executable


class TerminalApp:
    """`python -m tui ARGS` on a pseudo-terminal of 80x24, its output drained so it never blocks."""

    def __init__(self, args: list[str], saves: Path) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24", TERMARENA_SAVES=str(saves),
                   TERMARENA_EXIT_FALLBACK_S="600")
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(ROOT)
            os.execve(PY, [PY, "-m", "tui", *args], env)
        self.pid, self.fd = pid, fd
        self.screen = bytearray()
        self._closing = threading.Event()
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        # select with a timeout, never a blocking read: a read blocked in this thread would hold the
        # terminal open after hang_up closes it, and a quiet app would never get its SIGHUP
        while not self._closing.is_set():
            try:
                if not select.select([self.fd], [], [], 0.02)[0]:
                    continue
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.screen += chunk[-4096:]

    def hang_up(self) -> None:
        """Close the terminal, as closing a terminal window does: the kernel sends SIGHUP."""
        self._closing.set()
        self._drainer.join()
        os.close(self.fd)

    def wait(self, timeout: float = 15.0) -> int | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return status
            time.sleep(0.05)
        return None

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (OSError, ChildProcessError):
            pass


def _ai_worker_started(app_pid: int) -> list[int]:
    """The app's children once the AI worker (and the resource tracker) are running."""
    def cmdline(pid):
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return b""
    found: list[int] = []

    def ready() -> bool:
        found[:] = descendants(app_pid)
        return any(b"spawn_main" in cmdline(p) for p in found)
    wait_for(ready)
    return found
