"""Every process termarena starts ends when its owner ends, whatever ended the owner (SIGKILL included).

Real processes and signals: a bot that escapes its process group (setsid) and one that double-forks
(tests/engines/referee/bots/escaping_bot.py writes their pids), hosted by BotProcess, `termarena
referee` and `termarena match`; afterwards every pid is checked by /proc (a zombie counts as ended).
The app's part (a real pseudo-terminal) is in tests/tui/test_signals.py.
"""
from __future__ import annotations

import signal
import time

import pytest

from engines.referee.guard import descendants  # the kernel's children lists, walked down
from engines.referee.process import BotProcess
from tests.helpers.paths import ESCAPING_BOT, PY
from tests.helpers.processes import alive, assert_all_end, bot_pids, escaping_command, start_termarena, wait_for

pytestmark = pytest.mark.slow  # real processes and signals


def test_closing_a_bot_ends_its_setsid_child_and_double_forked_grandchild(tmp_path):
    bot = BotProcess([PY, str(ESCAPING_BOT), str(tmp_path)])
    pids = bot_pids(tmp_path, 1)
    assert len(pids) == 3 and all(alive(p) for p in pids)
    guard = bot.proc.pid
    bot.close()
    assert_all_end(pids + [guard])


def test_a_bot_that_exits_leaves_none_of_its_children(tmp_path):
    """The bot itself ends (crash, exit): what it started ends with it, not at the end of the match."""
    code = (f"import os, subprocess, sys; p = subprocess.Popen([{PY!r}, {str(ESCAPING_BOT)!r}, {str(tmp_path)!r}]);"
            f"import time\nwhile not any(f.endswith('.pids') for f in os.listdir({str(tmp_path)!r})): time.sleep(0.02)\n"
            "sys.exit(3)")
    bot = BotProcess([PY, "-c", code])
    pids = bot_pids(tmp_path, 1)
    wait_for(lambda: bot.proc.poll() is not None)
    assert bot.proc.returncode == 3  # the guard passes the bot's own exit status on
    assert_all_end(pids)
    bot.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name)
def test_referee_ended_by_a_signal_leaves_no_bot(tmp_path, sig):
    ref = start_termarena(["referee", "c4", "--p1", escaping_command(tmp_path), "--p2", escaping_command(tmp_path),
                  "--no-time-limit"])
    try:
        pids = bot_pids(tmp_path, 2) + descendants(ref.pid)
        ref.send_signal(sig)
        status = ref.wait(timeout=15)
        if sig != signal.SIGKILL:
            assert status == 128 + sig and b"Traceback" not in ref.stderr.read()
        assert_all_end(pids)
    finally:
        ref.kill()
        ref.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name)
def test_match_ended_by_a_signal_leaves_no_bot(tmp_path, sig):
    match = start_termarena(["match", "c4", escaping_command(tmp_path), escaping_command(tmp_path), "-n", "4", "-j", "2",
                    "--no-time-limit"])
    try:
        pids = bot_pids(tmp_path, 4) + descendants(match.pid)  # two games at once, two bots each
        match.send_signal(sig)
        status = match.wait(timeout=15)
        if sig != signal.SIGKILL:
            assert status == 128 + sig and b"Traceback" not in match.stderr.read()
        assert_all_end(pids)
        time.sleep(0.5)
        assert len(list(tmp_path.glob("*.pids"))) == 4  # no new game was started after the signal
    finally:
        match.kill()
        match.wait()


def test_a_slow_stderr_display_never_slows_the_bots_answer():
    """`referee -v` shows stderr as it comes; a bot printing 20 MB there must still answer in time."""
    shown: list[str] = []

    def slow_display(line: str) -> None:
        time.sleep(0.01)
        shown.append(line)

    flood = ("import sys\nline = 'x' * 99 + '\\n'\nsys.stdin.readline()\n"
             "for _ in range(200_000): sys.stderr.write(line)\nprint(4, flush=True)")
    with BotProcess([PY, "-c", flood], on_stderr=slow_display) as bot:
        answer = bot.ask(["go"], 30)  # generous: a loaded machine takes seconds to pipe 20 MB
        assert answer.line == "4"
    assert len(bot.stderr_tail(500)) == 500 and len(shown) < 200_000  # the display kept up with a few
