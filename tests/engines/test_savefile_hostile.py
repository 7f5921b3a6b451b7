"""Hostile save texts: the loader reads real saves of every game with one mutation each (a line dropped,
duplicated or swapped, a number made '²', 5000 digits or -1, a header value emptied) and position texts
with hostile numbers; only the project's own errors may come out, each message one short line.
Also the seed ranges: every seed a game accepts survives a save and a load, the others are refused."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAME_IDS, get_game
from engines.base import EngineError, PositionError
from engines.numbers import SEED_MAX, SEED_MIN, NumberError, check_seed, one_line, parse_int, quote
from engines.savefile import SavedGame, SaveFormatError, dump, parse
from tests.helpers.hostile import assert_clear
from tests.helpers.saves import SAVES, real_save

HUGE = "9" * 5000  # beyond Python's int() limit of 4300 digits


def short_id(value) -> str:
    text = value if isinstance(value, str) else repr(value)[:20]
    return text if len(text) <= 12 else f"{text[:4]}..({len(text)} chars)"


SHORT_SAVES = [real_save(g, 7, 9, redo=True) for g in GAME_IDS] + [real_save(g, 5, 3, from_position=True)
                                                                   for g in GAME_IDS]


def test_the_pool_of_real_saves_loads():
    for text in SAVES:
        parse(text)


# ---------------------------------------------------------------------------- one mutation of a real save

NUMBER = re.compile(r"-?\d+")
NUMBER_REPLACEMENTS = ("²", HUGE, "-1", "-" + HUGE, "0" * 5000 + "1", "٣", "+1", "1_0", "")
REPLACEMENT_IDS = ("superscript", "5000-digits", "minus-1", "minus-5000-digits", "5000-zeros-1", "arabic-3",
                   "plus-1", "underscore", "empty")


def mutate(lines: list[str], data) -> list[str]:
    lines = list(lines)
    op = data.draw(st.sampled_from(["drop", "dup", "swap", "number", "empty_value", "text"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    if op == "drop":
        del lines[i]
    elif op == "dup":
        lines.insert(i, lines[i])
    elif op == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "number":
        spots = [(k, m) for k, line in enumerate(lines) for m in NUMBER.finditer(line)]
        if spots:
            k, m = spots[data.draw(st.integers(0, len(spots) - 1))]
            new = data.draw(st.sampled_from(NUMBER_REPLACEMENTS))
            lines[k] = lines[k][: m.start()] + new + lines[k][m.end():]
    elif op == "empty_value":
        valued = [k for k, line in enumerate(lines) if " = " in line]
        if valued:
            k = valued[data.draw(st.integers(0, len(valued) - 1))]
            lines[k] = lines[k].partition(" = ")[0] + " = "
    else:
        lines[i] = data.draw(st.text(max_size=40))
    return lines


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_real_save_with_one_mutation_loads_or_is_refused_clearly(data):
    text = SAVES[data.draw(st.integers(0, len(SAVES) - 1))]
    mutated = "\n".join(mutate(text.splitlines(), data)) + "\n"
    try:
        parse(mutated)
    except EngineError as e:  # SaveFormatError is one
        assert_clear(e)


@pytest.mark.parametrize("replacement", NUMBER_REPLACEMENTS, ids=REPLACEMENT_IDS)
def test_every_number_of_short_saves_replaced_by_a_hostile_one_is_refused_clearly(replacement):
    for text in SHORT_SAVES:
        lines = text.splitlines()
        for k, line in enumerate(lines):
            for m in NUMBER.finditer(line):
                mutated = lines[:k] + [line[: m.start()] + replacement + line[m.end():]] + lines[k + 1:]
                try:
                    parse("\n".join(mutated))
                except EngineError as e:
                    assert_clear(e)


@pytest.mark.parametrize("key, value, words", [
    ("format", "²", "format version '²' is not a whole number"),
    ("format", HUGE, "format version '9999"),
    ("format", "-1", "format version '-1' is out of range"),
    ("seed", "²", "seed '²' is not a whole number"),
    ("seed", HUGE, "out of range"),
    ("seed", str(SEED_MAX + 1), "out of range"),
    ("turns", "²", "turns '²'"),
    ("turns", HUGE, "out of range"),
    ("result", "2-0", "result '2-0'"),
], ids=short_id)
def test_a_hostile_header_number_names_its_line_and_the_problem(key, value, words):
    text = SAVES[1]
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(f"{key} = "))
    lines[k] = f"{key} = {value}"
    with pytest.raises(SaveFormatError) as e:
        parse("\n".join(lines))
    assert e.value.line == k + 1 and words in str(e.value)
    assert_clear(e.value)


@pytest.mark.parametrize("number", ["²", HUGE, "-1", "0"], ids=short_id)
def test_a_hostile_move_number_names_its_line(number):
    lines = SAVES[1].splitlines()
    k = lines.index("[moves]") + 1
    lines[k] = number + lines[k][1:]
    with pytest.raises(SaveFormatError) as e:
        parse("\n".join(lines))
    assert e.value.line == k + 1 and "turn number" in str(e.value)
    assert_clear(e.value)


# ---------------------------------------------------------------------------- position texts


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_position_text_with_a_hostile_number_raises_a_position_error(game_id, data):
    game = get_game(game_id).new(3)
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(data.draw(st.integers(0, 12))):
        if game.outcome() is None:
            game.push(game.random_move(rng))
    lines = game.to_text().splitlines()
    spots = [(k, m) for k, line in enumerate(lines) for m in NUMBER.finditer(line)]
    k, m = spots[data.draw(st.integers(0, len(spots) - 1))]
    lines[k] = lines[k][: m.start()] + data.draw(st.sampled_from(NUMBER_REPLACEMENTS)) + lines[k][m.end():]
    try:
        get_game(game_id).from_text("\n".join(lines))
    except PositionError as e:
        assert_clear(SaveFormatError(str(e)))


# ---------------------------------------------------------------------------- the number helper


@pytest.mark.parametrize("text, value", [("0", 0), ("42", 42), ("-7", -7), ("007", 7), ("0" * 5000 + "9", 9)],
                         ids=short_id)
def test_parse_int_reads_plain_decimals(text, value):
    assert parse_int(text, lo=-10, hi=100, what="n") == value


@pytest.mark.parametrize("text", ["", "-", "²", "٣", "+1", " 1", "1 ", "1_0", "0x1", "--1", HUGE, "101", "-11",
                                  "-" + HUGE, "1e3", "１"], ids=short_id)
def test_parse_int_refuses_anything_else_with_a_value_error_naming_it(text):
    with pytest.raises(NumberError) as e:
        parse_int(text, lo=-10, hi=100, what="the count")
    assert isinstance(e.value, ValueError) and str(e.value).startswith("the count")
    assert len(str(e.value)) < 120


def test_a_minus_sign_only_where_negatives_are_meaningful():
    with pytest.raises(NumberError):
        parse_int("-1", lo=0, hi=10, what="n")
    with pytest.raises(NumberError):
        parse_int("-0", lo=0, hi=10, what="n")


def test_quotes_and_messages_stay_short_and_on_one_line():
    assert len(quote("x" * 10_000)) <= 45 and len(quote("\x00" * 10_000)) <= 45
    assert one_line("a\nb\r\nc\u2028d") == "a b c d"
    assert len(one_line("y" * 10_000)) <= 250


# ---------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [SEED_MAX + 1, SEED_MIN - 1, 1 << 64, -(1 << 64), 10 ** 5000],
                         ids=["max+1", "min-1", "2**64", "-2**64", "10**5000"])
def test_a_seed_the_referee_cannot_take_is_refused_by_new(game_id, seed):
    with pytest.raises(EngineError) as e:
        get_game(game_id).new(seed)
    assert "seed" in str(e.value) and "out of range" in str(e.value)
    assert_clear(e.value)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=30, deadline=None)
@given(seed=st.one_of(st.integers(SEED_MIN, SEED_MAX), st.sampled_from([SEED_MIN, SEED_MAX, -1, 0, 1 << 62])))
def test_every_seed_a_game_accepts_survives_a_save_and_a_load(game_id, seed):
    check_seed(seed, game_id)
    game = get_game(game_id).new(seed)
    rng = random.Random(seed)
    for _ in range(3):
        if game.outcome() is None:
            game.push(game.random_move(rng))
    text = dump(SavedGame(game=game_id, moves=game.moves_as_str(), seed=seed), game)
    saved, state = parse(text)
    assert saved.seed == seed and state.key() == game.key()
    assert get_game(game_id).from_text(game.to_text()).key() == game.key()
