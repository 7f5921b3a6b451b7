"""The bot's side: rebuild the referee's exact position from the input lines a player receives.

The input shows the units in the game, not the dead ones (whose owner still decides which units
count as neutrals), nor the neutral-move LCG state.  Both follow from the history, so the reader
replays it: it keeps the position it last handed to the bot, plays the bot's own move on it
(`played`), then tries each of the opponent's canonical moves (every resolved action is one of them)
and keeps the one whose result, neutral move included, shows exactly the units it read.  Any two
matching moves give the same position: the same units, owners and deaths mean the same LCG calls.

Player 1's first input follows player 0's first turn from a start it never saw: the start is
rebuilt from the map's left-right symmetry of the neutrals (at most one neutral has moved, so each
mirror pair that disagrees gives two candidate starts).

Should no replay match (a reader fed a foreign history), the position is built directly from the
input: dead units keep their last known owner, and the LCG is advanced by the calls the neutral move
must have made (one for the pick, one more when the picked neutral was alive).

Input no referee sends is refused with an InputError naming its line: a board other than 13 x 7,
map rows of other than '.' and 'x', numbers out of range (ids 0-13, type, hp 1-10, coordinates on
the board, owner 0-2), a unit listed twice, a leader of the wrong type or owner, a unit on an
obstacle or on another unit's tile, a player without units, or a game past its last turn.
"""
from __future__ import annotations

from itertools import product
from typing import Callable, Hashable

from engines.base import Game, InputReader, quote
from engines.endings import describe
from engines.textread import LineSource

from .board import tile
from .lcg import LCG_START, lcg_next, lcg_rand
from .mapgen import HEIGHT, LEADER_TILES, WIDTH
from .protocol import Move
from .rules import N_UNITS

# One unit as the input shows it: (hp, tile, owner); None when it is not in the input (dead).
Seen = tuple


class CultistWarsReader(InputReader):
    def __init__(self, game_class: type[Game]) -> None:
        # the game hands its class in (CultistWars): importing it here would be an import cycle
        self.game_class = game_class
        self.src = LineSource()
        self.seat: int | None = None
        self.obstacles: frozenset[int] = frozenset()
        self.last: Game | None = None  # the position last handed to the bot
        self.mine: Move | None = None  # the bot's answer to it, from `played`

    def read_turn(self, readline: Callable[[], str]) -> Game:
        src = self.src
        src.begin_turn(readline)
        if self.seat is None:
            self._read_init()
        count_line = src.number + 1
        seen = self._read_units()
        game = self._rebuild(seen)
        if game.outcome() is not None:
            raise src.error(f"the game is over ({describe(game.outcome(), type(game))}): no referee asks for a move",
                            count_line)
        self.last, self.mine = game, None
        return game._clone()

    def played(self, move: Hashable) -> None:
        if isinstance(move, str) and self.last is not None:
            move = self.last.parse_output(move)
        self.mine = move

    # ------------------------------------------------------------------ reading

    def _read_init(self) -> None:
        src = self.src
        seat = src.read_int("myId", 0, 1)
        width, height = src.read_fields("the board size `width height`", 2)
        src.to_int(width, "width", WIDTH, WIDTH)
        src.to_int(height, "height", HEIGHT, HEIGHT)
        obstacles = set()
        for y in range(HEIGHT):
            row = src.read_line("a map row")
            if len(row) != WIDTH:
                raise src.error(f"expected {WIDTH} characters in a map row, got {len(row)} ({quote(row)})")
            if any(c not in ".x" for c in row):
                raise src.error(f"a map row has only '.' and 'x', got {quote(row)}")
            obstacles |= {tile(x, y) for x, c in enumerate(row) if c == "x"}
        self.seat, self.obstacles = seat, frozenset(obstacles)

    def _read_units(self) -> Seen:
        src = self.src
        count = src.read_int("numOfUnits", 0, N_UNITS)
        count_line = src.number
        units: list = [None] * N_UNITS
        on_tile: dict[int, int] = {}
        for _ in range(count):
            uid, hp, t, owner = self._read_unit(units, on_tile)
            units[uid] = (hp, t, owner)
            on_tile[t] = uid
        for player in (0, 1):
            if not any(u is not None and u[2] == player for u in units):
                raise src.error(f"player {player} has no unit: the game would be over", count_line)
        return tuple(units)

    def _read_unit(self, units: list, on_tile: dict[int, int]) -> tuple[int, int, int, int]:
        """One `unitId type hp x y owner` line, checked against the map and the units before it."""
        src = self.src
        fields = src.read_fields("a unit `unitId type hp x y owner`", 6)
        uid = src.to_int(fields[0], "unitId", 0, N_UNITS - 1)
        kind = src.to_int(fields[1], "type", 0, 1)
        hp = src.to_int(fields[2], "hp", 1, 10)
        x = src.to_int(fields[3], "x", 0, WIDTH - 1)
        y = src.to_int(fields[4], "y", 0, HEIGHT - 1)
        owner = src.to_int(fields[5], "owner", 0, 2)
        t = tile(x, y)
        if units[uid] is not None:
            raise src.error(f"unit {uid} is listed twice")
        if kind != (1 if uid < 2 else 0):
            raise src.error(f"unit {uid} has type {kind}: units 0 and 1 are the cult leaders (type 1), "
                            "the others cultists (type 0)")
        if uid < 2 and owner != uid:
            raise src.error(f"cult leader {uid} has owner {owner}: leaders are never converted")
        if t in self.obstacles:
            raise src.error(f"unit {uid} stands on an obstacle at {x} {y}")
        if t in on_tile:
            raise src.error(f"units {on_tile[t]} and {uid} stand on the same tile {x} {y}")
        return uid, hp, t, owner

    # ------------------------------------------------------------------ rebuilding

    def _rebuild(self, seen: Seen) -> Game:
        if self.last is None and self.seat == 0:
            return self._start_as_seen(seen)
        if self.last is None:  # player 1's first turn: the start comes from the map's symmetry
            starts = first_turn_starts(self.game_class, self.obstacles, seen)
        else:
            starts = self._starts_before_opponent()
        for start in starts:
            found = _after_matching_move(start, seen)
            if found is not None:
                return found
        return self._direct(starts[0] if starts else None, seen)

    def _start_as_seen(self, seen: Seen) -> Game:
        pos = [s[1] if s else -1 for s in seen]
        hp = [s[0] if s else 0 for s in seen]
        owner = [s[2] if s else 2 for s in seen]
        return self.game_class(self.obstacles, pos, hp, owner, LCG_START, 0)

    def _starts_before_opponent(self) -> list[Game]:
        """The positions the opponent may have moved from."""
        assert self.last is not None
        if self.mine is not None:
            game = self.last._clone()
            game.push(self.mine)
            return [game]
        starts = []  # the bot did not say what it played: try all its moves
        for move in self.last.legal_moves():
            game = self.last._clone()
            game.push(move)
            starts.append(game)
        return starts

    def _direct(self, base: Game | None, seen: Seen) -> Game:
        """The position read straight from the input when no replay explains it."""
        if base is None:
            base = self.last
        turn = base.turn if base is not None else 0
        lcg = base.lcg_state if base is not None else LCG_START
        last_owner = [u.owner for u in base.units()] if base is not None else [0, 1] + [2] * 12
        owner = [s[2] if s else last_owner[u] for u, s in enumerate(seen)]
        neutrals = [u for u in range(2, N_UNITS) if owner[u] == 2]
        if neutrals:
            idx, lcg = lcg_rand(lcg, 12)
            if idx < len(neutrals) and seen[neutrals[idx]] is not None:
                lcg = lcg_next(lcg)
        pos = [s[1] if s else -1 for s in seen]
        hp = [s[0] if s else 0 for s in seen]
        return self.game_class(self.obstacles, pos, hp, owner, lcg, turn + 1)


def _matches(game: Game, seen: Seen) -> bool:
    return all((s is None and hp == 0) or (s is not None and s == (hp, pos, owner))
               for s, hp, pos, owner in zip(seen, game._hp, game._pos, game._owner))


def _after_matching_move(start: Game, seen: Seen) -> Game | None:
    for move in start.legal_moves():
        start.push(move)
        if _matches(start, seen):
            found = start._clone()
            start.pop()
            return found
        start.pop()
    return None


def _mirror(t: int) -> int:
    return t - t % WIDTH + (WIDTH - 1 - t % WIDTH)


def first_turn_starts(game_class: type[Game], obstacles: frozenset[int], seen: Seen) -> list[Game]:
    """Candidate starts of the game, from what player 1 sees after player 0's first turn."""
    if any(s is None for s in seen):
        return []
    options = []
    for i in range(2, 8):
        pi, pj = seen[i][1], seen[i + 6][1]
        if pj == _mirror(pi):
            options.append([(pi, pj)])
        else:  # one of the pair is the neutral that moved
            options.append([(pi, _mirror(pi)), (_mirror(pj), pj)])
    starts = []
    leaders = [tile(x, y) for x, y in LEADER_TILES]
    for choice in product(*options):
        pos = leaders + [p for p, _ in choice] + [q for _, q in choice]
        if len(set(pos)) == N_UNITS and not any(t in obstacles for t in pos):
            owner = [0, 1] + [2] * (N_UNITS - 2)
            starts.append(game_class(obstacles, pos, [10] * N_UNITS, owner, LCG_START, 0))
    return starts
