"""Session-wide settings and fixtures for the tests."""
import gc
import os
import resource
import time

import pytest
from hypothesis import settings

from tests.helpers.clock import TickingClock

# Paper Soccer searches that may choose keep to the pure-Python tree, in the tests and in the bots they
# start: the compiled tree (the `fast` extra) gives the same answers (tests/ai/test_paper_soccer_compiled.py
# checks that), and loading it in the background of every test process would only slow the suite.
os.environ["TERMARENA_PURE_PYTHON"] = "1"

# Hypothesis's deadline (200 ms an example by default) is a wall-clock window: on a busy machine it fails
# a property that merely ran slowly.  Tests keep their own numbers of examples.
settings.register_profile("termarena", deadline=None)
settings.load_profile("termarena")

# Python's full garbage collections walk every object, and the app tests leave big cycles of widgets
# behind: with the default thresholds, full collections took about a tenth of the suite's CPU.  What
# imports and collection made lives to the end (frozen: never walked again), and a full collection runs
# when the process's peak memory has grown by FULL_COLLECTION_MB since the last one, instead.
FULL_COLLECTION_MB = 200
_peak_at_last_collection = [0.0]


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if os.uname().sysname == "Linux" else peak / 2**20  # KB on Linux, bytes elsewhere


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 1_000_000)  # young generations as usual; the full one as below
    _peak_at_last_collection[0] = _peak_mb()


def pytest_runtest_teardown(item, nextitem):
    if _peak_mb() > _peak_at_last_collection[0] + FULL_COLLECTION_MB:
        gc.collect()
        _peak_at_last_collection[0] = _peak_mb()


@pytest.fixture
def tictactoe():
    """The test-only sixth game (tests/helpers/tictactoe), registered for one test; gives its id."""
    from tests.helpers.games import registered

    with registered() as game_id:
        yield game_id


@pytest.fixture(scope="module")
def with_tictactoe():
    """The same for a whole module: its contract tests run over ALL_GAMES (tests/helpers/games.py)."""
    from tests.helpers.games import registered

    with registered() as game_id:
        yield game_id


@pytest.fixture
def ticking_clock(monkeypatch):
    """`ticking_clock(step)` puts a `TickingClock` in place of `time.monotonic` for the test and returns it
    (every module that calls `time.monotonic()` reads it; the referee's and Textual's own timers too, so
    keep it to tests of pure code)."""
    def install(step: float) -> TickingClock:
        clock = TickingClock(step)
        monkeypatch.setattr(time, "monotonic", clock)
        return clock

    return install
