"""tui/core/ holds what the app and the headless commands share; none of it may load Textual, and the
command line loads Textual only when it opens the app (referee, match, bot and bench never do)."""
from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import tui.core

CORE = sorted(m.name for m in pkgutil.walk_packages(tui.core.__path__, "tui.core."))  # sub-packages too
HEADLESS = CORE + ["tui.cli", "tui.entry"]

# One fresh interpreter imports the modules in turn and says, after each, whether Textual is loaded.
# Up to the first module that loads it the answers are each module's own; after it they say nothing,
# so `loads_textual` asks again in a process of its own (only when something already fails).
_IN_TURN = """import json, sys
loaded = []
for name in sys.argv[1:]:
    if not any(loaded):
        __import__(name)
    loaded.append(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))
print(json.dumps(loaded))"""


@pytest.fixture(scope="module")
def loads_textual():
    out = subprocess.run([sys.executable, "-c", _IN_TURN, *HEADLESS], capture_output=True, text=True, check=True)
    known = {name: False for name, loaded in zip(HEADLESS, json.loads(out.stdout)) if not loaded}

    def loads(module: str) -> bool:
        if module not in known:
            code = f"import sys, {module}; print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))"
            alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            known[module] = alone.stdout.strip() == "True"
        return known[module]
    return loads


def test_the_core_modules_are_found():
    assert {"tui.core.session", "tui.core.storage", "tui.core.autosave", "tui.core.specs",
            "tui.core.match", "tui.core.opponents", "tui.core.league.run"} <= set(CORE)


@pytest.mark.parametrize("module", HEADLESS)
def test_a_headless_module_never_loads_textual(module, loads_textual):
    assert not loads_textual(module)


def test_the_app_module_does_load_textual(loads_textual):
    """The check above can fail: the app itself loads Textual."""
    assert loads_textual("tui.app")
