"""The OpenSpiel MCTS yardstick (optional dependency open_spiel): a CodinGame bot that answers legal moves."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

from engines import GAME_IDS, get_game

pytest.importorskip("pyspiel")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_openspiel_bot_answers_the_first_turn_with_a_legal_move(game_id):
    game = get_game(game_id).new(7)
    stdin = "".join(line + "\n" for line in game.bot_input(first=True))
    out = subprocess.run([sys.executable, "-m", "ai.tools.openspiel_mcts", game_id, "--simulations", "20",
                          "--seed", "1"], input=stdin, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    answer = out.stdout.splitlines()
    assert len(answer) == 1
    game.parse_output(answer[0])  # raises if the referee would refuse it


@pytest.mark.parametrize("seed", range(3))
def test_a_paper_soccer_turn_is_every_step_the_search_chose_and_is_complete(seed):
    from ai.tools.openspiel_mcts import OpenSpielMCTSPlayer

    rng = random.Random(seed)
    game = get_game("paper-soccer").new()
    for _ in range(16):  # a pitch with drawn lines, where turns can bounce
        game.push(game.random_turn(rng))
        if game.is_over():
            game.pop()
            break
    player = OpenSpielMCTSPlayer("paper-soccer", simulations=20, seed=seed)
    move = player.choose(game)
    assert game.is_legal(move)
    assert len(move) == len(player.turns[-1]["steps"])
