"""The setup screen at the smallest supported terminal (80 x 24)."""
from __future__ import annotations

import pytest

from engines import GAME_IDS
from tests.helpers.app import SIZE, make_app
from tui.screens.setup import SetupScreen


@pytest.mark.parametrize("number, game_id", list(enumerate(GAME_IDS, 1)))
async def test_every_levels_description_leaves_the_start_button_on_screen(number, game_id):
    # a long description pushed the buttons below the bottom line (Paper Soccer's level 6, 7 lines)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(str(number))
        setup = app.screen
        assert isinstance(setup, SetupScreen) and setup.game_id == game_id
        for level in range(1, 7):
            setup.query_one("#level1").value = level
            await pilot.pause()
            assert f"level {level}" in str(setup.query_one("#level-notes").render())
            start = setup.query_one("#start").region
            assert start.height and start.bottom <= setup.query_one("#setup").content_region.bottom, (game_id, level)
