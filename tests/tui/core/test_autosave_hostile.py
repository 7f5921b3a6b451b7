"""The autosave's rules against hostile files: an autosave that cannot be loaded is set aside at start
(autosave.bad-….txt) whatever it is (bad numbers, a FIFO, a folder, a link loop, a device); the first
write of an Autosaver keeps an unfinished game it did not write (autosave.prev-….txt), writes over a
finished one or an adopted one, and writes nothing when the game cannot be kept; it clears stale
temporaries first, and keeps only the newest KEEP_PREV autosave.prev-….txt."""
from __future__ import annotations

import os

import pytest

from tests.helpers.hostile import promptly
from tests.helpers.saves import SAVES, c4_save, dead_pid, make_temp
from tui.core.autosave import (KEEP_PREV, PREV, Autosaver, autosave_path, keep_unfinished_autosave, resumable,
                          set_aside_unreadable_autosave)
from tui.core.storage import load_game


def read_only_rename(*args):
    raise OSError(30, "Read-only file system")


def test_the_first_autosave_clears_stale_temporaries(tmp_path):
    stale = make_temp(tmp_path, f".autosave.txt.{dead_pid()}.abcdefgh.tmp")
    saver = Autosaver(autosave_path(tmp_path))
    saver.submit(SAVES[1])
    assert saver.flush()
    saver.close()
    assert not stale.exists() and autosave_path(tmp_path).read_text() == SAVES[1]


@pytest.mark.parametrize("poison", ["format", "fifo", "folder", "loop", "device"])
def test_an_unreadable_autosave_is_set_aside_at_start_with_the_reason(tmp_path, poison):
    path = autosave_path(tmp_path)
    if poison == "format":
        path.write_text(SAVES[1].replace("format = 1", "format = ²"))
    elif poison == "fifo":
        os.mkfifo(path)
    elif poison == "folder":
        path.mkdir()
    elif poison == "loop":
        path.symlink_to(path)
    else:
        path.symlink_to("/dev/zero")
    aside = promptly(set_aside_unreadable_autosave, tmp_path)
    assert aside.moved_to is not None and aside.moved_to.parent == tmp_path
    assert aside.moved_to.name.startswith("autosave.bad-") and os.path.lexists(aside.moved_to)
    assert not os.path.lexists(path) and resumable(tmp_path) is None
    assert aside.reason and aside.moved_to.name in aside.message() and "\n" not in aside.message()


def test_a_good_or_missing_autosave_is_left_alone_at_start(tmp_path):
    assert set_aside_unreadable_autosave(tmp_path) is None
    c4_save(tmp_path, "autosave")
    assert set_aside_unreadable_autosave(tmp_path) is None and resumable(tmp_path) is not None


def test_an_autosave_that_cannot_be_moved_aside_says_so(tmp_path, monkeypatch):
    autosave_path(tmp_path).write_text("poison")
    monkeypatch.setattr("tui.core.autosave.move_aside", read_only_rename)
    aside = set_aside_unreadable_autosave(tmp_path)
    assert aside.moved_to is None and "Read-only file system" in aside.message()
    assert autosave_path(tmp_path).read_text() == "poison"


def test_the_first_write_keeps_an_unfinished_game_it_did_not_write_and_then_writes_over_its_own(tmp_path):
    path = c4_save(tmp_path, "autosave", ["4", "4", "3"])
    before = path.read_text()
    told = []
    saver = Autosaver(path)
    saver.on_set_aside = told.append
    saver.submit(SAVES[2])
    assert saver.flush()
    saver.submit(SAVES[3])
    assert saver.flush()
    saver.close()
    [kept] = tmp_path.glob("autosave.prev-*.txt")
    assert kept.read_text() == before and load_game(kept)[0].moves == ["4", "4", "3"]
    assert path.read_text() == SAVES[3] and [a.moved_to for a in told] == [kept] and told[0].tag == PREV
    assert "unfinished game of Connect 4 (3 moves" in told[0].message()


def test_a_finished_game_is_written_over_and_an_adopted_one_too(tmp_path):
    path = c4_save(tmp_path, "autosave", ["0", "1", "0", "1", "0", "1", "0"])  # Red won
    assert keep_unfinished_autosave(path) is None
    c4_save(tmp_path, "autosave", ["4"])
    saver = Autosaver(path)
    saver.adopt()  # the app resumed it
    saver.submit(SAVES[1])
    assert saver.flush()
    saver.close()
    assert list(tmp_path.glob("autosave.*-*.txt")) == [] and path.read_text() == SAVES[1]


def test_an_unfinished_game_that_cannot_be_moved_aside_is_not_written_over(tmp_path, monkeypatch):
    path = c4_save(tmp_path, "autosave", ["4"])
    before = path.read_text()
    results = []
    monkeypatch.setattr("tui.core.autosave.move_aside", read_only_rename)
    saver = Autosaver(path, results.append)
    saver.submit(SAVES[1])
    assert saver.flush()
    saver.close()
    assert path.read_text() == before and results and "Read-only" in str(results[0])


def test_setting_an_unfinished_game_aside_keeps_only_the_newest_prev_files(tmp_path):
    # older ones, by the moment in their names (-2: the second within one second), whatever their mtime
    older = [tmp_path / f"autosave.prev-20260101-1000{n:02d}.txt" for n in range(KEEP_PREV)]
    older.insert(3, tmp_path / "autosave.prev-20260101-100002-2.txt")
    for age, path in enumerate(reversed(older)):
        make_temp(tmp_path, path.name, age_s=-age)  # the oldest name has the newest mtime
    others = [make_temp(tmp_path, name) for name in ("autosave.prev-notes.txt", "autosave.bad-20200101-000000.txt",
                                                     "autosave.prev-20200101-000000.txt.keep", "my game.txt")]
    folder_like = tmp_path / "autosave.prev-20190101-000000.txt"
    folder_like.mkdir()
    path = c4_save(tmp_path, "autosave", ["4"])
    saver = Autosaver(path)
    saver.submit(SAVES[1])
    assert saver.flush()
    saver.close()
    [new] = saver.set_aside
    kept = sorted(p for p in tmp_path.glob("autosave.prev-2*.txt") if p.is_file())
    assert kept == sorted([new.moved_to, *older[-(KEEP_PREV - 1):]])
    assert all(p.exists() for p in others) and folder_like.is_dir()
