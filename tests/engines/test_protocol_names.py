"""The protocol names every caller relies on: one turn counter from the game's start, the seeded flag,
reasons as Termination values (the words of `referee --json` and save files), aliases on the engine class."""
from __future__ import annotations

import json
import random

import pytest

from engines import GAME_IDS, get_game, resolve_game_id
from engines.base import Outcome, Termination
from engines.endings import short, summary
from engines.savefile import SaveFormatError, SavedGame, dump, parse


def played(game_id: str, plies: int, seed: int = 3):
    game = get_game(game_id).new(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        game.push(game.random_move(rng))
    return game


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_ply_counts_from_the_start_of_the_game_even_after_a_position_text(game_id):
    game = played(game_id, 6)
    assert game.game_ply == game.ply == 6
    again = get_game(game_id).from_text(game.to_text())
    assert again.ply == 0 and again.game_ply == 6
    again.push(again.legal_moves()[0])
    assert again.game_ply == 7


def test_only_cultist_wars_is_seeded():
    assert [g for g in GAME_IDS if get_game(g).seeded] == ["cultist-wars"]


@pytest.mark.parametrize("alias, game_id", [("ps", "paper-soccer"), ("cw", "cultist-wars"), ("c4", "connect4"),
                                            ("loa", "lines-of-action")])
def test_aliases_are_the_contracts(alias, game_id):
    assert resolve_game_id(alias) == game_id
    assert alias in get_game(game_id).aliases  # declared once, on the engine class


def test_a_reason_is_its_stable_word_in_json_and_has_words_for_people():
    out = Outcome(0, "connected", (10, 0))
    assert out.reason is Termination.CONNECTED
    assert json.dumps({"reason": out.reason}) == '{"reason": "connected"}' and f"{out.reason}" == "connected"
    assert short(get_game("connect4"), "board_full") == "the board is full"
    assert summary("1-0", "odd_word", get_game("connect4")) == "Red won (odd word)"
    with pytest.raises(ValueError):
        Outcome(0, "made up", (0, 0))


def test_a_save_with_an_unknown_reason_is_refused_with_its_line():
    game = played("connect4", 0)
    text = dump(SavedGame("connect4", result="1-0", reason="crash"), game).replace("reason = crash", "reason = pwned")
    with pytest.raises(SaveFormatError, match=r"line \d+: reason 'pwned'"):
        parse(text)
