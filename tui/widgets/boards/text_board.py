"""A plain board for a game whose drawing is not built: the engine's position text; moves are typed (`:`)."""
from __future__ import annotations

from tui.widgets.boards.base import Board
from tui.widgets.boards.canvas import Canvas


class TextBoard(Board):
    help_keys: list[tuple[str, str]] = []

    def draw(self, width: int, height: int) -> Canvas:
        lines = self.game.to_text().splitlines()
        canvas = Canvas(max((len(line) for line in lines), default=0), len(lines))
        for y, line in enumerate(lines):
            canvas.put(0, y, line)
        return canvas
