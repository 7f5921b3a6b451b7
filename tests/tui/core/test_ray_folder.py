"""The folder of a local Ray instance (tui/core/ray_folder.py): its token is the user's alone, and a start
removes the folders of instances whose owners were killed, never one in use, another user's, or
anything that is not such a folder.  No Ray needed; the real SIGKILL is in tests/tui/core/test_cluster.py."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys

import pytest

from tests.helpers.processes import ended_pid
from tui.core import ray_folder


def folder_owned_by(root, name, *pids):
    folder = root / f"{ray_folder.PREFIX}{name}"
    folder.mkdir()
    (folder / ray_folder.OWNERS).write_text("".join(f"{p}\n" for p in pids))
    (folder / "session_latest").mkdir()  # as Ray leaves it: a tree, not one file
    return folder


def test_the_token_is_new_random_and_only_the_user_can_read_it(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    tokens = [ray_folder.write_token(f) for f in (a, b)]
    for path in tokens:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert len(path.read_text()) == 64 and int(path.read_text(), 16) >= 0
    assert tokens[0].read_text() != tokens[1].read_text()


def test_a_token_file_planted_beforehand_is_not_written_through(tmp_path):
    target = tmp_path / "elsewhere"
    (tmp_path / ray_folder.TOKEN).symlink_to(target)
    with pytest.raises(OSError):
        ray_folder.write_token(tmp_path)
    assert not target.exists()


def test_make_records_this_process_as_the_owner():
    folder = ray_folder.make()
    try:
        assert folder.name.startswith(ray_folder.PREFIX) and stat.S_IMODE(folder.stat().st_mode) == 0o700
        ray_folder.add_owner(folder, 12345)
        assert (folder / ray_folder.OWNERS).read_text().split() == [str(os.getpid()), "12345"]
    finally:
        shutil.rmtree(folder)


def test_a_sweep_removes_only_folders_whose_owners_have_all_ended(tmp_path):
    gone, live = ended_pid(), os.getpid()
    stale = folder_owned_by(tmp_path, "stale", gone, ended_pid())
    in_use = folder_owned_by(tmp_path, "inuse", live)
    head_alive = folder_owned_by(tmp_path, "head", gone, live)  # termarena killed, its guard still ending Ray
    being_made = tmp_path / f"{ray_folder.PREFIX}new"  # made, owners not written yet
    being_made.mkdir()
    garbled = folder_owned_by(tmp_path, "garbled", gone)
    (garbled / ray_folder.OWNERS).write_text(f"{gone}\nnot a pid\n")
    other_name = folder_owned_by(tmp_path, "x", gone)
    other_name = other_name.rename(tmp_path / "someone-else")
    assert ray_folder.sweep(str(tmp_path)) == [stale]
    assert not stale.exists()
    assert all(f.is_dir() for f in (in_use, head_alive, being_made, garbled, other_name))


def test_a_sweep_follows_no_link_and_touches_no_file(tmp_path):
    target = folder_owned_by(tmp_path, "target", ended_pid()).rename(tmp_path / "target")
    (tmp_path / f"{ray_folder.PREFIX}link").symlink_to(target)
    (tmp_path / f"{ray_folder.PREFIX}file").write_text(f"{ended_pid()}\n")
    assert ray_folder.sweep(str(tmp_path)) == []
    assert (target / ray_folder.OWNERS).exists() and (tmp_path / f"{ray_folder.PREFIX}file").exists()


def test_an_owners_file_that_is_a_link_is_not_read(tmp_path):
    folder = tmp_path / f"{ray_folder.PREFIX}linked"
    folder.mkdir()
    (tmp_path / "pids").write_text(f"{ended_pid()}\n")
    (folder / ray_folder.OWNERS).symlink_to(tmp_path / "pids")
    assert ray_folder.sweep(str(tmp_path)) == [] and folder.is_dir()


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_a_sweep_leaves_another_users_folder_alone(tmp_path):
    folder = folder_owned_by(tmp_path, "theirs", ended_pid())
    os.chown(folder, 65534, 65534)
    assert ray_folder.sweep(str(tmp_path)) == [] and folder.is_dir()
