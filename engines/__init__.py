"""Rules of the games, as the official CodinGame referees play them.

`get_game("c4")` returns the engine class of a game by id or alias; `game_ids()` lists the ids in the
order the picker shows them (`GAME_IDS` is the same, read when asked).  Games are found through
engines/registry.py, and engine modules are imported lazily so a command that needs one game does not
pay for the others.
"""
from __future__ import annotations

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
from engines.registry import MissingPart, UnknownGame, engine_class, extras_problem, game_ids  # noqa: F401


def __getattr__(name: str):
    if name == "GAME_IDS":  # read at each use: a game registered later is in it
        return game_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def resolve_game_id(name: str) -> str:
    """The canonical id of a game id or alias (case-insensitive); raises UnknownGame.

    An id is found without importing anything; an alias is looked for on the engine classes, which
    are imported one at a time until one declares it."""
    key = name.strip().lower()
    ids = game_ids()
    if key in ids:
        return key
    for gid in ids:
        if key in game_aliases(gid):
            return gid
    known = ", ".join(f"{gid} ({'/'.join(game_aliases(gid))})" if game_aliases(gid) else gid for gid in ids)
    problem = extras_problem()
    raise UnknownGame(f"unknown game {name!r}; known games: {known}" + (f" ({problem})" if problem else ""))


def game_aliases(game_id: str) -> tuple[str, ...]:
    """The aliases a game's engine class declares (none when it cannot be loaded)."""
    try:
        return engine_class(game_id).aliases
    except MissingPart:  # a broken game has no aliases; asking for it by id says what is wrong
        return ()


def get_game(name: str) -> type[Game]:
    """The engine class of a game, by id or alias; MissingPart when its engine cannot be loaded."""
    return engine_class(resolve_game_id(name))


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
