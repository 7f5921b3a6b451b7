"""App tests are `async def` (Textual's pilot is async): run each in its own event loop, no plugin needed."""
from __future__ import annotations

import asyncio
import inspect

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(pyfuncitem.obj(**args))
        return True
    return None


@pytest.fixture(autouse=True)
def _saves_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    """Every app test saves (and autosaves) into a folder of its own, never into the repository's saves/."""
    folder = tmp_path_factory.mktemp("saves")
    monkeypatch.setenv("TERMARENA_SAVES", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))  # never the user's settings
    return folder
