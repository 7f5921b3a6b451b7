"""The advantage chart: seat 1's win probability after each move, as bars up (seat 1 ahead) or down
(seat 2 ahead) from the even line, with the inaccuracies, mistakes and blunders marked under their
moves and the move shown highlighted.  Drawn on a Canvas (no plotting library: a bar chart of a few
dozen columns needs none), in block characters, or in ASCII for the ASCII board style.  A click on a
column posts `AdvantageChart.Jump` with its move."""
from __future__ import annotations

import math

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from tui.widgets.boards.canvas import Canvas
from tui.widgets.boards.looks import ascii_table

HALF_ROWS = 2  # plot rows above the even line, and below it (the side panel also holds the moves)
# label: (mark under a column of 2 or more characters, under a column of one, style)
MARKS = {"inaccuracy": ("?!", "·", "yellow3"), "mistake": ("?", "?", "dark_orange"), "blunder": ("??", "!", "bold red1")}
GLYPHS = {"full": "█", "up": "▄", "down": "▀", "even": "─"}
ASCII_HALVES = {"▄": "_", "▀": "'"}  # a half bar must not look full in ASCII (the boards' table makes both '#')


def first_seat_chances(verdicts) -> list[float]:
    """Seat 1's win probability after each move (the verdicts are from each mover's side)."""
    return [v.eval if v.seat == 0 else 1.0 - v.eval for v in verdicts]


class AdvantageChart(Widget):
    DEFAULT_CSS = """
    AdvantageChart { height: 6; display: none; }
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
        self.style_name = "unicode"  # or "ascii" (the board style of the settings)

    def show(self, verdicts, length: int, current: int) -> None:
        self.verdicts, self.length, self.current = list(verdicts), length, current
        self.refresh()

    def plies_per_column(self, width: int) -> int:
        return max(1, math.ceil(self.length / max(1, width)))

    def column_width(self, width: int) -> int:
        return max(1, min(3, width // max(1, self.length)))

    def ply_at(self, x: int, width: int) -> int | None:
        """The move a column shows (1-based), or None beyond the game."""
        if self.column_width(width) > 1:
            ply = x // self.column_width(width) + 1
        else:
            ply = min(self.length, (x + 1) * self.plies_per_column(width))
        return ply if 1 <= ply <= self.length else None

    def draw(self, width: int) -> Canvas:
        canvas = Canvas(width, 2 + 2 * HALF_ROWS)
        done = len(self.verdicts)
        title = (f"{self.side_names[0]} ▲ {self.side_names[1]} ▼"
                 + (f" analysing {done}/{self.length}" if done < self.length else " click: go"))
        canvas.put(0, 0, title[:width], "bold")
        chances = first_seat_chances(self.verdicts)
        cw, per = self.column_width(width), self.plies_per_column(width)
        mid = 1 + HALF_ROWS  # the first row below the even line
        for x in range(width):
            ply = self.ply_at(x, width)
            if ply is None:
                break
            shown = ply == self.current or (per > 1 and ply - per < self.current <= ply)
            bg = " on grey27" if shown else ""
            for y in range(1, 1 + 2 * HALF_ROWS):
                canvas.put(x, y, " ", bg or None)
            if ply > done:
                canvas.put(x, mid - 1, GLYPHS["even"], "grey42" + bg)
                continue
            p = chances[ply - 1]
            halves = round(abs(p - 0.5) * 2 * HALF_ROWS * 2)  # half rows of bar, 0..2*HALF_ROWS
            seat = 0 if p >= 0.5 else 1
            style = self.side_styles[seat] + bg
            if halves == 0:
                canvas.put(x, mid - 1, GLYPHS["even"], "grey42" + bg)
            for h in range(halves):
                row = (mid - 1 - h // 2) if seat == 0 else (mid + h // 2)
                partial = h == halves - 1 and h % 2 == 0
                canvas.put(x, row, (GLYPHS["up"] if seat == 0 else GLYPHS["down"]) if partial else GLYPHS["full"], style)
            group = self.verdicts[max(0, ply - per):ply]
            worst = max((v.label for v in group if v.label), key=list(MARKS).index, default=None)
            if worst is not None and (cw == 1 or x % cw == 0):
                wide, narrow, mark_style = MARKS[worst]
                canvas.put(x, 1 + 2 * HALF_ROWS, wide if cw > 1 else narrow, mark_style + bg)
        if self.style_name == "ascii":
            canvas.restyle(ascii_table(ASCII_HALVES))
        return canvas

    def render(self) -> Text:
        self.style_name = self.app.settings.board_style
        return self.draw(self.content_size.width).to_text()

    def on_click(self, event: Click) -> None:
        ply = self.ply_at(event.x, self.content_size.width)
        if ply is not None:
            self.post_message(self.Jump(ply))
