"""The app against hostile files: --load of a FIFO or a device answers at once, the load screen lists a
folder of special files and always leaves "Reading the folder…", and no file text is read as markup."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.tui.helpers import SIZE, make_app, wait_until
from tests.tui.test_saves import c4_save, highlight, open_load_screen, text_of
from tui.screens.dialogs import ConfirmScreen, MessageScreen
from tui.screens.load import LoadScreen
from tui.screens.save import ResumeScreen

QUICK_S = 10.0  # a start or a listing that takes longer is blocked


# ---------------------------------------------------------------------------- file text is no markup


async def test_a_players_name_with_markup_in_the_autosave_does_not_stop_the_resume_offer(
        _saves_in_a_temporary_folder):
    c4_save(_saves_in_a_temporary_folder, "autosave", ["4"], players=("[/bold]", "human"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen), timeout=QUICK_S)
        assert "[/bold]" in text_of(app.screen, ".dialog-text")


# ---------------------------------------------------------------------------- --load of a special file


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
