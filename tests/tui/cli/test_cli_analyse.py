"""`termarena analyse FILE`: a table by default, the SPEC's JSON with --json, one line for a bad file."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # termarena as a real process

DATA = ROOT / "tests" / "data" / "analysis"
GAME = DATA / "connect4-level1-blunders.txt"


def termarena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True, timeout=120)


def test_json_labels_the_known_blunder():
    done = termarena("analyse", str(GAME), "--nodes", "5000", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == "connect4" and len(out["moves"]) == 10
    seventh = out["moves"][6]
    # the player's notation (columns 1-9) in move/best, CodinGame's (0-8, as saved) beside it; seat 0-based
    assert seventh["ply"] == 7 and seventh["move"] == "4" and seventh["label"] == "blunder"
    assert seventh["move_protocol"] == "3" and seventh["seat"] == 0
    assert seventh["best"] != "4"
    assert seventh["best"] == str(int(seventh["best_protocol"]) + 1)


def test_text_mode_prints_a_table_with_the_blunder_and_each_sides_count():
    done = termarena("analyse", str(GAME), "--nodes", "5000")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["turn", "side", "move", "win%", "best", "best%", "label"]
    row = next(line for line in lines if line.split()[:3] == ["7", "p1", "4"])  # CodinGame's column 3
    assert row.endswith("blunder")
    assert any(line.startswith("p1 ai:1: ") and line.endswith(" 1 blunder") for line in lines)
    assert any(line.startswith("p2 ai:6: ") and line.endswith(" 0 blunders") for line in lines)


def test_json_twice_on_the_same_file_is_the_same_output():
    """No clock by default: the node budget alone decides (issue 26: three runs, three verdicts)."""
    runs = [termarena("analyse", str(GAME), "--nodes", "3000", "--json") for _ in range(2)]
    assert all(done.returncode == 0 for done in runs), runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    moves = json.loads(runs[0].stdout)["moves"]
    assert all(m["best_eval"] >= m["eval"] for m in moves)


def test_think_ms_still_bounds_each_position_by_time():
    done = termarena("analyse", str(GAME), "--think-ms", "30", "--json")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["moves"]) == 10


def test_a_file_that_is_not_a_save_is_one_line_and_status_1(tmp_path):
    bad = tmp_path / "junk.txt"
    bad.write_text("not a save\n")
    done = termarena("analyse", str(bad))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "junk.txt" in done.stderr and "Traceback" not in done.stderr
