"""What the screen says is what the keys do (issue 26): messages shown whole, every refused key says why,
the game-over panel found again, palette and dialogs in true words."""
from __future__ import annotations

import pytest
from rich.text import Text

from engines.base import InvalidOutput
from tests.helpers.app import SIZE, game_screen, make_app, message, screen_text, session, wait_until
from tui.screens.dialogs import ConfirmScreen, GameOverScreen
from tui.screens.game import GameScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.status import MessageLine

# 300 characters of numbered words: each can be found, in order, wherever the reason is shown
REASON = " ".join(f"w{i:03d}" for i in range(60)) + "."
assert len(REASON) == 300


def refuse_every_move_with(app, reason: str) -> None:
    def refuse(text):
        raise InvalidOutput(reason)

    session(app).play = refuse


def toast_texts(app) -> list[str]:
    from textual.widgets._toast import Toast

    return [" ".join(str(t.render()).split()) for t in app.screen.query(Toast)]


async def test_a_300_character_referee_reason_is_shown_whole():
    app = make_app("c4")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        refuse_every_move_with(app, REASON)
        await pilot.press("4")
        await wait_until(pilot, lambda: toast_texts(app))
        # too long for the side panel at 80x24: whole in a notification, and the line says so where it stops
        assert any(f"Illegal move '4': {REASON}" in t for t in toast_texts(app))
        line = " ".join(message(app).split())
        assert line.startswith("Illegal move '4': w000 w001") and line.endswith(MessageLine.MORE)
        assert session(app).ply == 0


async def test_a_reason_that_fits_is_wrapped_whole_in_the_message_line():
    app = make_app("c4")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        reason = REASON[:149]  # six lines of the side panel: more than the four it used to clip to
        refuse_every_move_with(app, reason)
        await pilot.press("4")
        await pilot.pause()
        assert " ".join(message(app).split()) == f"Illegal move '4': {reason}"
        line = app.screen.query_one(MessageLine)
        wrapped = Text(message(app)).wrap(app.console, line.content_region.width)
        assert line.size.height == len(wrapped) > 4  # every line of it on screen
        assert not toast_texts(app)


async def test_steal_as_red_says_why():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert session(app).ply == 0
        assert message(app) == "STEAL is only for Yellow's first move (it takes Red's first chip)"


async def test_convert_with_a_cultist_selected_says_why():
    app = make_app("cw", seed=1, moves=["0 CONVERT 4", "1 MOVE 1 3", "0 CONVERT 4", "1 MOVE 1 4"])  # Red has a cultist
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        for _ in range(6):
            if board.selected == 4:
                break
            await pilot.press("tab")
        assert board.selected == 4 and board.check_action("prepare", ("convert",)) is False
        await pilot.press("c")
        assert message(app) == "Only your leader converts: Tab selects it" and board.pending is None


async def test_keys_after_the_game_and_of_the_screen_say_why():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")  # the game-over panel of a game still running
        assert message(app) == "The game is not over yet"
        await pilot.press("r")
        assert message(app) == "Nothing to redo"
        await pilot.press(*"1212121")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")
        await pilot.press("3")  # a move key once the game is over
        assert message(app) == "The game is over: g shows the result, n sets up a new game"


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_the_game_over_panel_reopens_after_saving_and_leads_to_the_chart(tmp_path):
    app = make_app("c4", saves=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"1212121")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("enter")  # the save screen's default name
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))  # back to the panel
        assert list(tmp_path.glob("connect4*.txt"))
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        assert "g result" in screen_text(app).splitlines()[-1]  # the footer offers it
        await pilot.press("g")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("c")  # the chart of the game just played
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.has_class("charted")


async def test_palette_and_quit_dialog_say_what_they_do():
    from tui.commands import GameCommands

    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        provider = GameCommands(app.screen)
        helps = {name: help for name, help, _ in provider._available()}
        assert helps["Type a move"] == "type a move as the move list writes it, e.g. 5"
        styles = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "ASCII" in styles["Board style: ascii"]
        await pilot.press("4", "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen) and "`" not in app.screen.question
        await pilot.press("n")


async def test_question_mark_on_the_picker_shows_its_keys_and_only_the_digits_that_pick_a_game():
    from textual.widgets import HelpPanel

    from engines import game_ids

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.query_one(HelpPanel)
        keys = app.screen.active_bindings
        picks = sorted(k for k, b in keys.items() if b.binding.action.startswith("pick(") and b.enabled)
        assert picks == [str(i + 1) for i in range(len(game_ids()))]
        await pilot.press("question_mark")
        await pilot.pause()
        assert not app.screen.query(HelpPanel)
