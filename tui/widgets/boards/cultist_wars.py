"""Cultist Wars (13x7): the map drawing, unit selection, targeting and the preview of an action.

Tab (Shift+Tab back) cycles your units; the arrows (or h j k l) move a target cursor; then `m` moves
the selected unit towards the cursor, `f` shoots the unit under the cursor, `c` converts it (your
leader only), `w` waits.  The board then previews what the referee would do (the step, the bullet's
line, the unit hit and its damage) and Enter plays it; Escape cancels.  A click on one of your units
selects it, a click elsewhere moves the target cursor there.

Each tile shows a unit's symbol and id on its first line and its hit points on the second:
`◆` a leader, `●` a cultist (red = seat 0, blue = seat 1), `○` a neutral; obstacles are `▒`.
"""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.events import Click
from textual.reactive import reactive

from engines.base import EngineError
from engines.cultist_wars import CONVERT, MOVE, SHOOT, WAIT, CultistWars, Move
from tui.widgets.boards.base import ANALYSIS_BG, Board
from tui.widgets.boards.canvas import Canvas, largest
from tui.widgets.preview import FLOOR

WIDTH, HEIGHT = 13, 7
SIDE_COLOURS = ("red1", "dodger_blue1")
NEUTRAL_COLOUR = "grey82"
FLOOR = ("#262626", "#303030")
OBSTACLE_STYLE = "grey50 on #4a4a4a"
SELECTED_BG = "#2f6f3a"
CURSOR_BG = "#3b5f9a"
STEP_BG = "#6b8f2a"
BULLET_STYLE = "bold yellow1"
HIT_BG = "#9a2f2f"
CONVERT_BG = "#7a3a8a"
KIND_KEYS = {"move": MOVE, "shoot": SHOOT, "convert": CONVERT}


@dataclass(frozen=True)
class Layout:
    tw: int  # characters per tile
    th: int  # lines per tile
    left: int = 1  # row numbers
    top: int = 1  # column numbers
    info: int = 3  # lines under the map: selection, target, preview

    @property
    def map_width(self) -> int:
        return self.left + WIDTH * self.tw

    @property
    def width(self) -> int:
        return self.map_width

    @property
    def height(self) -> int:
        return self.top + HEIGHT * self.th + self.info

    def tile_at(self, cx: int, cy: int) -> tuple[int, int] | None:
        x, y = (cx - self.left) // self.tw, (cy - self.top) // self.th
        if cx < self.left or cy < self.top or not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            return None
        return x, y


# tiles twice as wide as high (about square on a terminal), as large as the terminal allows
LAYOUTS = [Layout(2 * k, k, left=2) for k in range(8, 2, -1)] + [Layout(4, 2)]


class CultistWarsBoard(Board):
    side_names = CultistWars.side_names
    side_styles = ("bold red1", "bold dodger_blue1")
    side_marks = ("◆", "◆")
    ascii_glyphs = {"●": "c", "○": "n", "◆": "L"}  # cultist, neutral, leader
    move_example = "0 MOVE 1 3"
    help_keys = [
        ("Tab / Shift+Tab", "select your next / previous unit"),
        ("← ↑ → ↓  h j k l", "move the target cursor"),
        ("m", "move the selected unit towards the cursor (one step per turn)"),
        ("f", "shoot the unit under the cursor (not with a leader)"),
        ("c", "convert the unit under the cursor (leader only; it must be next to it)"),
        ("w", "wait"),
        ("Enter", "play the previewed action"),
        ("Esc", "cancel the previewed action"),
        ("click", "select your unit / put the target cursor on a tile"),
    ]
    help_notes = [
        "◆ leader, ● cultist (red: Red, blue: Blue), ○ neutral, ▒ obstacle; the number under a unit "
        "is its hit points, the one next to its symbol its id.",
        "A shot hits the first unit or obstacle on its line for 7 minus the distance; out of range "
        "(more than 6) it becomes a step towards the target, as a convert that is not adjacent does.",
        "After every action one neutral may step at random. The side with more units after 150 "
        "turns wins; a side with none left loses at once.",
    ]

    BINDINGS = [
        Binding("tab", "cycle(1)", "unit"),
        Binding("shift+tab", "cycle(-1)", "prev unit", show=False),
        Binding("up,k", "cursor(0,-1)", "↑", show=False),
        Binding("down,j", "cursor(0,1)", "↓", show=False),
        Binding("left,h", "cursor(-1,0)", "←", show=False),
        Binding("right,l", "cursor(1,0)", "→", show=False),
        Binding("m", "prepare('move')", "move"),
        Binding("f", "prepare('shoot')", "shoot"),
        Binding("c", "prepare('convert')", "convert"),
        Binding("w", "prepare('wait')", "wait"),
        Binding("enter", "confirm", "play"),
        Binding("escape", "cancel", "cancel", show=False),
    ]

    selected: reactive[int | None] = reactive(None)
    cursor: reactive[tuple[int, int]] = reactive((6, 3))
    pending: reactive[Move | None] = reactive(None)

    def __init__(self, session, **kwargs) -> None:
        super().__init__(session, **kwargs)
        self._seat: int | None = None  # the seat `selected` and `cursor` belong to
        self._memory: dict[int, tuple[int | None, tuple[int, int]]] = {}

    def available(self, action: str, parameters: tuple[object, ...]) -> bool:
        if action in ("confirm", "cancel"):
            return self.pending is not None
        if action == "prepare" and parameters == ("convert",):
            return self.selected == self.game.current_player()  # only a leader converts
        if action == "prepare" and parameters == ("shoot",):
            return self.selected is not None and self.selected != self.game.current_player()
        return True

    def refusal(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action in ("confirm", "cancel"):
            return ("nothing prepared to " + ("play" if action == "confirm" else "cancel")
                    + ": m move, f shoot, c convert or w wait first")
        if self.selected is None:
            return "you have no unit left to act with"
        if parameters == ("convert",):
            return "only your leader converts: Tab selects it"
        if parameters == ("shoot",):
            return "your leader cannot shoot: Tab selects a cultist"
        return None

    def watch_pending(self) -> None:
        self.refresh_bindings()

    def watch_selected(self) -> None:
        self.refresh_bindings()

    def _own_units(self) -> list[int]:
        me = self.game.current_player()
        return [u.id for u in self.game.units() if u.alive and u.owner == me]

    def reset_input(self) -> None:
        self.pending = None
        # Each seat keeps its own selection and cursor (in hot-seat two people share the board).
        seat = self.game.current_player()
        if self._seat is not None and self._seat != seat:
            self._memory[self._seat] = (self.selected, self.cursor)
            self.selected, self.cursor = self._memory.get(seat, (None, self.cursor))
        self._seat = seat
        own = self._own_units()
        if self.selected not in own:
            self.selected = own[0] if own else None
            unit = self._unit(self.selected)
            if unit is not None:
                self.cursor = (unit.x, unit.y)

    def _unit(self, uid: int | None):
        if uid is None:
            return None
        return self.game.units()[uid]

    def show_hint(self, text: str) -> None:
        try:
            move = self.game.parse_output(text)
        except EngineError:
            return
        if move.kind != WAIT:
            self.selected = move.unit
            if move.kind == MOVE:
                self.cursor = (move.x, move.y)
            else:
                target = self._unit(move.target)
                if target is not None and target.alive:
                    self.cursor = (target.x, target.y)
        self.pending = move  # prepared, Enter plays it; not _set_pending: the hint stays on the message line

    # ------------------------------------------------------------------ actions

    def action_cycle(self, step: int) -> None:
        own = self._own_units()
        if not own:
            return
        index = own.index(self.selected) if self.selected in own else -step
        self.selected = own[(index + step) % len(own)]
        self.pending = None

    def action_cursor(self, dx: int, dy: int) -> None:
        x, y = self.cursor
        self.cursor = ((x + dx) % WIDTH, (y + dy) % HEIGHT)
        self._retarget()

    def _retarget(self) -> None:
        # A prepared action follows the cursor, so its preview is always about the tile under it.
        if self.pending is not None and self.pending.kind != WAIT:
            kind = {MOVE: "move", SHOOT: "shoot", CONVERT: "convert"}[self.pending.kind]
            self.action_prepare(kind, quiet=True)

    def action_prepare(self, kind: str, quiet: bool = False) -> None:
        if kind == "wait":
            self._set_pending(Move(WAIT))
            return
        if self.selected is None:
            self.notice("you have no unit left to act with", error=True)
            return
        x, y = self.cursor
        if kind == "move":
            text = f"{self.selected} MOVE {x} {y}"
        else:
            target = self.game.unit_at(x, y)
            if target is None:
                self.pending = None
                if not quiet:
                    self.notice(f"no unit on ({x},{y}) to {kind}: put the cursor on one", error=True)
                return
            text = f"{self.selected} {KIND_KEYS[kind]} {target}"
        try:
            move = self.game.parse_output(text)
        except EngineError as e:
            self.pending = None
            self.notice(f"{text}: {e}", error=True)
            return
        self._set_pending(move)

    def _set_pending(self, move: Move) -> None:
        self.pending = move  # the preview is drawn under the map
        self.notice("")  # an earlier complaint no longer applies

    def action_confirm(self) -> None:
        if self.pending is not None:
            self.choose(self.game.move_to_str(self.pending))

    def action_cancel(self) -> None:
        self.pending = None

    def on_click(self, event: Click) -> None:
        if not self.accepting:
            return
        cx, cy = self.canvas_xy(event)
        where = self._layout().tile_at(cx, cy)
        if where is None:
            return
        uid = self.game.unit_at(*where)
        if uid is not None and uid in self._own_units() and self.pending is None:
            self.selected = uid
        self.cursor = where
        self._retarget()

    # ------------------------------------------------------------------ words

    def describe_unit(self, uid: int) -> str:
        unit = self._unit(uid)
        owner = self.side_names[unit.owner] if unit.owner < 2 else "neutral"
        return f"{unit.id} {owner} {unit.type} hp {unit.hp}"

    def describe_preview(self) -> str:
        move = self.pending
        if move is None:
            return ""
        try:
            pv = self.game.preview(move)
        except EngineError as e:
            return f"{self.game.move_to_str(move)}: {e}"
        text = self.game.move_to_str(move)
        r = pv.resolved
        if r.kind == WAIT:
            return f"{text}: waits" + ("" if pv.how == "wait" else f" ({pv.how.replace('_', ' ')})")
        if r.kind == MOVE:
            return f"{text}: steps to ({r.x},{r.y})"
        if r.kind == CONVERT:
            return f"{text}: converts unit {pv.converted}"
        if pv.hit_unit is None:
            return f"{text}: the bullet hits an obstacle at {pv.hit}"
        result = "kills it" if pv.kills else f"hp {self._unit(pv.hit_unit).hp}→{self._unit(pv.hit_unit).hp - pv.damage}"
        return f"{text}: hits unit {pv.hit_unit} for {pv.damage} ({result})"

    def extra_status(self) -> str:
        red, blue = self.game.unit_counts()
        return f"units: Red {red}, Blue {blue}\n{self.turns_left()}"

    def tile_offset(self, x: int, y: int) -> tuple[int, int]:
        """Where tile (x, y) is drawn in this widget, e.g. to click it."""
        lay = self._layout()
        return self.origin[0] + lay.left + x * lay.tw + 1, self.origin[1] + lay.top + y * lay.th

    # ------------------------------------------------------------------ drawing

    def _layout(self) -> Layout:
        return largest(LAYOUTS, *self.content_size)

    def draw(self, width: int, height: int) -> Canvas:
        lay = self._layout()
        game = self.game
        canvas = Canvas(max(lay.map_width, min(width, 60)), lay.height)  # the lines under it may be wider
        marks = self._preview_marks()
        obstacles = game.obstacles()
        units = {(u.x, u.y): u for u in game.units() if u.alive}
        for x in range(WIDTH):
            canvas.centred(lay.left + x * lay.tw, 0, lay.tw, str(x), "dim")
        for y in range(HEIGHT):
            canvas.put(0, lay.top + y * lay.th + (lay.th - 1) // 2, str(y), "dim")
            for x in range(WIDTH):
                self._tile(canvas, lay, x, y, units.get((x, y)), (x, y) in obstacles, marks.get((x, y)))
        self._info(canvas, lay)
        return canvas

    def _preview_marks(self) -> dict[tuple[int, int], str]:
        """Background or glyph marks of the pending action's preview, per tile."""
        marks: dict[tuple[int, int], str] = {}
        action = self.pending if self.accepting else None
        if action is None and self.analysis_move is not None:  # the analysis' best action, previewed
            try:
                action = self.game.parse_output(self.analysis_move)
            except EngineError:
                return marks
            unit = self._unit(action.unit) if action.kind != WAIT else None
            if unit is not None:
                marks[(unit.x, unit.y)] = "best"
        if action is None:
            return marks
        try:
            pv = self.game.preview(action)
        except EngineError:
            return marks
        if pv.step is not None and pv.resolved.kind == MOVE:
            marks[pv.step] = "step"
        for xy in pv.bullet:
            marks[xy] = "bullet"
        if pv.hit is not None:
            marks[pv.hit] = "hit"
        if pv.converted is not None:
            unit = self._unit(pv.converted)
            marks[(unit.x, unit.y)] = "convert"
        return marks

    def _tile(self, canvas: Canvas, lay: Layout, x: int, y: int, unit, obstacle: bool, mark: str | None) -> None:
        cx, cy = lay.left + x * lay.tw, lay.top + y * lay.th
        bg = FLOOR[(x + y) % 2]
        if self.accepting and unit is not None and unit.id == self.selected:
            bg = SELECTED_BG
        if self.accepting and (x, y) == self.cursor:
            bg = CURSOR_BG
        if mark == "best":
            bg = ANALYSIS_BG
        if mark == "step":
            bg = STEP_BG
        elif mark == "hit":
            bg = HIT_BG
        elif mark == "convert":
            bg = CONVERT_BG
        canvas.fill(cx, cy, lay.tw, lay.th, " ", f"on {bg}")
        if obstacle:
            canvas.fill(cx, cy, lay.tw, lay.th, "▒", OBSTACLE_STYLE if mark != "hit" else f"grey70 on {HIT_BG}")
            return
        if mark == "bullet" and unit is None:
            canvas.centred(cx, cy + (lay.th - 1) // 2, lay.tw, "∙", f"{BULLET_STYLE} on {bg}")
        if unit is None:
            return
        colour = SIDE_COLOURS[unit.owner] if unit.owner < 2 else NEUTRAL_COLOUR
        symbol = "◆" if unit.type == "leader" else ("●" if unit.owner < 2 else "○")
        first = cy + (lay.th - 1) // 2
        label = f"{symbol}{unit.id}"
        canvas.centred(cx, first, lay.tw, label, f"bold {colour} on {bg}")
        hp_style = "green3" if unit.hp >= 7 else "yellow3" if unit.hp >= 4 else "red1"
        canvas.centred(cx, first + 1, lay.tw, str(unit.hp), f"{hp_style} on {bg}")

    def _info(self, canvas: Canvas, lay: Layout) -> None:
        y0 = lay.top + HEIGHT * lay.th
        if not self.accepting:
            return
        width = canvas.width
        selected = f"unit {self.describe_unit(self.selected)}" if self.selected is not None else "no unit"
        x, y = self.cursor
        target = self.game.unit_at(x, y)
        at = f"target ({x},{y})" + (f": {self.describe_unit(target)}" if target is not None else "")
        canvas.put(0, y0, selected[:width], "bold")
        canvas.put(0, y0 + 1, at[:width], "")
        preview = self.describe_preview()
        plays = " · enter plays it" if self.ascii_style else " · ⏎ plays it"  # (ASCII: a word, not `>`)
        if preview and len(preview) + len(plays) <= width:
            preview += plays
        preview = preview or "m move · f shoot · c convert · w wait"
        canvas.put(0, y0 + 2, preview[:width], "yellow1" if self.pending is not None else "dim")


def preview(game) -> Text:
    """The load screen's small drawing of the position."""
    styles = (*CultistWarsBoard.side_styles, "grey62")
    chars = "0123456789abcd"
    units = {(u.x, u.y): u for u in game.units() if u.alive}
    text = Text(no_wrap=True)
    rows = game.tiles()
    for y, row in enumerate(rows):
        for x, tile in enumerate(row):
            unit = units.get((x, y))
            if unit is not None:
                mark = ("L" if unit.owner == 0 else "l") if unit.type == "leader" else chars[unit.id]
                text.append(mark, styles[unit.owner] + (" reverse" if unit.type == "leader" else ""))
            elif tile == "x":
                text.append("▓", "grey50")
            else:
                text.append("·", FLOOR)
        if y < len(rows) - 1:
            text.append("\n")
    text.append("\nL l leaders · 0-d cultists", "dim")
    return text


BOARD = CultistWarsBoard
