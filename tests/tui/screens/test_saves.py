"""Saving and loading in the app: ctrl+s, the load screen, resume (players, levels, redo line), replay,
the autosave and its offer on start, and every way a save can go wrong told in words."""
from __future__ import annotations

import errno
import os

import pytest

from engines import get_game
from engines.savefile import SavedGame
from tests.helpers.app import (SIZE, game_screen, highlight, make_app, message, open_load_screen, session, text_of,
                               wait_until)
from tests.helpers.saves import c4_save
from tui.core.autosave import autosave_path
from tui.screens.dialogs import ConfirmScreen, GameOverScreen, MessageScreen
from tui.screens.game import GameScreen
from tui.screens.load import result_words
from tui.screens.picker import PickerScreen
from tui.screens.replay import ReplayScreen
from tui.screens.save import ResumeScreen, SaveScreen
from tui.core.storage import load_game, save_game

C4_WIN = ["0", "1", "0", "1", "0", "1", "0"]  # Red stacks four in column 0


def disk_full(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


# ---------------------------------------------------------------------------- save, then load


async def test_save_with_ctrl_s_then_load_it_from_the_load_screen(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    app = make_app("c4", moves=["3", "STEAL"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("6")
        moves = list(session(app).notation)
        assert moves == ["3", "STEAL", "5"]
        key = session(app).game.key()
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SaveScreen)
        assert dialog.query_one("#save-name").value.startswith("connect4-")  # game and date
        await pilot.press("g", "space", "1", "enter")  # the default name is selected: typing replaces it
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and "Saved to" in message(app)
        assert (folder / "g 1.txt").is_file()

        await pilot.press("1")  # the game goes on after saving; then load the saved one back
        load = await open_load_screen(pilot)
        await highlight(pilot, load, "g 1")
        entry = load.selected()
        assert (entry.game, entry.turns, entry.result, entry.players) == ("connect4", 3, "*", ("human", "human"))
        facts = text_of(load, "#load-facts")
        assert "3 moves, Yellow to move" in facts and "Connect 4" in facts
        assert "●" in text_of(load, "#load-preview")  # the small board
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)  # leaving a game in progress: asked first
        await pilot.press("y")
        await pilot.pause()
        s = session(app)
        assert isinstance(app.screen, GameScreen) and s.notation == moves and s.game.key() == key
        assert "STEAL" in str(app.screen.query_one("#moves").query_one("#move-lines").render())


async def test_the_picker_opens_the_load_screen_with_l_delete_asks_and_escape_returns(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    c4_save(folder, "one", ["4"])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        load = await open_load_screen(pilot, "l")
        assert [e.path.name for e in load.entries] == ["one.txt"]
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: load.entries == [])
        assert not (folder / "one.txt").exists()
        assert "ctrl+s saves" in text_of(load, "#load-note")  # an empty folder says how to save
        await pilot.press("enter", "v", "d")  # nothing selected: nothing happens, nothing breaks
        assert app.screen is load
        await pilot.press("escape")
        assert isinstance(app.screen, PickerScreen)


# ---------------------------------------------------------------------------- resume


async def test_resume_keeps_players_levels_whose_turn_and_the_redo_line(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    c4_save(folder, "vs ai", ["4", "3", "4"], redo=["3", "4"], players=("ai:2", "human"), seed=11)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        load = await open_load_screen(pilot, "l")
        await pilot.press("enter")
        await pilot.pause()
        s = session(app)
        assert [spec.label for spec in s.specs] == ["ai:2", "human"] and s.seed == 11
        assert s.notation == ["4", "3", "4"] and s.redo_moves == ["3", "4"] and s.to_move() == 1
        await pilot.press("r")  # redo: my move, then the AI's, up to my next turn
        assert s.notation == ["4", "3", "4", "3", "4"] and s.redo_moves == [] and s.human_to_move()


async def test_a_forfeited_game_stays_finished_when_loaded(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    game = get_game("connect4").new()
    game.play("4")
    saved = SavedGame(game="connect4", moves=["4"], players=("cmd:./bot", "human"), result="0-1", reason="crash")
    save_game(folder / "crashed.txt", saved, game)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        load = await open_load_screen(pilot, "l")
        assert result_words(load.entries[0]) == "Yellow won (the bot crashed)"
        await pilot.press("v")  # replay it: the forfeit shows at the last move only
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.session.outcome() is None
        await pilot.press("end")
        assert replay.session.outcome().winner == 1 and replay.session.outcome().reason == "crash"


# ---------------------------------------------------------------------------- replay


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_replay_a_finished_game_back_and_forth_then_play_on(_saves_in_a_temporary_folder):
    c4_save(_saves_in_a_temporary_folder, "won", C4_WIN)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_load_screen(pilot, "l")
        await pilot.press("enter")  # a finished game opens in replay
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.ply == 0 and replay.length == 7

        def moves_text() -> str:
            return str(replay.query_one("#move-lines").render())

        def position_after(n: int):
            g = get_game("connect4").new()
            for m in C4_WIN[:n]:
                g.play(m)
            return g.key()

        assert "▶   start" in moves_text()
        await pilot.press("right", "right", "right")
        assert replay.ply == 3 and replay.session.game.key() == position_after(3)
        assert "▶  3" in moves_text() and "move 3 of 7" in text_of(replay, "#replay-info")
        await pilot.press("left")
        assert replay.ply == 2 and replay.session.game.key() == position_after(2)
        await pilot.press("end")
        assert replay.ply == 7 and replay.session.is_over() and "Red wins" in text_of(replay, "#status")
        assert replay.check_action("play_on", ()) is False  # over here: nothing to play on
        await pilot.press("home")
        assert replay.ply == 0 and replay.session.game.key() == position_after(0)
        await pilot.press("pagedown", "left", "p")  # +10 stops at the end; play on from move 6
        await pilot.pause()
        s = session(app)
        assert isinstance(app.screen, GameScreen)
        assert s.notation == C4_WIN[:6] and s.redo_moves == C4_WIN[6:] and s.human_to_move()


async def test_the_game_over_dialog_offers_replay_and_save():
    app = make_app("c4", moves=C4_WIN[:-1])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")  # the winning move
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("p")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.length == 7
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen) and session(app).is_over()
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveScreen)


async def test_a_game_that_ends_behind_the_load_screen_shows_its_result_on_return():
    app = make_app("c4", moves=["4"])
    async with app.run_test(size=SIZE) as pilot:
        load = await open_load_screen(pilot)
        screen = game_screen(app)
        screen.session.forfeit(1, "timeout", "Yellow's bot was late")  # as a bot's answer would, meanwhile
        screen._position_changed()
        await pilot.pause()
        assert app.screen is load  # no game-over dialog over another page
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


# ---------------------------------------------------------------------------- autosave


async def test_autosave_after_each_move_then_offered_on_start_and_resumed(_saves_in_a_temporary_folder):
    path = autosave_path(_saves_in_a_temporary_folder)
    app = make_app("c4", "human", "human")
    async with app.run_test(size=SIZE) as pilot:
        assert not path.exists()  # nothing played, nothing written
        await pilot.press("5", "6")
        assert app.autosaver.flush()
        saved, _ = load_game(path)
        assert saved.moves == ["4", "5"] and saved.result == "*"
        await pilot.press("u")  # an undo is autosaved too, with its redo line
        assert app.autosaver.flush()
        saved, _ = load_game(path)
        assert saved.moves == ["4"] and saved.redo == ["5"]

    app = make_app()  # the next start without a game
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert "1 move, Yellow to move · 1 to redo" in text_of(app.screen, ".dialog-text")
        await pilot.press("r")
        await pilot.pause()
        s = session(app)
        assert s.notation == ["4"] and s.redo_moves == ["5"]


async def test_the_app_removes_what_saves_killed_mid_write_left_as_it_starts(_saves_in_a_temporary_folder):
    from tests.helpers.saves import dead_pid, make_temp

    folder = _saves_in_a_temporary_folder
    stale = [make_temp(folder, f".autosave.txt.{dead_pid()}.abcdefgh.tmp"),
             make_temp(folder, f".my game.txt.{dead_pid()}.abcdefgh.tmp")]
    app = make_app("c4", "human", "human", autosave=False)  # no autosave, no listing: the start does it
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not any(p.exists() for p in stale) and list(folder.iterdir()) == []


async def test_discarding_the_autosave_deletes_it_and_a_finished_game_is_not_offered(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    c4_save(folder, "autosave", ["4", "4"])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen) and not autosave_path(folder).exists()

    c4_save(folder, "autosave", C4_WIN)  # finished
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)


async def test_a_failing_autosave_is_told_once_and_keeps_the_previous_one(_saves_in_a_temporary_folder, monkeypatch):
    path = autosave_path(_saves_in_a_temporary_folder)
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        assert app.autosaver.flush()
        before = path.read_text()

        with monkeypatch.context() as m:
            m.setattr(os, "fsync", disk_full)
            await pilot.press("6")
            assert app.autosaver.flush()
            await wait_until(pilot, lambda: "Autosave failed" in message(app))
            assert "No space left on device" in message(app)
            assert path.read_text() == before and sorted(p.name for p in path.parent.iterdir()) == ["autosave.txt"]
        await pilot.press("7")
        await wait_until(pilot, lambda: "Autosave works again" in message(app))
        assert load_game(path)[0].moves == ["4", "5", "6"]


# ---------------------------------------------------------------------------- what goes wrong, in words


async def test_bad_files_are_listed_with_their_error_and_cannot_be_opened(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    good = c4_save(folder, "good", ["4", "4"])
    (folder / "junk.txt").write_text("hello\n")
    (folder / "binary.txt").write_bytes(b"\xff\xfe\x00\x01")
    text = good.read_text()
    (folder / "truncated.txt").write_text(text[: text.index("[final]")])
    (folder / "future.txt").write_text(text.replace("format = 1", "format = 7"))
    (folder / "illegal.txt").write_text(text.replace("\n2 4\n", "\n2 STEAL!\n"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        load = await open_load_screen(pilot, "l")
        errors = {e.path.stem: e.error for e in load.entries}
        assert errors["good"] is None and len(errors) == 6
        assert "not a termarena save" in errors["junk"] and "UTF-8" in errors["binary"]
        assert "truncated" in errors["truncated"] and "format version 7" in errors["future"]
        assert "illegal move" in errors["illegal"] and "line" in errors["illegal"]
        await highlight(pilot, load, "future")
        assert "cannot be loaded" in text_of(load, "#load-preview")
        assert "newer termarena" in text_of(load, "#load-facts")
        assert load.check_action("open", ()) is False
        load.action_open()  # even forced, a bad file does not open: the reason is repeated below
        await pilot.pause()
        assert app.screen is load and "format version 7" in text_of(load, "#load-note")
        await highlight(pilot, load, "good")
        await pilot.press("enter")
        await pilot.pause()
        assert session(app).notation == ["4", "4"]


async def test_a_save_name_that_escapes_the_folder_is_refused_with_a_message(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    app = make_app("c4", moves=["4"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        dialog = app.screen
        for name in ("../evil", "/tmp/evil", "sub/evil"):
            dialog.query_one("#save-name").value = name
            await pilot.press("enter")
            assert app.screen is dialog
            assert "not a usable save name" in text_of(dialog, "#save-error")
        assert not (folder.parent / "evil.txt").exists() and list(folder.glob("*evil*")) == []
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen) and session(app).ply == 1


async def test_a_full_disk_gives_a_message_and_loses_nothing(_saves_in_a_temporary_folder, monkeypatch):
    folder = _saves_in_a_temporary_folder
    old = c4_save(folder, "keep", ["0"])
    before = old.read_text()
    app = make_app("c4", moves=["4", "5"], autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        with monkeypatch.context() as m:
            m.setattr(os, "fsync", disk_full)
            await pilot.press("ctrl+s")
            dialog = app.screen
            dialog.query_one("#save-name").value = "keep"
            await pilot.press("enter")
            assert isinstance(app.screen, ConfirmScreen)  # the name exists: replace it?
            await pilot.press("y")
            await pilot.pause()
            assert app.screen is dialog and "No space left on device" in text_of(dialog, "#save-error")
            assert old.read_text() == before and sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
        # space again: the same dialog saves
        await pilot.press("enter", "y")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and session(app).notation == ["4", "5"]
        assert load_game(old)[0].moves == ["4", "5"]


async def test_a_loaded_game_with_a_bot_seat_and_moves_seats_a_human_and_says_so(_saves_in_a_temporary_folder):
    path = c4_save(_saves_in_a_temporary_folder, "bot", ["4"], players=("human", "cmd:./mybot"))
    app = make_app(load=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "cannot join a game in progress" in text_of(app.screen, ".dialog-text")
        await pilot.press("enter")
        assert [s.kind for s in session(app).specs] == ["human", "human"]


async def test_explicit_players_replace_the_files_players(_saves_in_a_temporary_folder):
    from tui.core.specs import parse_spec

    path = c4_save(_saves_in_a_temporary_folder, "g", ["4"], players=("human", "human"))
    app = make_app("c4", load=str(path), overrides=[None, parse_spec("ai:1")])
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        assert [spec.label for spec in s.specs] == ["human", "ai:1"]
        await wait_until(pilot, lambda: s.ply == 2)  # the AI plays on from the loaded position
