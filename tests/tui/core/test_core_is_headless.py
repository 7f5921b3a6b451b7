"""tui/core/ holds what the app and the headless commands share; none of it may load Textual, and the
command line loads Textual only when it opens the app (referee, match, bot and bench never do)."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import tui.core

CORE = sorted(m.name for m in pkgutil.walk_packages(tui.core.__path__, "tui.core."))  # sub-packages too


def loads_textual(module: str) -> bool:
    code = f"import sys, {module}; print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "True"


def test_the_core_modules_are_found():
    assert {"tui.core.session", "tui.core.storage", "tui.core.autosave", "tui.core.specs",
            "tui.core.match", "tui.core.opponents", "tui.core.league.run"} <= set(CORE)


@pytest.mark.parametrize("module", CORE + ["tui.cli", "tui.entry"])
def test_a_headless_module_never_loads_textual(module):
    assert not loads_textual(module)


def test_the_app_module_does_load_textual():
    """The check above can fail: the app itself loads Textual."""
    assert loads_textual("tui.app")
