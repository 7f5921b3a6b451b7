"""Rules of the four games, as the official CodinGame referees play them.

`get_game("c4")` returns the engine class of a game by id or alias; `GAME_IDS` lists the ids in the
order the picker shows them.  Engine modules are imported lazily so a command that needs one game
does not pay for the others.
"""
from __future__ import annotations

import importlib

from engines.base import (  # noqa: F401  (re-exported: the protocol every caller uses)
    EngineError,
    Game,
    GameRecord,
    IllegalMove,
    InvalidOutput,
    Outcome,
    PositionError,
    TimeLimits,
)
from engines.base import quote

# id -> (module, class name, aliases)
_REGISTRY: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "paper-soccer": ("engines.paper_soccer", "PaperSoccer", ("ps",)),
    "cultist-wars": ("engines.cultist_wars", "CultistWars", ("cw",)),
    "connect4": ("engines.connect4", "Connect4", ("c4",)),
    "lines-of-action": ("engines.lines_of_action", "LinesOfAction", ("loa",)),
}

GAME_IDS: tuple[str, ...] = tuple(_REGISTRY)


class UnknownGame(EngineError):
    pass


def resolve_game_id(name: str) -> str:
    """The canonical id of a game id or alias (case-insensitive); raises UnknownGame."""
    key = name.strip().lower()
    for gid, (_, _, aliases) in _REGISTRY.items():
        if key == gid or key in aliases:
            return gid
    known = ", ".join(f"{gid} ({'/'.join(a)})" for gid, (_, _, a) in _REGISTRY.items())
    raise UnknownGame(f"unknown game {name!r}; known games: {known}")


def get_game(name: str) -> type[Game]:
    """The engine class of a game, by id or alias."""
    module, cls, _ = _REGISTRY[resolve_game_id(name)]
    return getattr(importlib.import_module(module), cls)


def start_position(record: GameRecord) -> Game:
    """The position a record's moves start from: its own start position, or the game's for its seed."""
    cls = get_game(record.game)
    return cls.from_text(record.start) if record.start is not None else cls.new(record.seed)


def replay(record: GameRecord) -> Game:
    """The position a record leads to, every move checked as the referee would; raises EngineError
    (InvalidOutput with the 1-based move number) at the first move that is not legal."""
    game = start_position(record)
    for n, text in enumerate(record.moves, start=1):
        if game.outcome() is not None:
            raise InvalidOutput(f"move {n} ({quote(text)}): the game was already over")
        try:
            game.play(text)
        except InvalidOutput as e:
            raise InvalidOutput(f"move {n} ({quote(text)}): {e}") from None
    return game
