"""Loading Paper Soccer's compiled tree from the first turn (ai/paper_soccer/accelerator.py): a bot starts
it before its first input, a search the clock binds waits for it, and nobody waits for a compile."""
from __future__ import annotations

import threading
import time

import pytest

from ai.paper_soccer import accelerator, search
from ai.paper_soccer.player import PaperSoccerPlayer
from ai.paper_soccer.search import AWAIT_SHARE, Searcher
from engines.paper_soccer import PaperSoccer


@pytest.fixture
def fresh_loader(monkeypatch):
    for name, value in (("_module", None), ("_failed", False), ("_thread", None), ("_held", False),
                        ("_seen", None), ("_best_first", False), ("_seen_best_first", None)):
        monkeypatch.setattr(accelerator, name, value)
    monkeypatch.delenv("TERMARENA_PURE_PYTHON", raising=False)


def _loading_thread(monkeypatch, release: threading.Event, module=None):
    def load():
        release.wait(60)
        if module is not None:
            accelerator._module = module
    t = threading.Thread(target=load, daemon=True)
    t.start()
    monkeypatch.setattr(accelerator, "_thread", t)
    return t


class _Dispatcher:
    def __init__(self, misses: int) -> None:
        self.overloads = {}
        self.stats = type("Stats", (), {"cache_misses": {"sig": misses}})()


class _Module:
    def __init__(self, misses: int = 0) -> None:
        self.misses = misses

    def functions(self):
        return [_Dispatcher(self.misses)]


def test_await_loaded_returns_the_module_once_the_loading_ends(monkeypatch, fresh_loader):
    release = threading.Event()
    module = _Module()
    monkeypatch.setattr(accelerator, "_seen", module)
    t = _loading_thread(monkeypatch, release, module)
    threading.Timer(0.05, release.set).start()
    assert accelerator.await_loaded(time.monotonic() + 60) is module
    assert not t.is_alive()


def test_await_loaded_gives_up_at_its_time(monkeypatch, fresh_loader):
    release = threading.Event()
    t = _loading_thread(monkeypatch, release)
    try:
        assert accelerator.await_loaded(time.monotonic()) is None  # the time is up: no wait
        assert accelerator.loading()
    finally:
        release.set()
        t.join()


def test_nobody_waits_while_numba_compiles(monkeypatch, fresh_loader):
    # numba's cache lacked a function: compiling takes half a minute, far beyond any turn
    release = threading.Event()
    monkeypatch.setattr(accelerator, "_seen", _Module(misses=1))
    t = _loading_thread(monkeypatch, release)
    try:
        assert accelerator.compiling()
        assert accelerator.await_loaded(time.monotonic() + 60) is None  # at once, not after a minute
        assert accelerator.loading()
    finally:
        release.set()
        t.join()


@pytest.mark.parametrize("nodes, waits", [(2_500, False), (150_000, True)])
def test_a_search_the_clock_binds_waits_for_the_loading(monkeypatch, fresh_loader, nodes, waits):
    # level 5's budget fits in its time in pure Python: it does not wait; level 6's does not
    calls = []
    monkeypatch.setattr(search, "compiled_tree", lambda wait=False: None)
    monkeypatch.setattr(accelerator, "loading", lambda: True)
    monkeypatch.setattr(accelerator, "await_loaded", lambda until: calls.append(until))
    t0 = time.monotonic()
    Searcher(fast=None).search(PaperSoccer.new(), node_limit=nodes, deadline=t0 + 0.12)
    assert bool(calls) == waits
    if waits:
        assert t0 + AWAIT_SHARE * 0.12 <= calls[0] <= time.monotonic() + AWAIT_SHARE * 0.12


@pytest.mark.parametrize("level, starts", [(3, False), (5, False), (6, True)])
def test_a_bot_starts_loading_before_its_first_input_at_level_6_only(monkeypatch, fresh_loader, level, starts):
    started = []
    monkeypatch.setattr(search, "compiled_tree", lambda wait=False: started.append(wait))
    PaperSoccerPlayer(level).get_ready(0.12)
    assert started == ([False] if starts else [])


def test_no_loading_when_pure_python_is_asked_for(monkeypatch, fresh_loader):
    started = []
    monkeypatch.setattr(search, "compiled_tree", lambda wait=False: started.append(wait))
    monkeypatch.setenv("TERMARENA_PURE_PYTHON", "1")
    PaperSoccerPlayer(6).get_ready(0.12)
    assert started == []


@pytest.mark.parametrize("spec, wanted", [("level:6", True), ("level:6,best_first=0", False),
                                           ("level:6,best_first=1,explore=100,wide=500", True)])
def test_a_best_first_bot_loads_that_search_with_the_tree(monkeypatch, fresh_loader, spec, wanted):
    # else its first search loads it from numba's cache, or compiles it, within a turn
    from ai.tools.specs import make_player

    monkeypatch.setattr(search, "compiled_tree", lambda wait=False: None)
    make_player("paper-soccer", spec).get_ready(0.12)
    assert accelerator._best_first is wanted
