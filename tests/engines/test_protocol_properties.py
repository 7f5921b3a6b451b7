"""Invariants every engine keeps, checked over random games of every registered game, the test-only
tic-tac-toe included (hypothesis drives the dice)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import get_game
from engines.base import InvalidOutput
from tests.helpers.games import ALL_GAMES
from tests.helpers.properties import PROPS, random_game

pytestmark = pytest.mark.usefixtures("with_tictactoe")

@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_is_accepted_by_the_output_parser(game_id, seed):
    game, _ = random_game(game_id, seed)
    for move in game.legal_moves():
        text = game.move_to_str(move)
        assert game.parse_output(text) == move, text


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1), junk=st.text(max_size=12))
def test_what_the_parser_accepts_is_legal(game_id, seed, junk):
    game, rng = random_game(game_id, seed)
    if game.outcome() is not None:
        return
    legal = game.legal_moves()
    base = game.move_to_str(legal[rng.randrange(len(legal))])
    for text in (junk, base + junk, junk + base, base[:-1], base[1:], base.upper(), base.lower()):
        try:
            move = game.parse_output(text)
        except InvalidOutput as e:
            assert str(e), "a rejection must say why"
            continue
        probe = game.copy()
        probe.push(move)  # an accepted output is playable ...
        assert game.is_legal(move), text  # ... and legal


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_pop_restores_the_exact_previous_position(game_id, seed):
    game, rng = random_game(game_id, seed)
    if game.outcome() is not None:
        game.pop()
    before_key, before_text, before_moves = game.key(), game.to_text(), game.legal_moves()
    move = before_moves[rng.randrange(len(before_moves))]
    game.push(move)
    assert game.pop() == move
    assert game.key() == before_key
    assert game.to_text() == before_text
    assert game.legal_moves() == before_moves


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_position_text_round_trips(game_id, seed):
    game, _ = random_game(game_id, seed)
    cls = get_game(game_id)
    text = game.to_text()
    again = cls.from_text(text)
    assert again.to_text() == text
    assert again.key() == game.key()
    assert again.legal_moves() == game.legal_moves()
    assert again.outcome() == game.outcome() or (again.outcome() and game.outcome()
                                                  and again.outcome().winner == game.outcome().winner)


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_games_end_within_the_turn_limit(game_id, seed):
    cls = get_game(game_id)
    game, _ = random_game(game_id, seed, plies=cls.max_turns + 1)
    out = game.outcome()
    assert out is not None
    assert game.ply <= cls.max_turns
    assert out.winner in (0, 1, None)
    if out.winner is not None:
        assert out.scores[out.winner] > out.scores[1 - out.winner]
    else:
        assert out.scores[0] == out.scores[1]


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_copy_is_independent(game_id, seed):
    game, rng = random_game(game_id, seed)
    if game.outcome() is not None:
        return
    key = game.key()
    clone = game.copy()
    moves = clone.legal_moves()
    clone.push(moves[rng.randrange(len(moves))])
    assert game.key() == key
    assert clone.ply == game.ply + 1


@pytest.mark.parametrize("game_id", ALL_GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_a_bot_rebuilds_the_referees_position_from_its_input(game_id, seed):
    """Feed the referee's input to each seat's InputReader, as `termarena bot` does, for a whole game."""
    rng = random.Random(seed)
    cls = get_game(game_id)
    game = cls.new(rng.randrange(1 << 31))
    readers = [cls.input_reader(), cls.input_reader()]
    first = [True, True]
    while game.outcome() is None:
        seat = game.current_player()
        lines = iter(game.bot_input(first[seat]))
        first[seat] = False

        def readline():
            try:
                return next(lines)
            except StopIteration:
                raise EOFError from None

        seen = readers[seat].read_turn(readline)
        assert next(lines, None) is None, "the reader left input unread"
        assert seen.key() == game.key()
        assert seen.current_player() == seat
        moves = game.legal_moves()
        assert seen.legal_moves() == moves
        move = moves[rng.randrange(len(moves))]
        readers[seat].played(move)
        game.push(move)
