"""Compiling the fast Paper Soccer search ahead (ai/compile_ahead.py): the process the app starts reports
its progress to the end, numba's cache it fills is what a second process loads (nothing compiled again),
the best-first search's included, and an AI worker on hold never starts loading it meanwhile."""
from __future__ import annotations

import time

import pytest

from ai.compile_ahead import CompileAhead, Progress
from ai.paper_soccer import accelerator


def _run_to_the_end(ahead: CompileAhead) -> list[Progress]:
    seen = []
    ahead.start()
    try:
        end = time.monotonic() + 600  # compiling takes about half a minute of CPU on a fresh clone
        while not ahead.progress.finished and time.monotonic() < end:
            if ahead.poll():
                seen.append(ahead.progress)
            time.sleep(0.05)
    finally:
        ahead.close()
    return seen


@pytest.mark.slow
@pytest.mark.xdist_group("numba")
def test_the_compile_ahead_process_reports_to_the_end_and_a_second_one_loads_the_cache():
    pytest.importorskip("numba")
    first = _run_to_the_end(CompileAhead())
    done = first[-1]
    assert done.finished and not done.error and done.total and done.ready == done.total and done.percent == 100
    assert [p.ready for p in first] == sorted(p.ready for p in first)  # it only goes forward
    second = _run_to_the_end(CompileAhead())[-1]
    assert second.finished and not second.error and not second.compiling  # numba's cache, across processes


@pytest.mark.slow
@pytest.mark.xdist_group("numba")  # after the test above on its worker: it loads the cache that one filled
def test_prepare_loads_the_best_first_search_with_the_types_its_searches_pass():
    # `termarena prepare` compiles the best-first search too; a signature of its own would be compiled by
    # its first search.  In a process of its own: in this one another test's best-first search may have
    # loaded it already.
    pytest.importorskip("numba")
    import os
    import subprocess
    import sys

    script = """
from ai.paper_soccer import accelerator, compiled_best_first
from ai.tools.specs import make_player
from engines.paper_soccer import PaperSoccer

done = accelerator.prepare(every_s=0.01)
assert done.finished and not done.error and done.total == done.ready, done
assert accelerator._seen_best_first is compiled_best_first

def signatures():
    return {f.py_func.__name__: set(f.overloads) for f in compiled_best_first.functions()}

before = signatures()
assert before["best_first"] and before["bf_root"], before  # loaded by the warm-up, not by the search below
player = make_player("paper-soccer", "level:6,best_first=1,explore=100,wide=500,nodes=400,net=net:dist1")
player.choose(PaperSoccer.new())
assert signatures() == before, (before, signatures())
"""
    env = {k: v for k, v in os.environ.items() if k != "TERMARENA_PURE_PYTHON"}  # the suite's: the searches' choice
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_worker_on_hold_does_not_start_loading_the_compiled_tree(monkeypatch):
    for name, value in (("_module", None), ("_failed", False), ("_thread", None), ("_held", False)):
        monkeypatch.setattr(accelerator, name, value)
    accelerator.hold(True)
    assert accelerator.compiled_tree() is None and not accelerator.loading() and accelerator._thread is None
