"""Save files on disk: atomic writes, names that cannot escape the folder, clear errors for bad files."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engines import get_game
from engines.savefile import SavedGame
from tui.core.storage import (StorageError, atomic_write, default_name, list_saves, load_game, safe_path,
                         save_game, saves_dir)
from tests.helpers.paths import ROOT



def c4_after(*moves):
    g = get_game("connect4").new()
    for m in moves:
        g.play(m)
    return SavedGame(game="connect4", moves=list(moves), players=("human", "ai:2")), g


def test_saves_go_to_the_option_then_the_environment_then_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TERMARENA_SAVES", raising=False)
    assert saves_dir() == tmp_path / "saves"
    monkeypatch.setenv("TERMARENA_SAVES", str(tmp_path / "env"))
    assert saves_dir() == tmp_path / "env"
    assert saves_dir(tmp_path / "opt") == tmp_path / "opt"


@pytest.mark.parametrize("name", ["../evil", "/etc/passwd", "a/b", "..", ".hidden", "", "x" * 200, "nul\x00"])
def test_a_name_that_escapes_the_save_folder_is_refused(tmp_path, name):
    with pytest.raises(StorageError):
        safe_path(tmp_path, name)


def test_plain_names_are_accepted_and_get_the_suffix(tmp_path):
    assert safe_path(tmp_path, "my game 1") == tmp_path / "my game 1.txt"
    assert safe_path(tmp_path, default_name("connect4")).parent == tmp_path


def test_save_and_load_round_trip_and_listing(tmp_path):
    saved, game = c4_after("4", "4", "3")
    path = safe_path(tmp_path, "first")
    save_game(path, saved, game)
    loaded, state = load_game(path)
    assert loaded.moves == ["4", "4", "3"] and state.key() == game.key()
    (tmp_path / "broken.txt").write_text("not a save")
    entries = {e.path.name: e for e in list_saves(tmp_path)}
    assert entries["first.txt"].game == "connect4" and entries["first.txt"].turns == 3
    assert entries["broken.txt"].error and "broken.txt" in entries["broken.txt"].error


def test_load_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(StorageError) as e:
        load_game(bad)
    assert "bad.txt" in str(e.value)
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"x" * 3_000_001)
    with pytest.raises(StorageError) as e:
        load_game(huge)
    assert "huge.txt" in str(e.value) and "large" in str(e.value)
    with pytest.raises(StorageError):
        load_game(tmp_path / "missing.txt")


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "g.txt"
    path.write_text("old contents")

    def boom(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    saved, game = c4_after("4")
    with pytest.raises(StorageError) as e:
        save_game(path, saved, game)
    assert "No space left" in str(e.value)
    assert path.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["g.txt"]


@pytest.mark.slow  # a real process, killed
def test_killing_the_process_in_the_middle_of_a_save_keeps_the_previous_file(tmp_path):
    path = tmp_path / "g.txt"
    atomic_write(path, "previous save\n")
    child = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from tui.core import storage
        real_fsync = os.fsync
        def slow_fsync(fd):
            print("writing", flush=True)   # the new data is written, not yet renamed
            time.sleep(30)
        os.fsync = slow_fsync
        storage.atomic_write(storage.Path({str(path)!r}), "new save " * 100000)
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "writing"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert path.read_text() == "previous save\n"
