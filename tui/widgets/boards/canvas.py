"""A character grid with a style per cell, turned into Rich Text: what every board draws on.

Boards draw at computed coordinates (lattice points, squares, tiles) and need to know, for a mouse
click, which square a screen cell belongs to; drawing on a grid they size and centre themselves makes
both simple.
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text

StyleLike = str | Style | None


class Canvas:
    def __init__(self, width: int, height: int, style: StyleLike = None):
        self.width = max(0, width)
        self.height = max(0, height)
        self._chars = [[" "] * self.width for _ in range(self.height)]
        self._styles: list[list[StyleLike]] = [[style] * self.width for _ in range(self.height)]

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def put(self, x: int, y: int, text: str, style: StyleLike = None) -> None:
        """Write `text` from (x, y) to the right; characters outside the grid are dropped."""
        for i, ch in enumerate(text):
            if self.inside(x + i, y):
                self._chars[y][x + i] = ch
                if style is not None:
                    self._styles[y][x + i] = style

    def char(self, x: int, y: int) -> str:
        return self._chars[y][x] if self.inside(x, y) else " "

    def fill(self, x: int, y: int, width: int, height: int, ch: str = " ", style: StyleLike = None) -> None:
        for yy in range(y, y + height):
            self.put(x, yy, ch * width, style)

    def centred(self, x: int, y: int, width: int, text: str, style: StyleLike = None) -> None:
        self.put(x + max(0, (width - len(text)) // 2), y, text, style)

    def restyle(self, chars: dict[int, str] | None = None, style=None) -> None:
        """Replace every glyph through `chars` (a str.translate table: the first character of each
        replacement, so the drawing keeps its shape) and every style string through `style`."""
        for y in range(self.height):
            if chars is not None:
                self._chars[y] = [(ch.translate(chars) or " ")[0] for ch in self._chars[y]]
            if style is not None:
                self._styles[y] = [style(s) if isinstance(s, str) else s for s in self._styles[y]]

    def to_text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop", end="")
        for y in range(self.height):
            row_chars, row_styles = self._chars[y], self._styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or row_styles[x] != row_styles[start]:
                    out.append("".join(row_chars[start:x]), style=row_styles[start] or "")
                    start = x
            if y < self.height - 1:
                out.append("\n")
        return out


def centre_offset(outer: int, inner: int) -> int:
    return max(0, (outer - inner) // 2)


def draw_grid(canvas: Canvas, x0: int, y0: int, cols: int, rows: int, cw: int, ch: int,
              style: StyleLike = None) -> None:
    """Box-drawing lines around `cols` x `rows` cells of `cw` x `ch` characters (borders shared)."""
    right, bottom = x0 + cols * cw, y0 + rows * ch
    for r in range(rows + 1):
        y = y0 + r * ch
        for x in range(x0, right + 1):
            canvas.put(x, y, "─", style)
    for c in range(cols + 1):
        x = x0 + c * cw
        for y in range(y0, bottom + 1):
            canvas.put(x, y, "│", style)
    for r in range(rows + 1):
        for c in range(cols + 1):
            top, bot, lft, rgt = r == 0, r == rows, c == 0, c == cols
            if top:
                ch_ = "┌" if lft else "┐" if rgt else "┬"
            elif bot:
                ch_ = "└" if lft else "┘" if rgt else "┴"
            else:
                ch_ = "├" if lft else "┤" if rgt else "┼"
            canvas.put(x0 + c * cw, y0 + r * ch, ch_, style)


# 2x2 sub-cells per character: bit 1 top-left, 2 top-right, 4 bottom-left, 8 bottom-right
QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def disc(width: int, height: int) -> list[str]:
    """A filled ellipse touching the middle of each side of a `width` x `height` box, drawn with
    quadrant blocks (two sub-cells per character each way), one string per line: a chip or checker
    of any size."""
    rx, ry = width - 0.5, height - 0.5  # in sub-cells, from the box's centre
    inside = [[((x + 0.5 - width) / rx) ** 2 + ((y + 0.5 - height) / ry) ** 2 <= 1 for x in range(2 * width)]
              for y in range(2 * height)]
    return ["".join(QUADRANTS[inside[2 * r][2 * c] | inside[2 * r][2 * c + 1] << 1
                              | inside[2 * r + 1][2 * c] << 2 | inside[2 * r + 1][2 * c + 1] << 3]
                    for c in range(width)) for r in range(height)]


def largest(layouts, width: int, height: int):
    """The first of `layouts` (largest first) whose drawing fits `width` x `height`, else the last."""
    for layout in layouts:
        if layout.width <= width and layout.height <= height:
            return layout
    return layouts[-1]
