"""What the app says about compiling the fast search ahead (the `fast` extra; ai/compile_ahead.py): told at
the picker and in the games that have such a search, never over another game; "compiled" only where
"compiling" was said.  A fake compile-ahead stands for the process, so nothing is compiled."""
from __future__ import annotations

import pytest

from ai.compile_ahead import Progress
from tests.helpers.app import FakeAhead, make_app, wait_until
from tui.screens.picker import PickerScreen


def news(app) -> list[str]:
    return [n.message for n in app._notifications if "fast Paper Soccer search" in n.message]


async def test_compiling_is_told_at_the_picker_and_in_paper_soccer_never_over_connect_4():
    app = make_app("c4", seed=1)
    async with app.run_test() as pilot:
        ahead = FakeAhead()
        app.follow_compile_ahead(ahead)
        ahead.report(Progress(1, 10, compiling=True))
        await wait_until(pilot, lambda: app.preparing == "compiling… 10%")
        await pilot.pause()
        assert news(app) == []  # a Connect 4 game: nothing about Paper Soccer over it

        app.show_picker()  # the news waited for a place where it belongs
        await wait_until(pilot, lambda: news(app))
        assert isinstance(app.screen, PickerScreen) and news(app)[0].startswith("Compiling the fast Paper Soccer")
        assert "Paper Soccer's fast search: compiling… 10%" in str(app.screen.query_one("#preparing").render())

        app.start_game("c4", app.start_specs)  # leaving for Connect 4 takes it away
        await wait_until(pilot, lambda: not news(app))
        ahead.report(Progress(10, 10, compiling=True, finished=True))
        await wait_until(pilot, lambda: app.compile_ahead is None)
        await pilot.pause()
        assert news(app) == [] and app.preparing == ""  # "compiled" is not said over Connect 4 either

        app.start_game("ps", app.start_specs)  # said where "compiling" was said: at the picker, in Paper Soccer
        await wait_until(pilot, lambda: news(app))
        assert news(app) == ["The fast Paper Soccer search is compiled: level 6 uses it from its next move."]


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_compiled_is_not_said_where_compiling_never_was():
    app = make_app("c4", seed=1)
    async with app.run_test() as pilot:
        ahead = FakeAhead()
        app.follow_compile_ahead(ahead)
        ahead.report(Progress(1, 10, compiling=True))
        await wait_until(pilot, lambda: app.preparing)
        ahead.report(Progress(10, 10, compiling=True, finished=True))
        await wait_until(pilot, lambda: app.compile_ahead is None)
        app.show_picker()
        await pilot.pause()
        assert news(app) == []
