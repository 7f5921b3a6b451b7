"""One board widget per game; `board_class(game_id)` picks it."""
from __future__ import annotations

import importlib

from tui.widgets.boards.base import Board

_BOARDS = {
    "connect4": ("tui.widgets.boards.connect4", "Connect4Board"),
    "lines-of-action": ("tui.widgets.boards.lines_of_action", "LinesOfActionBoard"),
    "paper-soccer": ("tui.widgets.boards.paper_soccer", "PaperSoccerBoard"),
    "cultist-wars": ("tui.widgets.boards.cultist_wars", "CultistWarsBoard"),
}


def board_class(game_id: str) -> type[Board]:
    """The board widget of a game; the plain text board if its drawing cannot load."""
    module, name = _BOARDS[game_id]
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError:
        from tui.widgets.boards.text_board import TextBoard

        return TextBoard
