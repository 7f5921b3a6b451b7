"""The app in a real pseudo-terminal, ended by SIGTERM, SIGHUP (the terminal closed) or SIGKILL at the
picker, while an external bot thinks or while the AI searches: afterwards nothing it started is running
(checked by pid: the bot and what it started, the AI worker, multiprocessing's resource tracker), the
exit status says which signal it was, and the autosave holds the game.  The app's fallback exit is put
beyond the tests' patience (TERMARENA_EXIT_FALLBACK_S): only its ordinary way out ends it in time.
How long that takes is measured by `python -m tests.tui.exit_times`, not asserted here."""
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
from tests.helpers.terminal import TerminalApp, _ai_worker_started
from engines.referee.guard import descendants
from tests.helpers.paths import ESCAPING_BOT, ROOT
from tests.helpers.processes import alive, assert_all_end, bot_pids, wait_for

PY = sys.executable
pytestmark = pytest.mark.slow  # a real app on a terminal per test, its AI worker or bot, and a signal


def _end(app: TerminalApp, how: str) -> int:
    """End the app as `how` says; returns its exit status."""
    if how == "hangup":
        app.hang_up()
    else:
        os.kill(app.pid, getattr(signal, how))
    status = app.wait()
    assert status is not None, "the app did not end"
    return os.waitstatus_to_exitcode(status)


EXIT_STATUS = {"SIGTERM": 128 + signal.SIGTERM, "hangup": 128 + signal.SIGHUP, "SIGKILL": -signal.SIGKILL}


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
        assert _end(app, how) == EXIT_STATUS[how]
        assert_all_end(pids + started)
    finally:
        app.kill()


@pytest.mark.parametrize("how", ["SIGTERM", "hangup"])
def test_an_app_at_rest_at_the_picker_ends_with_the_signals_status_and_gives_the_terminal_back(tmp_path, how):
    app = TerminalApp([], tmp_path)
    try:
        wait_for(lambda: b"Pick one" in app.screen)
        assert _end(app, how) == EXIT_STATUS[how]
        if how == "SIGTERM":  # Textual's own way out, which leaves the alternate screen
            assert b"\x1b[?1049l" in app.screen
    finally:
        app.kill()


@pytest.mark.parametrize("how", ENDINGS)
def test_an_app_ended_during_an_ai_search_leaves_no_worker_and_its_game_autosaved(tmp_path, how):
    # Level 1 moves at once (autosaved), then Lines of Action level 6 searches as long as it is allowed:
    # a minute here
    app = TerminalApp(["play", "loa", "--p1", "ai:1", "--p2", "ai:6", "--think-ms", "60000"], tmp_path)
    autosave = tmp_path / "autosave.txt"
    try:
        wait_for(autosave.exists)
        started = _ai_worker_started(app.pid)
        time.sleep(1.0)  # past the pause between moves, into level 6's search
        assert all(alive(p) for p in started)
        assert _end(app, how) == EXIT_STATUS[how]
        assert_all_end(started)
        saved, _ = load_game(autosave)
        assert len(saved.moves) == 1 and saved.players == ("ai:1", "ai:6") and saved.result == "*"
    finally:
        app.kill()
