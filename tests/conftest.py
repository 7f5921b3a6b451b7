"""Session-wide settings and fixtures for the tests."""
import os
import time

import pytest

from tests.helpers.clock import TickingClock

# Paper Soccer searches that may choose keep to the pure-Python tree, in the tests and in the bots they
# start: the compiled tree (the `fast` extra) gives the same answers (tests/ai/test_paper_soccer_compiled.py
# checks that), and loading it in the background of every test process would only slow the suite.
os.environ["TERMARENA_PURE_PYTHON"] = "1"


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
