"""Paper Soccer, exactly as the CodinGame referee (jdermont/CodinGame-paper-soccer) plays it.

Geometry (rules §1-2)
---------------------
Points are numbered like the referee: a field point (x, y), x = 0..8 left to right, y = 0..10 top
to bottom, is ``x*11 + y`` (0..98); the six goal nodes are 99..104: (3,-1) (4,-1) (5,-1) on top
(seat 1's goal, where seat 0 scores) and (3,11) (4,11) (5,11) at the bottom (seat 0's goal).
Directions are the referee's digits: 0=N 1=NE 2=E 3=SE 4=S 5=SW 6=W 7=NW, N towards y=-1.

Representation
--------------
* ``_pm``: a list of 105 small ints, one per point: bit d is set when the edge from that point in
  direction d is drawn (pre-drawn lines included).  An edge is therefore stored twice, once at each
  end.  A step is legal when the neighbour exists and the bit is clear; the point reached is a
  bounce point when its mask was non-zero before the ball arrived; the ball is blocked when its mask
  equals ``FULL[p]`` (every adjacency drawn).  No separate free counts are needed: the mask is the
  incremental count.
* ``_ball``, ``_turn`` (player turns since the start of the game; seat to move = turn % 2).
* ``move_stack`` holds the turn strings; ``_undo`` holds the ball before each of them, so ``pop``
  re-walks the string from there and clears exactly the bits the turn set.

Moves
-----
A move is a whole turn: the digit string (str) the player prints, e.g. ``"61"``.  It continues
through bounce points and ends at the first non-bounce point, on a goal node, or where the ball is
stuck (a legal, losing move).

How many turns there are, and what ``legal_moves()`` returns
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Late in a game a bounce chain can wind through many touched points, and the number of distinct turn
strings explodes.  Measured: in random games that pick uniformly among whole turns (the shared
property tests), the median position has 16 turn strings, p99 about 730, the largest seen about
200 000 (1000 games); in random games built step by step (closer to how people play), a quarter of
positions have more than 20 000, and some have more than 10 million (counting them took minutes).
Deduplicating by effect does not save it (some positions have more than 20 000 distinct effects
too).  So:

* ``legal_moves()`` is exact, every legal turn string in lexicographic order, whenever there are at
  most ``MOVE_LIST_LIMIT`` (20 000) of them; beyond that it returns ``bounded_turns()``: about
  ``BOUNDED_LIST_SIZE`` (2 000) turns, one per effect, shortest first, plus a goal-scoring turn if
  one exists, sorted.  Either way the list is deterministic (a function of the position), every
  entry is legal, and it costs at most about 0.2 s.  ``legal_moves_complete()`` tells which case
  holds.  ``is_legal()`` and ``parse_output()`` check the turn itself, never the list.
* ``iter_legal_moves()`` yields every turn string lazily, however many; ``count_legal_moves(cap)``
  counts them.
* ``legal_turns_by_effect(cap)`` gives one string (the lexicographically smallest) per distinct
  effect (edges drawn plus final point), searched depth-first with memo on (point, edges drawn so
  far in the turn); two turns with one effect lead to the same position.
* ``scoring_turn()`` finds a turn into the goal the mover attacks, if any; ``random_turn(rng)``
  builds a random turn step by step (a cheap playout policy: ~5 000 games/s against ~600 games/s
  for uniform choice over ``legal_moves()``).
* For an AI the natural unit in dense positions is the step: ``free_directions``, ``TurnBuilder``.

Helpers for the UI
------------------
* geometry: ``point_xy(p)``, ``xy_point(x, y)`` (None if no such point), ``neighbour(p, d)``,
  ``goal_of(seat)`` (the goal nodes `seat` defends), ``attacked_goal(seat)``, ``direction_between(a, b)``;
* position: ``ball()``, ``drawn_edges()`` (all drawn edges, pre-drawn included, as pairs of (x, y)),
  ``player_edges()`` (without the pre-drawn ones), ``edge_owners()`` (edge -> seat for the edges of
  the moves on the stack), ``is_bounce_point(p)``, ``is_blocked_point(p)``, ``free_directions(p)``,
  ``step_is_legal(p, d)``, ``turn_points(move)`` (the points a turn string visits from the ball);
* ``TurnBuilder(game)``: builds a turn one direction at a time for a human player (``step(d)``,
  ``back()``, ``legal_steps()``, ``ended``, ``move``), drawing on a scratch copy of the pitch.

Position text
-------------
Comment lines (``#``) with an ASCII diagram, then ``key = value`` lines: ``game``, ``turn``,
``to_move``, ``ball = x,y``, ``last_move`` (the previous turn string, ``-`` before the first turn;
the referee sends it to the player to move) and one ``edge = x,y x,y`` line per player-drawn edge
(the 40 pre-drawn lines are implied).
"""
from __future__ import annotations

from typing import Callable, Hashable, Iterator

from engines.base import (
    Game,
    IllegalMove,
    InputReader,
    InvalidOutput,
    Outcome,
    PositionError,
    TimeLimits,
    quote,
)
from engines.numbers import NumberError, check_seed, parse_int, quote
from engines.textread import LineSource

# ---------------------------------------------------------------------------------------- geometry

WIDTH, HEIGHT = 9, 11  # lattice points per row / column of the field
N_FIELD = WIDTH * HEIGHT  # 99
N_POINTS = N_FIELD + 6  # 105 with the goal nodes
CENTRE = 4 * HEIGHT + 5  # (4,5), where the ball starts
TOP_GOAL = (99, 100, 101)  # seat 1's goal: seat 0 scores here
BOTTOM_GOAL = (102, 103, 104)  # seat 0's goal: seat 1 scores here
MAX_TURNS = 66
# legal_moves() lists every turn string when there are at most MOVE_LIST_LIMIT of them, else
# BOUNDED_LIST_SIZE turns chosen by `bounded_turns` (late positions can have millions of turns).
MOVE_LIST_LIMIT = 20_000
BOUNDED_LIST_SIZE = 2_000

DXY = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
OPP = tuple((d + 4) % 8 for d in range(8))
DIGITS = "01234567"

_GOAL_XY = ((3, -1), (4, -1), (5, -1), (3, 11), (4, 11), (5, 11))
XY: tuple[tuple[int, int], ...] = tuple(
    [(i // HEIGHT, i % HEIGHT) for i in range(N_FIELD)] + list(_GOAL_XY))
_INDEX = {xy: i for i, xy in enumerate(XY)}

# Diagonals from a goal corner node to the field point outside the post: not adjacent (removeAdjacency).
_REMOVED = {frozenset(((3, -1), (2, 0))), frozenset(((5, -1), (6, 0))),
            frozenset(((3, 11), (2, 10))), frozenset(((5, 11), (6, 10)))}


def _build_neighbours() -> list[int]:
    nb = [-1] * (N_POINTS * 8)
    for p, (x, y) in enumerate(XY):
        for d, (dx, dy) in enumerate(DXY):
            q = _INDEX.get((x + dx, y + dy))
            if q is not None and frozenset(((x, y), XY[q])) not in _REMOVED:
                nb[p * 8 + d] = q
    return nb


NB: list[int] = _build_neighbours()  # NB[p*8+d]: the point one step from p along d, or -1
FULL: list[int] = [sum(1 << d for d in range(8) if NB[p * 8 + d] >= 0) for p in range(N_POINTS)]
# Per point, the steps it allows: (direction, target, bit here, bit at the target, digit).
ADJ: list[tuple[tuple[int, int, int, int, str], ...]] = [
    tuple((d, NB[p * 8 + d], 1 << d, 1 << OPP[d], DIGITS[d]) for d in range(8) if NB[p * 8 + d] >= 0)
    for p in range(N_POINTS)]


def _predrawn_pairs() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    pairs = []
    for y in range(10):  # side lines
        pairs.append(((0, y), (0, y + 1)))
        pairs.append(((8, y), (8, y + 1)))
    for x in (0, 1, 2, 5, 6, 7):  # goal lines, the mouth (3..5) left open
        pairs.append(((x, 0), (x + 1, 0)))
        pairs.append(((x, 10), (x + 1, 10)))
    pairs += [((3, -1), (4, -1)), ((4, -1), (5, -1)), ((3, -1), (3, 0)), ((5, -1), (5, 0)),
              ((3, 11), (4, 11)), ((4, 11), (5, 11)), ((3, 11), (3, 10)), ((5, 11), (5, 10))]
    return pairs


def direction_between(a: int, b: int) -> int | None:
    """The direction of the step from point a to point b, or None when they are not adjacent."""
    for d in range(8):
        if NB[a * 8 + d] == b:
            return d
    return None


def _initial_masks() -> list[int]:
    pm = [0] * N_POINTS
    for a_xy, b_xy in _predrawn_pairs():
        a, b = _INDEX[a_xy], _INDEX[b_xy]
        d = direction_between(a, b)
        assert d is not None
        pm[a] |= 1 << d
        pm[b] |= 1 << OPP[d]
    return pm


INITIAL_PM: tuple[int, ...] = tuple(_initial_masks())
PREDRAWN: frozenset[tuple[int, int]] = frozenset(
    (min(_INDEX[a], _INDEX[b]), max(_INDEX[a], _INDEX[b])) for a, b in _predrawn_pairs())


def point_xy(p: int) -> tuple[int, int]:
    """(x, y) of a point index; goal nodes have y = -1 (top) or 11 (bottom)."""
    return XY[p]


def xy_point(x: int, y: int) -> int | None:
    """The index of the point (x, y), or None if the pitch has no such point."""
    return _INDEX.get((x, y))


def neighbour(p: int, d: int) -> int | None:
    """The point one step from p along direction d, or None when that leaves the pitch."""
    q = NB[p * 8 + d] if 0 <= d < 8 else -1
    return q if q >= 0 else None


def goal_of(seat: int) -> tuple[int, int, int]:
    """The goal nodes `seat` defends (an own goal there loses): seat 0 bottom, seat 1 top."""
    return BOTTOM_GOAL if seat == 0 else TOP_GOAL


def attacked_goal(seat: int) -> tuple[int, int, int]:
    """The goal nodes `seat` scores in."""
    return TOP_GOAL if seat == 0 else BOTTOM_GOAL


def _goal_owner(p: int) -> int:
    """The seat that defends goal node p (p >= 99)."""
    return 1 if p in TOP_GOAL else 0


def _fmt_xy(p: int) -> str:
    x, y = XY[p]
    return f"{x},{y}"


# ------------------------------------------------------------------------------------ the referee

MSG_EMPTY = "Output empty!"
MSG_CHARS = "Invalid characters in move"
MSG_FINISH = "Should finish turn, but there are still more characters in input"
MSG_BOUNDARY = "Trying to move out of pitch boundary"
MSG_EXISTING = "Trying to move on already existing edge"
MSG_PREMATURE = "Turn ended prematurely, ball must still move"

_VALID_CHARS = frozenset("012345678")


class PaperSoccer(Game[str]):
    id = "paper-soccer"
    title = "Paper Soccer"
    description = "Draw lines on squared paper, bounce off drawn lines and push the ball into the goal."
    limits = TimeLimits(first_ms=1000, turn_ms=200)
    max_turns = MAX_TURNS

    __slots__ = ("_pm", "_ball", "_turn", "move_stack", "_undo", "_base_turn", "_base_last")

    def __init__(self) -> None:
        self._pm: list[int] = list(INITIAL_PM)
        self._ball = CENTRE
        self._turn = 0
        self.move_stack: list[str] = []
        self._undo: list[int] = []  # ball before each move of move_stack
        self._base_turn = 0  # turn count of the position this object started from
        self._base_last: str | None = None  # the turn played just before that position, if known

    # -------------------------------------------------------------------------- construction

    @classmethod
    def new(cls, seed: int | None = None) -> "PaperSoccer":
        check_seed(seed, cls.title)  # nothing is random in this game, but a seed is the AI's noise
        return cls()

    def copy(self) -> "PaperSoccer":
        g = PaperSoccer.__new__(PaperSoccer)
        g._pm = self._pm[:]
        g._ball = self._ball
        g._turn = self._turn
        g.move_stack = self.move_stack[:]
        g._undo = self._undo[:]
        g._base_turn = self._base_turn
        g._base_last = self._base_last
        return g

    # ------------------------------------------------------------------------------- state

    def current_player(self) -> int:
        return self._turn & 1

    @property
    def turn(self) -> int:
        """Player turns played since the start of the game (the referee's turn index of the next turn)."""
        return self._turn

    game_ply = turn  # the protocol's name

    def ball(self) -> int:
        return self._ball

    def last_move(self) -> str | None:
        """The previous turn string (what the referee sends the player to move), None before the first."""
        return self.move_stack[-1] if self.move_stack else self._base_last

    def key(self) -> Hashable:
        return (bytes(self._pm), self._ball, self._turn)

    def is_bounce_point(self, p: int) -> bool:
        """Whether a ball arriving at p now would have to move on (p already touches a drawn line)."""
        return self._pm[p] != 0 and p < N_FIELD

    def is_blocked_point(self, p: int) -> bool:
        return self._pm[p] == FULL[p]

    def free_directions(self, p: int) -> list[int]:
        m = self._pm[p]
        return [d for d, _, bit, _, _ in ADJ[p] if not m & bit]

    def step_is_legal(self, p: int, d: int) -> bool:
        """Whether the edge from p along d exists and is not drawn yet."""
        return 0 <= d < 8 and NB[p * 8 + d] >= 0 and not self._pm[p] >> d & 1

    def drawn_edges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """Every drawn edge, pre-drawn included, as ((x1, y1), (x2, y2)) with the lower index first."""
        return [(XY[a], XY[b]) for a, b in self._edge_pairs()]

    def player_edges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The edges drawn by the players (the pre-drawn lines left out)."""
        return [(XY[a], XY[b]) for a, b in self._edge_pairs() if (a, b) not in PREDRAWN]

    def edge_owners(self) -> dict[tuple[tuple[int, int], tuple[int, int]], int]:
        """Edge -> seat that drew it, for the edges of the moves on the move stack."""
        owners = {}
        for k, (move, start) in enumerate(zip(self.move_stack, self._undo)):
            seat = (self._base_turn + k) & 1
            p = start
            for c in move:
                q = NB[p * 8 + ord(c) - 48]
                a, b = (p, q) if p < q else (q, p)
                owners[(XY[a], XY[b])] = seat
                p = q
        return owners

    def turn_points(self, move: str) -> list[int]:
        """The points a turn string visits, starting with the ball (stops at the first impossible step)."""
        pts = [self._ball]
        for c in move:
            if c not in DIGITS:
                break
            q = NB[pts[-1] * 8 + ord(c) - 48]
            if q < 0:
                break
            pts.append(q)
        return pts

    def _edge_pairs(self) -> list[tuple[int, int]]:
        pairs = []
        for p in range(N_POINTS):
            m = self._pm[p]
            for d, q, bit, _, _ in ADJ[p]:
                if m & bit and p < q:
                    pairs.append((p, q))
        return pairs

    # --------------------------------------------------------------------------------- play

    def push(self, move: str) -> None:
        pm = self._pm
        start = p = self._ball
        for c in move:
            d = ord(c) - 48
            q = NB[p * 8 + d]
            pm[p] |= 1 << d
            pm[q] |= 1 << OPP[d]
            p = q
        self._ball = p
        self._turn += 1
        self.move_stack.append(move)
        self._undo.append(start)

    def pop(self) -> str:
        move = self.move_stack.pop()
        p = self._undo.pop()
        self._ball = p
        self._turn -= 1
        pm = self._pm
        for c in move:
            d = ord(c) - 48
            q = NB[p * 8 + d]
            pm[p] &= ~(1 << d)
            pm[q] &= ~(1 << OPP[d])
            p = q
        return move

    def outcome(self) -> Outcome | None:
        ball = self._ball
        if ball >= N_FIELD:
            mover = (self._turn - 1) & 1
            winner = 1 - _goal_owner(ball)
            if winner == mover:
                return _win(winner, "goal", f"seat {winner} scored a goal")
            return _win(winner, "own_goal", f"seat {mover} scored an own goal")
        if self._pm[ball] == FULL[ball]:
            mover = (self._turn - 1) & 1
            return _win(1 - mover, "blocked", f"seat {mover} is blocked")
        if self._turn >= MAX_TURNS:
            return Outcome(None, "turn_limit", (0, 0), f"{MAX_TURNS} turns played without a result")
        return None

    def is_over(self) -> bool:
        ball = self._ball
        return ball >= N_FIELD or self._pm[ball] == FULL[ball] or self._turn >= MAX_TURNS

    def forfeit(self, seat: int, reason: str, detail: str = "") -> Outcome:
        scores = (-1, 1) if seat == 0 else (1, -1)
        return Outcome(1 - seat, reason, scores, detail)

    # --------------------------------------------------------------------------- legal turns

    def legal_moves(self) -> list[str]:
        """Every legal turn string in lexicographic order when there are at most MOVE_LIST_LIMIT of
        them (nearly always in random play over whole turns), else a deterministic bounded subset:
        see `bounded_turns`.  `legal_moves_complete()` tells which.  Empty once the game is over."""
        if self.is_over():
            return []
        out: list[str] = []
        limit = MOVE_LIST_LIMIT

        def add(path: list[str]) -> bool:
            out.append("".join(path))
            return len(out) > limit

        self._walk_turns(add)
        if len(out) <= limit:
            return out
        return self.bounded_turns(BOUNDED_LIST_SIZE)

    def legal_moves_complete(self) -> bool:
        """Whether `legal_moves()` lists every legal turn string here (at most MOVE_LIST_LIMIT of them)."""
        return self.count_legal_moves(MOVE_LIST_LIMIT) <= MOVE_LIST_LIMIT

    def count_legal_moves(self, cap: int | None = None) -> int:
        """How many legal turn strings there are (stops counting past `cap` and returns cap + 1)."""
        if self.is_over():
            return 0
        count = 0
        limit = cap if cap is not None else -1

        def seen(_path: list[str]) -> bool:
            nonlocal count
            count += 1
            return count == limit + 1

        self._walk_turns(seen)
        return count

    def iter_legal_moves(self) -> Iterator[str]:
        """Every legal turn string, one at a time in lexicographic order, however many there are.
        The search draws on the pitch itself: exhaust or close() the iterator before using the
        position again (a dropped iterator is closed, and restores it, at once in CPython)."""
        return iter(()) if self.is_over() else self._iter_turns()

    def bounded_turns(self, limit: int = BOUNDED_LIST_SIZE) -> list[str]:
        """At most `limit` legal turns (plus a goal-scoring one if `scoring_turn` finds one outside
        them), one per distinct effect, shortest first: every turn of 1 step, then of 2 steps, ...,
        and of the first length that does not fit entirely, the lexicographically first ones.
        Returned in lexicographic order.  The work is bounded whatever the position."""
        if self.is_over():
            return []
        shorter: list[str] = []
        max_len = 1
        while True:
            turns, cut = self._effect_turns_upto(max_len, limit)
            if len(turns) > limit:  # this length does not fit: fill up with its first turns
                room = limit - len(shorter)
                out = shorter + [t for t in turns if len(t) == max_len][:room]
                break
            if not cut:  # no path was longer: that is every effect
                out = turns
                break
            shorter = turns
            max_len += 1
        goal = self.scoring_turn()
        if goal is not None and goal not in out:
            out.append(goal)
        out.sort()
        return out

    def _effect_turns_upto(self, max_len: int, cap: int) -> tuple[list[str], bool]:
        """The effect-distinct turns of at most `max_len` steps, lexicographically, stopping after
        cap + 1 of them; and whether some bouncing path was cut at max_len."""
        pm = self._pm
        path: list[str] = []
        out: list[str] = []
        seen: set[int] = set()
        edge_bits = 0
        cut = False

        def walk(p: int, left: int) -> bool:
            nonlocal edge_bits, cut
            m = pm[p]
            for d, q, bit, back, ch in ADJ[p]:
                if m & bit:
                    continue
                e = EDGE_BIT[p * 8 + d]
                state = ((edge_bits ^ e) << 7) | q
                if state in seen:
                    continue
                seen.add(state)
                mq = pm[q]
                if q >= N_FIELD or not mq or mq | back == FULL[q]:
                    path.append(ch)
                    out.append("".join(path))
                    path.pop()
                    if len(out) > cap:
                        return True
                elif left <= 1:
                    cut = True
                else:
                    pm[p] = m | bit
                    pm[q] = mq | back
                    edge_bits ^= e
                    path.append(ch)
                    stop = walk(q, left - 1)
                    path.pop()
                    edge_bits ^= e
                    pm[q] = mq
                    pm[p] = m
                    if stop:
                        return True
            return False

        walk(self._ball, max_len)
        return out, cut

    def scoring_turn(self, budget: int = 20_000) -> str | None:
        """A legal turn that ends in the goal the player to move attacks (the lexicographically
        first one the search meets), or None if there is none or `budget` search states ran out."""
        if self.is_over():
            return None
        target = attacked_goal(self.current_player())
        if not self._goal_maybe_reachable(target):
            return None
        pm = self._pm
        path: list[str] = []
        seen: set[int] = set()
        edge_bits = 0
        found: list[str] = []

        def walk(p: int) -> bool:
            nonlocal edge_bits
            m = pm[p]
            for d, q, bit, back, ch in ADJ[p]:
                if m & bit:
                    continue
                if q in target:
                    found.append("".join(path) + ch)
                    return True
                mq = pm[q]
                if q >= N_FIELD or not mq or mq | back == FULL[q]:
                    continue  # own goal, or the turn ends here
                e = EDGE_BIT[p * 8 + d]
                state = ((edge_bits ^ e) << 7) | q
                if state in seen:
                    continue
                if len(seen) >= budget:
                    return True
                seen.add(state)
                pm[p] = m | bit
                pm[q] = mq | back
                edge_bits ^= e
                path.append(ch)
                stop = walk(q)
                path.pop()
                edge_bits ^= e
                pm[q] = mq
                pm[p] = m
                if stop:
                    return True
            return False

        walk(self._ball)
        return found[0] if found else None

    def _goal_maybe_reachable(self, target: tuple[int, int, int]) -> bool:
        """Whether a goal node of `target` can be reached by free edges through bounce points,
        ignoring that a turn cannot use an edge twice: a cheap test that rules most positions out."""
        pm = self._pm
        seen = {self._ball}
        todo = [self._ball]
        while todo:
            p = todo.pop()
            m = pm[p]
            for _d, q, bit, _back, _ch in ADJ[p]:
                if m & bit or q in seen:
                    continue
                if q in target:
                    return True
                if q < N_FIELD and pm[q]:  # a bounce point: the turn could go on from there
                    seen.add(q)
                    todo.append(q)
        return False

    def _undraw(self, drawn: list[tuple[int, int, int, int]]) -> None:
        pm = self._pm
        for p, bit, q, back in reversed(drawn):
            pm[p] &= ~bit
            pm[q] &= ~back

    def _walk_turns(self, emit: Callable[[list[str]], bool | None]) -> None:
        """Depth-first search over undrawn edges from the ball, drawing and undrawing in place.
        `emit` gets each complete path; a true result stops the search (the pitch is restored)."""
        pm = self._pm
        path: list[str] = []

        def walk(p: int) -> bool:
            m = pm[p]
            for _d, q, bit, back, ch in ADJ[p]:
                if m & bit:
                    continue
                mq = pm[q]
                path.append(ch)
                if q >= N_FIELD or not mq:  # goal node, or a fresh point: the turn ends
                    stop = emit(path)
                else:
                    pm[p] = m | bit
                    pm[q] = mq | back
                    if pm[q] == FULL[q]:  # stuck on a bounce point: a legal, losing end
                        stop = emit(path)
                    else:
                        stop = walk(q)
                    pm[q] = mq
                    pm[p] = m
                path.pop()
                if stop:
                    return True
            return False

        walk(self._ball)

    def _iter_turns(self) -> Iterator[str]:
        pm = self._pm
        path: list[str] = []

        def walk(p: int) -> Iterator[str]:
            m = pm[p]
            for _d, q, bit, back, ch in ADJ[p]:
                if m & bit:
                    continue
                mq = pm[q]
                path.append(ch)
                if q >= N_FIELD or not mq:
                    yield "".join(path)
                else:
                    pm[p] = m | bit
                    pm[q] = mq | back
                    try:
                        if pm[q] == FULL[q]:
                            yield "".join(path)
                        else:
                            yield from walk(q)
                    finally:
                        pm[q] = mq
                        pm[p] = m
                path.pop()

        return walk(self._ball)

    def legal_turns_by_effect(self, cap: int | None = MOVE_LIST_LIMIT) -> list[str]:
        """One legal turn per distinct effect (edges drawn, final point): the lexicographically
        smallest string of each, in lexicographic order.  Two turns with one effect lead to the same
        position.  Stops after cap + 1 turns, so a list longer than `cap` is cut short (cap=None: no
        limit, which can take very long late in a game)."""
        if self.is_over():
            return []
        pm = self._pm
        path: list[str] = []
        out: list[str] = []
        seen: set[int] = set()
        # A search state is (ball point, edges drawn so far in this turn); reaching a state again
        # can only repeat effects already listed, from a lexicographically larger prefix.
        edge_bits = 0
        limit = cap + 1 if cap is not None else -1

        def walk(p: int) -> bool:
            nonlocal edge_bits
            m = pm[p]
            for d, q, bit, back, ch in ADJ[p]:
                if m & bit:
                    continue
                e = EDGE_BIT[p * 8 + d]
                state = ((edge_bits ^ e) << 7) | q
                if state in seen:
                    continue
                seen.add(state)
                mq = pm[q]
                path.append(ch)
                if q >= N_FIELD or not mq:
                    out.append("".join(path))
                    stop = len(out) == limit
                else:
                    pm[p] = m | bit
                    pm[q] = mq | back
                    if pm[q] == FULL[q]:
                        out.append("".join(path))
                        stop = len(out) == limit
                    else:
                        edge_bits ^= e
                        stop = walk(q)
                        edge_bits ^= e
                    pm[q] = mq
                    pm[p] = m
                path.pop()
                if stop:
                    return True
            return False

        walk(self._ball)
        return out

    def random_move(self, rng) -> str:
        """Random playouts use the cheap step-by-step policy: uniform over whole turns would need
        the (possibly huge) list of turns."""
        return self.random_turn(rng)

    def random_turn(self, rng) -> str:
        """A legal turn built by random steps (each free edge equally likely at each point): a cheap
        playout policy, not uniform over turns.  The game must not be over."""
        pm = self._pm
        p = self._ball
        path = []
        drawn = []
        while True:
            m = pm[p]
            free = [a for a in ADJ[p] if not m & a[2]]
            _d, q, bit, back, ch = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
            path.append(ch)
            mq = pm[q]
            pm[p] = m | bit
            pm[q] = mq | back
            drawn.append((p, bit, q, back))
            if q >= N_FIELD or not mq or pm[q] == FULL[q]:
                break
            p = q
        self._undraw(drawn)
        return "".join(path)

    def is_legal(self, move: str) -> bool:
        if not isinstance(move, str) or not move:
            return False
        try:
            self._verify(move)
        except InvalidOutput:
            return False
        return True

    # ----------------------------------------------------------------------------- notation

    def move_to_str(self, move: str) -> str:
        return move

    def parse_output(self, line: str) -> str:
        if not line:
            raise InvalidOutput(MSG_EMPTY)
        self._verify(line)
        return line

    def recorded_output(self, line: str) -> str:
        # The whole line is the move: there is no comment after a space (a space is invalid).
        return line

    def _verify(self, move: str) -> None:
        """MoveVerificator.verifyMove: raise InvalidOutput with the referee's reason, change nothing."""
        if not move:
            raise InvalidOutput(MSG_EMPTY)
        for c in move:
            if c not in _VALID_CHARS:
                raise InvalidOutput(MSG_CHARS)
        pm = self._pm
        p = self._ball
        drawn: list[tuple[int, int, int, int]] = []
        try:
            for i, c in enumerate(move):
                # The turn-limit test is ours: the referee never asks for a move after turn 66.
                if p >= N_FIELD or pm[p] == FULL[p] or self._turn >= MAX_TURNS or (
                        i > 0 and not _bounces(pm[p])):
                    raise InvalidOutput(MSG_FINISH)
                d = ord(c) - 48
                q = NB[p * 8 + d] if d < 8 else -1
                if q < 0:
                    raise InvalidOutput(MSG_BOUNDARY)
                bit = 1 << d
                if pm[p] & bit:
                    raise InvalidOutput(MSG_EXISTING)
                back = 1 << OPP[d]
                pm[p] |= bit
                pm[q] |= back
                drawn.append((p, bit, q, back))
                p = q
            if p < N_FIELD and pm[p] != FULL[p] and _bounces(pm[p]):
                raise InvalidOutput(MSG_PREMATURE)
        finally:
            self._undraw(drawn)

    # ------------------------------------------------------------------------ the referee side

    def bot_input(self, first: bool) -> list[str]:
        lines = [str(self.current_player())] if first else []
        last = self.last_move()
        if last is None:
            lines += ["1", "-"]
        else:
            lines += [str(len(last)), last]
        return lines

    @classmethod
    def input_reader(cls) -> "PaperSoccerReader":
        return PaperSoccerReader()

    # ------------------------------------------------------------------------- serialisation

    def to_text(self) -> str:
        last = self.last_move()
        lines = ["# Paper Soccer position (seat 0 attacks the top goal, seat 1 the bottom one)"]
        lines += ["# " + row for row in self.diagram()]
        lines += [
            f"game = {self.id}",
            f"turn = {self._turn}",
            f"to_move = {self.current_player()}",
            f"ball = {_fmt_xy(self._ball)}",
            f"last_move = {last if last is not None else '-'}",
        ]
        edges = sorted(self.player_edges())
        lines += [f"edge = {a[0]},{a[1]} {b[0]},{b[1]}" for a, b in edges]
        return "\n".join(lines) + "\n"

    def diagram(self) -> list[str]:
        """An ASCII picture of the pitch: `+` points, `O` the ball, `-` `|` `\\` `/` `X` drawn lines."""
        cols, rows = 2 * WIDTH - 1, 2 * (HEIGHT + 2) - 1
        grid = [[" "] * cols for _ in range(rows)]

        def cell(x: int, y: int) -> tuple[int, int]:
            return 2 * (y + 1), 2 * x

        for p, (x, y) in enumerate(XY):
            r, c = cell(x, y)
            grid[r][c] = "O" if p == self._ball else "+"
        for a, b in self._edge_pairs():
            (x1, y1), (x2, y2) = XY[a], XY[b]
            r1, c1 = cell(x1, y1)
            r2, c2 = cell(x2, y2)
            r, c = (r1 + r2) // 2, (c1 + c2) // 2
            if y1 == y2:
                ch = "-"
            elif x1 == x2:
                ch = "|"
            else:
                ch = "\\" if (x2 - x1) * (y2 - y1) > 0 else "/"
            grid[r][c] = "X" if grid[r][c] in "\\/" and grid[r][c] != ch else ch
        return ["".join(row).rstrip() for row in grid]

    @classmethod
    def from_text(cls, text: str) -> "PaperSoccer":
        return _PositionReader(text).read()

    # ------------------------------------------------------------------------------ internal

    def _set_position(self, pm: list[int], ball: int, turn: int, last: str | None) -> None:
        self._pm = pm
        self._ball = ball
        self._turn = turn
        self.move_stack = []
        self._undo = []
        self._base_turn = turn
        self._base_last = last


def _bounces(mask: int) -> bool:
    """passNextDone: at least two drawn lines at the point (it had one before the ball arrived)."""
    return mask & (mask - 1) != 0


def _win(winner: int, reason: str, detail: str) -> Outcome:
    return Outcome(winner, reason, (1, -1) if winner == 0 else (-1, 1), detail)


def _edge_bits() -> list[int]:
    """EDGE_BIT[p*8+d]: a distinct bit per undirected edge (both ends map to the same bit)."""
    ids: dict[tuple[int, int], int] = {}
    bits = [0] * (N_POINTS * 8)
    for p in range(N_POINTS):
        for d in range(8):
            q = NB[p * 8 + d]
            if q >= 0:
                pair = (min(p, q), max(p, q))
                bits[p * 8 + d] = 1 << ids.setdefault(pair, len(ids))
    return bits


EDGE_BIT = _edge_bits()
N_EDGES = sum(1 for p in range(N_POINTS) for d in range(8) if NB[p * 8 + d] > p)  # every step draws one


# ------------------------------------------------------------------------------------ turn builder

class TurnBuilder:
    """A turn built one direction at a time (for a human at the board).

    Works on a scratch copy of the position: `game` is never changed.  After each `step` the turn
    either goes on (`ended` False: the ball bounced) or is complete (`ended` True), and `move` is the
    string to push.  `back()` takes the last step back.
    """

    def __init__(self, game: PaperSoccer):
        self.game = game
        self._scratch = game.copy()
        self._scratch.move_stack = []
        self._scratch._undo = []
        self.start = game.ball()
        self._path: list[int] = []
        self._points: list[int] = [self.start]

    @property
    def move(self) -> str:
        return "".join(DIGITS[d] for d in self._path)

    @property
    def ball(self) -> int:
        return self._points[-1]

    @property
    def points(self) -> list[int]:
        return self._points[:]

    @property
    def ended(self) -> bool:
        """True once the directions so far make a complete turn."""
        if not self._path or self.game.is_over():
            return False
        p = self._points[-1]
        pm = self._scratch._pm
        return p >= N_FIELD or pm[p] == FULL[p] or not _bounces(pm[p])

    def legal_steps(self) -> list[int]:
        """The directions that may be played next (none once the turn has ended)."""
        if self.ended or self.game.is_over():
            return []
        return self._scratch.free_directions(self.ball)

    def can_step(self, d: int) -> bool:
        return d in self.legal_steps()

    def step(self, d: int) -> bool:
        """Play one direction; returns True when the turn goes on (a bounce), False when it has ended."""
        if not self.can_step(d):
            raise IllegalMove(f"direction {d} is not playable from {_fmt_xy(self.ball)}")
        p = self.ball
        q = NB[p * 8 + d]
        pm = self._scratch._pm
        pm[p] |= 1 << d
        pm[q] |= 1 << OPP[d]
        self._path.append(d)
        self._points.append(q)
        return not self.ended

    def back(self) -> bool:
        """Take the last step back; False when there was none."""
        if not self._path:
            return False
        d = self._path.pop()
        q = self._points.pop()
        p = self._points[-1]
        pm = self._scratch._pm
        pm[p] &= ~(1 << d)
        pm[q] &= ~(1 << OPP[d])
        return True

    def drawn_edges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """All drawn edges with the steps of this turn so far."""
        return self._scratch.drawn_edges()

    def turn_edges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The edges this turn has drawn so far, in order."""
        return [(XY[a], XY[b]) for a, b in zip(self._points, self._points[1:])]


# ------------------------------------------------------------------------------------ input reader

class PaperSoccerReader(InputReader):
    """Rebuilds the pitch from the referee's input: the bot sees only the opponent's last turn, so it
    plays its own turns in through `played`.

    Input no referee sends is refused with an InputError naming its line: a myId other than 0 or 1,
    a length that is not the move's, a move of other than the digits 0-7, `-` other than on seat 0's
    first turn of the game, a move while it is the bot's own turn or that is not legal on the pitch
    the bot knows, and a move after which the game is over.
    """

    def __init__(self) -> None:
        self.src = LineSource()
        self.game = PaperSoccer.new()
        self.seat: int | None = None

    def read_turn(self, readline: Callable[[], str]) -> PaperSoccer:
        src = self.src
        src.begin_turn(readline)
        if self.seat is None:
            self.seat = src.read_int("myId", 0, 1)
        length = src.read_int("opponentMoveLength", 1, N_EDGES)
        move = src.read_line("opponentMove")
        game = self.game
        if move == "-":
            if game.turn != 0 or self.seat != 0 or length != 1:
                raise src.error("opponentMove '-' (no move yet) comes only on the game's first turn, "
                                "to seat 0, with opponentMoveLength 1")
            return game
        if any(c not in DIGITS for c in move):
            raise src.error(f"expected opponentMove: the digits 0-7 or '-', got {quote(move)}")
        if len(move) != length:
            raise src.error(f"opponentMove has {len(move)} digits, opponentMoveLength said {length}")
        if game.current_player() == self.seat:
            raise src.error(f"an opponentMove on turn {game.turn}, which is seat {self.seat}'s own")
        if not game.is_legal(move):
            raise src.error(f"opponentMove {quote(move)} is not legal on the pitch the bot knows")
        game.push(move)
        if game.is_over():
            raise src.error(f"the game is over after opponentMove ({game.outcome().detail}): "
                            "no referee asks for a move")
        return game

    def played(self, move: Hashable) -> None:
        self.game.push(str(move))


# ----------------------------------------------------------------------------------- position text

class _PositionReader:
    """Reads `PaperSoccer.to_text` output, checking what can be checked cheaply."""

    SINGLE_KEYS = ("game", "turn", "to_move", "ball", "last_move")

    def __init__(self, text: str):
        self.text = text if isinstance(text, str) else ""
        self.values: dict[str, tuple[int, str]] = {}
        self.edges: list[tuple[int, str]] = []

    def fail(self, lineno: int, problem: str) -> PositionError:
        where = f"line {lineno}: " if lineno else ""
        return PositionError(f"{where}{problem}")

    def read(self) -> PaperSoccer:
        if not isinstance(self.text, str):
            raise PositionError("position text must be a string")
        self._split_lines()
        if "game" in self.values and self.values["game"][1] != PaperSoccer.id:
            n, v = self.values["game"]
            raise self.fail(n, f"game must be {PaperSoccer.id}, got {quote(v)}")
        for key in ("turn", "ball"):
            if key not in self.values:
                raise self.fail(0, f"missing '{key} = ...' line")
        turn = self._turn()
        ball_line, ball_text = self.values["ball"]
        ball = self._point(ball_line, ball_text)
        pm = list(INITIAL_PM)
        player_pairs = self._add_edges(pm)
        last = self._last_move()
        self._check(pm, player_pairs, ball, turn, last)
        g = PaperSoccer.__new__(PaperSoccer)
        g._set_position(pm, ball, turn, last)
        return g

    def _split_lines(self) -> None:
        for n, raw in enumerate(self.text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                raise self.fail(n, f"expected 'key = value', got {quote(raw)}")
            key, _, value = (s.strip() for s in line.partition("="))
            if key == "edge":
                self.edges.append((n, value))
            elif key in self.SINGLE_KEYS:
                if key in self.values:
                    raise self.fail(n, f"'{key}' given twice (first on line {self.values[key][0]})")
                self.values[key] = (n, value)
            else:
                raise self.fail(n, f"unknown key {quote(key)}")

    def _turn(self) -> int:
        n, v = self.values["turn"]
        try:
            turn = parse_int(v, lo=0, hi=MAX_TURNS, what="turn")
        except NumberError as e:
            raise self.fail(n, str(e)) from None
        if "to_move" in self.values:
            m, tv = self.values["to_move"]
            if tv not in ("0", "1"):
                raise self.fail(m, f"to_move must be 0 or 1, got {quote(tv)}")
            if int(tv) != turn % 2:
                raise self.fail(m, f"to_move = {tv} does not match turn = {turn} (seat 0 moves on even turns)")
        return turn

    def _point(self, n: int, text: str) -> int:
        parts = text.split(",")
        if len(parts) != 2:
            raise self.fail(n, f"expected a point 'x,y', got {quote(text)}")
        try:
            x, y = (parse_int(s.strip(), lo=-1, hi=max(WIDTH, HEIGHT), what="coordinate") for s in parts)
        except NumberError as e:
            raise self.fail(n, f"expected a point 'x,y': {e}") from None
        p = xy_point(x, y)
        if p is None:
            raise self.fail(n, f"({x},{y}) is not a point of the pitch")
        return p

    def _add_edges(self, pm: list[int]) -> set[tuple[int, int]]:
        pairs: set[tuple[int, int]] = set()
        for n, value in self.edges:
            ends = value.split()
            if len(ends) != 2:
                raise self.fail(n, f"an edge is two points 'x,y x,y', got {quote(value)}")
            a, b = (self._point(n, e) for e in ends)
            d = direction_between(a, b)
            if d is None:
                raise self.fail(n, f"{_fmt_xy(a)} and {_fmt_xy(b)} are not adjacent")
            pair = (min(a, b), max(a, b))
            if pair in PREDRAWN:
                raise self.fail(n, f"edge {_fmt_xy(a)} {_fmt_xy(b)} is a pre-drawn line (they are implied)")
            if pair in pairs:
                raise self.fail(n, f"edge {_fmt_xy(a)} {_fmt_xy(b)} given twice")
            pairs.add(pair)
            pm[a] |= 1 << d
            pm[b] |= 1 << OPP[d]
        return pairs

    def _last_move(self) -> str | None:
        if "last_move" not in self.values:
            return None
        n, v = self.values["last_move"]
        if v == "-":
            return None
        if not v or any(c not in DIGITS for c in v):
            raise self.fail(n, f"last_move must be digits 0-7 or '-', got {quote(v)}")
        return v

    def _check(self, pm: list[int], pairs: set[tuple[int, int]], ball: int, turn: int,
               last: str | None) -> None:
        ball_line = self.values["ball"][0]
        if turn == 0:
            if pairs or ball != CENTRE:
                raise self.fail(ball_line, "turn 0 is the start: ball at 4,5 and no drawn edges")
            if last is not None:
                raise self.fail(self.values["last_move"][0], "no move was played before turn 0")
            return
        if len(pairs) < turn:
            raise self.fail(self.values["turn"][0],
                            f"{turn} turns need at least {turn} drawn edges, found {len(pairs)}")
        if not any(ball in pair for pair in pairs):
            raise self.fail(ball_line, "the ball must be at the end of a drawn edge")
        if not _connected_to_centre(pairs):
            raise self.fail(0, "the drawn edges must form one path network starting at the centre 4,5")
        over = ball >= N_FIELD or pm[ball] == FULL[ball]
        if not over and _bounces(pm[ball]):
            raise self.fail(ball_line, f"no turn ends on {_fmt_xy(ball)}: it is a bounce point "
                                       "and the ball is not stuck")
        if last is not None:
            self._check_last_move(pm, pairs, ball, last)

    def _check_last_move(self, pm: list[int], pairs: set[tuple[int, int]], ball: int, last: str) -> None:
        n = self.values["last_move"][0]
        p = ball
        used = set()
        for c in reversed(last):
            q = NB[p * 8 + OPP[int(c)]]  # the point this step came from
            pair = (min(p, q), max(p, q)) if q >= 0 else None
            if pair is None or pair not in pairs or pair in used:
                raise self.fail(n, f"last_move {last} does not end at the ball along drawn edges")
            used.add(pair)
            p = q


def _connected_to_centre(pairs: set[tuple[int, int]]) -> bool:
    adj: dict[int, list[int]] = {}
    for a, b in pairs:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    if CENTRE not in adj:
        return False
    seen = {CENTRE}
    todo = [CENTRE]
    while todo:
        for q in adj[todo.pop()]:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(adj)
