"""The position as readable, diffable text, and back.

    game = cultist-wars
    map_seed = 49                 (the referee's game seed of the map, a Java long, or none; checked
                                   against the rows)
    turn = 2                      (turns played, 0..150; both players' actions count)
    to_move = 0                   (always turn % 2)
    lcg_seed = 1250496027         (state of the neutral-move LCG; 42 at turn 0)
    unit_counts = 1 1             (numberOfUnits of players 0 and 1; checked, it follows from the units)
    # map: x obstacle, . floor, 0-9 a-d the unit with id 0..13 standing there
    row 0 = ....x...x....
    ...
    row 6 = ..2..........
    # unit = id owner type hp x y   (owner 2 = neutral; out of the game: hp 0 and x y = - -)
    unit = 0 0 leader 10 1 3
    ...
Blank lines and lines starting with `#` are ignored.
"""
from __future__ import annotations

from engines.base import PositionError
from engines.numbers import SEED_MAX, SEED_MIN, NumberError, parse_int, quote

from .board import tile
from .lcg import LCG_MASK
from .mapgen import HEIGHT, WIDTH, generate_map
from .rules import N_UNITS, TURNS

UNIT_CHARS = "0123456789abcd"
_KEYS = ("game", "map_seed", "turn", "to_move", "lcg_seed", "unit_counts")


def position_to_text(game) -> str:
    rows = [list(r) for r in game.tiles()]
    units = game.units()
    for u in units:
        if u.alive:
            rows[u.y][u.x] = UNIT_CHARS[u.id]
    c0, c1 = game.unit_counts()
    out = [
        "game = cultist-wars",
        f"map_seed = {'none' if game.map_seed is None else game.map_seed}",
        f"turn = {game.turn}",
        f"to_move = {game.turn % 2}",
        f"lcg_seed = {game.lcg_state}",
        f"unit_counts = {c0} {c1}",
        "# map: x obstacle, . floor, 0-9 a-d the unit with id 0..13 standing there",
    ]
    out += [f"row {y} = {''.join(r)}" for y, r in enumerate(rows)]
    out.append("# unit = id owner type hp x y   (owner 2 = neutral; out of the game: hp 0 and x y = - -)")
    for u in units:
        where = f"{u.x} {u.y}" if u.alive else "- -"
        out.append(f"unit = {u.id} {u.owner} {u.type} {u.hp} {where}")
    return "\n".join(out) + "\n"


class _Reader:
    """Collects the `key = value` lines, remembering each one's line number for errors."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise PositionError("line 1: a position text must be a string")
        self.values: dict[str, tuple[int, str]] = {}
        self.rows: dict[int, tuple[int, str]] = {}
        self.units: dict[int, tuple[int, list[str]]] = {}
        for n, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                raise PositionError(f"line {n}: expected `key = value`, got {quote(raw)}")
            key, value = (s.strip() for s in line.split("=", 1))
            self._take(n, key, value)

    def _take(self, n: int, key: str, value: str) -> None:
        if key in _KEYS:
            if key in self.values:
                raise PositionError(f"line {n}: `{key}` given twice")
            self.values[key] = (n, value)
        elif key.startswith("row"):
            y = _int(n, key[3:].strip(), "row number", 0, HEIGHT - 1)
            if y in self.rows:
                raise PositionError(f"line {n}: row {y} given twice")
            self.rows[y] = (n, value)
        elif key == "unit":
            fields = value.split()
            if len(fields) != 6:
                raise PositionError(f"line {n}: a unit is `id owner type hp x y`, got {quote(value)}")
            u = _int(n, fields[0], "unit id", 0, N_UNITS - 1)
            if u in self.units:
                raise PositionError(f"line {n}: unit {u} given twice")
            self.units[u] = (n, fields)
        else:
            raise PositionError(f"line {n}: unknown key {quote(key)}")

    def need(self, key: str) -> tuple[int, str]:
        if key not in self.values:
            raise PositionError(f"line 0: `{key} = ...` is missing")
        return self.values[key]


def _int(n: int, s: str, what: str, lo: int, hi: int) -> int:
    try:
        return parse_int(s, lo=lo, hi=hi, what=what)
    except NumberError as e:
        raise PositionError(f"line {n}: {e}") from None


def position_from_text(text: str, game_class):
    """The position `text` describes, as a `game_class` (CultistWars, handed in so that this module,
    which the game uses, does not import the game)."""
    r = _Reader(text)
    n, game_id = r.need("game")
    if game_id != "cultist-wars":
        raise PositionError(f"line {n}: this is a position of {quote(game_id)}, not cultist-wars")
    n, s = r.need("map_seed")
    map_seed = None if s == "none" else _int(n, s, "map_seed", SEED_MIN, SEED_MAX)
    n, s = r.need("turn")
    turn = _int(n, s, "turn", 0, TURNS)
    n, s = r.need("to_move")
    if _int(n, s, "to_move", 0, 1) != turn % 2:
        raise PositionError(f"line {n}: to_move must be turn % 2 = {turn % 2}")
    n, s = r.need("lcg_seed")
    lcg = _int(n, s, "lcg_seed", 0, LCG_MASK)

    obstacles, grid = _read_rows(r)
    if map_seed is not None and obstacles != {tile(x, y) for x, y in generate_map(map_seed).obstacles}:
        raise PositionError(f"line {r.values['map_seed'][0]}: the rows are not the map of seed {map_seed} "
                            "(write `map_seed = none` for an edited map)")
    pos, hp, owner = _read_units(r, obstacles, grid)
    game = game_class(frozenset(obstacles), pos, hp, owner, lcg, turn, map_seed)

    n, s = r.need("unit_counts")
    counts = s.split()
    if len(counts) != 2 or tuple(_int(n, c, "unit count", 0, N_UNITS) for c in counts) != game.unit_counts():
        raise PositionError(f"line {n}: unit_counts {quote(s)} do not match the units in the game "
                            f"({game.unit_counts()[0]} {game.unit_counts()[1]})")
    return game


def _read_rows(r: _Reader) -> tuple[set[int], dict[int, str]]:
    obstacles: set[int] = set()
    grid: dict[int, str] = {}  # tile -> unit char shown there
    for y in range(HEIGHT):
        if y not in r.rows:
            raise PositionError(f"line 0: `row {y} = ...` is missing")
        n, row = r.rows[y]
        if len(row) != WIDTH:
            raise PositionError(f"line {n}: row {y} must have {WIDTH} tiles, got {len(row)}")
        for x, c in enumerate(row):
            if c == "x":
                obstacles.add(tile(x, y))
            elif c in UNIT_CHARS:
                grid[tile(x, y)] = c
            elif c != ".":
                raise PositionError(f"line {n}: unknown tile {c!r} at x={x} (use . x 0-9 a-d)")
    return obstacles, grid


def _read_units(r: _Reader, obstacles: set[int], grid: dict[int, str]):
    pos, hp, owner = [-1] * N_UNITS, [0] * N_UNITS, [0] * N_UNITS
    seen: dict[int, int] = {}
    for u in range(N_UNITS):
        if u not in r.units:
            raise PositionError(f"line 0: `unit = {u} ...` is missing")
        n, (_, o, kind, h, x, y) = r.units[u]
        owner[u] = _int(n, o, "owner", 0, 2)
        if kind != ("leader" if u < 2 else "cultist"):
            raise PositionError(f"line {n}: unit {u} must be a {'leader' if u < 2 else 'cultist'}")
        if u < 2 and owner[u] != u:
            raise PositionError(f"line {n}: leader {u} always belongs to player {u}")
        hp[u] = _int(n, h, "hp", 0, 10)
        if hp[u] == 0:
            if (x, y) != ("-", "-"):
                raise PositionError(f"line {n}: unit {u} has hp 0, so it is off the board: write `- -`")
            continue
        t = tile(_int(n, x, "x", 0, WIDTH - 1), _int(n, y, "y", 0, HEIGHT - 1))
        if t in obstacles:
            raise PositionError(f"line {n}: unit {u} stands on an obstacle")
        if t in seen:
            raise PositionError(f"line {n}: units {seen[t]} and {u} stand on the same tile")
        if grid.get(t) != UNIT_CHARS[u]:
            raise PositionError(f"line {n}: the map shows {grid.get(t, '.')!r} at {x},{y}, not unit {u}")
        seen[t] = u
        pos[u] = t
    for t, c in grid.items():
        if t not in seen:
            raise PositionError(f"line {r.rows[t // WIDTH][0]}: the map shows unit {c!r} at "
                                f"{t % WIDTH},{t // WIDTH} but no unit in the game stands there")
    return pos, hp, owner
