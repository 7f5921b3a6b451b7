"""A bot in the app that answers with a huge illegal line: the game ends with a short, one-line reason."""
from __future__ import annotations

import sys

import pytest

from tests.helpers.app import SIZE, make_app, session, wait_until


@pytest.mark.slow  # a real bot process
async def test_a_huge_illegal_answer_is_quoted_short():
    huge = f"cmd:{sys.executable} -c \"import sys; sys.stdin.readline(); print('7' * 900_000, flush=True)\""
    app = make_app("connect4", p1=huge, p2="human")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: session(app).outcome() is not None)
        out = session(app).outcome()
        assert out.reason == "invalid" and out.output == "7" * 900_000
        screen = app.screen  # the game-over dialog shows the reason
        reason = str(screen.query_one("#result-reason").render())
        assert len(reason) < 400 and "7777777777" in reason
