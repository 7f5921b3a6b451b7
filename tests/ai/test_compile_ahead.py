"""Compiling the fast Paper Soccer search ahead (ai/compile_ahead.py): the process the app starts reports
its progress to the end, numba's cache it fills is what a second process loads (nothing compiled again),
and an AI worker on hold never starts loading it meanwhile."""
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


def test_a_worker_on_hold_does_not_start_loading_the_compiled_tree(monkeypatch):
    for name, value in (("_module", None), ("_failed", False), ("_thread", None), ("_held", False)):
        monkeypatch.setattr(accelerator, name, value)
    accelerator.hold(True)
    assert accelerator.compiled_tree() is None and not accelerator.loading() and accelerator._thread is None
