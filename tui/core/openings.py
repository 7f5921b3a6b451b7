"""`match --openings FILE`: the file of openings, read as untrusted text and checked move by move.

One opening a line: a move prefix in CodinGame notation separated by spaces (`4 STEAL 5`), or, for a
game whose seed makes the game (Cultist Wars' map), a seed.  Blank lines and lines starting with `#`
are skipped.  Every move is played through the engine, so an illegal one is reported with its line and
the referee's reason before any game starts.
"""
from __future__ import annotations

from pathlib import Path

from ai.tournament import Opening
from engines import get_game, replay
from engines.base import GameRecord, InvalidOutput
from engines.numbers import SEED_MAX, SEED_MIN, NumberError, parse_int
from tui.core.storage import StorageError, read_regular_file, shown

MAX_OPENINGS_BYTES = 4_000_000  # 100,000 openings of a dozen moves; far above any real book
MAX_OPENINGS = 100_000


class OpeningsError(ValueError):
    """An openings file that cannot be used; the message is one line naming the file and line."""


def load_openings(path: Path, game_id: str) -> list[Opening]:
    try:
        raw = read_regular_file(path, MAX_OPENINGS_BYTES, "an openings file")
    except StorageError as e:
        raise OpeningsError(str(e)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise OpeningsError(f"{shown(path)}: not UTF-8 text (byte {e.start})") from None
    return parse_openings(text, game_id, shown(path))


def parse_openings(text: str, game_id: str, name: str = "openings") -> list[Opening]:
    cls = get_game(game_id)
    out: list[Opening] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(out) == MAX_OPENINGS:
            raise OpeningsError(f"{name}: more than {MAX_OPENINGS:,} openings")
        where = f"{name} line {number}"
        out.append(_seed_opening(line, where) if cls.seeded else _move_opening(cls, line, where))
    if not out:
        raise OpeningsError(f"{name}: no opening in the file (one a line; # starts a comment)")
    return out


def _seed_opening(line: str, where: str) -> Opening:
    try:
        return Opening(seed=parse_int(line, SEED_MIN, SEED_MAX, "the seed"))
    except NumberError as e:
        raise OpeningsError(f"{where}: {e} (an opening of this game is its map seed)") from None


def _move_opening(cls, line: str, where: str) -> Opening:
    if not cls.whole_position_input:
        raise OpeningsError(f"{where}: {cls.title} bots learn the game only move by move from the referee, "
                            "so they cannot take over a game after an opening")
    moves = line.split()
    try:
        game = replay(GameRecord(game=cls.id, moves=moves))
    except InvalidOutput as e:
        raise OpeningsError(f"{where}: {e}") from None
    if game.outcome() is not None:
        raise OpeningsError(f"{where}: the game is over after this opening")
    return Opening(tuple(moves))
