"""Players from spec strings, for the arena and the tool bot: `kind:key=value,...` (values are ints,
floats, or else strings; a bare value names the kind's own, as in `level:5`).

- `level:N[,ms=MS][,FIELD=V...]`: the game's level N; `ms` is its think_ms, other keys replace the
  level's fields (`level:5,nodes=600`).
- `mcts[:KEY=V,...]`: the UCT yardstick (ai/tools/mcts.py): ms, iterations, c, solve, and the game's
  own playout options (Connect 4's `decisive`).
- any other kind is the game's own (its tools module, ai/<game>/tools.py, `make_player`):
  `ab:KEY=V,...` its bare search, Cultist Wars' `greedy`.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from ai.levels import ai_module
from ai.tools.mcts import Mcts
from engines import resolve_game_id
from engines.registry import MissingPart


def parse_spec(spec: str) -> tuple[str, dict]:
    """`kind:key=value,...` -> (kind, {key: value})."""
    kind, _, rest = spec.partition(":")
    opts: dict = {}
    for part in filter(None, rest.split(",")):
        key, eq, text = part.partition("=")
        if not eq:
            key, text = kind, key
        opts[key] = _value(text)
    return kind, opts


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def game_tools(game_id: str) -> ModuleType:
    """The tools' module of a game: the `tools` module of its AI package (ai/<game>/tools.py), with the
    arena's openings, the bare search as `ab:`, the yardstick's position and OpenSpiel's actions."""
    package = ai_module(game_id)
    if package is None:
        raise MissingPart(f"game {resolve_game_id(game_id)} has no AI package, so no tools")
    name = package.__name__ + ".tools"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        raise MissingPart(f"game {resolve_game_id(game_id)}: its AI package has no tools module ({name})") from None


def make_player(game_id: str, spec: str, seed: int | None = None):
    kind, opts = parse_spec(spec)
    if "seed" in opts:  # every caller seeds its players itself (a game's seed, the arena's --seed)
        raise ValueError("a player's seed comes from the game it plays, not from its spec")
    if kind == "level":
        think_ms = opts.pop("ms", None)
        return ai_module(game_id).make_player(opts.pop("level"), think_ms=think_ms, seed=seed, **opts)
    if kind == "mcts":
        return Mcts(game_tools(game_id).MctsPosition, seed=seed, **opts)
    player = game_tools(game_id).make_player(kind, opts, seed)
    if player is None:
        raise ValueError(f"unknown player spec {spec!r} for {resolve_game_id(game_id)}")
    return player


def checked_player(game_id: str, spec: str, seed: int | None = None):
    """`make_player`, with ValueError in words when `spec` makes no player of the game (an unknown field, a
    level out of range, a net file that is not one): a tool checks its specs so before a game starts."""
    try:
        return make_player(game_id, spec, seed)
    except (OSError, ValueError, TypeError, LookupError) as e:
        raise ValueError(f"player {spec!r}: {e}") from None
