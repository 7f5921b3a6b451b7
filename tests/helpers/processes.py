"""Real processes in the tests: whether a pid still runs (by /proc), waiting for it to end, and the
escaping bot (tests/engines/referee/bots/escaping_bot.py) that starts processes outside its group."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.paths import ESCAPING_BOT, PY, ROOT


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_for(condition, timeout: float = 20.0) -> None:
    """Poll `condition` until it holds; fail (rather than hang the suite) after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout} s")
        time.sleep(0.05)


def bot_pids(folder: Path, bots: int) -> list[int]:
    """The pids the escaping bots wrote (each: itself, its setsid child, its double-forked grandchild)."""
    wait_for(lambda: len(list(folder.glob("*.pids"))) >= bots)
    return [int(p) for f in folder.glob("*.pids") for p in f.read_text().split()]


def assert_all_end(pids: list[int], timeout: float = 10.0) -> None:
    """Every pid ends within `timeout` s; any left is killed (never left behind) and fails the test."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    assert not left, f"still running: {left}"


def escaping_command(folder: Path) -> str:
    """The player spec of an escaping bot that writes its pids into `folder`."""
    return f"cmd:{PY} {ESCAPING_BOT} {folder}"


def start_termarena(args: list[str]) -> subprocess.Popen:
    """`python -m tui ARGS` from the repository, its stderr kept for the test."""
    return subprocess.Popen([PY, "-m", "tui", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def ended_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    return int(proc.stdout)
