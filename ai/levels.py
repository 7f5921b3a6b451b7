"""AI levels 1..6 for every game: `make_player(game, level)` builds the opponent a user picks by level.

The level bounds live here and only here (the CLI and the app import them).  Each game's AI package
(engines/registry.py says where) provides `make_player`, `LEVELS`, `search_speed`, `CALIBRATION` and
`LADDER` (tests/ai/test_ai_contract.py checks them); until a game has one, every level of it falls
back to the random player, and `describe_level` says so.
"""
from __future__ import annotations

from types import ModuleType

from ai.player import Player
from ai.random_player import RandomPlayer
from engines import resolve_game_id
from engines.registry import entry, layer_module, layer_part

MIN_LEVEL, MAX_LEVEL = 1, 6
DEFAULT_LEVEL = 3  # what `ai` without a level means


def ai_module(game_id: str) -> ModuleType | None:
    """The AI package of a game (registered in engines/registry.py), or None while it has none."""
    gid = resolve_game_id(game_id)
    return None if entry(gid).ai is None else layer_module(gid, "ai")


_REQUIRED = object()


def ai_part(game_id: str, name: str, default=_REQUIRED):
    """`name` from a game's AI package, or `default` (when given) if the game has no AI package or the
    package does not set it; without a default, MissingPart says which game lacks which name."""
    gid = resolve_game_id(game_id)
    if default is not _REQUIRED and (entry(gid).ai is None or not hasattr(layer_module(gid, "ai"), name)):
        return default
    return layer_part(gid, "ai", name)


def make_player(game: str, level: int, *, think_ms: int | None = None, seed: int | None = None) -> Player:
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"AI level {level} is out of range {MIN_LEVEL}..{MAX_LEVEL}")
    mod = ai_module(game)
    if mod is None:
        player = RandomPlayer(seed)
        player.name = f"random (level {level} not built yet)"
        return player
    return mod.make_player(level, think_ms=think_ms, seed=seed)


def describe_level(game: str, level: int) -> str:
    mod = ai_module(game)
    if mod is None:
        return "random legal moves (this game's AI is not built yet)"
    return mod.LEVELS[level]
