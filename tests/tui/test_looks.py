"""The looks of the settings: the ASCII board style (no glyph outside ASCII on the board), the
colour-blind palette, Paper Soccer's moves as arrows; snapshots at 80x24."""
from __future__ import annotations

import pytest

from tests.helpers.app import SIZE, make_app
from tests.helpers.scripted_games import MID_GAME
from tui.core.settings import Settings
from tui.widgets.boards.looks import COLOUR_BLIND, palette_styler, to_ascii


def app_with(settings: Settings, game: str):
    seed, moves, _keys = MID_GAME[game]
    app = make_app(game, seed=seed or 1, moves=moves)
    app.settings = settings
    return app


@pytest.mark.parametrize("game", ["connect4", "paper-soccer"])
def test_ascii_board_at_80x24(game, snap_compare):
    assert snap_compare(app_with(Settings(board_style="ascii"), game), terminal_size=SIZE)


def test_colour_blind_connect4_at_80x24(snap_compare):
    assert snap_compare(app_with(Settings(palette="colour-blind"), "connect4"), terminal_size=SIZE)


@pytest.mark.parametrize("game", list(MID_GAME))
async def test_every_board_in_ascii_draws_only_ascii(game):
    app = app_with(Settings(board_style="ascii"), game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        drawn = str(app.screen.query_one("#board").render())
        assert drawn.isascii() and drawn.strip()


def test_ascii_stand_ins_keep_the_sides_apart():
    assert to_ascii("●○", {"●": "X", "○": "O"}) == "XO"
    assert to_ascii("▗▄▄▖", None) != to_ascii("╭──╮", None)  # Lines of Action: black and white checkers


def test_the_colour_blind_palette_changes_the_sides_colours_only():
    restyle = palette_styler("colour-blind")
    assert restyle("bold red1 on grey30") == f"bold {COLOUR_BLIND['red1']} on grey30"
    assert palette_styler("standard") is None


async def test_paper_soccer_moves_are_listed_as_arrows_too():
    app = make_app("ps", moves=["0", "2", "4", "70"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        moves = str(app.screen.query_one("#move-lines").render())
        assert "0 ↑" in moves and "70 ↖↑" in moves
