"""The Paper Soccer game: the referee's rules of a turn, legal turns, outcomes, notation, the referee's side."""
from __future__ import annotations

import sys
from typing import Callable, Hashable, Iterator

from engines.base import Game, InvalidOutput, Outcome, TimeLimits, quote
from engines.numbers import check_seed

from .geometry import (
    ADJ, BOUNDED_LIST_SIZE, CENTRE, DIGITS, DIRECTION_NAMES, EDGE_BIT, FULL, HEIGHT, INITIAL_PM, KEYPAD, MAX_TURNS,
    MOVE_LIST_LIMIT, NB, N_FIELD, N_POINTS, OPP, PREDRAWN, WIDTH, XY, attacked_goal,
)
from .geometry import _bounces, _fmt_xy, _goal_owner
from .position_text import PositionReader
from .reader import PaperSoccerReader

_TO_KEYPAD = {DIGITS[d]: KEYPAD[d] for d in range(8)}
_TO_KEYPAD_TABLE = str.maketrans(_TO_KEYPAD)
_FROM_KEYPAD = {k: c for c, k in _TO_KEYPAD.items()}

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
    aliases = ("ps",)
    side_names = ("Red", "Blue")
    title = "Paper Soccer"
    side_names = ("Red", "Blue")
    forfeit_scores = (-1, 1)
    whole_position_input = False  # each turn a bot is told only the move just played
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
                return _win(winner, "goal")
            return _win(winner, "own_goal")
        if self._pm[ball] == FULL[ball]:
            mover = (self._turn - 1) & 1
            return _win(1 - mover, "blocked")
        if self._turn >= MAX_TURNS:
            return Outcome(None, "turn_limit", (0, 0), turns=MAX_TURNS)
        return None

    def is_over(self) -> bool:
        ball = self._ball
        return ball >= N_FIELD or self._pm[ball] == FULL[ball] or self._turn >= MAX_TURNS

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
        # A search state is (ball point, edges drawn so far in this turn); reaching a state again
        # can only repeat effects already listed, from a lexicographically larger prefix.
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
        unbounded = sys.maxsize
        return self._effect_turns_upto(unbounded, unbounded if cap is None else cap)[0]

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
        self._verify(line)
        return line

    @classmethod
    def output_to_player(cls, output: str) -> str:
        if not output or any(c not in _TO_KEYPAD for c in output):
            return output
        return output.translate(_TO_KEYPAD_TABLE)

    @classmethod
    def player_to_output(cls, text: str) -> str:
        keys = "".join(text.split())  # "8 9 6" is "896"
        if not keys or any(c not in _FROM_KEYPAD for c in keys):
            raise InvalidOutput(f"{quote(text)} is not a move: type its steps as keypad digits, "
                                + " ".join(f"{k}={n}" for k, n in zip(KEYPAD, DIRECTION_NAMES)))
        return "".join(_FROM_KEYPAD[c] for c in keys)

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
        return PaperSoccerReader(cls)

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
        return PositionReader(text, cls).read()

    # ------------------------------------------------------------------------------ internal

    def _set_position(self, pm: list[int], ball: int, turn: int, last: str | None) -> None:
        self._pm = pm
        self._ball = ball
        self._turn = turn
        self.move_stack = []
        self._undo = []
        self._base_turn = turn
        self._base_last = last



def _win(winner: int, reason: str) -> Outcome:
    return Outcome(winner, reason, (1, -1) if winner == 0 else (-1, 1))

