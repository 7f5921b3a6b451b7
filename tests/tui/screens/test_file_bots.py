"""A save file may name external bots as players (`p1 = cmd:...`).  Opening it must never start a program
unless the person at the keyboard saw the exact command line and said yes; the default is no, and no
still opens the game, with the AI in those seats.  Nothing headless ever starts one."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from engines import get_game
from engines.savefile import SavedGame, dump
from tests.helpers.app import SIZE, make_app, session, wait_until
from tui.screens.dialogs import ConfirmScreen
from tui.core.storage import list_saves, load_game


def _poisoned_save(folder: Path, marker: Path) -> Path:
    """A fresh Connect 4 game whose seat 1 is a 'bot' that creates `marker` when started."""
    code = f"open({str(marker)!r}, 'w')"
    command = f"cmd:{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    saved = SavedGame(game="connect4", players=(command, "human"))
    path = folder / "poisoned.txt"
    path.write_text(dump(saved, get_game("connect4").new()))
    return path


def test_listing_loading_and_previewing_never_start_the_files_bot(tmp_path):
    marker = tmp_path / "pwned"
    path = _poisoned_save(tmp_path, marker)
    saved, _ = load_game(path)
    assert saved.players[0].startswith("cmd:")
    entries = list_saves(tmp_path)
    assert [e.path for e in entries] == [path] and entries[0].error is None
    assert not marker.exists()


async def _open_and_answer(tmp_path, key: str | None):
    marker = tmp_path / "pwned"
    path = _poisoned_save(tmp_path, marker)
    app = make_app("connect4", load=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = str(app.screen.question)
        assert sys.executable in question and str(marker) in question  # the exact command line
        assert not marker.exists()  # nothing runs while the question is open
        await pilot.press(key or "enter")  # enter: the focused default button
        await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmScreen)
                         and any(type(s).__name__ == "GameScreen" for s in app.screen_stack))
        specs = [s.label for s in session(app).specs]
        if key == "y":
            await wait_until(pilot, marker.exists, timeout=15)
    return specs, marker.exists()


async def test_the_default_answer_starts_nothing_and_the_ai_takes_the_seat(tmp_path):
    specs, ran = await _open_and_answer(tmp_path, None)
    assert not ran and specs == ["ai:3", "human"]


async def test_no_starts_nothing(tmp_path):
    specs, ran = await _open_and_answer(tmp_path, "n")
    assert not ran and specs[0] == "ai:3"


@pytest.mark.slow  # a real bot process
async def test_yes_starts_the_bot(tmp_path):
    specs, ran = await _open_and_answer(tmp_path, "y")
    assert ran and specs[0].startswith("cmd:")


async def test_the_load_screen_asks_too(tmp_path):
    marker = tmp_path / "pwned"
    path = _poisoned_save(tmp_path, marker)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_saved(path)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: any(type(s).__name__ == "GameScreen" for s in app.screen_stack))
        assert [s.label for s in session(app).specs][0] == "ai:3"
    assert not marker.exists()
