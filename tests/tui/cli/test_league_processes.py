"""`termarena league run` as real processes: killed by a signal (SIGKILL included) it keeps every game
it reported, leaves no bot running, and the next run goes on from there (first the second games of the
pairs it cut); two runs on one file at once both finish, share the work, and leave no game twice and no
half pair; a file the run cannot write is refused before any game starts."""
from __future__ import annotations

import os
import shutil
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


def league(db: Path, *args: str, prefix: tuple[str, ...] = (), **popen) -> subprocess.Popen:
    return subprocess.Popen([*prefix, PY, "-m", "tui", "league", *args, "--db", str(db)], cwd=ROOT,
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
    assert after[: len(before)] == before and len(after) >= len(before) + 2
    # a pair cut in two by the signal is completed first: every game played before has its twin now
    assert_whole_pairs(after)


def assert_whole_pairs(games: list[tuple[int, int, int]]) -> None:
    """No game twice, and every game has its colour-swapped twin (the same seed, the seats swapped)."""
    assert len(set(games)) == len(games)
    assert all((s1, s0, seed) in games for s0, s1, seed in games)


def test_a_run_ended_by_sigterm_exits_128_plus_15_in_one_piece_and_keeps_its_games(tmp_path):
    db = tmp_path / "league.db"
    make_league(db)
    run, reported = start_and_wait_for_games(db, 1)
    assert end_by_signal(run, signal.SIGTERM) == 128 + signal.SIGTERM
    said = run.stderr.read()
    assert "Traceback" not in said and "games this run finished are stored" in said
    assert len(stored(db)) >= len(reported)


@pytest.mark.slow  # two runs and their bots: about 4 s on a busy 2-core machine
def test_two_runs_on_one_file_at_once_share_the_work_with_no_game_twice_and_no_half_pair(tmp_path):
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueDB(db) as made:
        made.add_player("connect4", "level1b", parse_spec("ai:1"))
        # half a pair left by an older termarena: both runs owe its second game and start with it
        first, level1, _ = made.players("connect4")
        made.conn.execute("INSERT INTO games (game, seat0, seat1, seed, winner, score0, score1, reason, turns, moves,"
                          " time_limits, finished) VALUES ('connect4', ?, ?, 7, 0, 1, 0, 'connected', 7, '[]', 0, '')",
                          (first, level1))
    runs = [league(db, "run", "c4", "--games", "2", "--jobs", "2", "--think-ms", "5") for _ in range(2)]
    told = []
    for run in runs:
        code, err = finish(run)
        assert code == 0 and "Traceback" not in err, err
        told.append(err.count("\ngame "))
    games = stored(db)
    assert_whole_pairs(games)
    # each run stored the games it reported, at least the 2 asked (one more to finish a pair); a game
    # both played (the owed one, or the second game of a pair the other was finishing) is stored once
    assert min(told) >= 2 and len(games) == 1 + sum(told)


def read_only_file(db: Path) -> None:
    db.chmod(0o444)


def read_only_folder(db: Path) -> None:
    db.parent.chmod(0o555)  # the file may be written, but not SQLite's -wal and -shm files beside it


def file_modes_bind() -> tuple[str, ...]:
    """A prefix that makes file modes bind the run: root writes any file whatever its mode, so as root the
    run is started without the capabilities that let it (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), and
    file and folder modes stop it as they stop any user."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root without setpriv: a file mode cannot stop root's writes")
    return (setpriv, "--bounding-set=-dac_override,-dac_read_search", "--")


@pytest.mark.parametrize("make_read_only", [read_only_file, read_only_folder])
def test_a_league_the_run_cannot_write_is_refused_in_one_line_before_any_game(tmp_path, make_read_only):
    db = tmp_path / "league" / "league.db"
    db.parent.mkdir()
    marker = tmp_path / "a-bot-started"
    with LeagueDB(db, create=True) as made:
        made.add_player("connect4", "tells", parse_spec(f"cmd:{PY} -c \"open('{marker}', 'w')\""))
        made.add_player("connect4", "level1", parse_spec("ai:1"))
    make_read_only(db)
    try:
        code, err = finish(league(db, "run", "c4", "--games", "2", prefix=file_modes_bind()))
    finally:
        db.parent.chmod(0o755)
        db.chmod(0o644)
    assert code == 1 and err.startswith("termarena league: ") and err.count("\n") == 1, err
    assert "readonly" in err and "game" not in err.split(":", 1)[1].split("(")[0]
    assert not marker.exists()  # no bot was started
    assert stored(db) == []
