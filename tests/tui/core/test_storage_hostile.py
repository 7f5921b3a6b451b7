"""A save folder that fights back: special files (a device, a FIFO, broken and looping links, a folder named
like a save, a huge file, one that cannot be opened), raw bytes, stale temporary files of killed writers,
a --saves-dir that is a file or read-only.  No Textual here (the app's side is in test_saves_hostile.py)."""
from __future__ import annotations

import datetime as dt
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import EngineError
from engines.savefile import MAX_SAVE_BYTES, MAGIC, parse
from tests.helpers.hostile import assert_clear, promptly
from tests.helpers.saves import SAVES, c4_save, dead_pid, make_temp
from tui.core import storage
from tui.core.storage import (STALE_TEMP_S, StorageError, check_saves_dir, decode_save, list_saves,
                         load_game, move_aside, remove_stale_temps)
from tests.helpers.paths import ROOT


def load_error(path: Path) -> str:
    with pytest.raises(StorageError) as e:
        promptly(load_game, path)
    assert_clear(e.value)
    return str(e.value)


# ---------------------------------------------------------------------------- special files, one by one


def test_a_character_device_is_refused_without_reading_it():
    assert "character device" in load_error(Path("/dev/zero"))


def test_a_link_to_a_device_in_the_folder_is_refused(tmp_path):
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    error = load_error(tmp_path / "zero.txt")
    assert "zero.txt" in error and "character device" in error


def test_a_fifo_is_refused_at_once_even_with_no_writer(tmp_path):
    os.mkfifo(tmp_path / "pipe.txt")
    assert "FIFO" in load_error(tmp_path / "pipe.txt")


def test_a_fifo_with_a_writer_is_refused_too(tmp_path):
    os.mkfifo(tmp_path / "pipe.txt")
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(tmp_path / 'pipe.txt')!r}, 'w').write('x' * 9)"])
    try:
        assert "FIFO" in load_error(tmp_path / "pipe.txt")
    finally:
        writer.kill()
        writer.wait()


def test_a_broken_link_says_where_it_points(tmp_path):
    (tmp_path / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    assert "nowhere.txt" in load_error(tmp_path / "gone.txt") and "does not exist" in load_error(tmp_path / "gone.txt")


def test_a_link_loop_is_refused(tmp_path):
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    assert "loops" in load_error(tmp_path / "a.txt")


def test_a_folder_named_like_a_save_is_refused(tmp_path):
    (tmp_path / "x.txt").mkdir()
    assert "a folder" in load_error(tmp_path / "x.txt")


def test_a_socket_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a socket's path must be short
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("s.txt")
        assert "socket" in load_error(Path("s.txt"))


def test_a_file_of_3_mb_is_refused_without_being_read(tmp_path, monkeypatch):
    big = tmp_path / "big.txt"
    big.write_bytes(MAGIC.encode() + b"\n" + b"x" * 3_000_000)
    monkeypatch.setattr(storage.os, "read", lambda fd, n: pytest.fail("read a file its size already refuses"))
    assert "too large" in load_error(big)


def test_a_file_that_lies_about_its_size_is_read_no_further_than_the_limit(tmp_path, monkeypatch):
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * (MAX_SAVE_BYTES + 500_000))
    real_stat, real_read = os.stat, os.read
    asked = []

    def small_stat(path, *args, **kwargs):  # as a file that grows after the check would look
        info = real_stat(path, *args, **kwargs)
        if str(path) == str(big):
            return os.stat_result((info.st_mode, *info[1:6], 10, *info[7:]))
        return info

    def counting_read(fd, n):
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(storage.os, "stat", small_stat)
    monkeypatch.setattr(storage.os, "read", counting_read)
    assert "too large" in load_error(big)
    assert sum(asked) <= MAX_SAVE_BYTES + 1


def test_a_file_that_cannot_be_opened_is_listed_with_its_error_and_the_others_still_load(tmp_path, monkeypatch):
    good = c4_save(tmp_path, "good")
    locked = c4_save(tmp_path, "locked")
    real_open = os.open

    def refusing_open(path, *args, **kwargs):  # tests run as root: chmod 000 would not stop them
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(storage.os, "open", refusing_open)
    entries = {e.path.name: e for e in promptly(list_saves, tmp_path)}
    assert entries["good.txt"].error is None and entries["good.txt"].turns == 2
    assert "Permission denied" in entries["locked.txt"].error
    assert good.exists() and locked.exists()


# ---------------------------------------------------------------------------- the whole folder


def test_a_folder_of_every_kind_of_hostile_file_lists_the_good_saves_and_the_bad_ones_with_errors(tmp_path):
    c4_save(tmp_path, "first", ["4"])
    c4_save(tmp_path, "second", ["4", "5", "6"])
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    (tmp_path / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    (tmp_path / "loop1.txt").symlink_to(tmp_path / "loop2.txt")
    (tmp_path / "loop2.txt").symlink_to(tmp_path / "loop1.txt")
    (tmp_path / "x.txt").mkdir()
    (tmp_path / "big.txt").write_bytes(b"y" * 3_000_000)
    (tmp_path / "binary.txt").write_bytes(bytes(range(256)))
    (tmp_path / "number.txt").write_text((tmp_path / "first.txt").read_text().replace("format = 1", "format = ²"))
    (tmp_path / "line\nbreak.txt").write_text("junk")
    (tmp_path / b"bad-\xff-bytes.txt".decode("utf-8", "surrogateescape")).write_text("junk")

    entries = {e.path.name: e for e in promptly(list_saves, tmp_path)}
    good = {name for name, e in entries.items() if e.error is None}
    assert good == {"first.txt", "second.txt"}
    for name in good:
        saved, _ = load_game(tmp_path / name)
        assert saved.moves == (["4"] if name == "first.txt" else ["4", "5", "6"])
    bad = {name: e.error for name, e in entries.items() if e.error}
    assert len(bad) == 11
    expected = {"pipe.txt": "FIFO", "zero.txt": "character device", "gone.txt": "does not exist",
                "loop1.txt": "loops", "loop2.txt": "loops", "x.txt": "a folder", "big.txt": "too large",
                "binary.txt": "UTF-8", "number.txt": "line 2: format version '²' is not a whole number"}
    for name, words in expected.items():
        assert words in bad[name], (name, bad[name])
    for error in bad.values():
        assert error and "\n" not in error


def test_listing_a_missing_folder_is_empty_and_a_file_or_an_unreadable_folder_is_one_entry_with_the_error(
        tmp_path, monkeypatch):
    assert list_saves(tmp_path / "none") == []
    (tmp_path / "file").write_text("x")
    [entry] = list_saves(tmp_path / "file")
    assert "cannot read the folder" in entry.error
    real_scandir = os.scandir
    monkeypatch.setattr(storage.os, "scandir",
                        lambda p: (_ for _ in ()).throw(PermissionError(13, "Permission denied"))
                        if str(p) == str(tmp_path) else real_scandir(p))
    [entry] = list_saves(tmp_path)
    assert "Permission denied" in entry.error


def test_listing_never_raises_even_when_loading_a_file_does(tmp_path, monkeypatch):
    c4_save(tmp_path, "good")
    c4_save(tmp_path, "odd")
    real = storage.load_game

    def flaky(path, *args):
        if path.name == "odd.txt":
            raise RuntimeError("an engine bug")
        return real(path, *args)

    monkeypatch.setattr(storage, "load_game", flaky)
    entries = {e.path.name: e for e in list_saves(tmp_path)}
    assert entries["good.txt"].error is None and "RuntimeError: an engine bug" in entries["odd.txt"].error


# ---------------------------------------------------------------------------- raw bytes and flipped bytes


def read_bytes_as_a_save(raw: bytes, path: Path = Path("fuzz.txt")):
    try:
        return parse(decode_save(raw, path))
    except (StorageError, EngineError) as e:
        assert_clear(e)
        return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.one_of(st.binary(max_size=400), st.binary(max_size=400).map(lambda b: MAGIC.encode() + b"\n" + b)))
def test_raw_bytes_load_or_are_refused_clearly(raw):
    read_bytes_as_a_save(raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_real_save_with_flipped_bytes_loads_or_is_refused_clearly(data):
    raw = bytearray(SAVES[data.draw(st.integers(0, len(SAVES) - 1))].encode())
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] ^= data.draw(st.integers(1, 255))
    read_bytes_as_a_save(bytes(raw))


# ---------------------------------------------------------------------------- stale temporary files


def test_stale_temporaries_of_killed_writers_are_removed_and_nothing_else(tmp_path):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        old = STALE_TEMP_S + 60
        gone = [make_temp(tmp_path, f".autosave.txt.{dead_pid()}.abcd_123.tmp"),  # its writer is dead
                make_temp(tmp_path, f".g 1.txt.{live.pid}.abcdefgh.tmp", old),  # alive, but far too old
                make_temp(tmp_path, ".autosave.txt.k2j4h5g6.tmp", old)]  # written before names had a pid
        kept = [make_temp(tmp_path, f".autosave.txt.{live.pid}.abcdefgh.tmp"),  # a save under way
                make_temp(tmp_path, f".autosave.txt.{os.getpid()}.abcdefgh.tmp", old),  # this process's
                make_temp(tmp_path, ".autosave.txt.k2j4h5g6.tmp".replace("k2", "zz")),  # no pid, fresh
                make_temp(tmp_path, ".notes.dat.1.abcdefgh.tmp", old),  # not a save's
                make_temp(tmp_path, "autosave.txt.1.abcdefgh.tmp", old),  # not hidden: not ours
                make_temp(tmp_path, ".autosave.txt.1.abcdefgh.tmp.keep", old),
                make_temp(tmp_path, ".autosave.txt.12345678901234.abcdefgh.tmp", old),  # no such pid form
                make_temp(tmp_path, "x.tmp", old), make_temp(tmp_path, "my game.txt", old)]
        folder_like = tmp_path / f".autosave.txt.{dead_pid()}.abcdefgh.tmp"
        folder_like.mkdir()
        link = tmp_path / f".autosave.txt.{dead_pid()}.abcdefgi.tmp"
        link.symlink_to(kept[-1])
        removed = remove_stale_temps(tmp_path)
        assert sorted(removed) == sorted(gone)
        assert all(not p.exists() for p in gone) and all(p.exists() for p in kept)
        assert folder_like.is_dir() and link.is_symlink()
    finally:
        live.kill()
        live.wait()


@pytest.mark.slow  # a real process, killed
def test_a_save_killed_mid_write_leaves_a_temporary_with_its_pid_that_the_listing_removes(tmp_path):
    path = tmp_path / "g.txt"
    child = subprocess.Popen([sys.executable, "-c", f"""
import os, sys, time
sys.path.insert(0, {str(ROOT)!r})
from tui.core import storage
os.fsync = lambda fd: (print("writing", flush=True), time.sleep(30))
storage.atomic_write(storage.Path({str(path)!r}), "new save")
"""], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "writing"
    child.kill()
    child.wait()
    [temp] = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert temp.name.startswith(f".g.txt.{child.pid}.")
    assert list_saves(tmp_path) == [] and list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------- --saves-dir


def test_check_saves_dir_accepts_a_writable_folder_or_one_that_can_be_created(tmp_path):
    assert check_saves_dir(tmp_path) is None
    assert check_saves_dir(tmp_path / "new" / "deeper") is None
    assert not (tmp_path / "new").exists() and list(tmp_path.iterdir()) == []  # checked, nothing left


def test_check_saves_dir_names_a_file_a_file_on_the_way_and_a_broken_link(tmp_path):
    (tmp_path / "file").write_text("x")
    assert check_saves_dir(tmp_path / "file") == f"{tmp_path / 'file'} is not a folder"
    problem = check_saves_dir(tmp_path / "file" / "saves")
    assert "cannot be created" in problem and "is not a folder" in problem
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    assert "does not exist" in check_saves_dir(tmp_path / "link")


def test_check_saves_dir_tries_writing_since_root_ignores_mode_bits(tmp_path, monkeypatch):
    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(storage.tempfile, "mkstemp", read_only)
    problem = check_saves_dir(tmp_path)
    assert problem == f"{tmp_path} is not writable: Read-only file system"


# ---------------------------------------------------------------------------- renaming without replacing


def test_move_aside_never_writes_over_another_file(tmp_path):
    when = dt.datetime(2026, 11, 21, 10, 0, 0)
    taken = tmp_path / "autosave.bad-20261121-100000.txt"
    taken.write_text("another")
    for expected in ("autosave.bad-20261121-100000-2.txt", "autosave.bad-20261121-100000-3.txt"):
        (tmp_path / "autosave.txt").write_text("poison")
        assert move_aside(tmp_path / "autosave.txt", "bad", when).name == expected
    assert taken.read_text() == "another" and not (tmp_path / "autosave.txt").exists()
