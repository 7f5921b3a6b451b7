"""AI levels 1..6 for every game: `make_player(game, level)` builds the opponent a user picks by level.

Each game's AI package registers a factory here; until a game has one, every level of it falls back
to the random player, and `describe_level` says so.
"""
from __future__ import annotations

import importlib

from ai.player import Player
from ai.random_player import RandomPlayer
from engines import resolve_game_id

MIN_LEVEL, MAX_LEVEL = 1, 6

# game id -> module with `make_player(level, think_ms=None, seed=None) -> Player` and `LEVELS` descriptions
_AI_MODULES = {
    "connect4": "ai.connect4",
    "lines-of-action": "ai.lines_of_action",
    "paper-soccer": "ai.paper_soccer",
    "cultist-wars": "ai.cultist_wars",
}


def _module(game_id: str):
    try:
        return importlib.import_module(_AI_MODULES[game_id])
    except ModuleNotFoundError as e:
        if e.name and _AI_MODULES[game_id].startswith(e.name):
            return None
        raise


def make_player(game: str, level: int, *, think_ms: int | None = None, seed: int | None = None) -> Player:
    gid = resolve_game_id(game)
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"AI level {level} is out of range {MIN_LEVEL}..{MAX_LEVEL}")
    mod = _module(gid)
    if mod is None:
        player = RandomPlayer(seed)
        player.name = f"random (level {level} not built yet)"
        return player
    return mod.make_player(level, think_ms=think_ms, seed=seed)


def describe_level(game: str, level: int) -> str:
    mod = _module(resolve_game_id(game))
    if mod is None:
        return "random legal moves (this game's AI is not built yet)"
    return mod.LEVELS[level]
