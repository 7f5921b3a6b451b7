"""AI levels 1..6 for every game: `make_player(game, level)` builds the opponent a user picks by level.

The level bounds live here and only here (the CLI and the app import them).  Each game's AI package
provides `make_player`, `LEVELS` and `search_speed`; until a game has one, every level of it falls
back to the random player, and `describe_level` says so.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from ai.player import Player
from ai.random_player import RandomPlayer
from engines import resolve_game_id

MIN_LEVEL, MAX_LEVEL = 1, 6
DEFAULT_LEVEL = 3  # what `ai` without a level means

_AI_MODULES = {
    "connect4": "ai.connect4",
    "lines-of-action": "ai.lines_of_action",
    "paper-soccer": "ai.paper_soccer",
    "cultist-wars": "ai.cultist_wars",
}


def ai_module(game_id: str) -> ModuleType | None:
    """The AI package of a game, or None while it has none."""
    name = _AI_MODULES[resolve_game_id(game_id)]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and name.startswith(e.name):
            return None
        raise


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
