"""Tic-tac-toe, a sixth game that lives only in the tests: it proves a game is one package per layer
found through the registry, with no edit to any shared module.  Its layers are `engine.py` (the rules
on the engine protocol), `ai.py` (levels, calibration, ladder) and `board.py` (the board widget and
its preview).

`register_game()` registers it in this process; naming `tests.helpers.tictactoe.plugin` (whose import
calls it) in $TERMARENA_EXTRA_GAMES makes every process termarena starts know it.  The `tictactoe`
fixture (tests/conftest.py) does both for one test.  Importing this package registers nothing, so
tests that never ask for the game never see it (the picker's snapshot has the four games).
"""
from __future__ import annotations

from engines.registry import register

GAME_ID = "tictactoe"


def register_game() -> None:
    register(GAME_ID, engine=f"{__name__}.engine:TicTacToe", ai=f"{__name__}.ai", board=f"{__name__}.board")

