"""Where save files live and how they are written: atomically, inside the save folder, never clobbered
by a half-written file.  The text format itself is engines.savefile.

Files in the save folder are not trusted.  Only regular files are read (a link to one is fine): a FIFO,
a device, a folder or a broken or looping link is refused without being opened, and no more than
MAX_SAVE_BYTES + 1 bytes are ever read, whatever size the file claims.  `list_saves` never raises and
never blocks: what cannot be read is listed with its error.  A save interrupted mid-write leaves a
temporary `.<name>.<pid>.<random>.tmp`; those of dead writers, or older than STALE_TEMP_S, are removed
(`remove_stale_temps`) when the app starts, when `--record` opens its folder, when the folder is listed
and before the first autosave.
"""
from __future__ import annotations

import datetime as _dt
import errno
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from engines.base import EngineError, Game
from engines.numbers import one_line, quote
from engines.savefile import MAX_SAVE_BYTES, SavedGame, SaveFormatError, dump, parse
from engines.visible import visible

SAVES_ENV = "TERMARENA_SAVES"
_UMASK = os.umask(0o022)  # read once, at import (os.umask can only read by setting), and put back
os.umask(_UMASK)
SUFFIX = ".txt"
AUTOSAVE_NAME = "autosave"
STALE_TEMP_S = 60.0  # a save takes milliseconds: a temporary file this old is left from a killed writer
_READ_CHUNK = 1 << 16
# `.<save name>.<pid>.<mkstemp's 8 characters>.tmp`, and the same without the pid (written before it was
# added); ASCII digits only, so int() of the pid is safe
_TEMP_NAME = re.compile(r"^\.(?P<target>.+\.txt)\.(?:(?P<pid>[0-9]{1,10})\.)?[a-z0-9_]{8}\.tmp$")


class StorageError(Exception):
    """A save or load that failed; the message names the file and says what to do."""


def saves_dir(override: str | os.PathLike | None = None) -> Path:
    """`--saves-dir`, else $TERMARENA_SAVES, else ./saves of the current directory."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get(SAVES_ENV)
    return Path(env).expanduser() if env else Path.cwd() / "saves"


_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,99}$")


def safe_path(folder: Path, name: str) -> Path:
    """The file `name` inside `folder`; refuses names that would escape it or are not plain file names."""
    name = name.strip()
    if name.endswith(SUFFIX):
        name = name[: -len(SUFFIX)]
    if not _SAFE_NAME.match(name) or ".." in name:
        raise StorageError(f"{name!r} is not a usable save name: use letters, digits, spaces and . _ + - "
                           f"(up to 100), starting with a letter or digit, no folders")
    path = (folder / (name + SUFFIX))
    if path.resolve().parent != folder.resolve():
        raise StorageError(f"{name!r} would be saved outside {folder}")
    return path


def default_name(game_id: str, when: _dt.datetime | None = None) -> str:
    when = when or _dt.datetime.now()
    return f"{game_id}-{when:%Y-%m-%d-%H%M%S}"


def atomic_write(path: Path, text: str, *, replace: bool = True) -> None:
    """Write `text` to `path` so that a crash at any moment leaves either the old file or the new one:
    a temporary file in the same folder, flushed and fsynced, then renamed over the target.  With
    `replace=False` an existing `path` is kept and FileExistsError raised (nothing is written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    # the pid in the name tells remove_stale_temps whether the writer is still alive
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); a save gets the usual mode, or keeps the one it had
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            mode = 0o666 & ~_UMASK
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            _rename_without_replacing(Path(tmp), path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def save_game(path: Path, saved: SavedGame, final: Game) -> None:
    try:
        atomic_write(path, dump(saved, final))
    except OSError as e:
        raise StorageError(f"could not save to {path}: {e.strerror or e} (nothing was overwritten)") from None


def shown(path: Path | str) -> str:
    """The path as it goes into a one-line message: a file name may hold line breaks, bad bytes or a
    terminal's control sequences, shown escaped (`\\x1b`)."""
    return visible(str(path))


def read_text(path: Path) -> str:
    """The text of a save file: a regular file (or a link to one) of at most MAX_SAVE_BYTES, in UTF-8."""
    return decode_save(read_regular_file(path, MAX_SAVE_BYTES), path)


def read_regular_file(path: Path, limit: int, what: str = "a save file") -> bytes:
    """At most `limit` bytes of a regular file; StorageError for anything else, without blocking
    (`what` names what the file should be, in the messages).

    The type is checked before opening (opening a FIFO or a device can block or have effects) and again
    on the opened descriptor (the name may have been replaced in between); the read stops one byte past
    `limit`, so a file that grows or lies about its size cannot make it read more."""
    regular_file_stat(path, limit, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise StorageError(f"{shown(path)}: {why_not_found(path, e)}") from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise StorageError(f"{shown(path)}: {file_kind(opened.st_mode)}, not {what}")
        data = _read_at_most(fd, limit + 1)
    except OSError as e:
        raise StorageError(f"{shown(path)}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise StorageError(f"{shown(path)}: more than {limit:,} bytes is far too large for {what}")
    return data


def regular_file_stat(path: Path, limit: int, what: str) -> os.stat_result:
    """The stat of `path` if it is a regular file (or a link to one) of at most `limit` bytes, else a
    StorageError saying what it is instead (`what` names what it should have been: "a save file")."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as e:
        raise StorageError(f"{shown(path)}: {why_not_found(path, e)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise StorageError(f"{shown(path)}: {file_kind(info.st_mode)}, not {what}")
    if info.st_size > limit:
        raise StorageError(f"{shown(path)}: {info.st_size:,} bytes is far too large for {what} (limit {limit:,})")
    return info


def _read_at_most(fd: int, count: int) -> bytes:
    chunks, left = [], count
    while left > 0:
        chunk = os.read(fd, min(left, _READ_CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def decode_save(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise StorageError(f"{shown(path)}: not UTF-8 text (byte {e.start}): not a termarena save") from None


def open_append(path: Path, what: str):
    """`path` opened to append text (made when missing), only as a regular file: opening a FIFO to write
    waits for a reader, and a device never ends; StorageError saying what it is instead (`what` names
    what it should have been: "a file of games")."""
    path = Path(path)
    try:
        kind = os.stat(path).st_mode
    except FileNotFoundError:
        kind = None
    except (OSError, ValueError) as e:
        raise StorageError(f"{shown(path)}: {why_not_found(path, e)}") from None
    if kind is not None and not stat.S_ISREG(kind):
        raise StorageError(f"{shown(path)}: {file_kind(kind)}, not {what}")
    # non-blocking while opening: a FIFO put there since the check fails (ENXIO) instead of waiting
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        raise StorageError(f"{shown(path)}: {e.strerror or e}") from None
    opened = os.fstat(fd).st_mode
    if not stat.S_ISREG(opened):
        os.close(fd)
        raise StorageError(f"{shown(path)}: {file_kind(opened)}, not {what}")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8")


def file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((words for test, words in kinds if test(mode)), "not a regular file")


def why_not_found(path: Path, error: Exception) -> str:
    """os.stat's error in words, telling a broken or looping link from a missing file."""
    if isinstance(error, OSError) and error.errno == errno.ELOOP:
        return "a link that loops (too many levels of symbolic links)"
    if isinstance(error, FileNotFoundError) and os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"a link to {quote(target, limit=160)}, which does not exist"
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def load_game(path: Path, expect_game: str | None = None) -> tuple[SavedGame, Game]:
    text = read_text(path)
    try:
        return parse(text, expect_game)
    except SaveFormatError as e:
        raise StorageError(f"{shown(path)}: {e}") from None
    except EngineError as e:  # an engine refusing something the format did not catch
        raise StorageError(f"{shown(path)}: {one_line(str(e))}") from None
    except Exception as e:  # an engine bug must not take the app down (the fuzz tests look for these)
        raise StorageError(f"{shown(path)}: cannot be read ({type(e).__name__}: {one_line(str(e))})") from None


@dataclass(frozen=True)
class SaveEntry:
    path: Path
    game: str
    players: tuple[str, str]
    date: str
    result: str
    reason: str
    turns: int
    preview: str  # the final position's text
    error: str | None = None  # why it cannot be loaded, if it cannot
    redo: int = 0  # moves undone and not replaced (a resumed game can redo them)
    recorded: int | None = None  # turns with the bots' answers, times and stderr (a recorded game)


    @classmethod
    def failed(cls, path: Path, error: str) -> "SaveEntry":
        return cls(path, "?", ("?", "?"), "", "", "", 0, "", error)


def list_saves(folder: Path) -> list[SaveEntry]:
    """Every `*.txt` of the folder, newest first.  Never raises, never blocks: a file that cannot be
    loaded (bad content, a broken or looping link, a FIFO, a device, a folder, no permission) is
    listed with its error, and so is the folder itself when it cannot be read."""
    try:
        with os.scandir(folder) as found:
            names = [entry.name for entry in found if entry.name.endswith(SUFFIX)]
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as e:
        return [SaveEntry.failed(folder, f"{shown(folder)}: cannot read the folder: {why_not_found(folder, e)}")]
    remove_stale_temps(folder)
    paths = sorted((folder / name for name in names), key=_modified, reverse=True)
    return [_entry(path) for path in paths]


def _modified(path: Path) -> float:
    for follow in (True, False):  # a broken link has a time of its own
        try:
            return os.stat(path, follow_symlinks=follow).st_mtime
        except (OSError, ValueError):
            continue
    return 0.0


def _entry(path: Path) -> SaveEntry:
    try:
        saved, final = load_game(path)
        preview = final.to_text()
    except StorageError as e:
        return SaveEntry.failed(path, str(e))
    except Exception as e:  # one odd file must not hide the others
        return SaveEntry.failed(path, f"{shown(path)}: cannot be read ({type(e).__name__}: {one_line(str(e))})")
    return SaveEntry(path, saved.game, saved.players, saved.date, saved.result, saved.reason,
                     len(saved.moves), preview, redo=len(saved.redo),
                     recorded=None if saved.record is None else len(saved.record))


# ---------------------------------------------------------------------------- the folder's upkeep


def remove_stale_temps(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files of saves whose writer died: ours by name (`.<name>.txt.<pid>.<8>.tmp`),
    regular files only, when their writer's process is gone or they are older than STALE_TEMP_S; never
    this process's own (a save may be under way in another thread).  Returns what was removed."""
    now = time.time() if now is None else now
    removed = []
    try:
        with os.scandir(folder) as found:
            candidates = [(entry.path, match) for entry in found if (match := _TEMP_NAME.match(entry.name))]
    except OSError:
        return removed
    for path, match in candidates:
        pid = int(match["pid"]) if match["pid"] else None
        if pid == os.getpid():
            continue
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                continue
            if (pid is not None and not process_alive(pid)) or now - info.st_mtime > STALE_TEMP_S:
                os.unlink(path)
                removed.append(Path(path))
        except OSError:
            continue
    return removed


def process_alive(pid: int) -> bool:
    """False only when this machine certainly has no process `pid` (when unsure: True, and the age decides)."""
    if os.name != "posix" or pid <= 0:
        return True  # os.kill(pid, 0) is no probe on Windows, and pid 0 means our own process group
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # EPERM: it exists, under another user
        return True
    return True


def check_saves_dir(path: str | os.PathLike) -> str | None:
    """What makes `path` unusable as the save folder, in one line, or None when saves can be written there.

    A folder that does not exist yet is fine when it can be created (the first save creates it).
    Writability is tried by creating and removing a temporary file: mode bits alone say nothing for root,
    a read-only mount or an ACL."""
    path = Path(path).expanduser()
    existing = path
    while True:  # the folder, or the nearest of its parents that exists
        try:
            info = os.stat(existing)
            break
        except (FileNotFoundError, NotADirectoryError):
            if os.path.islink(existing):
                return f"{shown(path)}: {why_not_found(existing, FileNotFoundError())}"
            if existing.parent == existing:
                return f"{shown(path)}: no part of it exists"
            existing = existing.parent
        except (OSError, ValueError) as e:
            return f"{shown(path)}: {why_not_found(existing, e)}"
    where = shown(path) if existing == path else f"{shown(path)} cannot be created: {shown(existing)}"
    if not stat.S_ISDIR(info.st_mode):
        return f"{where} is not a folder"
    try:
        fd, probe = tempfile.mkstemp(prefix=f".check{SUFFIX}.{os.getpid()}.", suffix=".tmp", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"{where} is not writable: {e.strerror or e}"
    return None


NAMES_TRIED = 1000  # numbered names tried for one file before giving up


def numbered_names(folder: Path, stem: str):
    """`<stem>.txt`, then `<stem>-2.txt`, `-3`, ... in `folder`: the names a file that must not replace
    another tries in turn (`NAMES_TRIED` of them)."""
    for n in range(1, NAMES_TRIED + 1):
        yield folder / f"{stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"


def move_aside(path: Path, tag: str, when: _dt.datetime | None = None) -> Path:
    """Rename `path` to `<stem>.<tag>-YYYYmmdd-HHMMSS.txt` in its folder (then -2, -3, ... when taken),
    never over another file; returns the new path.  Raises OSError when it cannot be renamed."""
    stem = f"{path.stem}.{tag}-{when or _dt.datetime.now():%Y%m%d-%H%M%S}"
    for target in numbered_names(path.parent, stem):
        try:
            _rename_without_replacing(path, target)
        except FileExistsError:
            continue
        return target
    raise OSError(errno.EEXIST, f"every name {stem}-N{SUFFIX} is taken")


def _rename_without_replacing(source: Path, target: Path) -> None:
    # os.rename replaces an existing target; a hard link does not (it fails with EEXIST)
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # no hard links for folders or on some file systems: rename when the name is free
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(source, target)
        return
    os.unlink(source)
