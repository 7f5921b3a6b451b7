"""Small previews of a position for the load screen: a few lines of coloured text per game, drawn by the
game's board module (`preview`) from the engine's UI helpers (the full boards need far more room than a
list's side panel has); `stones` draws boards of stones for them.

`position_preview(game)` never raises: a game it cannot draw falls back to the position's own text.
"""
from __future__ import annotations

from rich.text import Text

from engines.base import Game
from tui.widgets.boards import board_class, board_preview
from tui.widgets.boards.looks import to_ascii

FLOOR = "dim"


def position_preview(game: Game, ascii_style: bool = False) -> Text:
    """`ascii_style`: the board style's stand-ins, the board's own first (Connect 4's X and O)."""
    try:
        text = board_preview(game.id)(game)
    except Exception:  # a game without a preview, or an engine in flux, must not take the load screen down
        text = Text(game.to_text().rstrip("\n"), no_wrap=True, overflow="crop")
    if ascii_style:
        text.plain = to_ascii(text.plain, board_class(game.id).ascii_glyphs)  # one for one: the colours stay
    return text


def stones(rows: list[str], header: str, labels: list[str] | None, marks: str, styles) -> Text:
    """A board of stones (Connect 4's chips, Lines of Action's checkers): `marks[k]` in `styles[k]` for
    the side whose cell letter is `marks`' k-th owner, `·` for an empty cell."""
    text = Text(no_wrap=True)
    text.append(header + "\n", "dim")
    owners, glyphs = marks.split(":")
    for i, row in enumerate(rows):
        if labels:
            text.append(labels[i], "dim")
        for c, cell in enumerate(row):
            if c:
                text.append(" ")
            if cell == ".":
                text.append("·", FLOOR)
            else:
                k = owners.index(cell)
                text.append(glyphs[k], styles[k])
        if i < len(rows) - 1:
            text.append("\n")
    return text
