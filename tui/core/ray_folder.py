"""The folder of a Ray instance that `--cluster local` starts: Ray's own files (sockets, logs, its address
file), the instance's token, and the pids that own it, so that a folder whose owners were killed
(SIGKILL gives no chance to remove it) is removed by the next local start.

Why a sweep at start and not the guard removing it: the guard is the one, standard-library-only process
under every bot and knows nothing of Ray; and a sweep also finds the folders of a guard that was killed
itself (a `kill -9` of the process group, the OOM killer, a power cut), which nothing else would."""
from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
from pathlib import Path

PREFIX = "termarena-ray-"  # short: Ray puts Unix sockets in the folder, whose paths are bounded
OWNERS = "owners.pid"  # the pids (one a line) that keep the folder alive: termarena, then the head's guard
TOKEN = "auth_token"
MAX_OWNERS_BYTES = 256


def make() -> Path:
    """A new folder (mode 0700, mkdtemp's) owned by this process."""
    folder = Path(tempfile.mkdtemp(prefix=PREFIX))
    add_owner(folder, os.getpid())
    return folder


def add_owner(folder: Path, pid: int) -> None:
    with open(folder / OWNERS, "a", encoding="ascii") as f:
        f.write(f"{pid}\n")


def write_token(folder: Path) -> Path:
    """A new random token (256 bits, as Ray's own `ray get-auth-token --generate` makes) in a file
    only this user can read; the token itself is never printed and never lands in the environment."""
    path = folder / TOKEN
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(secrets.token_hex(32))
    return path


def sweep(root: str | None = None) -> list[Path]:
    """Remove every folder of a local instance under `root` (the temp folder) that belongs to this user
    and none of whose owners is alive; the folders removed.  A folder without a readable owners file is
    left alone: it may be one being made right now, or not ours to judge."""
    removed = []
    base = Path(root or tempfile.gettempdir())
    try:
        candidates = list(base.glob(PREFIX + "*"))
    except OSError:
        return removed
    for folder in candidates:
        try:
            info = folder.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue  # a link, a file, another user's folder: never followed nor touched
        owners = _owners(folder)
        if owners and not any(_alive(pid) for pid in owners):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _owners(folder: Path) -> list[int]:
    try:
        fd = os.open(folder / OWNERS, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return []
    with os.fdopen(fd, "rb") as f:
        text = f.read(MAX_OWNERS_BYTES)
    pids = []
    for word in text.split():
        if not word.isdigit() or not 0 < int(word) < 1 << 31:
            return []  # not a file we wrote: leave the folder alone
        pids.append(int(word))
    return pids


def _alive(pid: int) -> bool:
    """Whether a process runs with this pid (another user's counts: when in doubt, keep).  A zombie does
    not: a killed termarena's guard waits as one until init reaps it, which some containers' init never
    does."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read(4096).rpartition(b")")[2].split()[:1]
        return state not in ([b"Z"], [b"X"])
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
