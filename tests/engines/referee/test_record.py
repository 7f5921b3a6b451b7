"""Recording refereed games with real bot processes: each stderr line goes to the turn during which it
arrived (both bots', the waiting one's too), and a game lost by a timeout, a crash or a rejected output
ends with that turn, its answer (or none), its time and the bot's last words."""
from __future__ import annotations

import sys

import pytest

from engines.base import TimeLimits
from engines.connect4 import Connect4
from engines.referee import run_match
from tests.helpers.paths import FIRST_MOVE_BOT

pytestmark = pytest.mark.slow  # real bot processes

# the bot that tells on stderr what it plays (and misbehaves on a turn when asked)
TELLING_BOT = [sys.executable, str(FIRST_MOVE_BOT)]


def bot(game: str, *misbehave: str) -> list[str]:
    return TELLING_BOT + [game, *misbehave]


def test_stderr_lines_belong_to_the_turn_during_which_they_arrived():
    r = run_match("connect4", [bot("connect4"), bot("connect4")], seed=1, time_limits=False, record=True)
    assert r.record is not None and len(r.record) == r.turns == len(r.moves)
    first, second, third = r.record[:3]
    assert first.stderr[0] == ["hello", "turn 1: playing 0"] and (first.seat, first.output) == (0, "0")
    # the waiting bot's hello is recorded in the turn during which it came (the first, or the second
    # when that bot started slowly), before what it says on its own turn
    assert first.stderr[1] + second.stderr[1] == ["hello", "turn 1: playing 0"] and second.stderr[0] == []
    assert third.stderr == (["turn 2: playing 0"], [])
    for k, t in enumerate(r.record):
        assert (t.turn, t.seat, t.output) == (k + 1, k % 2, r.moves[k]) and t.ms >= 0
        mine = t.stderr[t.seat]
        assert mine[-1] == f"turn {k // 2 + 1}: playing {r.moves[k]}"


def test_without_record_nothing_is_kept():
    r = run_match("connect4", [bot("connect4"), bot("connect4")], seed=1, time_limits=False)
    assert r.record is None and "record" not in r.to_json()


def test_a_timeout_is_recorded_as_the_last_turn_without_an_answer(monkeypatch):
    # 1 s a turn instead of Connect 4's 100 ms: the honest bot answers in time however loaded the machine
    # (a Python start and a reply took over 100 ms under load), and the sleeping one still runs out
    monkeypatch.setattr(Connect4, "limits", TimeLimits(first_ms=1000, turn_ms=1000))
    r = run_match("connect4", [bot("connect4"), bot("connect4", "sleep", "2")], seed=1, record=True)
    assert (r.outcome.reason, r.outcome.winner, r.turns) == ("timeout", 0, 3)
    last = r.record[-1]
    assert (last.turn, last.seat, last.output) == (4, 1, None) and last.ms >= 1000
    assert last.stderr[1] == ["turn 2: about to sleep"]


def test_a_rejected_output_is_recorded_with_what_was_sent():
    r = run_match("connect4", [bot("connect4", "junk", "1"), bot("connect4")], seed=1,
                  time_limits=False, record=True)
    assert (r.outcome.reason, r.turns, len(r.record)) == ("invalid", 0, 1)
    assert r.record[0].output == "hello" and r.record[0].stderr[0][-1] == "turn 1: about to junk"


def test_a_crash_is_recorded_with_the_bots_last_words():
    r = run_match("connect4", [bot("connect4"), bot("connect4", "crash", "3")], seed=1,
                  time_limits=False, record=True)
    assert (r.outcome.reason, r.turns) == ("crash", 5)
    last = r.record[-1]
    assert (last.turn, last.seat, last.output) == (6, 1, None) and last.stderr[1] == ["turn 3: about to crash"]


def test_a_bot_that_floods_stderr_is_recorded_within_bounds():
    flood = [sys.executable, "-c", "import sys\nfor i in range(5000): sys.stderr.write(f'line {i}\\n')\n"
                                   "sys.stderr.flush(); sys.stdin.readline(); print(4, flush=True); sys.stdin.read()"]
    r = run_match("connect4", [flood, bot("connect4", "junk", "1")], seed=1, time_limits=False, record=True)
    kept = r.record[0].stderr[0] + r.record[1].stderr[0]
    assert len(r.record[0].stderr[0]) <= 100 and kept[0] == "line 0" and kept[-1] == "line 4999"
    assert any("lines of stderr not kept" in line for line in kept)
