"""The games the contract tests run over: every built-in game and the test-only tic-tac-toe, which
`registered()` adds to the registry for a while (in this process, and through $TERMARENA_EXTRA_GAMES
in every process started meanwhile) so that it never shows in other tests (the picker's snapshot)."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from engines import GAME_IDS
from engines.registry import EXTRA_GAMES_VAR, unregister

ROOT = Path(__file__).resolve().parent.parent.parent
TICTACTOE = "tictactoe"
ALL_GAMES = (*GAME_IDS, TICTACTOE)  # GAME_IDS as collected: the built-in games


@contextlib.contextmanager
def registered():
    """Tic-tac-toe registered in this process and in the processes it starts (the bots, the AI worker)."""
    from tests.helpers import tictactoe

    tictactoe.register_game()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(EXTRA_GAMES_VAR, f"{tictactoe.__name__}.plugin")
        # the game is imported from this checkout's tests/, wherever a process starts
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
        try:
            yield tictactoe.GAME_ID
        finally:
            unregister(tictactoe.GAME_ID)
