"""One naming for seats: every command's text for people says p1/p2 (p1 moves first, as `--p1`,
`host --seat 1` and a save's `p1` say); only JSON counts seats from 0."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # termarena and its bots as real processes

CRASH = ROOT / "tests" / "engines" / "referee" / "bots" / "crash.py"
SEAT_NUMBER = re.compile(r"\bseat [0-9]")


def termarena(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True, timeout=120, env=env)


def test_referee_names_the_seats_p1_and_p2_in_text_and_0_1_in_json():
    done = termarena("referee", "c4", "--p1", "ai:1", "--p2", f"cmd:{sys.executable} {CRASH}", "--seed", "3",
                     "--json", "--no-time-limit")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["winner"] == 0 and result["reason"] == "crash"  # JSON: the 0-based seat
    assert result["error"].startswith("p2 (cmd:")  # `--p2`'s bot, named as the command line did
    assert "p1 (ai:1) wins" in done.stderr
    assert not SEAT_NUMBER.search(done.stderr), done.stderr


def test_match_tables_say_as_p1_and_as_p2():
    done = termarena("match", "c4", "ai:1", "ai:1", "--games", "2", "--seed", "5")
    assert done.returncode == 0, done.stderr
    text = done.stdout + done.stderr
    assert "as p1" in text and "as p2" in text and not SEAT_NUMBER.search(text)


def test_the_help_of_every_command_with_seats_counts_from_p1():
    for command in ("referee", "play", "host"):
        done = termarena(command, "--help")
        assert done.returncode == 0
        assert "p1" in done.stdout and not SEAT_NUMBER.search(done.stdout.lower()), (command, done.stdout)


def test_referee_games_ends_with_the_tally_by_player():
    done = termarena("referee", "c4", "--p1", "ai:1", "--p2", "ai:2", "--games", "3", "--seed", "4")
    assert done.returncode == 0, done.stderr
    games = [line for line in done.stderr.splitlines() if line.startswith("game ")]
    last = done.stderr.strip().splitlines()[-1]
    counts = dict(part.rsplit(": ", 1) for part in last.removeprefix("3 games: ").split(", "))
    assert len(games) == 3 and last.startswith("3 games: ")
    assert set(counts) == {"ai:1", "ai:2", "draw"} and sum(map(int, counts.values())) == 3
