"""How termarena starts a Python module in a process of its own (its bots, apps, servers, Ray's head)."""
from __future__ import annotations

import sys


def module_argv(module: str, *args: str) -> list[str]:
    """`python -P -m MODULE ARGS` in this interpreter.  -P keeps the import path as installed: `-m` alone puts
    the working directory first, and an `ai/` or `tui/` folder there (a bot author's project, a download, a
    guest's session folder) would run instead of termarena's own modules."""
    return [sys.executable, "-P", "-m", module, *args]
