"""Collecting the tests does no work: every xdist worker collects every file, so anything done at
collection is done once per worker.  The compiled Paper Soccer tree (numba) used to be compiled there."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COLLECT = """
import sys, pytest
status = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                      "tests/ai/test_paper_soccer_compiled.py"])
print(status, sorted(m for m in ("numba", "ai.paper_soccer.compiled") if m in sys.modules))
"""


@pytest.mark.slow  # pytest's collection in a real process
def test_collecting_the_compiled_tree_tests_loads_neither_numba_nor_the_tree():
    # pytest's own collection is what probed the module's objects; its plugins are left out (and with
    # them xdist, hence no addopts), which saves most of the second this test takes
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    out = subprocess.run([sys.executable, "-c", COLLECT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert "tests collected" in out.stdout  # the file's tests were collected (numba installed or not)
    assert out.stdout.splitlines()[-1] == "0 []"
