"""saves/ ships its example positions tracked, and what the app writes there never shows in `git status`."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
needs_git = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                               reason="not a git checkout")


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


@needs_git
@pytest.mark.parametrize("name", ["autosave.txt", "autosave.prev-2026-11-27.txt", "my game.txt", ".tmp-x.txt"])
def test_what_the_app_writes_in_saves_is_ignored(name):
    assert git("check-ignore", "-q", "--no-index", f"saves/{name}").returncode == 0


@needs_git
def test_the_example_positions_stay_tracked():
    tracked = set(git("ls-files", "saves").stdout.splitlines())
    assert {"saves/connect4-steal-opening.txt", "saves/paper-soccer-bounce-trap.txt",
            "saves/lines-of-action-endgame.txt", "saves/cultist-wars-maze-seed-1326.txt"} <= tracked
