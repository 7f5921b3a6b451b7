"""Lines of Action (8x8): the board drawing and its keys.

Arrows (or h j k l) move a cursor; Enter or Space on one of your checkers selects it and marks its
legal destinations; Enter or Space on a destination plays the move (any other square is handed to the
referee, which says why it is not a move).  Escape drops the selection, `p` passes when there is no
legal move, `:` types a move such as `b1d3`.  A click selects or moves like Enter on that square.
"""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.events import Click
from textual.reactive import reactive

from engines.lines_of_action import COLOR_NAMES, PASS, LinesOfAction, square_name
from tui.widgets.boards.base import ANALYSIS_BG, ANALYSIS_LINE_STYLE, Board
from tui.widgets.boards.canvas import Canvas, disc, largest
from tui.widgets.boards.looks import side_mark
from tui.widgets.preview import stones

FILES = "abcdefgh"
LIGHT, DARK = "#d7b98e", "#a97c50"
CHECKER = ("#101010", "#f4f4f4")  # black, white
CURSOR_BG = "#4f86c6"
SELECTED_BG = "#3f9a45"
TARGET_BG = ("#9fd18b", "#78b562")  # legal destination on a light / dark square
LAST_BG = ("#e3d36a", "#c2a93c")  # the squares of the last move


def move_squares(text: str) -> tuple[int, int] | None:
    """(source, destination) squares of a move like `b1d3`; None for `pass` or anything else."""
    if len(text) != 4 or text == "pass":
        return None
    try:
        src, dst = (FILES.index(text[i]) + 8 * (int(text[i + 1]) - 1) for i in (0, 2))
    except ValueError:
        return None
    return (src, dst) if 0 <= src < 64 and 0 <= dst < 64 else None


@dataclass(frozen=True)
class Layout:
    cw: int  # characters per square
    ch: int  # lines per square
    left: int = 2  # rank numbers
    top: int = 1  # file letters

    @property
    def width(self) -> int:
        return self.left + 8 * self.cw + 2

    @property
    def height(self) -> int:
        return self.top + 8 * self.ch + 1

    def square_at(self, x: int, y: int) -> int | None:
        col, row = (x - self.left) // self.cw, (y - self.top) // self.ch
        if x < self.left or y < self.top or not (0 <= col < 8 and 0 <= row < 8):
            return None
        return 8 * (7 - row) + col


# squares twice as wide as high (about square on a terminal), as large as the terminal allows
LAYOUTS = [Layout(2 * k, k) for k in range(9, 1, -1)]


def piece_rows(side: int, cw: int, ch: int) -> tuple[str, ...]:
    """One checker centred in a square of cw x ch: black filled, white hollow as in printed diagrams,
    so the sides differ by shape too (monochrome terminals, NO_COLOR, text captures)."""
    mx, my = cw // 6, ch // 4  # the margins around the checker
    w, h = cw - 2 * mx, ch - 2 * my
    if side == 0:
        rows = disc(w, h)
    else:
        rows = ["╭" + "─" * (w - 2) + "╮", *["│" + " " * (w - 2) + "│"] * (h - 2), "╰" + "─" * (w - 2) + "╯"]
    return (*[" " * cw] * my, *(" " * mx + row + " " * mx for row in rows), *[" " * cw] * (ch - h - my))


def dot_rows(cw: int, ch: int) -> tuple[str, ...]:
    """A legal destination's mark: a small dot in the square's middle."""
    rows = [" " * cw] * ch
    rows[(ch - 1) // 2] = " " * (cw // 2 - 1) + "▐▌" + " " * (cw - cw // 2 - 1) if ch > 2 else \
        " " * (cw // 2 - 1) + "▗▖" + " " * (cw - cw // 2 - 1)
    return tuple(rows)


def ascii_rows(cw: int, ch: int, mark: str) -> tuple[str, ...]:
    """The ASCII style: one mark in the square's middle, on the file letter's column, so the checkers
    stay apart and can be counted (blocks would run into one band)."""
    rows = [" " * cw] * ch
    rows[(ch - 1) // 2] = " " * ((cw - 1) // 2) + mark + " " * (cw - 1 - (cw - 1) // 2)
    return tuple(rows)


def bracketed(rows: tuple[str, ...], cw: int, brackets: str) -> tuple[str, ...]:
    """The ASCII style's cursor `[X]` and selection `<X>`: seen without colour too."""
    middle, at = (len(rows) - 1) // 2, (cw - 1) // 2
    line = rows[middle]
    return (*rows[:middle], line[:at - 1] + brackets[0] + line[at] + brackets[1] + line[at + 2:], *rows[middle + 1:])


class LinesOfActionBoard(Board):
    side_names = LinesOfAction.side_names
    side_styles = ("bold grey70", "bold white")
    side_marks = ("●", "○")
    ascii_glyphs = {"●": "X", "○": "O"}  # the checkers in the ASCII style, and the sides' marks
    move_example = "b1d3"
    help_keys = [
        ("← ↑ → ↓  h j k l", "move the cursor"),
        ("Enter / Space", "select your checker, then its destination (marked)"),
        ("Esc", "drop the selection"),
        ("click", "select a checker / move to a square"),
        ("p", "pass (only when you have no legal move)"),
    ]
    help_notes = [
        "A checker moves exactly as many squares as there are checkers (both colours) on the line it "
        "moves along; it may jump its own checkers but not the opponent's, and captures by landing.",
        "Connect all your checkers into one group (diagonals count) to win; 150 turns without a winner "
        "is a draw.",
    ]

    BINDINGS = [
        Binding("up,k", "cursor(0,1)", "↑", show=False),
        Binding("down,j", "cursor(0,-1)", "↓", show=False),
        Binding("left,h", "cursor(-1,0)", "←", show=False),
        Binding("right,l", "cursor(1,0)", "→", show=False),
        Binding("enter,space", "activate", "select/move"),
        Binding("escape", "deselect", "deselect"),
        Binding("p", "pass_turn", "pass"),
    ]

    cursor: reactive[int] = reactive(3)  # d1
    selected: reactive[int | None] = reactive(None)

    def __init__(self, session, **kwargs) -> None:
        super().__init__(session, **kwargs)
        self._seat: int | None = None  # the seat `cursor` belongs to
        self._cursors: dict[int, int] = {}

    def available(self, action: str, parameters: tuple[object, ...]) -> bool:
        if action == "deselect":
            return self.selected is not None
        if action == "pass_turn":
            return self.game.legal_moves() == [PASS]
        return True

    def refusal(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action == "deselect":
            return "no checker is selected"
        if action == "pass_turn":
            return "you can pass only when you have no legal move"
        return None

    def watch_selected(self) -> None:
        self.refresh_bindings()

    def reset_input(self) -> None:
        self.selected = None
        # Each seat keeps its own cursor (in hot-seat two people share the board).
        seat = self.game.current_player()
        if self._seat is not None and self._seat != seat:
            self._cursors[self._seat] = self.cursor
            mine = [sq for sq in range(64) if self.game.piece_at(sq) == "bw"[seat]]
            self.cursor = self._cursors.get(seat, mine[0] if mine else self.cursor)
        self._seat = seat

    def show_hint(self, text: str) -> None:
        # The checker selected and the cursor on its destination: Enter plays the hint.
        squares = move_squares(text)
        if squares is not None:
            self.selected, self.cursor = squares

    # ------------------------------------------------------------------ actions

    def action_cursor(self, dx: int, dy: int) -> None:
        x, y = self.cursor % 8, self.cursor // 8
        self.cursor = 8 * ((y + dy) % 8) + (x + dx) % 8

    def action_activate(self) -> None:
        self.activate(self.cursor)

    def action_deselect(self) -> None:
        self.selected = None

    def action_pass_turn(self) -> None:
        self.choose("pass")

    def activate(self, sq: int) -> None:
        game = self.game
        mine = "bw"[game.current_player()]
        if game.piece_at(sq) == mine and sq != self.selected:
            if not game.moves_from(sq):
                self.notice(f"the checker on {square_name(sq)} has no legal move", error=True)
                return
            self.selected = sq
            return
        if self.selected is None:
            self.notice(f"select one of your ({COLOR_NAMES[game.current_player()]}) checkers first", error=True)
            return
        if sq == self.selected:
            self.selected = None
            return
        # Anything else goes to the engine, which accepts a destination or says why not.
        self.choose(square_name(self.selected) + square_name(sq))

    def on_click(self, event: Click) -> None:
        if not self.accepting:
            return
        x, y = self.canvas_xy(event)
        sq = self._layout().square_at(x, y)
        if sq is not None:
            self.cursor = sq
            self.activate(sq)

    def square_offset(self, sq: int) -> tuple[int, int]:
        """Where square `sq` is drawn in this widget, e.g. to click it."""
        lay = self._layout()
        col, row = sq % 8, 7 - sq // 8
        return self.origin[0] + lay.left + col * lay.cw + lay.cw // 2, self.origin[1] + lay.top + row * lay.ch

    # ------------------------------------------------------------------ drawing

    def _layout(self) -> Layout:
        return largest(LAYOUTS, *self.content_size)

    def turn_note(self) -> str:
        if self.game.legal_moves() == [PASS]:
            return f"{self.side_names[self.game.current_player()]} has no legal move: press p to pass"
        return ""

    def extra_status(self) -> str:
        black, white = self.game.checker_counts()
        marks = [side_mark(type(self), seat, self.ascii_style) for seat in (0, 1)]
        return f"checkers {marks[0]} {black} {marks[1]} {white}\n{self.turns_left()}"

    def draw(self, width: int, height: int) -> Canvas:
        lay = self._layout()
        game = self.game
        canvas = Canvas(lay.width, lay.height)
        targets = set(game.moves_from(self.selected)) if self.accepting and self.selected is not None else set()
        last = game.last_move
        last_squares = {last.src, last.dst} if last is not None and last != PASS else set()
        best = set(move_squares(self.analysis_move or "") or ())
        for col in range(8):
            canvas.centred(lay.left + col * lay.cw, 0, lay.cw, FILES[col], "bold")
        for row in range(8):
            rank = 8 - row
            y = lay.top + row * lay.ch
            canvas.put(0, y + (lay.ch - 1) // 2, str(rank), "bold")
            canvas.put(lay.left + 8 * lay.cw + 1, y + (lay.ch - 1) // 2, str(rank), "bold")
            for col in range(8):
                sq = 8 * (rank - 1) + col
                dark = (col + rank) % 2 == 1
                bg = DARK if dark else LIGHT
                if sq in last_squares:
                    bg = LAST_BG[dark]
                if sq in best:
                    bg = ANALYSIS_BG
                if sq in targets:
                    bg = TARGET_BG[dark]
                if sq == self.selected and self.accepting:
                    bg = SELECTED_BG
                if sq == self.cursor and self.accepting:
                    bg = CURSOR_BG
                x = lay.left + col * lay.cw
                piece = game.piece_at(sq)
                if piece is not None:
                    side = "bw".index(piece)
                    fg = CHECKER[side]
                    rows = ascii_rows(lay.cw, lay.ch, "XO"[side]) if self.ascii_style else \
                        piece_rows(side, lay.cw, lay.ch)
                elif sq in targets:
                    fg = "#1f5f1f"
                    rows = ascii_rows(lay.cw, lay.ch, "*") if self.ascii_style else dot_rows(lay.cw, lay.ch)
                else:
                    fg = "black"  # ASCII: a dot marks the square, for terminals without colour
                    rows = ascii_rows(lay.cw, lay.ch, ".") if self.ascii_style else (" " * lay.cw,) * lay.ch
                if self.ascii_style and self.accepting and sq in (self.cursor, self.selected):
                    rows = bracketed(rows, lay.cw, "[]" if sq == self.cursor else "<>")
                for i, text in enumerate(rows):
                    canvas.put(x, y + i, text, f"{fg} on {bg}")
        for n, (reply, _) in enumerate(self.line_positions(), 2):  # the best line: 2, 3, ... on its squares
            squares = move_squares(reply)
            if squares:
                dst = squares[1]
                col, row = dst % 8, 8 - (dst // 8 + 1)
                canvas.put(lay.left + col * lay.cw, lay.top + row * lay.ch, str(n), ANALYSIS_LINE_STYLE)
        return canvas


def preview(game) -> Text:
    """The load screen's small drawing of the position."""
    rows = game.board()
    return stones(rows, "  a b c d e f g h", [f"{8 - i} " for i in range(len(rows))], "bw:●○",
                  LinesOfActionBoard.side_styles)


BOARD = LinesOfActionBoard
