"""App tests are `async def` (Textual's pilot is async): run each in its own event loop, no plugin needed."""
from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest
import textual._wait


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(pyfuncitem.obj(**args))
        return True
    return None


# The inner loop (-m "not slow") stays under a minute on 2 cores only if an app test repeated for every game
# runs one game's case there: Paper Soccer's.  The other games' cases are marked slow and run in the whole
# suite (CI's); each game keeps its own app tests (test_app_<game>.py) in the inner loop.
INNER_LOOP_GAME = "paper-soccer"
TUI_TESTS = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params if callspec is not None else {}
        game = params.get("game", params.get("game_id"))
        if isinstance(game, str) and game != INNER_LOOP_GAME and item.path.is_relative_to(TUI_TESTS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _saves_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    """Every app test saves (and autosaves) into a folder of its own, never into the repository's saves/."""
    folder = tmp_path_factory.mktemp("saves")
    monkeypatch.setenv("TERMARENA_SAVES", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))  # never the user's settings
    return folder


@pytest.fixture(autouse=True)
def _short_idle_steps(request, monkeypatch):
    """Pilot's key presses and pauses wait for the app to look idle (textual._wait.wait_for_idle): sleeps
    of 20 ms until one passes with under 1 ms of CPU, twice a key, so the work after each key is rounded
    up to 20 ms steps plus one idle step.  Steps of 5 ms at the same ratio: tests/tui's inner loop took
    41.6 s on 2 quiet cores, against 50.6 s with 10 ms steps (which had taken a quarter off 20 ms) and
    38.9 s with 2.5 ms.  A test waits for what happens in a worker, a thread or a process with wait_until (an
    event), never on this heuristic.  Snapshots keep Textual's steps: the screenshot is taken once the
    app looks idle, and a shorter look caught a chart before its last refresh.  (Textual is pinned
    below 8.3, where these names exist.)"""
    if "snap_compare" not in request.fixturenames:
        monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 1 / 200)
        monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 1 / 200 / 20)
