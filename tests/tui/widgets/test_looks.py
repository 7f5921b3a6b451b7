"""The looks of the settings: the ASCII style (no glyph outside ASCII on the whole screen: boards, side
panel, footer, dialogs, help, picker; pieces that can be counted), the colour-blind palette, Paper
Soccer's moves as arrows; snapshots at 80x24."""
from __future__ import annotations

import pytest

from tests.helpers.app import SIZE, make_app, screen_text
from tests.helpers.scripted_games import MID_GAME
from tui.core.settings import Settings
from tui.widgets.boards.looks import COLOUR_BLIND, palette_styler, to_ascii


def app_with(settings: Settings, game: str):
    seed, moves, _keys = MID_GAME[game]
    app = make_app(game, seed=seed or 1, moves=moves)
    app.settings = settings
    return app


@pytest.mark.parametrize("game", list(MID_GAME))
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


def not_ascii(app) -> list[str]:
    return sorted({ch for ch in screen_text(app) if not ch.isascii()})


@pytest.mark.parametrize("game", list(MID_GAME))
async def test_the_ascii_style_is_ascii_on_the_whole_screen(game):
    """The game screen, its help and its quit dialog at 80x24 show nothing outside ASCII."""
    app = app_with(Settings(board_style="ascii"), game)
    async with app.run_test(size=SIZE) as pilot:
        for keys in ([], ["question_mark"], ["escape", "ctrl+q"]):
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            assert not_ascii(app) == [], f"{game} after {keys}"


async def test_the_ascii_style_is_ascii_in_the_picker_settings_and_load_screen():
    app = make_app()
    app.settings = Settings(board_style="ascii")
    async with app.run_test(size=SIZE) as pilot:
        for keys in ([], ["o"], ["escape", "l"], ["escape", "ctrl+p"]):
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            assert not_ascii(app) == [], f"picker after {keys}"


async def test_choosing_the_ascii_style_in_a_game_redraws_the_whole_screen_at_once():
    app = app_with(Settings(), "connect4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "●" in screen_text(app) and "⏎" in screen_text(app)
        app.change_settings(Settings(board_style="ascii"))
        await pilot.pause()
        assert not_ascii(app) == []
        assert "> X Red" in screen_text(app)  # the side panel marks a side as its board does
        app.change_settings(Settings())
        await pilot.pause()
        assert "▶ ● Red" in screen_text(app)


async def test_lines_of_action_checkers_can_be_counted_in_ascii():
    """One `X` or `O` a square, apart from each other: as many marks on the board as checkers."""
    app = app_with(Settings(board_style="ascii"), "lines-of-action")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        drawn = str(app.screen.query_one("#board").render())
        black, white = app.screen.query_one("#board").game.checker_counts()
        assert (drawn.count("X"), drawn.count("O")) == (black, white)
        assert "XX" not in drawn and "##" not in drawn


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
        assert "8 ↑" in moves and "78 ↖↑" in moves  # the keypad keys of CodinGame's "0" and "70"
