"""`termarena server` with a front whose extra is not installed says so before anything listens."""
from __future__ import annotations

import asyncio
import sys

import pytest

from tui.core.server.run import Fronts, ServerError, serve


@pytest.mark.parametrize("fronts, front, extra", [(Fronts(ssh_port=0), "tui.core.server.ssh", "server"),
                                                  (Fronts(web_port=0), "tui.core.server.web", "web")])
async def test_a_missing_extra_is_said_before_listening(tmp_path, monkeypatch, fronts, front, extra):
    # The front's module cannot be imported, as when its extra's library is absent (a None entry makes
    # `import` raise ImportError, whether or not an earlier test imported it).
    monkeypatch.setitem(sys.modules, front, None)
    said = []
    with pytest.raises(ServerError, match=rf"pip install 'termarena\[{extra}\]'"):
        # A server that wrongly starts serves until stopped: the timeout turns that into a failure.
        await asyncio.wait_for(serve(tmp_path / "data", "127.0.0.1", 0, fronts=fronts, log=said.append), 60)
    assert said == [] and not (tmp_path / "data").exists()
