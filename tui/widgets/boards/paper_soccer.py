"""Paper Soccer: the pitch drawing and the keys that build a turn one step at a time.

The pitch is a lattice of points x 0..8, y 0..10 plus the goal nodes (y = -1 on top, 11 at the
bottom).  Red (seat 0) attacks the top goal, which Blue defends.  Each key is one step of the ball in
one of eight directions: the numeric keypad's 7 8 9 / 4 6 / 1 2 3, or q w e / a d / z x c, or the
arrows for N/E/S/W.  The move list, the hint and the analysis write a turn as its keypad digits ("896" is
N NE E: engines.paper_soccer.KEYPAD); CodinGame's direction digits stay in saves and bot I/O.  A step onto a point that already touches a line is a bounce: the turn goes on and
the same player steps again; the turn is played as soon as the ball stops.  Backspace takes back a
step of the turn being built, Escape the whole of it.  Clicking a point next to the ball steps there.

Drawing: points are `·` (a point no line touches yet, where the ball would stop) or `•` (a bounce
point); lines are `─ │ ╱ ╲`, `╳` where two diagonals cross; the ball is `●`.  Lines take the colour of
the side that drew them (the pitch's own lines are grey); the last turn is bright, and the turn being
built is yellow.  On a small terminal the goals are drawn one line high, next to the goal line.
"""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.events import Click
from textual.reactive import reactive

from engines.base import EngineError
from engines.paper_soccer import (
    DIRECTION_NAMES,
    KEYPAD,
    MSG_BOUNDARY,
    MSG_EXISTING,
    OPP,
    PaperSoccer,
    TurnBuilder,
    direction_between,
    neighbour,
    point_xy,
    xy_point,
)
from tui.widgets.boards.base import ANALYSIS_STYLE, Board
from tui.widgets.boards.canvas import Canvas, largest
from tui.widgets.preview import FLOOR

LINE_TURN_STYLE = "dark_cyan"  # the analysis' best line after the best turn: the same hue, fainter
SIDE_COLOURS = ("red1", "dodger_blue1")
BORDER = "grey62"
BUILDING = "bold yellow1"
DIRECTION_ARROWS = "↑↗→↘↓↙←↖"  # the same directions, for the move list
DIAG_CROSS = {("╲", "╱"), ("╱", "╲")}


@dataclass(frozen=True)
class Layout:
    sx: int  # columns between neighbouring points
    sy: int  # lines between neighbouring points
    compact_goals: bool  # goal nodes on the line next to the goal line (saves 2 lines)

    @property
    def width(self) -> int:
        return 8 * self.sx + 1

    @property
    def height(self) -> int:
        return 10 * self.sy + (3 if self.compact_goals else 2 * self.sy + 1)

    def row(self, y: int) -> int:
        if not self.compact_goals:
            return (y + 1) * self.sy
        if y < 0:
            return 0
        return 1 + min(y, 10) * self.sy + (1 if y > 10 else 0)

    def col(self, x: int) -> int:
        return x * self.sx

    def point_at(self, cx: int, cy: int) -> tuple[int, int] | None:
        """The lattice point drawn nearest to a screen cell (within half a step)."""
        best = None
        for y in range(-1, 12):
            for x in range(9):
                if xy_point(x, y) is None:
                    continue
                dist = abs(self.col(x) - cx) / self.sx + abs(self.row(y) - cy) / max(1, self.sy)
                if dist < 0.75 and (best is None or dist < best[0]):
                    best = (dist, (x, y))
        return best[1] if best else None


# as large as the terminal allows, the goals drawn one line high (next to the goal line) rather than
# a size smaller
LAYOUTS = [Layout(2 * k, k, compact) for k in range(8, 1, -1) for compact in (False, True)]

# key -> direction: keypad digits, the letter block around s, arrows.
KEY_DIRECTIONS = {
    **{key: d for d, key in enumerate(KEYPAD)},
    "w": 0, "e": 1, "d": 2, "c": 3, "x": 4, "z": 5, "a": 6, "q": 7,
    "up": 0, "right": 2, "down": 4, "left": 6,
}


def _step_bindings() -> list[Binding]:
    shown = {"w"}
    return [Binding(key, f"step({d})", "step", show=key in shown,
                    key_display="qweadzxc 1-9" if key in shown else None)
            for key, d in KEY_DIRECTIONS.items()]


class PaperSoccerBoard(Board):
    side_names = PaperSoccer.side_names
    side_styles = ("bold red1", "bold dodger_blue1")
    move_example = "89"
    help_keys = [
        ("7 8 9 / 4 6 / 1 2 3", "step NW N NE / W E / SW S SE (the numeric keypad)"),
        ("q w e / a d / z x c", "the same eight directions around s"),
        ("← ↑ → ↓", "step W N E S"),
        ("Backspace", "take back the last step of the turn being built"),
        ("Esc", "take back the whole turn being built"),
        ("click", "step to a point next to the ball"),
    ]
    help_notes = [
        "Red attacks the top goal (Blue's), Blue the bottom one (Red's). A turn ends where the ball "
        "reaches a point no line touched before (·); at a point that touches a line (•), the ball "
        "bounces and you step again. The turn is played as soon as the ball stops.",
        "The move list, the hint and the analysis write each turn as the keypad digits of its steps: "
        + " ".join(f"{k}={n}" for k, n in zip(KEYPAD, DIRECTION_NAMES))
        + " (bots and save files use CodinGame's 0=N … 7=NW).",
        "A ball with no free line left loses for the player who moved it there; so does an own goal.",
    ]

    BINDINGS = [
        *_step_bindings(),
        Binding("backspace", "back", "step back"),
        Binding("escape", "clear", "clear turn", show=False),
    ]

    path: reactive[str] = reactive("")  # the turn being built, as digits (drives redraws)

    def __init__(self, session, **kwargs) -> None:
        super().__init__(session, **kwargs)
        self.builder = TurnBuilder(self.game)

    def available(self, action: str, parameters: tuple[object, ...]) -> bool:
        return action not in ("back", "clear") or bool(self.path)

    def refusal(self, action: str, parameters: tuple[object, ...]) -> str | None:
        return "no step of this turn to take back yet" if action in ("back", "clear") else None

    def reset_input(self) -> None:
        self.builder = TurnBuilder(self.game)
        self.path = ""

    def watch_path(self, old: str, new: str) -> None:
        if bool(old) != bool(new):
            self.refresh_bindings()

    def show_hint(self, text: str) -> None:
        self.notice(f"Hint: {self.describe_move(text)}")

    @classmethod
    def move_glyphs(cls, move: str) -> str:
        return "".join(DIRECTION_ARROWS[int(c)] for c in move if c in "01234567")

    def describe_move(self, move: str) -> str:
        names = " ".join(DIRECTION_NAMES[int(c)] for c in move if c in "01234567")
        return f"{PaperSoccer.output_to_player(move)} = {names}"

    # ------------------------------------------------------------------ actions

    def action_step(self, d: int) -> None:
        builder = self.builder
        if not builder.can_step(d):
            where = neighbour(builder.ball, d)
            reason = MSG_BOUNDARY if where is None else MSG_EXISTING
            self.notice(f"Cannot step {DIRECTION_NAMES[d]}: {reason}", error=True)
            return
        goes_on = builder.step(d)
        self.path = builder.move
        if goes_on:
            self.notice(f"Bounce! Step again ({self.describe_move(builder.move)})")
        else:
            self.choose(builder.move)

    def action_back(self) -> None:
        if self.builder.back():
            self.path = self.builder.move

    def action_clear(self) -> None:
        self.reset_input()

    def on_click(self, event: Click) -> None:
        if not self.accepting:
            return
        x, y = self.canvas_xy(event)
        target = self._layout().point_at(x, y)
        if target is None:
            return
        p = xy_point(*target)
        d = direction_between(self.builder.ball, p) if p is not None else None
        if d is None:
            self.notice("click a point next to the ball", error=True)
            return
        self.action_step(d)

    def point_offset(self, x: int, y: int) -> tuple[int, int]:
        """Where lattice point (x, y) is drawn in this widget, e.g. to click it."""
        lay = self._layout()
        return self.origin[0] + lay.col(x), self.origin[1] + lay.row(y)

    # ------------------------------------------------------------------ drawing

    def _layout(self) -> Layout:
        return largest(LAYOUTS, *self.content_size)

    def extra_status(self) -> str:
        return "Red attacks ▲, Blue ▼"

    def _last_turn_edges(self) -> set[frozenset]:
        last = self.game.last_move()
        if not last or not self.game.move_stack:
            return set()
        points = [self.game.ball()]
        for c in reversed(last):
            points.append(neighbour(points[-1], OPP[int(c)]))
        return {frozenset((point_xy(a), point_xy(b))) for a, b in zip(points, points[1:]) if b is not None}

    def draw(self, width: int, height: int) -> Canvas:
        lay = self._layout()
        game = self.game
        building = self.accepting and bool(self.path)
        canvas = Canvas(lay.width, lay.height)
        owners = {frozenset(e): seat for e, seat in game.edge_owners().items()}
        last_turn = self._last_turn_edges()
        turn_edges = {frozenset(e) for e in self.builder.turn_edges()} if building else set()
        edges = self.builder.drawn_edges() if building else game.drawn_edges()
        touched: set[tuple[int, int]] = set()
        for a, b in edges:
            key = frozenset((a, b))
            touched.update((a, b))
            if key in turn_edges:
                style = BUILDING
            elif key in owners:
                colour = SIDE_COLOURS[owners[key]]
                style = f"bold {colour}" if key in last_turn else colour
            else:
                style = BORDER
            self._edge(canvas, lay, a, b, style)
        if not building:
            for move, position in reversed(self.line_positions()):  # the best line's later turns, under
                for a, b in self._turn_edges(position, move):
                    self._edge(canvas, lay, a, b, LINE_TURN_STYLE)
            for a, b in self._turn_edges(self.game, self.analysis_move):
                self._edge(canvas, lay, a, b, ANALYSIS_STYLE)
        self._goal_labels(canvas, lay)
        ball = point_xy(self.builder.ball if building else game.ball())
        for y in range(-1, 12):
            for x in range(9):
                if xy_point(x, y) is None:
                    continue
                cx, cy = lay.col(x), lay.row(y)
                if (x, y) == ball:
                    canvas.put(cx, cy, "●", "bold white on dark_green" if not game.is_over() else "bold white on red3")
                elif y in (-1, 11):
                    if lay.compact_goals:
                        canvas.put(cx, cy, "┌─┐"[x - 3] if y < 0 else "└─┘"[x - 3], BORDER)
                    else:
                        canvas.put(cx, cy, "•", BORDER)
                else:
                    canvas.put(cx, cy, "•" if (x, y) in touched else "·", "grey70" if (x, y) in touched else "grey50")
        return canvas

    @staticmethod
    def _turn_edges(game, move: str | None) -> list:
        """The edges turn `move` would draw in `game` (none if it is not a turn from there): the
        analysis' best turn, and the turns of its best line."""
        if not move or not move.isdigit() or game.is_over():
            return []
        builder = TurnBuilder(game)
        try:
            for c in move:
                builder.step(int(c))
        except EngineError:
            return []
        return builder.turn_edges()

    @staticmethod
    def _edge(canvas: Canvas, lay: Layout, a: tuple[int, int], b: tuple[int, int], style: str) -> None:
        (x1, y1), (x2, y2) = sorted((a, b), key=lambda p: (p[1], p[0]))  # top point first
        c1, r1, c2, r2 = lay.col(x1), lay.row(y1), lay.col(x2), lay.row(y2)
        if r1 == r2:  # horizontal
            lo, hi = sorted((c1, c2))
            canvas.put(lo + 1, r1, "─" * (hi - lo - 1), style)
            return
        steps = r2 - r1
        if x1 == x2:  # vertical
            for k in range(1, steps):
                canvas.put(c1, r1 + k, "│", style)
            return
        glyph = "╲" if x2 > x1 else "╱"
        for k in range(1, steps):
            cx = c1 + (c2 - c1) * k // steps
            old = canvas.char(cx, r1 + k)
            canvas.put(cx, r1 + k, "╳" if (old, glyph) in DIAG_CROSS or old == "╳" else glyph, style)

    def _goal_labels(self, canvas: Canvas, lay: Layout) -> None:
        # The top goal is Blue's (seat 1 defends it, Red scores there); the bottom one is Red's.
        for y, seat in ((-1, 1), (11, 0)):
            label = f"{self.side_names[seat]}'s goal"
            canvas.put(lay.col(5) + 2, lay.row(y), label, f"bold {SIDE_COLOURS[seat]}")


def preview(game) -> Text:
    """The load screen's small drawing: the 9x11 points and both goals, the ball, and the points lines
    were drawn to (the pitch's lines need far more room)."""
    touched = set()
    for a, b in game.player_edges():
        touched.update((a, b))
    ball = point_xy(game.ball())
    text = Text(no_wrap=True)
    for y in range(-1, 12):
        line = Text()
        for x in range(9):
            if y in (-1, 11) and x not in (3, 4, 5):
                line.append("  ")
                continue
            if (x, y) == ball:
                line.append("●", "bold white on dark_green")
            elif (x, y) in touched:
                line.append("+", "bold")
            else:
                line.append("·", FLOOR)
            line.append(" ")
        text.append_text(line)
        if y < 11:
            text.append("\n")
    text.append("\n● ball  + touched points", "dim")
    return text


BOARD = PaperSoccerBoard
