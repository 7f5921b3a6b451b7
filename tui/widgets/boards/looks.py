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

import functools
import unicodedata
from typing import Callable

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

ASCII_GLYPHS: dict[str, str] = {
    "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+",
    "┼": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "╱": "/", "╲": "\\", "╳": "X",
    "●": "@", "○": "o", "◆": "L", "◇": "+", "•": "*", "·": ".", "∙": ".", "…": ".",
    "▗": "#", "▖": "#", "▝": "#", "▘": "#", "▄": "#", "▀": "#", "█": "#", "▐": "|", "▌": "|", "▒": ":",
    "▼": "v", "▲": "^", "◀": "<", "▶": ">", "←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": ">",
}

# What the rest of the screen draws besides the boards (Textual's borders, scroll bars, switches and
# spinners, the app's own marks), for the ASCII style of the whole screen (`AsciiFilter`).  Thin
# edges of blocks become spaces: there the colour draws the edge, a glyph would only add noise.
SCREEN_GLYPHS: dict[str, str] = {
    **ASCII_GLYPHS,
    "▏": "|", "▕": "|", "▎": "|", "▍": "|", "▊": "|", "▉": "#", "▔": " ", "▁": " ", "▂": " ", "▃": " ",
    "▅": "#", "▆": "#", "▇": "#", "▛": "+", "▜": "+", "▙": "+", "▟": "+", "▚": "#", "▞": "#",
    "░": ".", "▓": "#", "━": "-", "┃": "|", "═": "=", "║": "|", "╸": "-", "╺": "-", "╹": "|", "╻": "|",
    "◯": "o", "◉": "@", "■": "#", "□": "o", "▪": "#", "▫": ".", "✓": "v",
    "✔": "v", "✕": "x", "✗": "x", "×": "x", "⌫": "<", "⇥": ">", "⇤": "<", "↗": "/", "↘": "\\",
    "↙": "/", "↖": "\\", "–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "≥": ">", "≤": "<",
    "½": "/", "°": "o", "±": "~", "\u00a0": " ", "🔎": "> ",
    **dict(zip("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", "|/-\\|/-\\|/")),  # the thinking spinner keeps turning
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


# Where text is laid out after the change (the help), a glyph may become a word.
ASCII_WORDS = {ord(k): v for k, v in {"…": "...", "←": "left", "→": "right", "↑": "up", "↓": "down"}.items()}


def ascii_words(text: str) -> str:
    """`text` for the ASCII style before it is laid out: arrows become words, `…` three dots (the
    screen's filter then replaces whatever else is left, cell for cell)."""
    return text.translate(ASCII_WORDS)


def side_mark(board_cls, seat: int, ascii_style: bool) -> str:
    """A side's mark for the side panel and the move list: the board's own stand-in in the ASCII style,
    so a side has one mark on the whole screen (Connect 4's `X`, not the generic `@`)."""
    mark = board_cls.side_marks[seat]
    return to_ascii(mark, board_cls.ascii_glyphs) if ascii_style else mark


def palette_styler(palette: str) -> Callable[[str], str] | None:
    """A function rewriting a style string's colours for `palette`, or None for the standard colours."""
    if palette != "colour-blind":
        return None

    def restyle(style: str) -> str:
        return " ".join(COLOUR_BLIND.get(word.lower(), word) for word in style.split(" "))
    return restyle


@functools.lru_cache(maxsize=4096)
def screen_ascii(text: str) -> str:
    """`text` with every glyph outside ASCII replaced, cell for cell (the screen's layout is already
    made): a known glyph by its stand-in, box drawing by its direction, anything else by `?` per cell."""
    if text.isascii():
        return text
    return "".join(ch if ch.isascii() else _cell_stand_in(ch) for ch in text)


def _cell_stand_in(ch: str) -> str:
    if ch in SCREEN_GLYPHS:
        return SCREEN_GLYPHS[ch]
    width = cell_len(ch)
    plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    if width == 1 and len(plain) == 1:
        return plain  # a letter with its accent dropped
    name = unicodedata.name(ch, "")
    if width == 1 and name.startswith("BOX DRAWINGS"):
        horizontal, vertical = "HORIZONTAL" in name, "VERTICAL" in name
        return "-" if horizontal and not vertical else "|" if vertical and not horizontal else "+"
    return "?" * width  # wide glyphs stay two cells; zero-width ones (combining marks) vanish


class AsciiFilter(LineFilter):
    """The ASCII style of the whole screen: applied by Textual to every line every widget draws, so
    nothing (a border, a footer key, a notification, a dialog) keeps a glyph outside ASCII.  Boards and
    the app's own panels choose better stand-ins first (`to_ascii`, their own marks); this is the net
    under them."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [seg if seg.control or seg.text.isascii() else Segment(screen_ascii(seg.text), seg.style)
                for seg in segments]


def ascii_key(shown: str, key: str) -> str:
    """A key for the footer in the ASCII style: Textual shows some by a glyph (`⏎`, `←`); then its name."""
    return shown if shown.isascii() else key.replace("escape", "esc").replace("backspace", "bksp")
