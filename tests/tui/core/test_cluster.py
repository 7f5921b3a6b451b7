"""`--cluster`: games played as Ray tasks give what the same games give on this machine's threads, stop
early for an SPRT, and a local Ray instance ends with termarena, SIGKILL included.  Needs Ray (the
`[cluster]` extra, which the README's test command installs); the address checks do not."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ai.sprt import Sprt
from tests.helpers.cli import run_cli
from tests.helpers.paths import FIRST_MOVE_BOT as BOT
from tests.helpers.processes import (assert_all_end, bot_pids, ended_pid, escaping_command, start_termarena,
                                     wait_for)
from tui.core import ray_folder
from tui.core.cluster import ClusterError, check_address, ray_installed
from tui.core.match import run_tournament
from tui.core.specs import parse_spec
from tests.helpers.paths import ROOT

# one worker runs this file, so that one local Ray instance starts, not one a worker (in a fresh clone's
# run, where the other worker was compiling the Paper Soccer tree, the module's fixture errored once)
pytestmark = pytest.mark.xdist_group("ray")
needs_ray = pytest.mark.skipif(not ray_installed(), reason="Ray is not installed (pip install -e '.[cluster]')")


@pytest.mark.parametrize("good", ["local", "auto", "ray://10.0.0.5:10001", "ray://head.example.org:10001"])
def test_addresses_ray_takes(good):
    assert check_address(good) == good


@pytest.mark.parametrize("bad", ["", "localhost", "ray://", "ray://host", "http://host:1", "ray://a b:1",
                                 "ray://host:1\n; rm -rf ~"])
def test_other_addresses_are_refused_in_one_line(bad, monkeypatch, capsys):
    with pytest.raises(ClusterError):
        check_address(bad)
    code, err = run_cli(monkeypatch, capsys, "match", "c4", "ai:1", "ai:2", "--cluster", bad)
    assert code == 2 and "--cluster" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def killed_instance_folder():
    """The folder a local instance left when its termarena was killed: every owner has ended."""
    folder = Path(tempfile.mkdtemp(prefix=ray_folder.PREFIX))
    (folder / ray_folder.OWNERS).write_text(f"{ended_pid()}\n")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(killed_instance_folder):
    from tui.core.cluster import RayCluster

    with RayCluster("local", 2) as c:
        yield c


def folder_of(pid: int) -> Path | None:
    """The folder of the local instance that process `pid` started, if any."""
    for folder in Path(tempfile.gettempdir()).glob(ray_folder.PREFIX + "*"):
        owners = folder / ray_folder.OWNERS
        if owners.is_file() and owners.read_text().split()[:1] == [str(pid)]:
            return folder
    return None


def gcs_answer(port: int, token: str | None):
    """What the instance's control service (GCS) answers a call with this token, or with none."""
    import grpc

    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary("/ray.rpc.NodeInfoGcsService/GetClusterId")
        try:
            call(b"", metadata=[("authorization", f"Bearer {token}")] if token else [], timeout=60)
        except grpc.RpcError as e:
            return e.code()
        return grpc.StatusCode.OK


@pytest.mark.slow  # Ray: an instance takes seconds to start, and importing Ray alone about one
@needs_ray
@pytest.mark.slow
def test_a_match_on_ray_plays_the_very_games_it_plays_here(cluster):
    # Levels bounded by depth (a minute's think time: the depth, not the clock, ends each search) and AI
    # seeds fixed by the game seeds: the same games wherever they run, however loaded the machine.
    specs = [parse_spec("ai:2"), parse_spec("ai:1")]
    here = run_tournament("connect4", specs, 4, seed=11, jobs=2, time_limits=False, think_ms=60_000)
    there = run_tournament("connect4", specs, 4, seed=11, jobs=2, time_limits=False, think_ms=60_000,
                           runner=cluster.play)
    assert [(p.index, r.moves, r.outcome) for p, r in there.games] == [(p.index, r.moves, r.outcome) for p, r in here.games]
    score = lambda t: [(s.wins, s.draws, s.losses) for s in t.scores.values()]  # noqa: E731
    assert score(there) == score(here)
    assert there.times[0].times_ms and len(there.times[0].times_ms) == len(here.times[0].times_ms)


@pytest.mark.slow
@needs_ray
@pytest.mark.slow
def test_an_sprt_stops_the_ray_tasks_early(cluster):
    bots = [parse_spec(f"cmd:{sys.executable} {BOT} connect4"), parse_spec(f"cmd:{sys.executable} {BOT} connect4 junk")]
    t = run_tournament("connect4", bots, 200, seed=1, jobs=2, time_limits=False, sprt=Sprt(0, 400),
                       runner=cluster.play)
    assert t.sprt.result == "H1" and t.sprt.counts == [0, 0, 0, 0, 5] and len(t.games) < 20


@pytest.mark.slow
@needs_ray
@pytest.mark.slow
def test_sigkill_of_a_match_on_a_local_ray_instance_leaves_no_process_and_its_folder_is_swept(tmp_path):
    from engines.referee.guard import descendants

    match = start_termarena(["match", "c4", escaping_command(tmp_path), escaping_command(tmp_path), "-n", "4", "-j", "2",
                    "--no-time-limit", "--cluster", "local"])
    try:
        # Ray's start takes 5 to 25 s on a busy 2-core machine: wait for the bots generously
        wait_for(lambda: len(list(tmp_path.glob("*.pids"))) >= 4, timeout=180)
        pids = bot_pids(tmp_path, 4) + descendants(match.pid)  # the bots, and Ray's processes
        assert len(pids) > 12
        folder = folder_of(match.pid)
        assert folder is not None and (folder / ray_folder.TOKEN).is_file()
        match.send_signal(signal.SIGKILL)
        match.wait(timeout=15)
        assert_all_end(pids, timeout=20)
        # nothing could remove it; the next local start does, first thing (the start the cluster
        # fixture makes is checked in test_a_local_start_removes_the_folders_of_killed_instances)
        ray_folder.sweep()
        assert not folder.exists()
    finally:
        match.kill()
        match.wait()


@needs_ray
@pytest.mark.slow
def test_sigterm_ends_a_match_on_a_local_ray_instance_as_without_one(tmp_path):
    # ray.init puts in a SIGTERM handler of its own, which printed its core worker's stack dump and
    # exited 15; termarena's own ends the match with 143 and one line at most, its folder removed
    from engines.referee.guard import descendants

    home = tmp_path / "home"
    home.mkdir()
    bots = tmp_path / "bots"
    bots.mkdir()
    args = ["match", "c4", escaping_command(bots), escaping_command(bots), "-n", "4", "-j", "2", "--no-time-limit",
            "--cluster", "local"]
    match = subprocess.Popen([sys.executable, "-m", "tui", *args], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env={**os.environ, "HOME": str(home)})
    try:
        wait_for(lambda: len(list(bots.glob("*.pids"))) >= 4, timeout=180)
        pids = bot_pids(bots, 4) + descendants(match.pid)
        folder = folder_of(match.pid)
        assert folder is not None
        match.send_signal(signal.SIGTERM)
        assert match.wait(timeout=60) == 128 + signal.SIGTERM
        err = match.stderr.read()
        assert b"Traceback" not in err and b"SIGTERM received" not in err and len(err.strip().splitlines()) <= 1
        assert not folder.exists()
        assert not (home / ".ray").exists()  # the user's own token file is neither read nor written
        assert_all_end(pids, timeout=20)
    finally:
        match.kill()
        match.wait()


@pytest.mark.slow
@needs_ray
@pytest.mark.slow
def test_sigterm_while_the_local_instance_starts_ends_it_as_cleanly(tmp_path):
    # whichever step the signal meets (the folder made, the head starting, the driver connecting)
    from engines.referee.guard import descendants

    match = start_termarena(["match", "c4", "ai:1", "ai:1", "-n", "2", "--cluster", "local"])
    try:
        wait_for(lambda: folder_of(match.pid) is not None, timeout=60)
        folder = folder_of(match.pid)
        pids = descendants(match.pid)
        match.send_signal(signal.SIGTERM)
        assert match.wait(timeout=60) == 128 + signal.SIGTERM
        err = match.stderr.read()
        assert b"Traceback" not in err and b"SIGTERM received" not in err
        assert not folder.exists()
        assert_all_end(pids + descendants(match.pid), timeout=20)
    finally:
        match.kill()
        match.wait()


@needs_ray
@pytest.mark.slow
def test_self_play_on_ray_appends_the_very_games_it_plays_here(cluster, tmp_path):
    # `termarena selfplay --cluster`: the games are seeded by their index, so Ray's workers play the same
    from ai.paper_soccer import selfplay_games

    here, there = tmp_path / "here.txt", tmp_path / "there.txt"
    players, options = ("level:2", "level:3"), dict(jobs=2, seed=5, quiet=True)
    assert selfplay_games(4, str(here), players, **options) == \
        selfplay_games(4, str(there), players, runner=cluster.play, **options)
    assert sorted(there.read_text().splitlines()) == sorted(here.read_text().splitlines())
    assert len(here.read_text().splitlines()) == 4


@needs_ray
@pytest.mark.slow
def test_a_training_generation_on_ray_plays_the_same_games_and_fits_the_same_net_as_here(cluster, tmp_path):
    # `termarena train --cluster`: self-play and gate games are Ray tasks; the fit sorts the games, which
    # arrive in the order they end
    pytest.importorskip("numpy")
    from tui.core.training import TrainSettings, open_run

    settings = TrainSettings("paper-soccer", games=4, seed=3, gate_games=2, gate_nodes=40, pool=("level:2", "level:3"))
    runs = [open_run(tmp_path / name, settings) for name in ("here", "there")]
    for run in runs:
        run.say = lambda line: None
    here, there = runs[0].generation(1, jobs=2), runs[1].generation(1, jobs=2, runner=cluster.play)
    assert here == there
    for suffix in ("games", "net"):
        texts = [run.path(1, suffix).read_text() for run in runs]
        assert sorted(texts[0].splitlines()) == sorted(texts[1].splitlines())
    assert texts[0] == texts[1]


@needs_ray
@pytest.mark.slow
def test_a_league_round_on_ray_stores_every_game(cluster, tmp_path):
    from tui.core.league.db import LeagueDB
    from tui.core.league.run import run_league

    with LeagueDB(tmp_path / "league.db", create=True) as league:
        for name, mode in (("first", "first"), ("junk", "junk")):
            league.add_player("connect4", name, parse_spec(f"cmd:{sys.executable} {BOT} connect4 {mode}"))
        ratings = run_league(league, "connect4", 4, None, False, jobs=2, runner=cluster.play)
        assert league.count_games("connect4") == 4
    assert ratings is not None


@pytest.mark.slow
@needs_ray
@pytest.mark.parametrize("address, env", [("ray://127.0.0.1:{port}", None), ("auto", "127.0.0.1:{port}")])
def test_a_cluster_that_does_not_answer_is_refused_at_once(address, env, monkeypatch):
    # Ray itself would wait minutes (a stale address file names an instance long gone): a closed port
    # is told in one line before Ray tries.
    import socket

    from tui.core.cluster import RayCluster

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again when the block ends: nothing listens there
    if env:
        monkeypatch.setenv("RAY_ADDRESS", env.format(port=port))
    with pytest.raises(ClusterError, match="no Ray cluster answers"):
        with RayCluster(address.format(port=port), 1):
            pass


@pytest.mark.slow
@needs_ray
@pytest.mark.slow
def test_a_local_instance_keeps_its_files_to_itself(cluster):
    # `ray start`'s address file, which `--cluster auto` and Ray's own tools read, is not overwritten
    assert cluster.temp_dir is not None and cluster.temp_dir.startswith(tempfile.gettempdir())


@needs_ray
@pytest.mark.slow
def test_a_local_instance_runs_no_autoscaler_and_no_log_monitor(cluster):
    # its size is fixed and termarena reads none of Ray's logs: the two Python processes cost each start
    # about 2 s of CPU (a two-game match took 9.3 s of CPU with them, 7.5 s without)
    from engines.referee.guard import descendants

    commands = []
    for pid in descendants(cluster.head.pid):
        try:
            commands.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            pass
    assert any("raylet" in c for c in commands)
    assert not [c for c in commands if "monitor.py" in c]  # autoscaler/_private/monitor.py, log_monitor.py


@needs_ray
@pytest.mark.slow
def test_a_local_start_removes_the_folders_of_killed_instances(cluster, killed_instance_folder):
    assert not killed_instance_folder.exists()
    assert Path(cluster.temp_dir).is_dir()  # its own, in use, stays


@needs_ray
@pytest.mark.slow
def test_a_local_instance_answers_only_its_own_token(cluster):
    import grpc

    from engines.referee.guard import descendants

    token_file = Path(cluster.temp_dir) / ray_folder.TOKEN
    assert token_file.stat().st_mode & 0o777 == 0o600
    token = token_file.read_text()
    port = int(cluster.ray.get_runtime_context().gcs_address.rpartition(":")[2])
    assert gcs_answer(port, None) == grpc.StatusCode.UNAUTHENTICATED
    assert gcs_answer(port, "0" * 64) == grpc.StatusCode.UNAUTHENTICATED
    assert gcs_answer(port, token) == grpc.StatusCode.OK
    # the token is in its file only: in no command line and no environment of Ray's processes
    for pid in [cluster.head.pid, *descendants(cluster.head.pid)]:
        for part in ("cmdline", "environ"):
            try:
                assert token.encode() not in Path(f"/proc/{pid}/{part}").read_bytes()
            except (FileNotFoundError, ProcessLookupError):
                pass  # a worker that has just ended


@pytest.mark.slow  # termarena as a real process
def test_the_help_names_the_extra_that_brings_ray():
    # the help is Rich markup, where an unescaped "[cluster]" is a style tag and vanishes
    import subprocess
    out = subprocess.run([sys.executable, "-m", "tui", "match", "--help"], capture_output=True, text=True,
                         timeout=60, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert "pip install 'termarena[cluster]'" in out.stdout
