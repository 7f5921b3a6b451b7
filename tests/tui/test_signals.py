"""The app in a real pseudo-terminal, ended by SIGTERM, SIGHUP (the terminal closed) or SIGKILL while an
external bot thinks or while the AI searches: afterwards nothing it started is running (checked by pid:
the bot and what it started, the AI worker, multiprocessing's resource tracker)."""
from __future__ import annotations

import os
import pty
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from engines.referee.guard import descendants
from tests.helpers.paths import ESCAPING_BOT, ROOT
from tests.helpers.processes import alive, assert_all_end, bot_pids, wait_for

PY = sys.executable
pytestmark = pytest.mark.slow  # a real app on a terminal per test, its AI worker or bot, and a signal


class TerminalApp:
    """`python -m tui ARGS` on a pseudo-terminal of 80x24, its output drained so it never blocks."""

    def __init__(self, args: list[str], saves: Path) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24", TERMARENA_SAVES=str(saves))
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(ROOT)
            os.execve(PY, [PY, "-m", "tui", *args], env)
        self.pid, self.fd = pid, fd
        self.screen = bytearray()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.screen += chunk[-4096:]

    def hang_up(self) -> None:
        """Close the terminal, as closing a terminal window does: the kernel sends SIGHUP."""
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


def _end(app: TerminalApp, how: str) -> None:
    if how == "hangup":
        app.hang_up()
    else:
        os.kill(app.pid, getattr(signal, how))
    assert app.wait() is not None, "the app did not end"


ENDINGS = ["SIGTERM", "hangup", "SIGKILL"]


@pytest.mark.parametrize("how", ENDINGS)
def test_an_app_ended_during_a_bots_turn_leaves_no_bot(tmp_path, how):
    bots = tmp_path / "bots"
    bots.mkdir()
    app = TerminalApp(["play", "c4", "--p1", f"cmd:{PY} {ESCAPING_BOT} {bots}", "--p2", "human",
                       "--no-time-limit"], tmp_path)
    try:
        pids = bot_pids(bots, 1)
        started = descendants(app.pid)
        _end(app, how)
        assert_all_end(pids + started)
    finally:
        app.kill()


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


@pytest.mark.parametrize("how", ENDINGS)
def test_an_app_ended_during_an_ai_search_leaves_no_worker(tmp_path, how):
    # Lines of Action level 6 searches as long as it is allowed: a minute here
    app = TerminalApp(["play", "loa", "--p1", "ai:6", "--p2", "human", "--think-ms", "60000"], tmp_path)
    try:
        started = _ai_worker_started(app.pid)
        time.sleep(0.5)  # into the search
        assert all(alive(p) for p in started)
        _end(app, how)
        assert_all_end(started)
    finally:
        app.kill()
