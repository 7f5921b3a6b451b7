"""`termarena selfplay`: seeded self-play games appended in the fitters' format, and every bad pool
spec, net file or output path refused in one line before a game starts."""
from __future__ import annotations

import pytest

from ai.paper_soccer.fit_value import read_games
from tests.helpers.cli import run_cli

FAST = ("--pool", "level:2", "--pool", "level:3", "-j", "1")


def test_the_same_seed_appends_the_same_games_in_the_fitters_format(tmp_path, monkeypatch, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    for path in (a, b):
        code, err = run_cli(monkeypatch, capsys, "selfplay", "ps", "-n", "3", "--seed", "5", "--out", str(path), *FAST)
        assert code in (0, None), err
    assert a.read_text() == b.read_text() and len(a.read_text().splitlines()) == 3
    assert len(read_games([str(a)])) == 3  # what fit_value and fit_net read
    code, _err = run_cli(monkeypatch, capsys, "selfplay", "ps", "-n", "2", "--seed", "9", "--out", str(a), *FAST)
    assert len(a.read_text().splitlines()) == 5  # appended, not replaced


@pytest.mark.parametrize("args, says", [
    (("--pool", "level:9"), "level 9 is out of range"),
    (("--pool", "level:6,nodes=1000,bogus=1"), "bogus"),
    (("--net", "{missing}"), "No such file"),
    (("--net", "{bad}"), "'level:6,nodes=4000,net="),
], ids=["level", "field", "missing-net", "bad-net"])
def test_a_bad_player_is_refused_in_one_line_before_the_output_is_made(tmp_path, monkeypatch, capsys, args, says):
    bad = tmp_path / "bad.net"
    bad.write_bytes(b"\x1b[2J not a net\n")
    args = tuple(a.format(missing=tmp_path / "none.net", bad=bad) for a in args)
    out = tmp_path / "out.txt"
    code, err = run_cli(monkeypatch, capsys, "selfplay", "ps", "-n", "2", "--out", str(out), *args)
    assert code == 1 and says in err and len(err.strip().splitlines()) == 1
    assert "\x1b" not in err and "Traceback" not in err and not out.exists()


def test_an_output_that_cannot_be_written_and_a_game_without_self_play_are_one_line(tmp_path, monkeypatch, capsys):
    code, err = run_cli(monkeypatch, capsys, "selfplay", "ps", "--out", str(tmp_path / "no" / "such" / "x.txt"), *FAST)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, err = run_cli(monkeypatch, capsys, "selfplay", "c4", "--out", str(tmp_path / "x.txt"))
    assert code == 2 and "learns nothing from self-play" in err and not (tmp_path / "x.txt").exists()


def test_a_bad_cluster_address_is_refused_before_the_output_is_made(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out.txt"
    code, err = run_cli(monkeypatch, capsys, "selfplay", "ps", "--cluster", "ray:/x", "--out", str(out))
    assert code == 2 and "--cluster" in err and "Traceback" not in err and not out.exists()


def test_an_output_that_is_not_a_regular_file_is_refused_not_waited_on(tmp_path, monkeypatch, capsys):
    import os

    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)  # opened to write, it would wait for a reader forever
    code, err = run_cli(monkeypatch, capsys, "selfplay", "ps", "--out", str(fifo), *FAST)
    assert code == 1 and "a FIFO (named pipe), not a file of games" in err and len(err.strip().splitlines()) == 1
