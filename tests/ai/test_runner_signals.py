"""ai.tournament.runners.in_processes under signals, with real processes: a SIGTERM to the whole process
group (what a terminal or a service manager sends) ends termarena and every worker it forked, even after
the group was stopped and continued (ctrl+z, then fg), and the command says which signal it was."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def start_selfplay(out):
    command = "import sys; from tui.entry import main; sys.argv[0] = 'termarena'; main()"
    return subprocess.Popen([sys.executable, "-c", command, "selfplay", "ps", "-n", "400", "-j", "2",
                             "--pool", "level:4", "--pool", "level:5", "--out", str(out)],
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def its_workers(proc, out) -> list[int]:
    until = time.monotonic() + 60
    while len(children(proc.pid)) < 2 or not out.exists():  # both workers forked and playing
        assert proc.poll() is None and time.monotonic() < until, "selfplay never started its workers"
        time.sleep(0.1)
    time.sleep(1.0)
    return children(proc.pid)


def gone(workers) -> bool:
    until = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < until:
        time.sleep(0.1)
    return not any(alive(w) for w in workers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_group_sigterm_after_a_stop_ends_selfplay_and_its_forked_workers(tmp_path):
    out = tmp_path / "games.txt"
    proc = start_selfplay(out)
    try:
        workers = its_workers(proc, out)
        os.killpg(proc.pid, signal.SIGSTOP)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGCONT)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=20) == 128 + signal.SIGTERM
        assert gone(workers)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; PR_SET_PDEATHSIG")
def test_the_workers_end_when_selfplay_is_killed_with_sigkill(tmp_path):
    out = tmp_path / "games.txt"
    proc = start_selfplay(out)
    workers = its_workers(proc, out)
    try:
        proc.kill()  # SIGKILL to termarena alone: no handler runs
        proc.wait()
        assert gone(workers)
    finally:
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)
