"""Small previews of a position for the load screen: a few lines of coloured text per game, drawn from
the engine's UI helpers (the full boards need far more room than a list's side panel has).

`position_preview(game)` never raises: a game it cannot draw falls back to the position's own text.
"""
from __future__ import annotations

from rich.text import Text

from engines.base import Game

FLOOR = "dim"


def position_preview(game: Game) -> Text:
    try:
        draw = _DRAWERS.get(game.id)
        if draw is not None:
            return draw(game)
    except Exception:  # an engine in flux must not take the load screen down
        pass
    return Text(game.to_text().rstrip("\n"), no_wrap=True, overflow="crop")


def _side_styles(game_id: str) -> tuple[str, str]:
    from tui.widgets.boards import board_class

    return board_class(game_id).side_styles


def _stones(rows: list[str], header: str, labels: list[str] | None, marks: str, styles) -> Text:
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


def _connect4(game) -> Text:
    return _stones(game.board(), " ".join(str(c) for c in range(1, 10)), None, "01:●○", _side_styles(game.id))


def _lines_of_action(game) -> Text:
    rows = game.board()
    return _stones(rows, "  a b c d e f g h", [f"{8 - i} " for i in range(len(rows))], "bw:●○",
                   ("bold grey70", "bold white"))


def _cultist_wars(game) -> Text:
    styles = (*_side_styles(game.id), "grey62")
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


def _paper_soccer(game) -> Text:
    """The 9x11 points and both goals: the ball, and the points lines were drawn to (the pitch's
    lines need far more room)."""
    from engines import paper_soccer as ps

    touched = set()
    for a, b in game.player_edges():
        touched.update((a, b))
    ball = ps.point_xy(game.ball())
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


_DRAWERS = {
    "connect4": _connect4,
    "lines-of-action": _lines_of_action,
    "cultist-wars": _cultist_wars,
    "paper-soccer": _paper_soccer,
}
