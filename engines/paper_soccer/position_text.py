"""Paper Soccer positions as text (see the package docstring for the format)."""
from __future__ import annotations

from engines.base import Game, PositionError, quote
from engines.numbers import NumberError, parse_int

from .geometry import (
    CENTRE, DIGITS, FULL, HEIGHT, INITIAL_PM, MAX_TURNS, NB, N_FIELD, OPP, PREDRAWN, WIDTH,
    direction_between, xy_point,
)
from .geometry import _bounces, _fmt_xy

# ----------------------------------------------------------------------------------- position text

class PositionReader:
    """Reads `PaperSoccer.to_text` output, checking what can be checked cheaply."""

    SINGLE_KEYS = ("game", "turn", "to_move", "ball", "last_move")

    def __init__(self, text: str, game_class: type[Game]):
        self.game_class = game_class  # handed in by the game: importing it here would be a cycle
        self.text = text if isinstance(text, str) else ""
        self.values: dict[str, tuple[int, str]] = {}
        self.edges: list[tuple[int, str]] = []

    def fail(self, lineno: int, problem: str) -> PositionError:
        where = f"line {lineno}: " if lineno else ""
        return PositionError(f"{where}{problem}")

    def read(self) -> Game:
        if not isinstance(self.text, str):
            raise PositionError("position text must be a string")
        self._split_lines()
        if "game" in self.values and self.values["game"][1] != self.game_class.id:
            n, v = self.values["game"]
            raise self.fail(n, f"game must be {self.game_class.id}, got {quote(v)}")
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
        g = self.game_class.__new__(self.game_class)
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
