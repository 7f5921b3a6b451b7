"""The one registry of games: ids and aliases, register() for a game defined elsewhere, and a clear
one-line error (MissingPart, UnknownGame) for a piece that is missing, never a KeyError."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engines import game_ids, get_game, resolve_game_id
from engines.registry import EXTRA_GAMES_VAR, MissingPart, UnknownGame, entry, layer_module, register, unregister


@pytest.fixture
def broken_game():
    """A registered game whose engine module does not exist."""
    register("broken", engine="tests.no_such_module:Broken")
    yield "broken"
    unregister("broken")


def test_the_built_in_games_in_the_pickers_order_by_id_or_alias():
    assert game_ids()[:4] == ("paper-soccer", "cultist-wars", "connect4", "lines-of-action")
    assert resolve_game_id(" C4 ") == "connect4" and get_game("loa").id == "lines-of-action"
    assert entry("connect4").ai == "ai.connect4" and entry("connect4").board == "tui.widgets.boards.connect4"


def test_an_unknown_name_lists_the_known_games_with_their_aliases():
    with pytest.raises(UnknownGame, match=r"unknown game 'chess'; known games: paper-soccer \(ps\), "):
        resolve_game_id("chess")


def test_register_refuses_a_bad_id_a_bad_engine_path_and_a_taken_id():
    with pytest.raises(ValueError, match="lower-case"):
        register("Tic Tac", engine="m:C")
    with pytest.raises(ValueError, match="module:Class"):
        register("tic", engine="m.C")
    with pytest.raises(ValueError, match="already registered"):
        register("connect4", engine="elsewhere:Connect4")
    assert register("connect4", engine="engines.connect4:Connect4", ai="ai.connect4",
                    board="tui.widgets.boards.connect4") == entry("connect4")  # the same entry again: harmless


def test_a_game_whose_engine_cannot_load_is_one_clear_error_and_leaves_the_others_alone(broken_game):
    with pytest.raises(MissingPart, match=r"^game broken: its engine module tests.no_such_module cannot be loaded: "
                                          r"ModuleNotFoundError"):
        get_game(broken_game)
    assert resolve_game_id("c4") == "connect4"  # aliases are looked for past the broken one
    with pytest.raises(MissingPart, match="game broken has no ai package registered"):
        layer_module(broken_game, "ai")


@pytest.mark.slow  # a fresh interpreter
def test_an_extra_games_module_that_cannot_load_is_named_when_a_game_is_not_found():
    code = "from engines import resolve_game_id, UnknownGame\ntry:\n    resolve_game_id('ttt')\n" \
           "except UnknownGame as e:\n    print(e)\nprint(resolve_game_id('c4'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, EXTRA_GAMES_VAR: "no.such.games"})
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert "unknown game 'ttt'" in first and f"${EXTRA_GAMES_VAR}: no.such.games cannot be loaded" in first
    assert second == "connect4"


@pytest.mark.slow  # a fresh interpreter
def test_the_extra_games_variable_registers_a_game_in_a_new_process(tictactoe):
    out = subprocess.run([sys.executable, "-c", "from engines import get_game; print(get_game('ttt').title)"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "Tic-tac-toe", out.stderr
