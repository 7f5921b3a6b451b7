"""What every registered game's AI package exports (ai/levels.py looks it up through the registry),
checked over every game, the test-only tic-tac-toe included: its levels, calibration, ladder and
OpenSpiel's name of the game; a package without one of them is a one-line MissingPart."""
from __future__ import annotations

import sys
import types

import pytest

from ai.analysis import THRESHOLDS, label_for, win_probability
from ai.levels import MAX_LEVEL, MIN_LEVEL, ai_module, ai_part, describe_level
from ai.ratings import level_elo
from engines.registry import MissingPart, register, unregister
from tests.helpers.games import ALL_GAMES

pytestmark = pytest.mark.usefixtures("with_tictactoe")


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_levels_calibration_ladder_and_yardstick_are_there_and_well_formed(game_id):
    mod = ai_module(game_id)
    assert callable(mod.make_player) and callable(mod.search_speed)
    assert sorted(mod.LEVELS) == list(range(MIN_LEVEL, MAX_LEVEL + 1))
    assert all(isinstance(text, str) and text for text in mod.LEVELS.values())
    assert describe_level(game_id, MAX_LEVEL) == mod.LEVELS[MAX_LEVEL]
    a, k = mod.CALIBRATION
    assert isinstance(a, float) and isinstance(k, float) and k > 0  # a better score, a better chance
    assert win_probability(game_id, -1.0) < win_probability(game_id, 1.0)
    assert len(mod.LADDER) == MAX_LEVEL - MIN_LEVEL
    assert all(type(d) is int and type(e) is int and d > 0 and e > 0 for d, e in mod.LADDER)
    assert level_elo(game_id, MAX_LEVEL)[0] == 1000 + sum(d for d, _ in mod.LADDER)
    thresholds = getattr(mod, "THRESHOLDS", THRESHOLDS)
    assert len(thresholds) == 3 and 0 < thresholds[0] < thresholds[1] < thresholds[2] < 1
    assert label_for(game_id, thresholds[2]) == "blunder"
    assert mod.OPENSPIEL_GAME is None or isinstance(mod.OPENSPIEL_GAME, str)


@pytest.fixture
def half_built_game(monkeypatch):
    """A registered game whose AI package has levels but no calibration and no ladder."""
    package = types.ModuleType("half_built_ai")
    package.LEVELS = {n: "random" for n in range(1, 7)}
    monkeypatch.setitem(sys.modules, "half_built_ai", package)
    register("half-built", engine="tests.helpers.tictactoe.engine:TicTacToe", ai="half_built_ai")
    yield "half-built"
    unregister("half-built")


def test_a_missing_part_names_the_game_the_package_and_the_part(half_built_game):
    with pytest.raises(MissingPart, match="^game half-built: its ai module half_built_ai has no LADDER$"):
        level_elo(half_built_game, 3)
    with pytest.raises(MissingPart, match="has no CALIBRATION$"):
        win_probability(half_built_game, 0.5)
    assert ai_part(half_built_game, "THRESHOLDS", THRESHOLDS) == THRESHOLDS  # a part with a default
