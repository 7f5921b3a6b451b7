"""Connect 4 in the app, from key presses and clicks alone; also the generic screens (picker, setup,
help, game over, quit) and the opponents (AI in its process, an external bot)."""
from __future__ import annotations

import sys

import pytest

from engines import get_game
from engines.savefile import SavedGame
from tests.helpers.app import SIZE, game_screen, make_app, message, session, status, wait_until
from tests.helpers.paths import FIRST_MOVE_BOT as BOT
from tui.screens.dialogs import ConfirmScreen, GameOverScreen, MessageScreen
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.screens.picker import PickerScreen
from tui.screens.setup import SetupScreen
from tui.core.storage import save_game


def bot_spec(mode: str = "first") -> str:
    return f"cmd:{sys.executable} {BOT} connect4 {mode}"


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_picker_then_setup_then_a_hot_seat_game_to_the_end():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, PickerScreen)
        await pilot.press("3")  # Connect 4 is the third game
        assert isinstance(app.screen, SetupScreen) and app.screen.game_id == "connect4"
        app.screen.query_one("#kind1").value = "human"
        await pilot.press("enter")  # the Start button has the focus
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        # Red stacks four in column 1 while Yellow plays column 2.
        await pilot.press("1", "2", "1", "2", "1", "2", "1")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Red wins" in str(app.screen.query_one("#result-headline").render())
        assert session(app).notation == ["0", "1", "0", "1", "0", "1", "0"]
        assert session(app).game.winning_cells() == [(3, 0), (4, 0), (5, 0), (6, 0)]
        await pilot.press("escape")  # look at the board
        assert isinstance(app.screen, GameScreen) and "Game over" in status(app)


async def test_cursor_keys_enter_and_space_drop_and_s_steals_only_when_legal():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        await pilot.press("left", "left", "enter")  # from the middle column (4) to 2
        assert session(app).notation == ["2"]
        assert board.check_action("steal", ()) is True
        await pilot.press("s")
        assert session(app).notation == ["2", "STEAL"]
        assert board.check_action("steal", ()) is False
        await pilot.press("s")  # no longer legal: the key does nothing
        await pilot.press("right", "space")
        assert session(app).notation == ["2", "STEAL", "3"]


async def test_clicking_a_column_drops_there():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        await pilot.pause()
        await pilot.click(board, offset=board.column_offset(6))  # the real pilot's click, once
        assert session(app).notation == ["6"]


async def test_an_illegal_move_is_refused_in_the_players_numbers_and_changes_nothing():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"5555555")
        before = session(app).game.key()
        await pilot.press("5")
        assert session(app).game.key() == before and session(app).ply == 7
        assert message(app) == "Column 5 is full"  # the key's number, not CodinGame's 4
        await pilot.press("colon", "5", "enter")  # typed, the referee's own reason follows the move
        await pilot.pause()
        assert session(app).ply == 7
        # the referee's reason, with the column it quotes in the player's numbers too (CodinGame's "4")
        assert message(app) == "Illegal move '5': Chosen column is already filled: wrong action \"5\" (Already filled column)"


async def test_hot_seat_undo_and_redo_one_ply_at_a_time():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert screen.check_action("undo", ()) is False  # nothing to undo: hidden
        await pilot.press("4", "5", "6")
        await pilot.press("u")
        assert session(app).notation == ["3", "4"]
        await pilot.press("u")
        assert session(app).notation == ["3"]
        await pilot.press("r")
        assert session(app).notation == ["3", "4"]
        assert "Took back" in message(app) or "Replayed" in message(app)


@pytest.mark.slow  # a whole game, each AI turn in its worker process
async def test_against_the_ai_a_whole_game_then_undo_back_to_my_turn():
    app = make_app("c4", "human", "ai:1", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)

        async def my_turn():
            await wait_until(pilot, lambda: s.human_to_move() or s.is_over())

        await pilot.press("5")
        await my_turn()
        assert s.ply == 2  # the AI answered in its own process
        await pilot.press("u")
        assert s.ply == 0 and s.human_to_move()
        # Play on until the game ends: always the first open column, by its key.
        while not s.is_over():
            col = next(c for c in range(9) if s.game.drop_row(c) is not None)
            await pilot.press(str(col + 1))
            await my_turn()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_the_ai_can_be_interrupted_by_undo_while_it_thinks():
    app = make_app("c4", "human", "ai:1", ai_think_ms=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("5")
        assert screen.ai.search is not None or session(app).ply == 2
        await pilot.press("u")
        assert session(app).ply == 0 and screen.ai.search is None
        await pilot.pause(0.3)
        assert session(app).ply == 0  # the cancelled search's answer never lands


async def test_hint_shows_a_move_without_playing_it():
    app = make_app("c4", "human", "ai:1")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("H")
        await wait_until(pilot, lambda: "Hint" in message(app), timeout=20)
        assert session(app).ply == 0


async def test_help_screen_lists_the_keys_and_closes():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_quit_asks_first_while_a_game_runs():
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_new_game_goes_to_the_setup_with_the_same_players():
    app = make_app("c4", "human", "ai:2")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")  # nothing played yet: no question
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.query_one("#kind1").value == "ai" and app.screen.query_one("#level1").value == 2
        await pilot.press("escape")
        assert isinstance(app.screen, PickerScreen)


async def test_a_saved_game_loads_with_its_players_moves_and_redo_line(tmp_path):
    game = get_game("connect4").new()
    for m in ("4", "3", "4"):
        game.play(m)
    saved = SavedGame(game="connect4", moves=["4", "3", "4"], redo=["3"], players=("human", "human"))
    path = tmp_path / "g.txt"
    save_game(path, saved, game)
    app = make_app(load=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = session(app)
        assert isinstance(app.screen, GameScreen) and s.notation == ["4", "3", "4"] and s.redo_moves == ["3"]
        await pilot.press("r")
        assert s.notation == ["4", "3", "4", "3"]


async def test_a_file_that_is_not_a_save_is_refused_in_words(tmp_path):
    path = tmp_path / "junk.txt"
    path.write_text("hello\n")
    app = make_app("c4", load=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MessageScreen))  # the file is read in a worker
        assert "not a termarena save" in str(app.screen.query_one(".dialog-text").render())
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen) and session(app).ply == 0


@pytest.mark.slow  # a real bot process
async def test_an_external_bot_plays_its_stderr_is_shown_and_undo_is_refused_in_words():
    app = make_app("c4", "human", bot_spec())
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await pilot.press("5")
        await wait_until(pilot, lambda: s.ply == 2)
        assert s.notation[1] == "0"  # the bot's first legal column
        await pilot.press("u")
        assert s.ply == 2 and "external bot" in message(app)
        await pilot.press("L")
        await wait_until(pilot, lambda: game_screen(app).query_one("#bot-log").lines >= 1)


@pytest.mark.slow  # a real bot process
async def test_a_bot_that_crashes_loses_and_the_reason_is_told_in_plain_words():
    # without time limits: on a busy machine a slow start must not turn the crash into a timeout
    app = make_app("c4", bot_spec("crash"), "human", bot_time_limits=False)
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await wait_until(pilot, lambda: s.ply == 1)
        await pilot.press("5")
        await wait_until(pilot, lambda: s.is_over())
        out = s.outcome()
        assert out.winner == 1 and out.reason == "crash"
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "crashed" in str(app.screen.query_one("#result-reason").render())


@pytest.mark.slow  # a real bot process
async def test_a_bot_that_answers_nonsense_loses_with_the_referees_reason():
    app = make_app("c4", bot_spec("junk"), "human")
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await wait_until(pilot, lambda: s.is_over())
        assert s.outcome().reason == "invalid" and s.outcome().winner == 1
        assert s.outcome().output == "hello" and s.outcome().fault == 0


async def test_setup_asks_for_a_bot_command_and_a_whole_number_seed():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        setup = app.screen
        setup.query_one("#kind1").value = "cmd"
        await pilot.pause()
        assert setup.query_one("#cmd1").display and not setup.query_one("#level1").display
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SetupScreen)
        assert "type the command" in str(setup.query_one("#setup-error").render())
        setup.query_one("#kind1").value = "ai"
        setup.query_one("#first").value = 1  # Player 2 (the AI) moves first
        setup.query_one("#seed").value = "x7"
        await pilot.press("ctrl+s")
        assert "whole number" in str(setup.query_one("#setup-error").render())
        setup.query_one("#seed").value = "7"
        await pilot.press("ctrl+s")
        await pilot.pause()
        s = session(app)
        assert s.seed == 7 and [spec.kind for spec in s.specs] == ["ai", "human"]


@pytest.mark.slow  # a whole game of two AIs
async def test_two_ais_play_a_game_to_its_end_while_you_watch():
    app = make_app("c4", "ai:1", "ai:1", seed=5, watch_delay_s=0.01)
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await wait_until(pilot, lambda: s.is_over(), timeout=60)
        assert not s.can_undo()


def test_a_loaded_game_keeps_its_players_but_a_bot_cannot_join_midway():
    from tui.app import specs_for_saved

    specs_, note = specs_for_saved(("ai:2", "cmd:./bot"), True, None)
    assert [s.label for s in specs_] == ["ai:2", "human"] and "cannot join a game in progress" in note
    specs_, note = specs_for_saved(("human", "cmd:./bot"), False, None)
    assert [s.label for s in specs_] == ["human", "cmd:./bot"] and note == ""


async def test_a_refused_undo_does_not_stop_the_ai_that_moves_first():
    app = make_app("c4", "ai:1", "human", ai_think_ms=300)
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await pilot.press("u")  # nothing of mine to take back while the AI thinks
        game_screen(app).action_undo()  # (the key is disabled then; the action refuses in words)
        assert "Nothing to undo" in message(app) or s.ply == 1
        await wait_until(pilot, lambda: s.ply == 1)


@pytest.mark.slow  # a real bot process, and waits for the 1 s first-turn limit
async def test_a_silent_bot_loses_on_time_with_the_codingame_limit():
    app = make_app("c4", bot_spec("silent"), "human")
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        await wait_until(pilot, lambda: s.is_over(), timeout=10)
        assert s.outcome().reason == "timeout" and s.outcome().winner == 1


async def test_the_help_lists_every_key_of_the_game_screen_in_its_binding_words():
    """The help is built from GameScreen.BINDINGS: a key added there shows in the help by itself."""
    from tui.screens.game import GameScreen
    from tui.screens.help import HelpScreen, format_key

    app = make_app("connect4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = "\n".join(f"{keys} {words}" for keys, words in app.screen.key_rows)
        for b in GameScreen.BINDINGS:
            assert b.id, f"{b.key} has no id"
            assert all(format_key(k) in text for k in b.key.split(",")), b.key
            assert (b.tooltip or b.description).split(",")[0].split("{")[0] in text, b.id


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_the_command_palette_runs_undo_like_its_key():
    from textual.command import CommandPalette

    app = make_app("connect4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await wait_until(pilot, lambda: session(app).ply == 1)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"undo")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: session(app).ply == 0)
