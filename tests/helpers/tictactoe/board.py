"""Tic-tac-toe's board module: the board widget (keys 1-9 play the cells in reading order) and the
load screen's preview."""
from __future__ import annotations

from rich.text import Text

from tui.widgets.boards.base import ANALYSIS_STYLE, Board, digit_bindings
from tui.widgets.boards.canvas import Canvas

from .engine import TicTacToe

MARKS = ("X", "O")


class TicTacToeBoard(Board):
    side_names = TicTacToe.side_names
    side_styles = ("bold red1", "bold dodger_blue1")
    side_marks = MARKS
    move_example = "4"
    help_keys = [("1 … 9", "play that cell (reading order)")]
    BINDINGS = digit_bindings("play", "play", "123456789")

    def available(self, action: str, parameters: tuple[object, ...]) -> bool:
        return action != "play" or self.game.cell(parameters[0]) == "."

    def action_play(self, cell: int) -> None:
        self.choose(str(cell))

    def draw(self, width: int, height: int) -> Canvas:
        canvas = Canvas(11, 5)
        for k in range(9):
            x, y = 4 * (k % 3), 2 * (k // 3)
            owner = self.game.cell(k)
            if owner != ".":
                canvas.put(x + 1, y, MARKS[int(owner)], self.side_styles[int(owner)])
            elif self.analysis_move == str(k):
                canvas.put(x + 1, y, "◇", ANALYSIS_STYLE)
            else:
                canvas.put(x + 1, y, str(k + 1), "dim")
            if k % 3 < 2:
                canvas.put(x + 3, y, "│")
            if k < 6:
                canvas.put(x, y + 1, "───" + ("┼" if k % 3 < 2 else ""))
        return canvas


def preview(game) -> Text:
    return Text("\n".join(row.replace("0", "X").replace("1", "O") for row in game.rows()), no_wrap=True)


BOARD = TicTacToeBoard
