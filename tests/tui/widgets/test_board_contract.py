"""What every registered game's board module exports (tui/widgets/boards finds it through the registry),
checked over every game, the test-only tic-tac-toe included: a board widget named after the engine's
sides that draws the start position, and a preview of it for the load screen."""
from __future__ import annotations

from rich.text import Text
from textual.app import App

from engines import get_game
from engines.registry import entry, register, unregister
from tests.helpers.tictactoe.engine import TicTacToe
from tests.helpers.games import ALL_GAMES
from tests.helpers.app import SIZE, specs
from tui.core.session import Session
from tui.core.settings import Settings
from tui.widgets.boards import board_class, board_preview
from tui.widgets.boards.base import Board
from tui.widgets.boards.text_board import TextBoard
from tui.widgets.preview import position_preview


class BoardsApp(App):
    """Every game's board on the start position, side by side (what a board needs of the app: settings)."""

    def __init__(self) -> None:
        super().__init__()
        self.settings = Settings()

    def compose(self):
        for k, game_id in enumerate(ALL_GAMES):
            yield board_class(game_id)(Session(game_id, specs("human", "human"), 7), id=f"board{k}")


def test_each_game_has_its_own_board_named_after_the_engines_sides_and_a_preview(with_tictactoe):
    for game_id in ALL_GAMES:
        cls, engine = board_class(game_id), get_game(game_id)
        assert issubclass(cls, Board) and not issubclass(cls, TextBoard) and entry(game_id).board, game_id
        assert cls.side_names == engine.side_names and len(cls.side_styles) == 2
        start = engine.new(7)
        drawn = board_preview(game_id)(start)
        assert isinstance(drawn, Text) and drawn.plain.strip(), game_id
        assert position_preview(start).plain == drawn.plain  # not the fallback (the position's text)


async def test_every_board_draws_the_start_position(with_tictactoe):
    app = BoardsApp()
    async with app.run_test(size=(SIZE[0] * 2, SIZE[1] * 2)) as pilot:
        await pilot.pause()
        for k, game_id in enumerate(ALL_GAMES):
            board = app.query_one(f"#board{k}", Board)
            drawn = board.draw(40, 20).to_text().plain
            assert drawn.strip(), game_id
            assert board.render().plain.strip(), game_id


class Boardless(TicTacToe):
    id = "boardless"
    side_names = ("Left", "Right")


def test_a_game_without_a_board_module_gets_the_text_board_named_after_its_sides():
    register("boardless", engine=f"{__name__}:Boardless")
    try:
        cls = board_class("boardless")
        assert issubclass(cls, TextBoard) and cls.side_names == ("Left", "Right")
    finally:
        unregister("boardless")
