"""One board module per game (engines/registry.py says where): it exports `BOARD`, the game's board
widget, and `preview(game)`, the small drawing the load screen shows.  `board_class(game_id)` and
`board_preview(game_id)` find them."""
from __future__ import annotations

import functools
from typing import Callable

from rich.text import Text

from engines import get_game
from engines.registry import MissingPart, entry, layer_part
from tui.widgets.boards.base import Board


def board_class(game_id: str) -> type[Board]:
    """The board widget of a game; the plain text board if the game has no drawing or it cannot load."""
    if entry(game_id).board is not None:
        try:
            return layer_part(game_id, "board", "BOARD")
        except MissingPart:
            pass
    return _text_board(get_game(game_id).side_names)


@functools.cache
def _text_board(side_names: tuple[str, str]) -> type[Board]:
    from tui.widgets.boards.text_board import TextBoard

    return type("TextBoard", (TextBoard,), {"side_names": side_names})  # the sides named as the engine names them


def board_preview(game_id: str) -> Callable[[object], Text]:
    """A game's preview drawer; MissingPart when its board module has none."""
    return layer_part(game_id, "board", "preview")
