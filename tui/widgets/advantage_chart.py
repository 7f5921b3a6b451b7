"""The advantage chart: seat 1's win probability after each move, as bars up (seat 1 ahead) or down
(seat 2 ahead) from the even line, with the inaccuracies, mistakes and blunders marked under their
moves, the move shown highlighted, move numbers under the columns when there is room, and a legend of
the marks.  It draws at whatever size it is given: a strip in the side panel of a narrow terminal,
half the screen or more on a wide one (the replay's stylesheet decides).  Drawn on a Canvas (no
plotting library: a bar chart of a few dozen columns needs none), in block characters, or in ASCII
for the ASCII board style.  A click on a column posts `AdvantageChart.Jump` with its move."""
from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from tui.widgets.boards.canvas import Canvas
from tui.widgets.boards.looks import ascii_table

# label: (mark under a column of 2 or more characters and in the move list, under a column of one, style)
# (one character cannot say "??": a blunder is X there, so that a mistake next to a blunder never reads "?!")
MARKS = {"inaccuracy": ("?!", "·", "yellow3"), "mistake": ("?", "?", "dark_orange"), "blunder": ("??", "X", "bold red1")}
SHORT_WORDS = {"inaccuracy": "inacc.", "mistake": "mistake", "blunder": "blunder"}  # a legend on one narrow line
GLYPHS = {"full": "█", "up": "▄", "down": "▀", "even": "─"}
ASCII_HALVES = {"▄": "_", "▀": "'"}  # a half bar must not look full in ASCII (the boards' table makes both '#')
MAX_COLUMN = 8  # characters a move's column may take when the chart is wider than the game
GAP_FROM = 3  # columns this wide or wider end with a blank character, so neighbouring bars stay apart
AXIS_FROM_HEIGHT = 10  # the row of move numbers is drawn from this height on
JUMP_HINTS = ("click or [ ]: jump", "[ ]: jump")  # the longest that fits


def first_seat_chances(verdicts) -> list[float]:
    """Seat 1's win probability after each move (the verdicts are from each mover's side)."""
    return [v.eval if v.seat == 0 else 1.0 - v.eval for v in verdicts]


def legend_rows(width: int, column_width: int, rows: int) -> list[list[tuple[str, str]]]:
    """The legend as rows of (text, style) pieces fitting `width`: the marks as drawn at this column
    width with their labels, full words if they fit in `rows` rows, else short ones."""
    for words in ({k: k for k in MARKS}, SHORT_WORDS):
        items = [(MARKS[k][0] if column_width > 1 else MARKS[k][1], MARKS[k][2], words[k]) for k in MARKS]
        out: list[list[tuple[str, str]]] = [[]]
        used = 0
        for mark, style, word in items:
            size = len(mark) + 1 + len(word)
            if used and used + 2 + size > width:
                out.append([])
                used = 0
            if used:
                out[-1].append(("  ", ""))
                used += 2
            out[-1] += [(mark, style), (" " + word, "")]
            used += size
        if len(out) <= rows:
            return out
    return out[:rows]


class AdvantageChart(Widget):
    DEFAULT_CSS = """
    AdvantageChart { height: 8; display: none; }
    """

    class Jump(Message):
        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self, side_names: tuple[str, str], side_styles: tuple[str, str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.side_names, self.side_styles = side_names, side_styles
        self.verdicts: list = []
        self.length = 0  # moves in the game
        self.current = 0  # the move shown
        self.before = 0  # turns played before the first move (a game from a position): the axis's numbers
        self.style_name = "unicode"  # or "ascii" (the board style of the settings)

    def show(self, verdicts, length: int, current: int, before: int = 0) -> None:
        self.verdicts, self.length, self.current, self.before = list(verdicts), length, current, before
        self.refresh()

    def marked_plies(self) -> list[int]:
        """The moves labelled inaccuracy or worse, in order."""
        return [v.ply for v in self.verdicts if v.label in MARKS]

    def column_width(self, width: int) -> int:
        return max(1, min(MAX_COLUMN, width // max(1, self.length)))

    def plies_at(self, x: int, width: int) -> range:
        """The moves (1-based) column `x` shows: one, or a run of them when the game is longer than the
        chart is wide (spread evenly over the whole width); empty beyond the game."""
        if not 0 <= x < width:
            return range(0)
        if self.length > width:
            return range(x * self.length // width + 1, (x + 1) * self.length // width + 1)
        ply = x // self.column_width(width) + 1
        return range(ply, ply + 1) if ply <= self.length else range(0)

    def ply_at(self, x: int, width: int) -> int | None:
        """The move a column jumps to (the last of its run), or None beyond the game."""
        plies = self.plies_at(x, width)
        return plies[-1] if plies else None

    def first_x(self, ply: int, width: int) -> int:
        """The first column of a move (the column of its run)."""
        if self.length > width:
            return (ply * width + self.length - 1) // self.length - 1
        return (ply - 1) * self.column_width(width)

    def layout(self, width: int, height: int) -> tuple[int, bool, int]:
        """(plot rows above the even line and below it, a row of move numbers or not, legend rows)."""
        legend = len(legend_rows(width, self.column_width(width), 1 if height < 8 else 2))
        axis = height >= AXIS_FROM_HEIGHT
        half = max(1, (height - 2 - legend - axis) // 2)  # 2: the title and the marks
        return half, axis, legend

    def draw(self, width: int, height: int = 8) -> Canvas:
        half, axis, legend = self.layout(width, height)
        canvas = Canvas(width, height)
        done = len(self.verdicts)
        title = f"{self.side_names[0]} ▲ {self.side_names[1]} ▼"
        canvas.put(0, 0, title[:width], "bold")
        room = width - len(title) - 2
        statuses = (f"analysing {done}/{self.length}", f"{done}/{self.length}") if done < self.length else JUMP_HINTS
        status = next((s for s in statuses if len(s) <= room), "")
        canvas.put(width - len(status), 0, status, "dim")
        chances = first_seat_chances(self.verdicts)
        cw = self.column_width(width)
        mid = 1 + half  # the first row below the even line
        marks_row = 1 + 2 * half
        for x in range(width):
            plies = self.plies_at(x, width)
            if not plies:
                break
            ply = plies[-1]
            shown = self.current in plies
            bg = " on grey27" if shown else ""
            for y in range(1, 1 + 2 * half):
                canvas.put(x, y, " ", bg or None)
            if ply > done:
                canvas.put(x, mid - 1, GLYPHS["even"], "grey42" + bg)
                continue
            p = chances[ply - 1]
            halves = round(abs(p - 0.5) * 2 * half * 2)  # half rows of bar, 0..2*half
            seat = 0 if p >= 0.5 else 1
            style = self.side_styles[seat] + bg
            if halves == 0:
                canvas.put(x, mid - 1, GLYPHS["even"], "grey42" + bg)
            if cw >= GAP_FROM and x % cw == cw - 1:
                continue  # the gap after the move's bar
            for h in range(halves):
                row = (mid - 1 - h // 2) if seat == 0 else (mid + h // 2)
                partial = h == halves - 1 and h % 2 == 0
                canvas.put(x, row, (GLYPHS["up"] if seat == 0 else GLYPHS["down"]) if partial else GLYPHS["full"], style)
            group = self.verdicts[plies[0] - 1:ply]
            worst = max((v.label for v in group if v.label in MARKS), key=list(MARKS).index, default=None)
            if worst is not None and (cw == 1 or x % cw == 0):
                wide, narrow, mark_style = MARKS[worst]
                canvas.put(x, marks_row, wide if cw > 1 else narrow, mark_style + bg)
        if axis:
            self._draw_axis(canvas, marks_row + 1, width)
        for i, row in enumerate(legend_rows(width, cw, legend)):
            x = 0
            for text, style in row:
                canvas.put(x, height - legend + i, text, style or None)
                x += len(text)
        if self.style_name == "ascii":
            canvas.restyle(ascii_table(ASCII_HALVES))
        return canvas

    def _draw_axis(self, canvas: Canvas, y: int, width: int) -> None:
        """Move numbers under their columns: the first move, then every 5th or 10th, as room allows."""
        if not self.length:
            return
        per_label = 10 if width / self.length < 1.2 else 5
        free = 0  # the first column not yet written
        for ply in [1] + list(range(per_label, self.length + 1, per_label)):
            x, label = self.first_x(ply, width), str(self.before + ply)
            if x >= free and x + len(label) <= width:
                canvas.put(x, y, label, "dim")
                free = x + len(label) + 1

    def render(self) -> Text:
        self.style_name = self.app.settings.board_style
        return self.draw(self.content_size.width, self.content_size.height).to_text()

    def on_click(self, event: Click) -> None:
        width, height = self.content_size
        ply = self.ply_at(event.x, width)
        if ply is not None and 0 < event.y < height - self.layout(width, height)[2]:  # not the title, the legend
            self.post_message(self.Jump(ply))
