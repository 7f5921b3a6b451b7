"""The referee loop with real processes: misbehaving bots lose cleanly, whole official games replay exactly."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from engines import GAME_IDS, GameRecord, get_game, replay
from engines.referee import run_match
from tests.helpers.conformance_data import logged_games

BOTS = Path(__file__).parent / "bots"
PY = sys.executable
BUILTIN_BOT = [PY, "-m", "tui", "bot"]  # `termarena bot`


def fake(name: str, *args: str) -> list[str]:
    return [PY, str(BOTS / f"{name}.py"), *args]


def builtin_bot(game: str) -> list[str]:
    """The built-in bot at level 1 (quick, always legal)."""
    return BUILTIN_BOT + [game, "--level", "1"]


@pytest.mark.slow  # real bot processes
@pytest.mark.parametrize("bad_seat", [0, 1])
def test_a_crashing_bot_loses_with_reason_crash_and_its_last_words(bad_seat):
    cmds = [builtin_bot("connect4"), builtin_bot("connect4")]
    cmds[bad_seat] = fake("crash")
    # no time limits: a busy test machine must not turn the good bot's start-up into a timeout
    r = run_match("connect4", cmds, seed=1, time_limits=False)
    assert (r.outcome.winner, r.outcome.reason) == (1 - bad_seat, "crash")
    assert r.outcome.scores[bad_seat] == 0 and r.outcome.scores[1 - bad_seat] == 10
    assert r.error.startswith(f"p{bad_seat + 1} (") and "something went wrong" in r.error


@pytest.mark.slow  # real bot processes, and waits for the 1 s first-turn limit
def test_a_silent_bot_loses_on_time():
    r = run_match("connect4", [fake("silent"), builtin_bot("connect4")], seed=1)
    assert (r.outcome.winner, r.outcome.reason, r.turns) == (1, "timeout", 0)
    assert "1000 ms" in r.error  # the first turn's limit (test_process.py: the wait is that limit exactly)


@pytest.mark.slow  # real bot processes
def test_garbage_output_is_invalid_with_the_referees_reason():
    r = run_match("lines-of-action", [builtin_bot("loa"), fake("garbage")], seed=3, time_limits=False)
    assert (r.outcome.winner, r.outcome.reason) == (0, "invalid")
    assert r.outcome.scores == (0, -1)
    assert "hello" in r.error and r.error.startswith("p2 (")


@pytest.mark.slow  # real bot processes, and waits for the 1 s first-turn limit
def test_an_answer_after_the_first_turn_limit_is_a_timeout():
    r = run_match("connect4", [fake("late", "1.3", "4"), builtin_bot("c4")], seed=1)
    assert (r.outcome.winner, r.outcome.reason) == (1, "timeout")


@pytest.mark.slow  # real bot processes, one answering after 1.2 s
def test_a_late_answer_is_accepted_without_time_limits():
    r = run_match("paper-soccer", [fake("late", "1.2", "1"), fake("crash")], seed=1, time_limits=False)
    assert r.moves == ["1"] and (r.outcome.winner, r.outcome.reason) == (0, "crash")


@pytest.mark.slow  # real bot processes
def test_a_bot_that_closes_stdout_is_a_crash():
    r = run_match("cultist-wars", [builtin_bot("cw"), fake("closes_stdout")], seed=5, time_limits=False)
    assert (r.outcome.winner, r.outcome.reason) == (0, "crash")
    assert r.outcome.scores == (0, -1)


def test_a_missing_program_loses_before_the_game_starts():
    r = run_match("paper-soccer", [["/no/such/bot"], builtin_bot("ps")], seed=1)
    assert (r.outcome.winner, r.outcome.reason, r.turns) == (1, "crash", 0)
    assert r.outcome.scores == (-1, 1)


@pytest.mark.slow  # real bot processes
@pytest.mark.parametrize("game", GAME_IDS)
def test_an_official_game_replayed_by_bots_gives_the_official_result(game):
    logged = logged_games(game)[0]
    cmds = [fake("replay", game, str(logged.index), str(s)) for s in (0, 1)]
    r = run_match(game, cmds, seed=logged.seed, time_limits=False)
    assert r.error is None
    assert (r.outcome.winner, r.outcome.scores, r.turns) == (logged.winner, logged.scores, logged.n_turns)
    assert r.moves == [t.output for t in logged.turns]


@pytest.mark.slow  # real bot processes
@pytest.mark.parametrize("game", GAME_IDS)
def test_builtin_bots_finish_a_game_whose_moves_replay_to_the_reported_result(game):
    r = run_match(game, [builtin_bot(game), builtin_bot(game)], seed=11, time_limits=False)
    assert r.error is None, r.error
    final = replay(GameRecord(game, r.moves, seed=11))
    out = final.outcome()
    assert out is not None and (out.winner, out.scores, out.reason) == (r.outcome.winner, r.outcome.scores, r.outcome.reason)
    assert r.turns == len(r.moves) <= get_game(game).max_turns


@pytest.mark.slow  # real bot processes, and waits for the 1 s first-turn limit
def test_no_process_is_left_behind_after_a_match():
    before = _children()
    run_match("connect4", [fake("silent"), builtin_bot("c4")], seed=2)
    time.sleep(0.2)
    assert _children() == before


def _children() -> set[int]:
    """Our child processes, zombies included (a zombie means a bot was never waited for)."""
    me, out = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                out.add(int(entry))
    return out
