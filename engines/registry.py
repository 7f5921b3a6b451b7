"""The one registry of games: a game's id and where each layer's package of it lives.

Shared code finds a game only through here: `engines.get_game` its engine class, `ai.levels` its AI
package, `tui.widgets.boards` its board package.  The places are dotted module names (the engine as
`module:Class`), imported only when a layer asks for them, so the engines never import ai/ or tui/
and a command that needs one game does not pay for the others.  Everything else about a game is
declared by the game itself: its aliases, title and side names on the engine class, its levels,
calibration and ladder in its AI package, its board and preview in its board module.

A game defined elsewhere registers the same way the built-in four do below: `register(...)` from
code, or a module named in $TERMARENA_EXTRA_GAMES (comma-separated dotted names) whose import calls
`register`.  The variable is read at the first look-up, so every process termarena starts (the
referee's bots, `match` and league workers) sees the same games as the one that started it.  It is
the user's own setting, like PYTHONPATH: it names code to import, never data to read.
"""
from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass
from types import ModuleType

from engines.base import EngineError
from engines.visible import visible

EXTRA_GAMES_VAR = "TERMARENA_EXTRA_GAMES"
LAYERS = ("engine", "ai", "board")
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


class UnknownGame(EngineError):
    pass


class MissingPart(EngineError):
    """A registered game lacks a piece a layer asked for: no package of that layer, a package that
    cannot be imported, or one without the name asked for.  The message says which, in one line."""


@dataclass(frozen=True)
class GameEntry:
    """Where a game's layers live: `engine` is `module:Class`; `ai` and `board` are packages (None
    while the game has none: its levels play random moves, its board is the position's text)."""

    id: str
    engine: str
    ai: str | None = None
    board: str | None = None


_GAMES: dict[str, GameEntry] = {}
_extras_loaded = False
_extras_problem = ""  # why a module of $TERMARENA_EXTRA_GAMES could not be loaded, for UnknownGame


def register(game_id: str, *, engine: str, ai: str | None = None, board: str | None = None) -> GameEntry:
    """Add a game (its id lower-case letters, digits and dashes); registering the same entry again is
    harmless, another entry under a taken id is refused."""
    if not _ID.fullmatch(game_id):
        raise ValueError(f"game id {game_id!r}: lower-case letters, digits and dashes")
    if engine.count(":") != 1:
        raise ValueError(f"game {game_id}: engine {engine!r} is not module:Class")
    entry = GameEntry(game_id, engine, ai, board)
    if _GAMES.get(game_id, entry) != entry:
        raise ValueError(f"game {game_id} is already registered as {_GAMES[game_id]}")
    _GAMES[game_id] = entry
    return entry


def unregister(game_id: str) -> None:
    """Forget a game registered from code (tests that register one for a while)."""
    _GAMES.pop(game_id, None)


def game_ids() -> tuple[str, ...]:
    """The registered ids, in the order the picker shows them."""
    _load_extras()
    return tuple(_GAMES)


def entry(game_id: str) -> GameEntry:
    """The entry of a canonical id (`resolve_game_id` turns an alias into one); raises UnknownGame."""
    _load_extras()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}") from None


def layer_module(game_id: str, layer: str) -> ModuleType:
    """The module of a game's `layer` ('ai' or 'board', or 'engine': the engine class's module)."""
    path = getattr(entry(game_id), layer)
    if path is None:
        raise MissingPart(f"game {game_id} has no {layer} package registered")
    name = path.partition(":")[0]
    try:
        return importlib.import_module(name)
    except Exception as e:  # a broken package is reported in one line, not as a traceback
        raise MissingPart(f"game {game_id}: its {layer} module {name} cannot be loaded: "
                          f"{type(e).__name__}: {visible(str(e), 200)}") from e


def layer_part(game_id: str, layer: str, name: str):
    """`name` from a game's `layer` module; MissingPart names the game, the module and the name."""
    module = layer_module(game_id, layer)
    try:
        return getattr(module, name)
    except AttributeError:
        raise MissingPart(f"game {game_id}: its {layer} module {module.__name__} has no {name}") from None


def engine_class(game_id: str):
    cls = layer_part(game_id, "engine", entry(game_id).engine.partition(":")[2])
    if getattr(cls, "id", None) != game_id:
        raise MissingPart(f"game {game_id}: its engine class {cls.__name__} declares id {getattr(cls, 'id', None)!r}")
    return cls


def extras_problem() -> str:
    return _extras_problem


def _load_extras() -> None:
    global _extras_loaded, _extras_problem
    if _extras_loaded:
        return
    _extras_loaded = True  # first: a module being imported may look games up itself
    problems = []
    for name in filter(None, (part.strip() for part in os.environ.get(EXTRA_GAMES_VAR, "").split(","))):
        try:
            importlib.import_module(name)
        except Exception as e:
            # the variable's text and the error's are shown as they are, escapes and all, never acted on
            problems.append(visible(f"${EXTRA_GAMES_VAR}: {name} cannot be loaded: {type(e).__name__}: {e}", 300))
    _extras_problem = "; ".join(problems)


# The built-in games, in the picker's order.
register("paper-soccer", engine="engines.paper_soccer:PaperSoccer", ai="ai.paper_soccer",
         board="tui.widgets.boards.paper_soccer")
register("cultist-wars", engine="engines.cultist_wars:CultistWars", ai="ai.cultist_wars",
         board="tui.widgets.boards.cultist_wars")
register("connect4", engine="engines.connect4:Connect4", ai="ai.connect4", board="tui.widgets.boards.connect4")
register("lines-of-action", engine="engines.lines_of_action:LinesOfAction", ai="ai.lines_of_action",
         board="tui.widgets.boards.lines_of_action")
