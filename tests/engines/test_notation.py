"""The player's notation (what screens show and players type) against CodinGame's (saves, bots): every
legal move of every registered game, tic-tac-toe included, goes there and back unchanged."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import get_game
from engines.base import InvalidOutput
from engines.visible import is_hidden
from tests.helpers.properties import PROPS, random_game
from tests.helpers.games import ALL_GAMES

pytestmark = pytest.mark.usefixtures("with_tictactoe")


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_reads_back_from_the_players_notation(game_id, seed):
    game, _ = random_game(game_id, seed)
    for move in game.legal_moves():
        shown = game.to_player(move)
        assert game.from_player(shown) == move, shown
        # a recorded output translates the same way, without the position
        assert type(game).output_to_player(game.move_to_str(move)) == shown
        assert type(game).player_to_output(shown) == game.move_to_str(move)


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(text=st.text(max_size=12))
def test_any_text_is_translated_or_refused_in_words(game_id, text):
    cls = get_game(game_id)
    assert isinstance(cls.output_to_player(text), str)  # never raises: a save may hold anything
    try:
        cls.player_to_output(text)
    except InvalidOutput as e:
        assert "not a move" in str(e)


def test_connect4_columns_count_from_one():
    cls = get_game("connect4")
    assert [cls.output_to_player(str(c)) for c in range(9)] == [str(c) for c in range(1, 10)]
    assert cls.output_to_player("-2") == cls.output_to_player("steal") == "STEAL"
    assert cls.player_to_output("1") == "0" and cls.player_to_output("steal") == "STEAL"
    with pytest.raises(InvalidOutput, match="column 1-9"):
        cls.player_to_output("0")


def test_paper_soccer_steps_are_the_keypad_keys():
    cls = get_game("paper-soccer")
    # CodinGame 0=N 1=NE 2=E 3=SE 4=S 5=SW 6=W 7=NW; the keypad 8 9 6 3 2 1 4 7
    assert cls.output_to_player("01234567") == "89632147"
    assert cls.player_to_output("8 9 6") == "012"
    with pytest.raises(InvalidOutput, match="keypad"):
        cls.player_to_output("05")


def test_connect4_refusals_quote_the_column_in_the_players_numbers():
    game = get_game("connect4").new()
    for _ in range(7):
        game.play("4")
    with pytest.raises(InvalidOutput) as refused:
        game.from_player("5")
    said = type(game).reason_to_player(str(refused.value))
    assert 'wrong action "4"' in str(refused.value)  # the referee's own words, as bots read them
    assert said == 'Chosen column is already filled: wrong action "5" (Already filled column)'
    assert type(game).reason_to_player('Steal action is invalid in this turn: wrong action "STEAL"').endswith('"STEAL"')


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1), text=st.text(max_size=12))
def test_a_refusal_of_anything_typed_is_one_printable_line_in_the_players_notation(game_id, seed, text):
    game, _ = random_game(game_id, seed)
    try:
        game.from_player(text)
    except InvalidOutput as e:
        said = type(game).reason_to_player(str(e))
        assert not any(is_hidden(ch) for ch in said), said  # what was typed comes back escaped: one line
