"""Connect 4 (7 rows x 9 columns, STEAL): the board drawing and its keys.

Keys 1-9 drop in the columns from the left, numbered 1-9 above and below the board, in the move list
and the hint (the player's notation; CodinGame's 0-8 stays in saves and bot I/O); left/right move a cursor that Enter or Space drops in; `s` is
STEAL when the rules allow it (the second player's first turn).  A click drops in the clicked column.
"""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.reactive import reactive

from engines.connect4 import COLS, ROWS, Connect4
from tui.widgets.boards.base import ANALYSIS_LINE_STYLE, ANALYSIS_STYLE, Board, digit_bindings
from tui.widgets.boards.canvas import Canvas, disc, draw_grid, largest
from tui.widgets.preview import stones

CHIP_STYLES = ("bold red1", "bold yellow1")
GRID_STYLE = "blue"


@dataclass(frozen=True)
class Layout:
    cw: int  # characters per cell, border included
    ch: int  # lines per cell, border included
    top: int = 2  # key numbers and the cursor's chip above the grid

    @property
    def width(self) -> int:
        return COLS * self.cw + 1

    @property
    def height(self) -> int:
        return self.top + ROWS * self.ch + 1 + 1  # the grid, then the column numbers again

    def column_at(self, x: int) -> int | None:
        col = (x - 1) // self.cw if x >= 1 else -1
        return col if 0 <= col < COLS and x < self.width - 1 else None


# cells twice as wide as high (about square on a terminal), as large as the terminal allows
LAYOUTS = [Layout(2 * k, k) for k in range(9, 1, -1)]
SMALL = LAYOUTS[-1]


class Connect4Board(Board):
    side_names = Connect4.side_names
    side_styles = CHIP_STYLES
    side_marks = ("●", "○")  # told apart without colour too, in the side panel
    ascii_glyphs = {"●": "X", "○": "O"}
    move_example = "5"
    help_keys = [
        ("1 … 9", "drop a chip in that column (the 1st to 9th from the left)"),
        ("← →", "move the drop cursor"),
        ("Enter / Space", "drop in the cursor's column"),
        ("s", "STEAL: on Yellow's first turn, take Red's first chip instead of dropping"),
        ("click", "drop in the clicked column"),
    ]
    help_notes = [
        "Columns are 1-9 from the left everywhere: the keys, the board, the move list, the hint and the "
        "analysis (bots and save files use CodinGame's 0-8).",
        "Four or more in a row (across, up, or diagonal) through the chip just dropped wins; a full "
        "board is a draw.",
    ]

    BINDINGS = [
        *digit_bindings("drop", "drop", "123456789"),
        Binding("left", "cursor(-1)", "◀", show=False),
        Binding("right", "cursor(1)", "▶", show=False),
        Binding("enter,space", "drop_cursor", "drop here"),
        Binding("s", "steal", "STEAL"),
    ]

    cursor: reactive[int] = reactive(COLS // 2)

    def available(self, action: str, parameters: tuple[object, ...]) -> bool:
        return action != "steal" or self.game.can_steal()

    def refusal(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action == "steal":
            return "STEAL is only for Yellow's first move (it takes Red's first chip)"
        return None

    def turn_note(self) -> str:
        return "Yellow may STEAL Red's chip instead of dropping: press s" if self.game.can_steal() else ""

    def reset_input(self) -> None:
        # The cursor stays where the player left it, unless that column just filled up.
        if self.game.drop_row(self.cursor) is None:
            open_cols = [c for c in range(COLS) if self.game.drop_row(c) is not None]
            if open_cols:
                self.cursor = min(open_cols, key=lambda c: abs(c - self.cursor))

    def show_hint(self, text: str) -> None:
        if text.isdigit():
            self.cursor = int(text)

    # ------------------------------------------------------------------ actions

    def action_drop(self, col: int) -> None:
        self.cursor = col
        self.action_drop_cursor()

    def action_cursor(self, step: int) -> None:
        self.cursor = (self.cursor + step) % COLS

    def action_drop_cursor(self) -> None:
        if self.game.drop_row(self.cursor) is None:  # said in the player's numbers, not the referee's
            self.notice(f"Column {self.cursor + 1} is full", error=True)
            return
        self.choose(str(self.cursor))

    def action_steal(self) -> None:
        self.choose("STEAL")

    def _column_under(self, event) -> int | None:
        x, y = self.canvas_xy(event)
        layout = self._layout()
        if not 0 <= y < layout.height:
            return None
        return layout.column_at(x)

    def on_click(self, event: Click) -> None:
        col = self._column_under(event)
        if col is not None and self.accepting:
            self.action_drop(col)

    def on_mouse_move(self, event: MouseMove) -> None:
        col = self._column_under(event)
        if col is not None and self.accepting:
            self.cursor = col

    def column_offset(self, col: int) -> tuple[int, int]:
        """Where column `col` is drawn in this widget (its middle, halfway down), e.g. to click it."""
        lay = self._layout()
        return (self.origin[0] + col * lay.cw + lay.cw // 2,
                self.origin[1] + lay.top + (ROWS // 2) * lay.ch + 1)

    # ------------------------------------------------------------------ drawing

    def _layout(self) -> Layout:
        return largest(LAYOUTS, *self.content_size)

    def draw(self, width: int, height: int) -> Canvas:
        lay = self._layout()
        game = self.game
        canvas = Canvas(lay.width, lay.height)
        mover = game.current_player()
        for col in range(COLS):
            x = col * lay.cw + lay.cw // 2
            full = game.drop_row(col) is None
            key_style = "dim" if full else ("reverse bold" if self.accepting and col == self.cursor else "bold")
            canvas.put(x, 0, str(col + 1), key_style)
            canvas.put(x, lay.height - 1, str(col + 1), "dim")
        if self.accepting and game.drop_row(self.cursor) is not None:
            canvas.put(self.cursor * lay.cw + lay.cw // 2, 1, "▼", CHIP_STYLES[mover])
        draw_grid(canvas, 0, lay.top, COLS, ROWS, lay.cw, lay.ch, GRID_STYLE)
        last = game.last_cell()
        winning = set(game.winning_cells())
        for row in range(ROWS):
            for col in range(COLS):
                owner = game.cell(row, col)
                x, y = col * lay.cw + 1, lay.top + row * lay.ch + 1
                if owner == ".":
                    continue
                bg = " on dark_green" if (row, col) in winning else \
                     " on grey30" if (row, col) == last else ""
                seat = int(owner)
                self._chip(canvas, lay, self.ascii_style, x, y, CHIP_STYLES[seat] + bg,
                           (row, col) == last, self.side_marks[seat])
        self._analysis_mark(canvas, lay)
        return canvas

    def _analysis_mark(self, canvas: Canvas, lay: Layout) -> None:
        """The analysis' best move: a ◇ where its chip would land (STEAL: around the chip taken)."""
        move, game = self.analysis_move, self.game
        if move == "STEAL":
            cells = [(r, c) for r in range(ROWS) for c in range(COLS) if game.cell(r, c) != "."]
            if cells:
                r, c = cells[0]
                canvas.put(c * lay.cw + 1, lay.top + r * lay.ch + 1, "◇" + " " * (lay.cw - 3) + "◇", ANALYSIS_STYLE)
            return
        if move is None or not move.isdigit() or not 0 <= int(move) < COLS:
            return
        col = int(move)
        row = game.drop_row(col)
        if row is not None:
            canvas.centred(col * lay.cw + 1, lay.top + row * lay.ch + 1, lay.cw - 1, "◇", ANALYSIS_STYLE)
        for n, (reply, position) in enumerate(self.line_positions(), 2):  # the best line: 2, 3, ...
            if reply.isdigit() and 0 <= int(reply) < COLS and (row := position.drop_row(int(reply))) is not None:
                canvas.centred(int(reply) * lay.cw + 1, lay.top + row * lay.ch + 1, lay.cw - 1, str(n),
                               ANALYSIS_LINE_STYLE)

    @staticmethod
    def _chip(canvas: Canvas, lay: Layout, ascii_style: bool, x: int, y: int, style: str, last: bool,
              mark: str) -> None:
        """A disc filling the cell (from (x, y)); in the smallest cells, and in the ASCII style where
        blocks would look alike, the side's mark in the cell's middle."""
        if lay is SMALL or ascii_style:
            # the mark, not only the colour, tells the sides apart (monochrome terminals, colour blindness)
            middle = y + (lay.ch - 2) // 2
            canvas.fill(x, y, lay.cw - 1, lay.ch - 1, " ", style)
            canvas.centred(x, middle, lay.cw - 1, f"({mark})" if last else f" {mark} ", style)
        else:
            for i, line in enumerate(disc(lay.cw - 1, lay.ch - 1)):
                canvas.put(x, y + i, line, style)


def preview(game) -> Text:
    """The load screen's small drawing of the position."""
    return stones(game.board(), " ".join(str(c) for c in range(1, 10)), None, "01:●○", Connect4Board.side_styles)


BOARD = Connect4Board
