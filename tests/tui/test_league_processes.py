"""`termarena league run` as real processes: killed by a signal (SIGKILL included) it keeps every game
it reported, leaves no bot running, and the next run goes on from there; two runs on one file at once
both finish and lose nothing."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engines.referee.guard import descendants
from tests.helpers.paths import FIRST_MOVE_BOT, ROOT
from tests.helpers.processes import assert_all_end
from tui.core.league.db import LeagueDB
from tui.core.specs import parse_spec

PY = sys.executable
pytestmark = pytest.mark.slow  # `termarena league` processes, each playing games with bot processes


def league(db: Path, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([PY, "-m", "tui", "league", *args, "--db", str(db)], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, **popen)


def finish(proc: subprocess.Popen) -> tuple[int, str]:
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


def make_league(db: Path) -> None:
    """Two quick players (made in-process: `league add` is tested elsewhere, and each start costs)."""
    with LeagueDB(db, create=True) as made:
        made.add_player("connect4", "first", parse_spec(f"cmd:{PY} {FIRST_MOVE_BOT} connect4"))
        made.add_player("connect4", "level1", parse_spec("ai:1"))


def start_and_wait_for_games(db: Path, count: int) -> tuple[subprocess.Popen, list[str]]:
    run = league(db, "run", "c4", "--games", "1000", "--jobs", "2", "--think-ms", "5")
    reported = []
    while len(reported) < count:  # a line is printed once its game is committed
        line = run.stderr.readline()
        if not line:
            run.wait()
            raise AssertionError("the run ended early")
        if line.startswith("game "):
            reported.append(line)
    return run, reported


def stored(db: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return conn.execute("SELECT seat0, seat1, seed FROM games ORDER BY id").fetchall()


def end_by_signal(run: subprocess.Popen, sig: int) -> int:
    """Send `sig` to the run; every bot it was hosting must end too.  Returns the run's exit status."""
    try:
        bots = descendants(run.pid)
        run.send_signal(sig)
        status = run.wait(timeout=15)
        assert_all_end(bots)  # after SIGKILL, their guards end them
        return status
    finally:
        run.kill()
        run.wait()


def test_a_run_killed_with_sigkill_keeps_every_reported_game_and_the_next_run_goes_on(tmp_path):
    db = tmp_path / "league.db"
    make_league(db)
    run, reported = start_and_wait_for_games(db, 2)
    end_by_signal(run, signal.SIGKILL)
    before = stored(db)
    assert len(before) >= len(reported)

    code, err = finish(league(db, "run", "c4", "--games", "2", "--think-ms", "5"))
    assert code == 0, err
    after = stored(db)
    assert after[: len(before)] == before and len(after) == len(before) + 2
    # a pair cut in two by the signal is completed first: every game played before has its twin now
    assert all((s1, s0, seed) in after for s0, s1, seed in before)


def test_a_run_ended_by_sigterm_exits_128_plus_15_in_one_piece_and_keeps_its_games(tmp_path):
    db = tmp_path / "league.db"
    make_league(db)
    run, reported = start_and_wait_for_games(db, 1)
    assert end_by_signal(run, signal.SIGTERM) == 128 + signal.SIGTERM
    said = run.stderr.read()
    assert "Traceback" not in said and "games this run finished are stored" in said
    assert len(stored(db)) >= len(reported)


def test_two_runs_on_one_file_at_once_both_finish_and_lose_no_game(tmp_path):
    db = tmp_path / "league.db"
    make_league(db)
    runs = [league(db, "run", "c4", "--games", "2", "--jobs", "2", "--think-ms", "5") for _ in range(2)]
    for run in runs:
        code, err = finish(run)
        assert code == 0 and "Traceback" not in err and err.count("\ngame ") == 2, err
    assert len(stored(db)) == 4
