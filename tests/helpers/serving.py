"""A real `termarena serve` process for the tests, on a free port, its saves in a folder of the test."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, "termarena serve ended at start"
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("termarena serve did not listen")


@contextlib.contextmanager
def served(folder):
    """(the server process, its port); the server and all it started end with the block."""
    port = free_port()
    env = dict(os.environ, TERMARENA_SAVES=str(folder))
    proc = subprocess.Popen([sys.executable, "-m", "tui", "serve", "--port", str(port)], env=env, cwd=folder,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc)
        yield proc, port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
