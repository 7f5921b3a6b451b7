"""What every `termarena` command checks its arguments with: game ids, player specs, bounds, folders."""
from __future__ import annotations

import sys
from typing import NoReturn

import typer

from engines import UnknownGame, game_aliases, game_ids, resolve_game_id
from engines.numbers import SEED_MAX, SEED_MIN, NumberError, one_line, parse_int
from engines.visible import visible
from tui.core.specs import DEFAULT_LEVEL, PlayerSpec, SpecError, parse_spec

GAMES_HELP = (f"Game id or alias: {', '.join(game_ids())} "
              f"({', '.join(alias for gid in game_ids() for alias in game_aliases(gid))}).")


def game_id(name: str) -> str:
    try:
        return resolve_game_id(name)
    except UnknownGame as e:
        raise typer.BadParameter(str(e)) from None


def player_spec(text: str, *, allow_human: bool, option: str) -> PlayerSpec:
    try:
        spec = parse_spec(text)
    except SpecError as e:
        raise typer.BadParameter(str(e), param_hint=option) from None
    if spec.kind == "human" and not allow_human:
        raise typer.BadParameter("a human cannot sit in a headless game (use `termarena play`)", param_hint=option)
    return spec


def saves_option(saves_dir: str | None) -> str | None:
    """--saves-dir is refused at once when saves cannot be written there, not at the first autosave."""
    if saves_dir is not None:
        from tui.core.storage import check_saves_dir

        problem = check_saves_dir(saves_dir)
        if problem:
            raise typer.BadParameter(problem, param_hint="--saves-dir")
    return saves_dir


def clock_option(text: str | None):
    """--clock MIN+INC as a ClockSpec (None when not given); a bad value is refused in one line."""
    if text is None:
        return None
    from tui.core.clock import ClockError, parse_clock

    try:
        return parse_clock(text)
    except ClockError as e:
        raise typer.BadParameter(f"{e} (want MIN+INC, e.g. 5+3 or 0.5+2)", param_hint="--clock") from None


CLOCK_HELP = ("Chess clock for each human side: MIN minutes (a decimal: 0.5 = 30 s) plus INC seconds a "
              "move; a side whose clock reaches zero loses (reason timeout).")


class Seed:
    """A seed option's parser: a whole number from `low` to `high`, said when one is refused.  An int range
    would print its 19-digit bounds beside the option in --help, a third of an 80-column screen."""

    def __init__(self, low: int = SEED_MIN, high: int = SEED_MAX) -> None:
        self.low, self.high = low, high

    def __call__(self, value: str | int) -> int:
        # the project's reader of whole numbers (a seed of 5,000 digits is refused by its length, quoted short)
        try:
            return parse_int(str(value).strip(), self.low, self.high, "the seed")
        except NumberError as e:
            raise typer.BadParameter(str(e)) from None


def check_seed_run(seed: int, count: int) -> None:
    """Game k is played on seed + k: the last one must still be a seed the referee takes."""
    if seed + count - 1 > SEED_MAX:
        raise typer.BadParameter(f"with {count} seeds from {seed} the last is above {SEED_MAX}", param_hint="--seed")


def fail(command: str, message: str, limit: int = 200) -> NoReturn:
    """`termarena COMMAND: MESSAGE` as one line on stderr (at most `limit` characters of the message), then
    exit status 1.  The message may quote outside text (a file's bytes, what the user typed), so it is made
    visible and kept to one line."""
    sys.stderr.write(f"termarena {command}: {visible(one_line(message, limit))}\n")
    raise typer.Exit(1)


def shown_path(path) -> str:
    """A path as it goes into a one-line message (tui.core.storage.shown, loaded when needed)."""
    from tui.core.storage import shown

    return shown(path)


def stderr_console():
    from rich.console import Console

    return Console(stderr=True)


# Bounds of numeric options: a typo of a few digits must not start a run of years (or never end).
MAX_GAMES = 1_000_000
MAX_JOBS = 256
MAX_THINK_MS = 3_600_000
MAX_BENCH_SECONDS = 3600.0
SPRT_MAX_GAMES = 2000  # games per pair of `match --sprt` without --games: most tests decide far earlier

SAVES_HELP = "Folder of saved games and of the autosave (default: $TERMARENA_SAVES, else ./saves)."
DEFAULT_P1, DEFAULT_P2 = "human", f"ai:{DEFAULT_LEVEL}"


def exit_with(status: int) -> None:
    """An app that died on an error must not look like a success to a script."""
    if status:
        raise typer.Exit(status)


# help text is Rich markup: "\\[" keeps the brackets of the extra (unescaped, "[cluster]" vanished)
CLUSTER_HELP = ("Play the games as Ray tasks: local (a Ray instance on this machine for this run), auto "
                "(the one `ray start` runs here) or ray://HOST:PORT. Needs pip install 'termarena\\[cluster]'.")


def cluster_option(address: str | None) -> str | None:
    """--cluster is checked before anything starts: a bad address, or Ray missing, is one line."""
    if address is None:
        return None
    from tui.core.cluster import ClusterError, check_address, ray_installed

    try:
        check_address(address)
    except ClusterError as e:
        raise typer.BadParameter(str(e), param_hint="--cluster") from None
    if not ray_installed():
        raise typer.BadParameter("Ray is not installed: pip install 'termarena[cluster]'", param_hint="--cluster")
    return address
