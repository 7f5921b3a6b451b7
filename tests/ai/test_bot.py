"""`termarena bot` as an external referee sees it: read the first turn's input, answer one legal line."""
from __future__ import annotations

import subprocess
import sys

import pytest

from engines import GAME_IDS, get_game

ENTRY = [sys.executable, "-m", "tui"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_bot_answers_the_first_turn_with_a_legal_move(game_id):
    game = get_game(game_id).new(7)
    stdin = "".join(line + "\n" for line in game.bot_input(first=True))
    out = subprocess.run(ENTRY + ["bot", game_id, "--level", "2", "--seed", "1"], input=stdin,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    answer = out.stdout.splitlines()
    assert len(answer) == 1
    game.parse_output(answer[0])  # raises if the referee would refuse it


def test_a_bad_level_is_refused_with_exit_status_2_and_one_reason():
    out = subprocess.run(ENTRY + ["bot", "c4", "--level", "9"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "level" in out.stderr


def test_bot_help_describes_the_levels_and_the_time_limits():
    out = subprocess.run(ENTRY + ["bot", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--level" in out.stdout and "time limit" in out.stdout.lower()
