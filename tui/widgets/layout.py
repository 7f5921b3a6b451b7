"""The layout the game and the replay share: the board on the left; on the right the status, one line
of the screen's own (the AI's thinking, the replay's position), the moves, the message line."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from tui.widgets.footer import GameFooter
from tui.widgets.move_list import MoveList
from tui.widgets.status import MessageLine, StatusPanel


def board_with_side(board: Widget, line: Widget, *below: Widget) -> ComposeResult:
    with Horizontal(id="game-body"):
        with Vertical(id="board-area"):
            yield board
        with Vertical(id="side"):
            yield StatusPanel(id="status")
            yield line
            yield MoveList(id="moves")
            yield MessageLine(id="message")
            yield from below
    yield GameFooter()
