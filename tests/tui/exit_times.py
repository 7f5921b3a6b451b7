"""Measure how long the app takes to end after SIGTERM or a closed terminal, in a real pseudo-terminal.

Not a test (no wall-clock windows in tests): run `python -m tests.tui.exit_times [ROUNDS]` from the
repository and read the figures.  Each case starts `python -m tui` on a pty of 80x24, waits until it is
at rest (the picker drawn) or mid-search (the AI worker started, a move autosaved, then 1 s into the
search), ends it, and prints the seconds from the signal to the process's end, its exit status and
whether the autosave is there and loads.
"""
from __future__ import annotations

import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.helpers.terminal import TerminalApp, _ai_worker_started, wait_for

PICKER: list[str] = []
# Level 1 moves at once (the autosave holds its move), then level 6 searches for a minute
SEARCH = ["play", "loa", "--p1", "ai:1", "--p2", "ai:6", "--think-ms", "60000"]


def _at_rest(app: TerminalApp, saves: Path) -> None:
    wait_for(lambda: b"Pick one" in app.screen)
    time.sleep(1.0)


def _mid_search(app: TerminalApp, saves: Path) -> None:
    _ai_worker_started(app.pid)
    wait_for(lambda: (saves / "autosave.txt").exists())
    time.sleep(1.0)


def _autosave_state(saves: Path) -> str:
    from tui.core.storage import StorageError, load_game

    path = saves / "autosave.txt"
    if not path.exists():
        return "none"
    try:
        saved, _ = load_game(path)
    except StorageError as e:
        return f"broken ({e})"
    return f"loads ({len(saved.moves)} moves)"


def measure(args: list[str], ready, how: str) -> tuple[float, int | None, str]:
    with tempfile.TemporaryDirectory() as folder:
        saves = Path(folder)
        app = TerminalApp(args, saves)
        try:
            ready(app, saves)
            began = time.monotonic()
            if how == "hangup":
                app.hang_up()
            else:
                os.kill(app.pid, signal.SIGTERM)
            status = app.wait(30.0)
            took = time.monotonic() - began
            code = None if status is None else os.waitstatus_to_exitcode(status)
            return took, code, _autosave_state(saves)
        finally:
            app.kill()


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cases = [("picker", PICKER, _at_rest), ("mid-search", SEARCH, _mid_search)]
    for name, args, ready in cases:
        for how in ("SIGTERM", "hangup"):
            runs = [measure(args, ready, how) for _ in range(rounds)]
            times = [t for t, _, _ in runs]
            print(f"{name:10} {how:7}  median {statistics.median(times):.2f} s  max {max(times):.2f} s  "
                  f"exit {sorted({c for _, c, _ in runs}, key=str)}  autosave {sorted({a for _, _, a in runs})}",
                  flush=True)


if __name__ == "__main__":
    main()
