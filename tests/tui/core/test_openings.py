"""`match --openings FILE`: the file is untrusted text; every opening is checked through the engine, and a
problem is one line naming the file's line, before any game starts."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.tournament import Opening
from tui.core.openings import MAX_OPENINGS_BYTES, OpeningsError, load_openings, parse_openings


def test_move_prefixes_and_comments():
    text = "# book\n\n4\n4 STEAL 5\n  3   5  \n"
    assert parse_openings(text, "connect4") == [Opening(("4",)), Opening(("4", "STEAL", "5")), Opening(("3", "5"))]


def test_a_cultist_wars_opening_is_a_map_seed():
    assert parse_openings("1326\n-5\n", "cultist-wars") == [Opening(seed=1326), Opening(seed=-5)]
    with pytest.raises(OpeningsError, match="line 2: .*seed"):
        parse_openings("7\nA1 B2\n", "cultist-wars")


@pytest.mark.parametrize("text, words", [
    ("4\n4 4 STEAL\n", "line 2: move 3 \\('STEAL'\\): "),
    ("9\n", "line 1: move 1 \\('9'\\): "),
    ("# only comments\n", "no opening"),
])
def test_an_illegal_opening_names_its_line_and_the_referees_reason(text, words):
    with pytest.raises(OpeningsError, match=words):
        parse_openings(text, "connect4")


def test_an_opening_that_ends_the_game_is_refused():
    win = " ".join(["0", "1"] * 3 + ["0"])  # four in column 0
    with pytest.raises(OpeningsError, match="over"):
        parse_openings(win + "\n", "connect4")


def test_paper_soccer_openings_are_refused_because_its_bots_only_learn_moves_one_by_one():
    with pytest.raises(OpeningsError, match="move by move"):
        parse_openings("0\n", "paper-soccer")


def test_a_file_too_large_or_not_a_file_is_refused_without_reading_it(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(MAX_OPENINGS_BYTES + 1)
    with pytest.raises(OpeningsError, match="too large"):
        load_openings(big, "connect4")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OpeningsError, match="FIFO"):  # opening it for reading would block
        load_openings(fifo, "connect4")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"4 \xe9\n")
    with pytest.raises(OpeningsError, match="UTF-8"):
        load_openings(bad, "connect4")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_openings_or_one_line_error(text):
    for game in ("connect4", "lines-of-action", "cultist-wars"):
        try:
            parse_openings(text, game)
        except OpeningsError as e:
            assert "\n" not in str(e)
