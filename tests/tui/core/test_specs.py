"""Player specs as processes: what an `ai:N` seat starts."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

HOSTILE_BOT = "import pathlib; pathlib.Path('ran').write_text('the folder ai package ran')\n"


@pytest.mark.slow  # termarena and its bots as real processes
def test_an_ai_seat_started_in_a_folder_with_an_ai_package_of_its_own_runs_termarenas(tmp_path):
    """`python -m ai.bot` would put the working directory first on the import path: a game refereed in a
    folder holding `ai/bot.py` (a download, a bot author's own project) must not run that file."""
    (tmp_path / "ai").mkdir()
    (tmp_path / "ai" / "__init__.py").write_text(HOSTILE_BOT)
    (tmp_path / "ai" / "bot.py").write_text(HOSTILE_BOT)
    done = subprocess.run([sys.executable, "-P", "-m", "tui", "referee", "c4", "--p1", "ai:1", "--p2", "ai:1",
                           "--seed", "3", "--json", "--no-time-limit"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reason"] != "crash", done.stdout
    assert not (tmp_path / "ran").exists()
