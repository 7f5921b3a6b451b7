"""`termarena bot` as an external referee sees it: read the first turn's input, answer one legal line."""
from __future__ import annotations

import io
import signal
import subprocess
import sys

import pytest

from ai.bot import run_bot
from engines import GAME_IDS, get_game

ENTRY = "tui"  # `python -m tui`: the `termarena` console script
BOT = "ai.bot"  # `python -m ai.bot`: what the referee starts for `ai:N` seats


@pytest.fixture(params=["in-process", pytest.param("process", marks=pytest.mark.slow)])
def run(request, monkeypatch):
    """`run(MODULE, ARGS, stdin)` is `python -m MODULE ARGS` fed `stdin` (text in, text out; bytes in,
    bytes out), as a CompletedProcess.  The inner loop runs the module's very main() in this process
    with its standard streams swapped; the slow set also starts it as a real process."""
    if request.param == "process":
        def in_a_process(module: str, args: list[str], stdin: bytes | str = b"") -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", module, *args], input=stdin, capture_output=True,
                                  text=isinstance(stdin, str), timeout=60)
        return in_a_process

    def in_this_process(module: str, args: list[str], stdin: bytes | str = b"") -> subprocess.CompletedProcess:
        from ai import bot
        from tui import entry

        text = isinstance(stdin, str)
        out, err = io.BytesIO(), io.BytesIO()
        streams = (io.TextIOWrapper(io.BytesIO(stdin.encode() if text else stdin), encoding="utf-8"),
                   io.TextIOWrapper(out, encoding="utf-8", write_through=True),
                   io.TextIOWrapper(err, encoding="utf-8", write_through=True))  # kept: a dropped one closes its buffer
        with monkeypatch.context() as m:
            for name, stream in zip(("stdin", "stdout", "stderr"), streams):
                m.setattr(sys, name, stream)
            m.setattr(sys, "argv", [module, *args])
            m.setattr(signal, "signal", lambda *a: None)  # the entry's handlers are the process's, not the test's
            m.setattr(bot, "process_age_s", lambda: 0.0)  # a process just started, not this long-running one
            try:
                code = bot.main(args) if module == BOT else entry.main()
            except SystemExit as e:
                code = e.code
            sys.stdout.flush()
            sys.stderr.flush()
        code = 0 if code is None else code
        output, errors = out.getvalue(), err.getvalue()
        if text:
            output, errors = output.decode(), errors.decode()
        return subprocess.CompletedProcess([module, *args], code, output, errors)
    return in_this_process


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_bot_answers_the_first_turn_with_a_legal_move(game_id, run):
    game = get_game(game_id).new(7)
    stdin = "".join(line + "\n" for line in game.bot_input(first=True))
    out = run(ENTRY, ["bot", game_id, "--level", "2", "--seed", "1"], stdin)
    assert out.returncode == 0, out.stderr
    answer = out.stdout.splitlines()
    assert len(answer) == 1
    game.parse_output(answer[0])  # raises if the referee would refuse it


def test_a_bad_level_is_refused_with_exit_status_2_and_one_reason(run):
    out = run(ENTRY, ["bot", "c4", "--level", "9"], "")
    assert out.returncode == 2 and "level" in out.stderr


def test_bot_help_describes_the_levels_and_the_time_limits(run):
    out = run(ENTRY, ["bot", "--help"], "")
    assert out.returncode == 0 and "--level" in out.stdout and "time limit" in out.stdout.lower()


# ---------------------------------------------------------------------------- input no referee sends

def first_turn(game_id: str, seed: int = 7) -> list[bytes]:
    return [line.encode() for line in get_game(game_id).new(seed).bot_input(first=True)]


def replaced(lines: list[bytes], n: int, new: bytes) -> bytes:
    """The input with its line `n` (1-based) replaced."""
    out = lines[:n - 1] + [new] + lines[n:]
    return b"".join(line + b"\n" for line in out)


def cut_after(lines: list[bytes], n: int) -> bytes:
    return b"".join(line + b"\n" for line in lines[:n])


def twenty_black_checkers() -> bytes:
    rows = [b".bbbbbb.", b"wbbbbbbw", b"wbb....w", b"w......w", b"w......w", b"w......w", b"w......w", b".bbbbbb."]
    lines = first_turn("lines-of-action")
    return b"".join(line + b"\n" for line in lines[:1] + rows + lines[9:])


# game -> (what, stdin, the input line the error must name); `first_turn` gives the lines of the
# seat's first turn: see tests/engines/test_bot_input_checks.py for their layout.
BAD_INPUTS = {
    "connect4": [
        ("non-number", replaced(first_turn("connect4"), 2, b"abc"), 2),
        ("NUL byte", replaced(first_turn("connect4"), 2, b"0\x00"), 2),
        ("non-UTF-8", replaced(first_turn("connect4"), 3, b"\xff........"), 3),
        ("out-of-range column", replaced(first_turn("connect4"), 20, b"9"), 20),
        ("mid-turn EOF", cut_after(first_turn("connect4"), 5), 6),
        ("floating chip", replaced(first_turn("connect4"), 8, b"....0...."), 8),
    ],
    "lines-of-action": [
        ("non-number", replaced(first_turn("lines-of-action"), 11, b"many"), 11),
        ("NUL byte", replaced(first_turn("lines-of-action"), 1, b"b\x00"), 1),
        ("non-UTF-8", replaced(first_turn("lines-of-action"), 2, b".bbb\xc3bb."), 2),
        ("out-of-range count", replaced(first_turn("lines-of-action"), 11, b"97"), 11),
        ("mid-turn EOF", cut_after(first_turn("lines-of-action"), 10), 11),
        ("20 black checkers", twenty_black_checkers(), 4),
    ],
    "paper-soccer": [
        ("non-number", replaced(first_turn("paper-soccer"), 2, b"x"), 2),
        ("NUL byte", replaced(first_turn("paper-soccer"), 1, b"\x00"), 1),
        ("non-UTF-8", replaced(first_turn("paper-soccer"), 3, b"\x80"), 3),
        ("out-of-range id", replaced(first_turn("paper-soccer"), 1, b"5"), 1),
        ("mid-turn EOF", cut_after(first_turn("paper-soccer"), 2), 3),
        ("illegal opponent move", b"1\n5\n44444\n", 3),
    ],
    "cultist-wars": [
        ("non-number", replaced(first_turn("cultist-wars"), 10, b"fourteen"), 10),
        ("NUL byte", replaced(first_turn("cultist-wars"), 11, b"0 1 10\x00 0 3 0"), 11),
        ("non-UTF-8", replaced(first_turn("cultist-wars"), 4, b"\xfe" * 13), 4),
        ("unit at (50, 50)", replaced(first_turn("cultist-wars"), 11, b"0 1 10 50 50 0"), 11),
        ("mid-turn EOF", cut_after(first_turn("cultist-wars"), 15), 16),
        ("5-character map row", replaced(first_turn("cultist-wars"), 3, b"....x"), 3),
    ],
}


def level_1(game_id: str) -> list[str]:
    return [game_id, "--level", "1", "--seed", "1"]


@pytest.mark.parametrize("game_id, what, stdin, line",
                         [(g, what, stdin, line) for g, cases in BAD_INPUTS.items() for what, stdin, line in cases],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_bad_input_gives_one_line_naming_the_input_line_and_exit_status_1(game_id, what, stdin, line, run):
    out = run(BOT, level_1(game_id), stdin)
    err = out.stderr.decode("utf-8", "replace")
    assert out.returncode == 1, err
    assert out.stdout == b""
    assert len(err.splitlines()) == 1 and err.endswith("\n") and "Traceback" not in err, err
    assert err.startswith(f"termarena bot: input line {line}: "), err
    assert len(err) <= 200


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_input_ending_at_a_turn_boundary_is_a_clean_exit(game_id, run):
    assert run(BOT, level_1(game_id), b"").returncode == 0
    out = run(BOT, level_1(game_id), b"".join(line + b"\n" for line in first_turn(game_id)))
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 1 and out.stderr == b""


def test_lines_are_numbered_from_the_start_of_the_input_across_turns(run):
    # Connect 4, seat 0: its first turn (20 lines), then 5 lines of the next turn and the end.
    game = get_game("connect4").new(7)
    stdin = b"".join(line.encode() + b"\n" for line in game.bot_input(first=True))
    stdin += b"2\n.........\n.........\n.........\n.........\n"
    out = run(BOT, level_1("connect4"), stdin)
    err = out.stderr.decode()
    assert out.returncode == 1 and len(out.stdout.splitlines()) == 1
    assert err == "termarena bot: input line 26: the input ended in the middle of a turn (expected a board row)\n"


def test_a_line_too_long_is_refused_without_reading_it_whole(run):
    out = run(BOT, level_1("paper-soccer"), b"0\n1\n" + b"0" * 2_000_000)
    err = out.stderr.decode()
    assert out.returncode == 1 and err.startswith("termarena bot: input line 3: the line is longer than"), err


@pytest.mark.parametrize("args", [["--think-ms", "0"], ["--think-ms", "-5"], ["--think-ms", "1_000"],
                                  ["--seed", "-1"], ["--seed", str(2**64)], ["--seed", "١"]])
def test_impossible_budgets_and_seeds_are_refused_with_exit_status_2(args, run):
    out = run(BOT, ["c4", *args], "")
    assert out.returncode == 2 and args[0] in out.stderr and "Traceback" not in out.stderr


def test_an_internal_error_is_one_line_and_exit_status_70():
    stdin = io.BytesIO(b"".join(line + b"\n" for line in first_turn("connect4")))
    stdout, stderr = io.StringIO(), io.StringIO()

    def broken(state, deadline):
        raise ZeroDivisionError("a bug\nover two lines")

    assert run_bot("connect4", broken, stdin=stdin, stdout=stdout, stderr=stderr) == 70
    assert stderr.getvalue() == "termarena bot: internal error: ZeroDivisionError: a bug over two lines\n"


def _first_deadline(monkeypatch, delay_s: float) -> tuple[float, float]:
    """run_bot on a pipe whose first turn arrives `delay_s` after the bot starts reading, in a process
    that (pretend) started 5 s ago: (the deadline given to the chooser, when the input arrived)."""
    import os
    import threading
    import time

    from ai import bot as bot_module
    from engines import get_game

    monkeypatch.setattr(bot_module, "process_age_s", lambda: 5.0)
    monkeypatch.setattr(bot_module, "machine_load", lambda: 0.0)  # whatever else this machine runs
    r, w = os.pipe()
    data = "".join(line + "\n" for line in get_game("connect4").new().bot_input(first=True)).encode()
    sent: list[float] = []

    def send() -> None:
        time.sleep(delay_s)
        sent.append(time.monotonic())
        os.write(w, data)
        os.close(w)
    deadlines: list[float] = []

    def choose(state, deadline):
        deadlines.append(deadline)
        return state.legal_moves()[0]
    if delay_s == 0:
        send()
    else:
        threading.Thread(target=send).start()
    with os.fdopen(r, "rb") as stdin:
        bot_module.run_bot("connect4", choose, stdin=stdin, stdout=io.StringIO())
    return deadlines[0], sent[0]


def test_a_first_input_that_comes_late_gets_the_whole_first_turn(monkeypatch):
    """Seat 1 gets its first input only after seat 0's first turn: its clock starts then, not at spawn."""
    deadline, arrived = _first_deadline(monkeypatch, 0.3)
    assert deadline >= arrived + 0.5  # 60% of Connect 4's 1,000 ms first turn, from the arrival


def test_a_first_input_waiting_at_start_counts_the_start_up(monkeypatch):
    deadline, arrived = _first_deadline(monkeypatch, 0)
    assert deadline < arrived  # the process "started" 5 s ago: its start-up ate the turn


class _SlowToRead:
    """A pipe's read end whose every line takes `clock` one second to read (the bot waiting for a core)."""

    def __init__(self, raw, clock) -> None:
        self.raw, self.clock = raw, clock

    def fileno(self) -> int:
        return self.raw.fileno()

    def readline(self, size: int = -1) -> bytes:
        line = self.raw.readline(size)
        self.clock.now += 1.0
        return line


def test_an_input_waiting_after_a_late_answer_counts_from_that_answer_and_gets_less_time(monkeypatch, ticking_clock):
    # Paper Soccer, seat 0: three turns' inputs wait in the pipe and every answer comes seconds late; each
    # next input came at some moment after the last answer.  The first answer's lateness (a process's
    # start-up) is not held against the next turns; the second's is.
    import os
    import time

    from ai import bot as bot_module
    from ai.turn_clock import MIN_SHARE, SHARE

    clock = ticking_clock(0.0)
    monkeypatch.setattr(bot_module, "process_age_s", lambda: 0.0)
    monkeypatch.setattr(bot_module, "machine_load", lambda: 0.0)
    game = get_game("paper-soccer").new()
    data = game.bot_input(first=True)
    for _ in range(2):
        game.push(game.legal_moves()[0])
        game.push(game.legal_moves()[0])
        data += game.bot_input(first=False)
    r, w = os.pipe()
    os.write(w, "".join(line + "\n" for line in data).encode())
    os.close(w)
    seen: list[tuple[float, float]] = []  # (deadline, when the answer was ready)

    def choose(state, deadline):
        clock.now += 2.7
        seen.append((deadline, time.monotonic()))
        return state.legal_moves()[0]
    with os.fdopen(r, "rb") as raw:
        assert bot_module.run_bot("paper-soccer", choose, stdin=_SlowToRead(raw, clock), stdout=io.StringIO()) == 0
    (_, first_answer), (second_deadline, second_answer), (third_deadline, _) = seen
    # from the last answer (not from the line read a second later)
    assert second_deadline == pytest.approx(first_answer + SHARE * 0.2)
    assert third_deadline == pytest.approx(second_answer + MIN_SHARE * 0.2)


def test_the_garbage_collector_stays_off_while_the_bot_plays():
    import gc

    states = []

    def choose(state, deadline):
        states.append(gc.isenabled())
        return state.legal_moves()[0]
    stdin = io.BytesIO(b"".join(line.encode() + b"\n" for line in get_game("connect4").new().bot_input(first=True)))
    assert gc.isenabled()
    run_bot("connect4", choose, stdin=stdin, stdout=io.StringIO())
    assert states == [False] and gc.isenabled()
