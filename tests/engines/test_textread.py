"""Shared text helpers: short quoting of what players and referees send, strict numbers, line decoding."""
from __future__ import annotations

import pytest

from engines import GAME_IDS, GameRecord, InvalidOutput, get_game, replay
from engines.base import InputError, quote, shorten
from engines.numbers import parse_int
from engines.textread import MAX_LINE_BYTES, LineSource, UnreadableLine, decode_line, java_parse_int

HUGE = 1_900_000


def test_shorten_keeps_short_text_and_cuts_long_text_with_an_ellipsis():
    assert shorten("abc") == "abc"
    assert shorten("x" * 40) == "x" * 40
    assert shorten("x" * 41) == "x" * 39 + "…"
    assert len(shorten("y" * HUGE)) == 40


@pytest.mark.parametrize("text", ["", "e2e3", "it's", "x" * 40])
def test_quote_is_repr_for_short_text(text):
    assert quote(text) == repr(text)


@pytest.mark.parametrize("text", ["x" * HUGE, "\x00" * 1000, "\x1b[2J" * 100, "\U000e0001" * 100, "é" * 99])
def test_quote_stays_short_and_escaped_whatever_the_text(text):
    shown = quote(text)
    assert len(shown) <= 42 and shown.endswith("…'")
    assert "\x1b" not in shown and "\x00" not in shown


def test_input_error_names_the_line():
    e = InputError(7, "expected 9 characters")
    assert str(e) == "input line 7: expected 9 characters" and e.line == 7


# ---------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("text, lo, hi, value", [("0", 0, 9, 0), ("12", 0, 63, 12), ("-2", -2, 8, -2),
                                                 ("007", 0, 9, 7), ("-0", -1, 1, 0)])
def test_parse_int_reads_ascii_numbers_in_range(text, lo, hi, value):
    assert parse_int(text, lo, hi) == value


@pytest.mark.parametrize("text", ["", " 1", "1 ", "+1", "1_0", "١٢", "²", "1.0", "0x1", "-", "--1", "1" * 13,
                                  "-1", "10", "\x001"])
def test_parse_int_refuses_anything_else(text):
    with pytest.raises(ValueError) as info:
        parse_int(text, 0, 9)
    assert "\n" not in str(info.value) and len(str(info.value)) < 100


def test_java_parse_int_takes_leading_zeros_beyond_what_int_takes():
    # Integer.parseInt accepts any number of leading zeros; Python's int() stops at 4300 digits.
    assert java_parse_int("0" * 5000 + "7") == 7
    with pytest.raises(ValueError):
        java_parse_int("1" * 5000)


# ---------------------------------------------------------------------------- lines


def test_decode_line_strips_the_line_end():
    assert decode_line(b"abc\r\n") == "abc" and decode_line(b"abc") == "abc" and decode_line(b"\n") == ""


@pytest.mark.parametrize("raw", [b"\xff\xfe\n", b"caf\xc3\n", b"x" * (MAX_LINE_BYTES + 1)])
def test_decode_line_refuses_bytes_that_are_not_a_text_line(raw):
    with pytest.raises(UnreadableLine):
        decode_line(raw)


def source_of(*turns: list[str]):
    """A LineSource and a function that starts each of the given turns on it."""
    src = LineSource()

    def begin(lines):
        it = iter(lines)

        def readline():
            try:
                item = next(it)
            except StopIteration:
                raise EOFError from None
            if isinstance(item, Exception):
                raise item
            return item
        src.begin_turn(readline)
    return src, begin


def test_line_numbers_run_across_turns():
    src, begin = source_of()
    begin(["1", "2"])
    assert src.read_int("a", 0, 9) == 1 and src.read_int("b", 0, 9) == 2
    begin(["x"])
    with pytest.raises(InputError) as info:
        src.read_int("c", 0, 9)
    assert info.value.line == 3 and str(info.value).startswith("input line 3: c 'x' ")


def test_end_of_input_is_clean_only_at_a_turn_boundary():
    src, begin = source_of()
    begin([])
    with pytest.raises(EOFError):
        src.read_line("the first line")
    begin(["5"])
    src.read_line("a count")
    with pytest.raises(InputError) as info:
        src.read_line("a board row")
    assert str(info.value) == "input line 2: the input ended in the middle of a turn (expected a board row)"


def test_unreadable_lines_and_nul_characters_are_input_errors():
    src, begin = source_of()
    begin([UnreadableLine("not UTF-8 text"), "a\0b"])
    with pytest.raises(InputError) as info:
        src.read_line("x")
    assert str(info.value) == "input line 1: not UTF-8 text"
    begin(["a\0b"])
    with pytest.raises(InputError, match="NUL"):
        src.read_line("x")


def test_fields_are_split_at_ascii_blanks_only():
    src, begin = source_of()
    begin(["1  2\t3", "1\u20032 3"])
    assert src.read_fields("three numbers", 3) == ["1", "2", "3"]
    with pytest.raises(InputError, match="3 fields"):
        src.read_fields("three numbers", 3)


# ---------------------------------------------------------------------------- outputs in messages


LONG_OUTPUTS = {
    "connect4": ["9" * HUGE, "x" * HUGE],
    "lines-of-action": ["a" * HUGE, "b1b4" * (HUGE // 4)],
    "paper-soccer": ["0" * HUGE, "9" * HUGE],
    "cultist-wars": ["2 MOVE " + "1" * HUGE + " 3", "x" * HUGE, "2 " + "M" * HUGE, "x" * HUGE + " WAIT 1"],
}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_huge_rejected_output_gives_a_short_message(game_id):
    game = get_game(game_id).new(3)
    for output in LONG_OUTPUTS[game_id]:
        with pytest.raises(InvalidOutput) as info:
            game.play(output)
        assert len(str(info.value)) <= 200 and "\n" not in str(info.value)


def test_cultist_wars_reads_leading_zeros_as_java_does():
    game = get_game("cultist-wars").new(3)
    assert game.parse_output("0 MOVE " + "0" * 5000 + "1 3").x == 1


def test_replay_quotes_a_huge_move_shortened():
    with pytest.raises(InvalidOutput) as info:
        replay(GameRecord("connect4", ["x" * HUGE]))
    assert len(str(info.value)) <= 200
