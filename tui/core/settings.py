"""The user's settings: the looks (theme, board style, palette) and the defaults of a new game
(opponent, clock, autosave), in `settings.toml` of the user's config folder.

Where: `$XDG_CONFIG_HOME/termarena/`, else `~/.config/termarena/` (the XDG base-directory rule,
followed directly: termarena runs where its bots' guard runs, on Linux and other Unix systems, and
that rule is one line; platformdirs would add a dependency to choose the same folder there).

The file is read at start, bounded (SETTINGS_MAX_BYTES, regular files only, as saves are), with the
standard library's TOML reader; it is never executed.  A file that cannot be read or holds a bad value
is reported in one line, moved aside (`settings.bad-DATE.toml`) and replaced by the defaults, never a
crash.  Saved atomically (tui.core.storage.atomic_write).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from tui.core.clock import ClockError, parse_clock
from tui.core.specs import SpecError, parse_spec
from tui.core.storage import StorageError, atomic_write, read_regular_file, shown

SETTINGS_NAME = "settings.toml"
SETTINGS_MAX_BYTES = 64 * 1024
BOARD_STYLES = ("unicode", "ascii")
PALETTES = ("standard", "colour-blind")


@dataclass(frozen=True)
class Settings:
    theme: str = "textual-dark"  # a Textual theme name (checked against the app's themes when applied)
    board_style: str = "unicode"  # "ascii": no box-drawing or block glyphs, for plain terminals
    palette: str = "standard"  # "colour-blind": the Okabe-Ito colours (tui.widgets.boards.looks)
    opponent: str = "ai:3"  # the second seat a new game's setup offers first
    clock: str = ""  # "MIN+INC" for the human sides of a new game, "" for none
    autosave: bool = True


class SettingsError(ValueError):
    """A settings value that is not allowed; the message names the key."""


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME", "")
    # the spec says a relative path is invalid and must be ignored
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "termarena"


def settings_path() -> Path:
    return config_dir() / SETTINGS_NAME


def check_clock(text: str) -> str:
    """'' or a clock as `--clock` takes it (tui.core.clock.parse_clock): MIN+INC, e.g. '5+3', '0.5+2'."""
    if text == "":
        return text
    try:
        parse_clock(text)
    except ClockError as e:
        raise SettingsError(f"clock {text[:20]!r} is not MIN+INC (e.g. 5+3, 0.5+2): {e}") from None
    return text


def checked(settings: Settings) -> Settings:
    """The settings if every value is allowed; SettingsError naming the first that is not."""
    if not isinstance(settings.theme, str) or not settings.theme or len(settings.theme) > 64:
        raise SettingsError("theme must be a theme name")
    if settings.board_style not in BOARD_STYLES:
        raise SettingsError(f"board_style must be one of {', '.join(BOARD_STYLES)}")
    if settings.palette not in PALETTES:
        raise SettingsError(f"palette must be one of {', '.join(PALETTES)}")
    try:
        spec = parse_spec(settings.opponent) if isinstance(settings.opponent, str) else None
    except SpecError as e:
        raise SettingsError(f"opponent: {e}") from None
    if spec is None or spec.kind not in ("human", "ai"):
        raise SettingsError("opponent must be human, ai or ai:N (a bot command is never started from settings)")
    if not isinstance(settings.clock, str):
        raise SettingsError("clock must be text such as \"5+3\"")
    check_clock(settings.clock)
    if not isinstance(settings.autosave, bool):
        raise SettingsError("autosave must be true or false")
    return settings


def parse_settings(text: str) -> Settings:
    """Settings from the text of a settings file; SettingsError for anything not allowed."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"not TOML: {e}") from None
    except RecursionError:  # tomllib reads nested arrays and inline tables by recursion: a few hundred
        # `[` in 64 KB are enough to exhaust Python's stack (every setting is a plain value: none nests)
        raise SettingsError("arrays or tables nested too deep to read") from None
    known = {f.name for f in fields(Settings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SettingsError(f"unknown setting {unknown[0][:40]!r}")
    return checked(replace(Settings(), **data))


def dump_settings(settings: Settings) -> str:
    lines = ["# termarena settings (the settings screen writes this file; a bad value resets it)"]
    for key, value in asdict(settings).items():
        # a JSON string is a TOML basic string for these values (printable, no control characters)
        lines.append(f"{key} = {'true' if value is True else 'false' if value is False else json.dumps(value)}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Loaded:
    settings: Settings
    problem: str | None = None  # a broken file, in one line (what was wrong and what was done)


def load_settings(path: Path | None = None) -> Loaded:
    """The settings in `path` (default: settings_path()); the defaults when there is no file.  A broken
    file is moved aside and the defaults written in its place; `problem` says so."""
    path = path or settings_path()
    if not os.path.lexists(path):
        return Loaded(Settings())
    try:
        raw = read_regular_file(path, SETTINGS_MAX_BYTES, "a settings file")
        return Loaded(parse_settings(raw.decode("utf-8")))
    except (StorageError, SettingsError, UnicodeDecodeError, TypeError, ValueError) as e:
        why = str(e) if not isinstance(e, UnicodeDecodeError) else "not UTF-8 text"
    where = "it was left in place"
    try:
        stamp = f"{_dt.datetime.now():%Y%m%d-%H%M%S}"
        aside = path.with_name(f"settings.bad-{stamp}.toml")
        if not os.path.lexists(aside):
            os.rename(path, aside)
            where = f"it was moved to {shown(aside)}"
        atomic_write(path, dump_settings(Settings()))
    except OSError:
        pass
    return Loaded(Settings(), f"settings file {shown(path)} is broken ({why[:120]}): defaults used, {where}")


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically; StorageError in words if it cannot."""
    path = path or settings_path()
    try:
        atomic_write(path, dump_settings(checked(settings)))
    except OSError as e:
        raise StorageError(f"could not save the settings to {shown(path)}: {e.strerror or e}") from None
