"""The Cultist Wars engine: a position plus its history, played exactly as the CodinGame referee does.

Representation (flat lists, copied whole for undo; see board.py for tile indices):
    _pos[u], _hp[u], _owner[u]   the 14 units in id order (pos -1 once dead and off the board)
    _occ[t]                      FREE, OBSTACLE or the unit id on tile t
    _count[p]                    the referee's numberOfUnits[p]: units of p in the game, leader included
    _lcg                         the neutral-move LCG state (42 at the start of every game)
    _turn                        turns played, 0..150; the player to move is _turn % 2

One `push` is one referee turn (`Referee.gameTurn`): resolve the action (`getFinalAction`), carry it
out, try the neutral move (the game's one chance event, driven by `_lcg`), then take the units
killed this turn off their tiles.  The game ends after a turn when a player has no unit left
(`elimination`) or after turn index 149 (`turn_limit`); the unit counts are the scores.

Moves (protocol.Move) are what the player asked for; `legal_moves` lists one canonical move per
distinct effect, `is_legal` accepts everything the referee's validation accepts.
`new(seed)` builds the referee's map for that game seed (mapgen.py); `new(None)` uses DEFAULT_SEED = 0.
Seeds are Java longs, -2**63..2**63-1, as the referee takes them (engines.numbers.SEED_MIN/SEED_MAX);
`new` refuses others with an EngineError, so every game it starts can be saved and loaded again.
The UI helpers are listed in the package docstring (engines/cultist_wars/__init__.py).
"""
from __future__ import annotations

from typing import ClassVar, Hashable

from engines.base import EndingWords, Game, IllegalMove, InvalidOutput, Outcome, Termination, TimeLimits
from engines.numbers import check_seed

from .board import (BULLET, DIST, DIST_ROWS, FREE, MAX_DAMAGE, N_TILES, NEIGHBOURS, OBSTACLE, SHOOT_RANGE, XY,
                    move_step, tile)
from .lcg import LCG_START, lcg_rand
from .mapgen import HEIGHT, LEADER_TILES, WIDTH, generate_map
from .protocol import (CONVERT, MOVE, SHOOT, WAIT, WAIT_MOVE, Move, move_to_text, parse_action,
                       recorded_text)
from .position_text import position_from_text, position_to_text
from .reader import CultistWarsReader
from .rules import N_UNITS, TURNS, validity_error

N_NEUTRAL_SLOTS = 12  # Board.NUMBER_OF_NEUTRALS: the bound of the neutral pick, whatever is left
NEUTRAL = 2
DEFAULT_SEED = 0  # `new(None)` plays the map of game seed 0

# Canonical action objects, built once: legal_moves creates no Move.
_MOVE_TO = [[Move(MOVE, u, *XY[t]) for t in range(N_TILES)] for u in range(N_UNITS)]
_SHOOT_AT = [[Move(SHOOT, u, target=t) for t in range(N_UNITS)] for u in range(N_UNITS)]
_CONVERT = [[Move(CONVERT, u, target=t) for t in range(N_UNITS)] for u in range(N_UNITS)]


class CultistWars(Game[Move]):
    id: ClassVar[str] = "cultist-wars"
    aliases: ClassVar[tuple[str, ...]] = ("cw",)
    side_names: ClassVar[tuple[str, str]] = ("Red", "Blue")
    seeded: ClassVar[bool] = True  # the seed draws the map
    title: ClassVar[str] = "Cultist Wars"
    side_names = ("Red", "Blue")
    # the scores are the units each side has left
    ending_words = {
        Termination.ELIMINATION: EndingWords("no unit left",
                                             "a side has no unit left; units: {side0} {score0}, {side1} {score1}"),
        Termination.TURN_LIMIT: EndingWords("the turn limit was reached",
                                            "{turns} turns played; units left: {side0} {score0}, {side1} {score1}"),
    }
    forfeit_scores = (-1, 0)
    description: ClassVar[str] = "Convert neutrals with your leader, shoot enemy cultists (13 × 7 map)."
    limits: ClassVar[TimeLimits] = TimeLimits(1000, 50)
    max_turns: ClassVar[int] = TURNS

    def __init__(self, obstacles: frozenset[int], pos: list[int], hp: list[int], owner: list[int],
                 lcg: int = LCG_START, turn: int = 0, map_seed: int | None = None) -> None:
        """A position from its parts (tiles as ints, see board.py); `new` and `from_text` use it."""
        self.map_seed = map_seed
        self._obstacles = frozenset(obstacles)
        self._obstacle_mask = sum(1 << t for t in self._obstacles)
        self._pos, self._hp, self._owner = list(pos), list(hp), list(owner)
        self._lcg = lcg
        self._turn = turn
        self._occ = [OBSTACLE if t in self._obstacles else FREE for t in range(N_TILES)]
        for u in range(N_UNITS):
            if self._pos[u] >= 0:
                self._occ[self._pos[u]] = u
        self._count = [sum(1 for u in range(N_UNITS) if self._owner[u] == p and self._hp[u] > 0)
                       for p in (0, 1)]
        self._neutrals = self._neutral_ids()
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int | None = None) -> "CultistWars":
        """The start of the game the official referee plays with game seed `seed` (None: DEFAULT_SEED)."""
        check_seed(seed, cls.title)  # a seed the referee could not take would not survive a save
        seed = DEFAULT_SEED if seed is None else seed
        gen = generate_map(seed)
        pos = [tile(x, y) for x, y in LEADER_TILES + gen.neutrals]
        owner = [0, 1] + [NEUTRAL] * (N_UNITS - 2)
        obstacles = frozenset(tile(x, y) for x, y in gen.obstacles)
        return cls(obstacles, pos, [10] * N_UNITS, owner, LCG_START, 0, seed)

    def copy(self) -> "CultistWars":
        other = self._clone()
        other.move_stack = list(self.move_stack)
        # pop() adopts the saved lists as live ones, so each game needs its own.
        other._undo = [(p[:], h[:], o[:], c[:], n[:], lcg, nt) for p, h, o, c, n, lcg, nt in self._undo]
        return other

    def _clone(self) -> "CultistWars":
        """The same position without history."""
        other = object.__new__(CultistWars)
        other.map_seed = self.map_seed
        other._obstacles, other._obstacle_mask = self._obstacles, self._obstacle_mask
        other._pos, other._hp, other._owner = self._pos[:], self._hp[:], self._owner[:]
        other._occ, other._count = self._occ[:], self._count[:]
        other._lcg, other._turn, other._neutrals = self._lcg, self._turn, self._neutrals
        other.move_stack, other._undo = [], []
        return other

    # ------------------------------------------------------------------ play

    def current_player(self) -> int:
        return self._turn & 1

    def legal_moves(self) -> list[Move]:
        """WAIT; then for each own unit in the game, by id: its MOVEs to free neighbours (U, R, D, L),
        then its SHOOTs at every unit within range 6 (any owner, by id) or, for the leader, its
        CONVERTs of adjacent units it may convert.  Far MOVEs, out-of-range SHOOTs and far CONVERTs
        are left out: the referee turns them into one of the listed MOVEs or into WAIT."""
        if self.outcome() is not None:
            return []
        me = self._turn & 1
        pos, hp, owner, occ = self._pos, self._hp, self._owner, self._occ
        in_game = [(t, pos[t]) for t in range(N_UNITS) if hp[t]]
        moves = [WAIT_MOVE]
        for u, here in in_game:
            if owner[u] != me:
                continue
            to = _MOVE_TO[u]
            for nb in NEIGHBOURS[here]:
                if occ[nb] == FREE:
                    moves.append(to[nb])
            dist = DIST_ROWS[here]
            if u == me:  # the leader
                conv = _CONVERT[u]
                moves.extend(conv[t] for t, there in in_game if t > 1 and owner[t] != me and dist[there] == 1)
            else:
                shoot = _SHOOT_AT[u]
                moves.extend(shoot[t] for t, there in in_game if dist[there] <= SHOOT_RANGE and t != u)
        return moves

    def is_legal(self, move: Move) -> bool:
        """True for every action the referee's validation accepts (not only the canonical list):
        e.g. a MOVE onto an obstacle or a SHOOT out of range is valid, it resolves to a step or WAIT."""
        if not isinstance(move, Move) or self.outcome() is not None:
            return False
        if not all(isinstance(v, int) for v in move[1:]):
            return False
        if move.kind == WAIT and move != WAIT_MOVE:
            return False
        return validity_error(move, self._turn & 1, self._hp, self._owner) is None

    def push(self, move: Move) -> None:
        """One referee turn: the action (resolved as `getFinalAction` does), the neutral move, then
        the dead leave their tiles.  Trusts that `move` is valid."""
        self._undo.append((self._pos[:], self._hp[:], self._owner[:], self._occ[:], self._count[:], self._lcg,
                           self._neutrals))
        self.move_stack.append(move)
        died = False
        if move.kind != WAIT:
            died = self._act(move)
        self._move_neutral()
        if died:
            self._remove_dead()
        self._turn += 1

    def pop(self) -> Move:
        if not self.move_stack:
            raise IllegalMove("no move to undo")
        self._pos, self._hp, self._owner, self._occ, self._count, self._lcg, self._neutrals = self._undo.pop()
        self._turn -= 1
        return self.move_stack.pop()

    def _act(self, move: Move) -> bool:
        """Carry out a valid action; True when a unit died."""
        u, kind = move.unit, move.kind
        start = self._pos[u]
        if kind == MOVE:
            goal = tile(move.x, move.y)
        else:
            goal = self._pos[move.target]
            d = DIST[start * N_TILES + goal]
            if kind == SHOOT and d <= SHOOT_RANGE:
                return self._shoot(u, start, goal)
            if kind == CONVERT and d == 1:
                self._convert(u, move.target)
                return False
        if DIST[start * N_TILES + goal] == 1:  # the common case, without the BFS
            step = goal if self._occ[goal] == FREE else None
        else:
            step, _ = move_step(self._occ, start, goal)
        if step is not None:
            self._step(u, start, step)
        return False

    def _step(self, u: int, start: int, goal: int) -> None:
        occ = self._occ
        occ[start] = FREE
        occ[goal] = u
        self._pos[u] = goal

    def _shoot(self, shooter: int, start: int, target_tile: int) -> bool:
        occ = self._occ
        hit = target_tile
        for t in BULLET[start * N_TILES + target_tile]:
            if occ[t] != FREE:
                hit = t
                break
        victim = occ[hit]
        if victim < 0:  # an obstacle stops the bullet
            return False
        hp = self._hp
        hp[victim] = max(0, hp[victim] - (MAX_DAMAGE - DIST[start * N_TILES + hit]))
        if hp[victim] > 0:
            return False
        if self._owner[victim] != NEUTRAL:
            self._count[self._owner[victim]] -= 1
        return True

    def _convert(self, leader: int, target: int) -> None:
        owner = self._owner
        old, new = owner[target], owner[leader]
        if old != NEUTRAL:
            self._count[old] -= 1
        owner[target] = new
        self._count[new] += 1
        if old == NEUTRAL:
            self._neutrals = self._neutral_ids()

    def _neutral_ids(self) -> tuple[int, ...]:
        """Owner-2 units *including dead ones*, by id: the list the neutral move picks from."""
        return tuple(u for u in range(2, N_UNITS) if self._owner[u] == NEUTRAL)

    def _move_neutral(self) -> None:
        """`Referee.moveNeutralUnit` (the neutral list is kept in `_neutrals`)."""
        neutrals = self._neutrals
        if not neutrals:
            return
        idx, lcg = lcg_rand(self._lcg, N_NEUTRAL_SLOTS)
        if idx < len(neutrals):
            n = neutrals[idx]
            if self._hp[n] > 0:
                occ = self._occ
                here = self._pos[n]
                options = [nb for nb in NEIGHBOURS[here] if occ[nb] == FREE]
                # With no free neighbour the only option is WAIT, still drawn with rand(1).
                k, lcg = lcg_rand(lcg, len(options) or 1)
                if options:
                    self._step(n, here, options[k])
        self._lcg = lcg

    def _remove_dead(self) -> None:
        """`removeDeadUnitsFromTiles`: only at the end of the turn, after the neutral move."""
        pos, hp, occ = self._pos, self._hp, self._occ
        for u in range(N_UNITS):
            if hp[u] == 0 and pos[u] >= 0:
                occ[pos[u]] = FREE
                pos[u] = -1

    def outcome(self) -> Outcome | None:
        c0, c1 = self._count
        if c0 >= 1 and c1 >= 1 and self._turn < TURNS:
            return None
        winner = 0 if c0 > c1 else 1 if c1 > c0 else None
        if c0 < 1 or c1 < 1:
            return Outcome(winner, "elimination", (c0, c1))
        return Outcome(winner, "turn_limit", (c0, c1), turns=TURNS)

    def key(self) -> Hashable:
        return (self._turn, self._lcg, tuple(self._pos), tuple(self._hp), tuple(self._owner),
                self._obstacle_mask)

    # ------------------------------------------------------------------ notation and protocol

    def move_to_str(self, move: Move) -> str:
        return move_to_text(move)

    def parse_output(self, line: str) -> Move:
        """`Player.getAction` + `Action.parseAction` + `Board.checkActionValidity`."""
        if self.outcome() is not None:
            raise InvalidOutput("the game is over")
        move = parse_action(line)
        error = validity_error(move, self._turn & 1, self._hp, self._owner)
        if error is not None:
            raise InvalidOutput(error)
        return move

    def recorded_output(self, line: str) -> str:
        return recorded_text(line)

    def bot_input(self, first: bool) -> list[str]:
        lines = [str(self._turn & 1), f"{WIDTH} {HEIGHT}", *self.tiles()] if first else []
        alive = [u for u in range(N_UNITS) if self._hp[u] > 0]
        lines.append(str(len(alive)))
        for u in alive:
            x, y = XY[self._pos[u]]
            lines.append(f"{u} {1 if u < 2 else 0} {self._hp[u]} {x} {y} {self._owner[u]}")
        return lines

    @classmethod
    def input_reader(cls):
        return CultistWarsReader(cls)

    # ------------------------------------------------------------------ text

    def to_text(self) -> str:
        return position_to_text(self)

    @classmethod
    def from_text(cls, text: str) -> "CultistWars":
        return position_from_text(text, cls)

    # ------------------------------------------------------------------ helpers for the UI

    @property
    def turn(self) -> int:
        """Turns played (0..150): both players' actions count; the player to move is turn % 2."""
        return self._turn

    game_ply = turn  # the protocol's name

    @property
    def lcg_state(self) -> int:
        return self._lcg

    def tiles(self) -> list[str]:
        """The 7 map rows as the referee sends them: `.` floor, `x` obstacle."""
        occ = self._occ
        return ["".join("x" if occ[y * WIDTH + x] == OBSTACLE else "." for x in range(WIDTH))
                for y in range(HEIGHT)]

    def obstacles(self) -> frozenset[tuple[int, int]]:
        return frozenset(XY[t] for t in self._obstacles)

    def units(self) -> list["UnitView"]:
        from .views import UnitView

        return [UnitView(u, self._owner[u], "leader" if u < 2 else "cultist", self._hp[u],
                         *(XY[self._pos[u]] if self._pos[u] >= 0 else (None, None)), self._hp[u] > 0)
                for u in range(N_UNITS)]

    def unit_at(self, x: int, y: int) -> int | None:
        """The id of the unit on (x, y), or None."""
        v = self._occ[tile(x, y)]
        return v if v >= 0 else None

    def unit_counts(self) -> tuple[int, int]:
        """The referee's numberOfUnits: units of each player in the game (the scores at the end)."""
        return self._count[0], self._count[1]

    def preview(self, move: Move):
        """What the referee would do with `move` now (see views.Preview); raises IllegalMove if invalid."""
        from .views import preview

        if not self.is_legal(move):
            raise IllegalMove(f"{move_to_text(move)!s} is not valid here")
        return preview(self._pos, self._hp, self._occ, move)
