"""Where save files live and how they are written: atomically, inside the save folder, never clobbered
by a half-written file.  The text format itself is engines.savefile."""
from __future__ import annotations

import datetime as _dt
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engines.base import EngineError, Game
from engines.savefile import MAX_SAVE_BYTES, SavedGame, SaveFormatError, dump, parse

SAVES_ENV = "TERMARENA_SAVES"
_UMASK = os.umask(0o022)  # read once, at import (os.umask can only read by setting), and put back
os.umask(_UMASK)
SUFFIX = ".txt"
AUTOSAVE_NAME = "autosave"


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


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` so that a crash at any moment leaves either the old file or the new one:
    a temporary file in the same folder, flushed and fsynced, then renamed over the target."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
        os.replace(tmp, path)
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


def read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError as e:
        raise StorageError(f"{path}: {e.strerror or e}") from None
    if size > MAX_SAVE_BYTES:
        raise StorageError(f"{path}: {size:,} bytes is far too large for a save file (limit {MAX_SAVE_BYTES:,})")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise StorageError(f"{path}: {e.strerror or e}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise StorageError(f"{path}: not UTF-8 text (byte {e.start}): not a termarena save") from None


def load_game(path: Path, expect_game: str | None = None) -> tuple[SavedGame, Game]:
    text = read_text(path)
    try:
        return parse(text, expect_game)
    except SaveFormatError as e:
        raise StorageError(f"{path}: {e}") from None
    except EngineError as e:  # an engine refusing something the format did not catch
        raise StorageError(f"{path}: {e}") from None


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


def list_saves(folder: Path) -> list[SaveEntry]:
    """Every save file in the folder, newest first; unreadable files are listed with their error."""
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.glob("*" + SUFFIX), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            saved, final = load_game(path)
        except StorageError as e:
            out.append(SaveEntry(path, "?", ("?", "?"), "", "", "", 0, "", str(e)))
            continue
        out.append(SaveEntry(path, saved.game, saved.players, saved.date, saved.result, saved.reason,
                             len(saved.moves), final.to_text(), redo=len(saved.redo)))
    return out
