"""Where the tests' own programs are, from the repository's root (so a test module can move)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
# plays the first legal move of any game, or misbehaves on request (see its docstring)
FIRST_MOVE_BOT = ROOT / "tests" / "tui" / "bots" / "first_move_bot.py"
# starts a setsid child and a double-forked grandchild and writes the three pids to a folder
ESCAPING_BOT = ROOT / "tests" / "engines" / "referee" / "bots" / "escaping_bot.py"
