"""How the boards look besides their drawing: the ASCII board style and the colour-blind palette.

Both are applied to a finished drawing (`Canvas.restyle`), so the four boards keep one drawing each:
* ASCII: every glyph outside ASCII becomes an ASCII stand-in (a board may name its own, e.g.
  Connect 4's chips X and O, since there colour was the only difference between them), for terminals
  without box-drawing or block characters, or without colour (the stand-ins differ by shape).
* colour-blind: the colours that people with red-green colour blindness confuse (the sides' red and
  yellow or blue, green and red highlights) become colours of the Okabe-Ito palette, which stay apart
  under protanopia, deuteranopia and tritanopia.
"""
from __future__ import annotations

from typing import Callable

ASCII_GLYPHS: dict[str, str] = {
    "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+",
    "┼": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "╱": "/", "╲": "\\", "╳": "X",
    "●": "@", "○": "o", "◆": "L", "◇": "+", "•": "*", "·": ".", "∙": ".", "…": ".",
    "▗": "#", "▖": "#", "▝": "#", "▘": "#", "▄": "#", "▀": "#", "█": "#", "▐": "|", "▌": "|", "▒": ":",
    "▼": "v", "▲": "^", "◀": "<", "▶": ">", "←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": ">",
}

# Okabe & Ito (2008), "Color Universal Design": vermilion, orange, yellow, sky blue, blue, bluish green
VERMILION, ORANGE, YELLOW, SKY_BLUE, BLUE, BLUISH_GREEN, PURPLE = (
    "#d55e00", "#e69f00", "#f0e442", "#56b4e9", "#0072b2", "#009e73", "#cc79a7")
COLOUR_BLIND: dict[str, str] = {
    "red": VERMILION, "red1": VERMILION, "red3": VERMILION, "bright_red": VERMILION,
    "yellow": YELLOW, "yellow1": YELLOW, "yellow3": ORANGE,
    "dodger_blue1": SKY_BLUE, "blue": BLUE,
    "dark_green": BLUISH_GREEN, "green3": BLUISH_GREEN,
    "#9fd18b": SKY_BLUE, "#78b562": "#3d8fc0", "#3f9a45": BLUE, "#1f5f1f": BLUE,  # Lines of Action marks
    "#6b8f2a": BLUE, "#9a2f2f": VERMILION, "#2f6f3a": PURPLE,  # Cultist Wars: step, hit, selected
}


def ascii_table(own: dict[str, str] | None = None) -> dict[int, str]:
    table = dict(ASCII_GLYPHS, **(own or {}))
    return {ord(k): v for k, v in table.items()}


def to_ascii(text: str, own: dict[str, str] | None = None) -> str:
    return text.translate(ascii_table(own))


def palette_styler(palette: str) -> Callable[[str], str] | None:
    """A function rewriting a style string's colours for `palette`, or None for the standard colours."""
    if palette != "colour-blind":
        return None

    def restyle(style: str) -> str:
        return " ".join(COLOUR_BLIND.get(word.lower(), word) for word in style.split(" "))
    return restyle
