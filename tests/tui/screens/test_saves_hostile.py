"""The app against hostile files: a poisoned autosave never stops the start, a failed --load never costs
the unfinished autosaved game, --load of a FIFO or a device answers at once, the load screen lists a
folder of special files and always leaves "Reading the folder…", and no file text is read as markup."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.app import SIZE, highlight, make_app, open_load_screen, session, specs, text_of, wait_until
from tests.helpers.saves import c4_save
from tui.core.autosave import autosave_path
from tui.screens.dialogs import ConfirmScreen, MessageScreen
from tui.screens.game import GameScreen
from tui.screens.load import LoadScreen
from tui.screens.picker import PickerScreen
from tui.screens.save import ResumeScreen
from tui.core.storage import load_game

QUICK_S = 10.0  # a start or a listing that takes longer is blocked


def notifications(app) -> list[str]:
    return [n.message for n in app._notifications]


def poison(folder: Path, how: str) -> Path:
    path = autosave_path(folder)
    good = c4_save(folder, "good", ["4", "4"]).read_text()
    if how == "number":
        path.write_text(good.replace("format = 1", "format = ²"))
    elif how == "huge-seed":
        path.write_text(good.replace("turns = 2", f"seed = {'9' * 5000}\nturns = 2"))
    elif how == "markup":
        path.write_text(good.replace("[moves]", "[/bold]"))
    elif how == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    return path


# ---------------------------------------------------------------------------- a poisoned autosave


@pytest.mark.parametrize("how", ["number", "huge-seed", "markup", "fifo", "folder"])
async def test_a_poisoned_autosave_is_moved_aside_with_a_message_and_a_new_game_can_be_played(
        _saves_in_a_temporary_folder, how):
    folder = _saves_in_a_temporary_folder
    path = poison(folder, how)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MessageScreen), timeout=QUICK_S)
        words = text_of(app.screen, ".dialog-text")
        [moved] = folder.glob("autosave.bad-*.txt")
        assert "The autosave could not be read" in words and moved.name in words
        assert not os.path.lexists(path)
        if how == "number":
            assert "line 2: format version '²' is not a whole number" in words
        await pilot.press("enter")
        assert isinstance(app.screen, PickerScreen)
        app.start_game("c4", specs("human", "human"))
        await pilot.pause()
        await pilot.press("5")
        assert app.autosaver.flush()
        assert load_game(path)[0].moves == ["4"] and moved.exists()
        assert list(folder.glob("autosave.prev-*.txt")) == []  # nothing unfinished was there to keep


async def test_a_players_name_with_markup_in_the_autosave_does_not_stop_the_resume_offer(
        _saves_in_a_temporary_folder):
    c4_save(_saves_in_a_temporary_folder, "autosave", ["4"], players=("[/bold]", "human"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen), timeout=QUICK_S)
        assert "[/bold]" in text_of(app.screen, ".dialog-text")


# ---------------------------------------------------------------------------- --load that fails


async def test_a_failed_load_then_a_move_keeps_the_unfinished_autosaved_game(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    unfinished = c4_save(folder, "autosave", ["4", "4", "3"]).read_text()
    bad = folder / "bad.txt"
    bad.write_text(unfinished.replace("format = 1", "format = ²"))
    app = make_app("c4", load=str(bad))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MessageScreen), timeout=QUICK_S)
        assert "bad.txt: line 2: format version '²'" in text_of(app.screen, ".dialog-text")
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen) and session(app).ply == 0  # a new game instead
        await pilot.press("1")
        assert app.autosaver.flush()
        [kept] = folder.glob("autosave.prev-*.txt")
        assert kept.read_text() == unfinished and load_game(kept)[0].moves == ["4", "4", "3"]
        assert load_game(autosave_path(folder))[0].moves == ["0"]
        await wait_until(pilot, lambda: any(kept.name in n for n in notifications(app)), timeout=QUICK_S)
        await pilot.press("2")  # later moves write over the new game's own autosave, nothing more is kept
        assert app.autosaver.flush()
        assert len(list(folder.glob("autosave.prev-*.txt"))) == 1

    app = make_app()  # the kept game is in the load screen, and it resumes
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen), timeout=QUICK_S)
        await pilot.press("escape")
        load = await open_load_screen(pilot, "l")
        assert any(e.path == kept and e.error is None and e.turns == 3 for e in load.entries)


async def test_resuming_the_autosave_writes_over_it_without_keeping_a_copy(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    c4_save(folder, "autosave", ["4", "4"])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen), timeout=QUICK_S)
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("5")
        assert app.autosaver.flush()
        assert load_game(autosave_path(folder))[0].moves == ["4", "4", "4"]
        assert list(folder.glob("autosave.*-*.txt")) == [] and notifications(app) == []


async def test_loading_the_autosave_with_load_writes_over_it_too(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    path = c4_save(folder, "autosave", ["4", "4"])
    app = make_app(load=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("5")
        assert app.autosaver.flush()
        assert load_game(path)[0].moves == ["4", "4", "4"] and list(folder.glob("autosave.*-*.txt")) == []


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
async def test_load_of_a_special_file_answers_at_once(_saves_in_a_temporary_folder, kind):
    target = _saves_in_a_temporary_folder / "special.txt"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/zero")
    else:
        target.mkdir()
    app = make_app("c4", load=str(target))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MessageScreen), timeout=QUICK_S)
        words = text_of(app.screen, ".dialog-text")
        assert {"fifo": "FIFO", "device": "character device", "folder": "a folder"}[kind] in words


# ---------------------------------------------------------------------------- the load screen


async def test_the_load_screen_lists_a_folder_of_special_files_with_their_errors(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    c4_save(folder, "good", ["4"])
    os.mkfifo(folder / "pipe.txt")
    (folder / "loop.txt").symlink_to(folder / "loop.txt")
    (folder / "gone.txt").symlink_to(folder / "nowhere")
    (folder / "x.txt").mkdir()
    (folder / "[bold]markup.txt").write_text("junk")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        load = await open_load_screen(pilot, "l")
        errors = {e.path.name: e.error for e in load.entries}
        assert errors["good.txt"] is None and len(errors) == 6
        assert "FIFO" in errors["pipe.txt"] and "loops" in errors["loop.txt"] and "a folder" in errors["x.txt"]
        assert "5 that cannot be loaded" in text_of(load, "#load-note")
        for name in errors.keys() - {"good.txt"}:
            await highlight(pilot, load, name[: -len(".txt")])
            assert "cannot be loaded" in text_of(load, "#load-preview")
        await highlight(pilot, load, "[bold]markup")
        await pilot.press("d")  # the question quotes the name as it is, not as markup
        assert isinstance(app.screen, ConfirmScreen)
        assert "Delete [bold]markup.txt?" in text_of(app.screen, ".dialog-text")


async def test_the_load_screen_shows_an_unexpected_error_instead_of_waiting_forever(
        _saves_in_a_temporary_folder, monkeypatch):
    def broken(folder):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr("tui.screens.load.list_saves", broken)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        load = app.screen
        assert isinstance(load, LoadScreen)
        await wait_until(pilot, lambda: load.loaded, timeout=QUICK_S)
        note = text_of(load, "#load-note")
        assert "RuntimeError: the disk caught fire" in note and "Reading the folder" not in note
