"""BotProcess: a bot that misbehaves is reported with a reason and leaves no process behind."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from engines.referee.process import BotCrashed, BotFlooded, BotProcess, BotTimeout
from tests.helpers.clock import TickingClock

PY = sys.executable


def bot(code: str) -> list[str]:
    return [PY, "-c", code]


@pytest.mark.slow  # a real bot process
def test_answers_one_line_per_turn_and_keeps_extra_lines_for_later():
    with BotProcess(bot("import sys\nfor l in sys.stdin: print(l.strip()[::-1], flush=True); print('x', flush=True)")) as b:
        assert b.ask(["abc"], 5).line == "cba"
        # the extra line printed on turn 1 is what the referee reads on turn 2, as CodinGame does
        assert b.ask(["def"], 5).line == "x"


@pytest.mark.slow  # a real bot process
def test_carriage_return_is_kept_in_the_answer():
    with BotProcess(bot("import sys\nsys.stdin.readline(); sys.stdout.write('4\\r\\n'); sys.stdout.flush()")) as b:
        assert b.ask(["go"], 5).line == "4\r"


@pytest.mark.slow  # a real bot process
def test_a_silent_bot_times_out_at_the_limit(monkeypatch):
    # The clock moves only by the waits the referee asks its selector for (each one reported as a
    # wait that timed out): the referee must wait for the whole limit, and no longer.
    clock = TickingClock(0.0)
    waits: list[float] = []

    def select(timeout=None):
        waits.append(timeout)
        clock.now += timeout
        return []

    with BotProcess(bot("import time; time.sleep(30)")) as b:
        with monkeypatch.context() as m:
            m.setattr(b._sel, "select", select)
            m.setattr(time, "monotonic", clock)
            with pytest.raises(BotTimeout) as e:
                b.ask(["go"], 0.2)
        assert waits and all(w > 0 for w in waits) and sum(waits) == pytest.approx(0.2)
        assert "200 ms" in str(e.value) and b.alive


@pytest.mark.slow  # a real bot process and a thread
def test_a_wait_without_a_limit_ends_when_another_thread_closes_the_bot():
    """The app's worker waits for a bot with no time limit while the app quits.  Closing can take the bot's
    output out of the wait's descriptor set before the wait saw it end (as happened under load): the wait
    must end anyway, with the bot crashed, not keep the app's thread pool from ever joining."""
    with BotProcess(bot("import time; time.sleep(30)")) as b:
        waiting, outcome = threading.Event(), []
        real_select = b._sel.select

        def select(timeout=None):
            waiting.set()
            return real_select(timeout)

        b._sel.select = select

        def wait_for_the_answer():
            try:
                outcome.append(b.ask(["go"], None))
            except BotCrashed as e:
                outcome.append(e)

        reader = threading.Thread(target=wait_for_the_answer, daemon=True)
        reader.start()
        assert waiting.wait(10)
        b._sel.unregister(b.proc.stdout)  # the race's outcome: the wait can no longer see the output end
        b.close()
        reader.join(10)  # a bound on a hang, not a timing
        assert not reader.is_alive(), "the wait never ended"
        assert len(outcome) == 1 and isinstance(outcome[0], BotCrashed)


@pytest.mark.slow  # a real bot process
def test_an_answer_after_the_limit_is_a_timeout():
    with BotProcess(bot("import sys, time\nsys.stdin.readline(); time.sleep(0.4); print(1, flush=True)")) as b:
        with pytest.raises(BotTimeout):
            b.ask(["go"], 0.1)


@pytest.mark.slow  # a real bot process
def test_a_crashing_bot_is_reported_with_its_exit_status_and_last_words():
    with BotProcess(bot("import sys\nsys.stdin.readline()\nsys.stderr.write('boom here\\n'); sys.exit(3)")) as b:
        with pytest.raises(BotCrashed) as e:
            b.ask(["go"], 5)
        assert "status 3" in str(e.value)
        assert "boom here" in str(e.value)


@pytest.mark.slow  # a real bot process
def test_a_bot_that_closes_stdout_is_a_crash():
    with BotProcess(bot("import os, time\nos.close(1); time.sleep(5)")) as b:
        with pytest.raises(BotCrashed):
            b.ask(["go"], 5)


def test_a_missing_program_is_a_crash_not_a_traceback():
    with pytest.raises(BotCrashed) as e:
        BotProcess(["/nonexistent/bot-program"])
    assert "cannot start" in str(e.value)


def test_an_unbalanced_quote_in_the_command_is_reported():
    with pytest.raises(BotCrashed):
        BotProcess("python3 'unbalanced")


@pytest.mark.slow  # a real bot process
def test_a_flood_without_newline_is_cut_off():
    with BotProcess(bot("import sys\nsys.stdin.readline()\nwhile True: sys.stdout.write('x'*65536)")) as b:
        with pytest.raises(BotFlooded):
            b.ask(["go"], 10)


@pytest.mark.slow  # a real bot process
def test_a_bot_that_floods_stderr_does_not_block():
    code = "import sys\nsys.stderr.write('e'*5_000_000 + '\\n')\nsys.stdin.readline(); print(7, flush=True)"
    with BotProcess(bot(code)) as b:
        assert b.ask(["go"], 10).line == "7"


@pytest.mark.slow  # a real bot process, its children and a signal
def test_close_kills_the_bot_and_its_children():
    code = ("import subprocess, sys, time\n"
            "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            "print(p.pid, flush=True); time.sleep(60)")
    b = BotProcess(bot(code))
    child = int(b.read_line(10).line)
    b.close()
    assert not b.alive
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a zombie child of a dead parent is reaped by init; check it is not running any more
        try:
            with open(f"/proc/{child}/stat") as f:
                if f.read().split()[2] == "Z":
                    break
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        os.kill(child, signal.SIGKILL)
        pytest.fail("the bot's child process survived close()")


@pytest.mark.slow  # a real bot process
def test_stderr_lines_reach_the_callback():
    seen = []
    with BotProcess(bot("import sys\nsys.stderr.write('hello\\nworld\\n'); sys.stderr.flush()\nsys.stdin.readline(); print(1, flush=True)"),
                    on_stderr=seen.append) as b:
        b.ask(["go"], 5)
        time.sleep(0.1)
    assert seen[:2] == ["hello", "world"]


@pytest.mark.slow  # a real bot process
def test_a_bot_closed_before_its_stderr_thread_runs_ends_that_thread_quietly(monkeypatch):
    # A signal that ends termarena just after a bot started can close the bot before the thread that
    # reads its stderr first runs; that thread then ended with a traceback on the user's terminal.
    failures = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    started = []
    with monkeypatch.context() as held_back:
        held_back.setattr(threading.Thread, "start", lambda thread: started.append(thread))
        b = BotProcess(bot("import sys\nsys.stderr.write('last words\\n'); sys.stdin.read()"))
        b.close()
    (drain,) = started
    drain.start()
    drain.join(10)
    assert not drain.is_alive() and failures == []
