"""Connect 4 (7x9, STEAL): the facts of /work/shared/rules/connect4.md, one by one."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalMove, InvalidOutput, PositionError
from engines.connect4 import STEAL, Connect4, java_parse_int

EMPTY_ROW = "........."

# Whole games found by a search for full boards (replayed here through `play`).
DRAW_63 = ("4 2 3 4 0 1 1 5 7 6 5 6 7 3 4 4 3 3 3 5 3 2 8 5 1 3 7 2 8 6 2 1 1 7 7 5 4 1 8 2 6 2 1 2 6 7 5 5 6 "
           "0 0 8 7 6 0 8 8 8 0 0 0 4 4").split()
WIN_ON_63RD = ("8 8 7 3 3 2 4 5 2 0 0 5 4 3 4 6 3 8 5 2 7 4 1 7 2 6 6 7 4 5 0 2 4 2 6 0 5 7 0 1 1 3 2 4 3 6 7 6 0 "
               "1 5 1 0 1 7 5 1 6 8 8 8 8 3").split()
DRAW_64_STEAL = ("0 STEAL 6 5 3 8 1 3 2 7 5 4 7 6 8 6 1 8 4 4 5 2 8 8 2 2 5 6 2 0 8 2 6 4 7 8 3 4 1 6 4 2 3 6 3 7 4 "
                 "1 7 3 1 3 7 0 7 5 0 0 1 5 5 0 1 0").split()
WIN_ON_64TH_STEAL = ("3 STEAL 2 1 5 5 0 0 8 8 8 3 8 1 7 6 7 3 2 1 1 4 6 6 1 7 5 6 7 0 0 1 2 7 0 6 0 5 4 8 7 0 4 1 "
                     "6 7 3 2 6 2 2 2 8 8 3 3 5 4 4 5 4 5 4 3").split()


def played(*outputs: str) -> Connect4:
    game = Connect4.new()
    for text in outputs:
        game.play(text)
    return game


def position(rows: list[str], turn: int, steal: bool = False, last: int | str = "none") -> Connect4:
    text = "\n".join(rows) + f"\nturn_index = {turn}\nsteal_used = {str(steal).lower()}\nlast = {last}\n" \
                             f"to_move = {turn % 2}\n"
    return Connect4.from_text(text)


# ---------------------------------------------------------------------- §6 ambiguities table


def test_ambiguity_steal_converts_the_only_chip_in_place():
    """Row 'convert the opponent's one and only existing chip': the turn-0 chip changes owner in place,
    then player 0 moves at turnIndex 2."""
    game = played("4", "STEAL")
    assert game.board() == [EMPTY_ROW] * 6 + ["....1...."]
    assert game.turn_index == 2
    assert game.current_player() == 0
    assert game.last_cell() == (6, 4)
    assert game.drop_row(4) == 5  # no chip was added: the next one lands on the stolen one


def test_ambiguity_steal_only_on_turn_index_1_in_every_spelling():
    """Row 'STEAL for their first action': only turnIndex == 1; STEAL/steal/-2 are equivalent."""
    at1 = played("4")
    for text in ("STEAL", "steal", "StEaL", "-2", "-02", "STEAL hello", "\u017fteal"):
        assert at1.parse_output(text) == STEAL, text
    for game in (Connect4.new(), played("4", "3"), played("4", "3", "2", "1", "0")):
        for text in ("STEAL", "steal", "-2", "-02"):
            with pytest.raises(InvalidOutput, match="Steal"):
                game.parse_output(text)
    after_steal = played("4", "STEAL")
    with pytest.raises(InvalidOutput):
        after_steal.parse_output("STEAL")


def test_ambiguity_turn_limit_is_63_plies_or_64_with_steal():
    """Row '0 <= turnIndex < 64': 63 plies without STEAL, 64 with it."""
    plain = played(*DRAW_63[:-1])
    assert plain.outcome() is None
    plain.play(DRAW_63[-1])
    assert plain.ply == 63 and plain.outcome() is not None
    with_steal = played(*DRAW_64_STEAL[:-1])
    assert with_steal.ply == 63 and with_steal.outcome() is None
    with_steal.play(DRAW_64_STEAL[-1])
    assert with_steal.ply == 64 and with_steal.turn_index == 64 and with_steal.outcome() is not None
    assert Connect4.max_turns == 64


def test_ambiguity_full_board_is_a_draw_but_a_win_on_the_last_cell_wins():
    """Row 'draw not described': a full board without a line through the last chip is 5:5;
    a win on the final cell is a win."""
    for moves in (DRAW_63, DRAW_64_STEAL):
        out = played(*moves).outcome()
        assert (out.winner, out.reason, out.scores) == (None, "board_full", (5, 5))
    out = played(*WIN_ON_63RD).outcome()
    assert (out.winner, out.reason, out.scores) == (0, "connected", (10, 0))
    out = played(*WIN_ON_64TH_STEAL).outcome()
    assert (out.winner, out.reason, out.scores) == (1, "connected", (0, 10))


def test_ambiguity_minus_2_is_listed_after_the_columns():
    """Row 'numValidActions plus one for STEAL': -2 comes after the column indices."""
    game = played("4")
    assert game.legal_moves() == [0, 1, 2, 3, 4, 5, 6, 7, 8, STEAL]
    lines = game.bot_input(first=True)
    assert lines[9:20] == ["10", "0", "1", "2", "3", "4", "5", "6", "7", "8", "-2"]


def test_ambiguity_opp_previous_action_after_steal():
    """Row 'oppPreviousAction after a STEAL': -2 for player 0 at turnIndex 2, then normal columns."""
    game = played("4", "STEAL")
    assert game.bot_input(first=False)[-1] == "-2"
    game.play("6")
    assert game.bot_input(first=False)[-1] == "6"
    game.play("4")
    assert game.bot_input(first=False)[-1] == "4"


# ---------------------------------------------------------------------- §1 board and drops


def test_chips_fall_to_the_bottom_and_stack():
    game = played("3", "3", "5")
    assert game.board()[-2:] == ["...1.....", "...0.0..."]
    assert game.drop_row(3) == 4 and game.drop_row(0) == 6
    assert game.current_player() == 1


def test_full_column_is_invalid_and_not_listed():
    game = played(*["2"] * 7)
    assert game.drop_row(2) is None
    assert 2 not in game.legal_moves()
    assert game.bot_input(first=False)[8:10] == ["8", "0"]
    with pytest.raises(InvalidOutput, match="filled"):
        game.parse_output("2")
    with pytest.raises(IllegalMove):
        game.copy().push(2)
    assert not game.is_legal(2)


# ---------------------------------------------------------------------- §3 output parsing


@pytest.mark.parametrize("text,move", [
    ("4", 4), ("+4", 4), ("04", 4), ("0004", 4), ("-0", 0), ("+0", 0), ("4 hello", 4), ("4 ", 4),
    ("8  x", 8), ("\u0664", 4), ("\uff14", 4), ("\u0966", 0),  # Arabic-Indic, fullwidth, Devanagari digits
])
def test_outputs_java_parseint_accepts(text, move):
    assert played("1", "2").parse_output(text) == move


@pytest.mark.parametrize("text", [
    "", " 4", "4x", "4\r", "4\t", "\t4", "x", "+", "-", "+-4", "--4", "4.0", "1_0", "0x4", "\U0001d7d2",
    "2147483648", "-2147483649", "99999999999999999999", "9", "10", "-1", "-3", "STEAL", "STEALS", "STEA",
])
def test_outputs_java_parseint_rejects(text):
    with pytest.raises(InvalidOutput):
        played("1", "2").parse_output(text)


def test_java_parse_int_range_is_32_bit():
    assert java_parse_int("2147483647") == 2**31 - 1
    assert java_parse_int("-2147483648") == -(2**31)
    assert java_parse_int("-02") == -2
    for bad in ("2147483648", "-2147483649", "", "-", " 1", "1 "):
        with pytest.raises(ValueError):
            java_parse_int(bad)


def test_steal_forms_are_case_insensitive_on_turn_1_and_mean_the_same_move():
    game = played("4")
    moves = {game.parse_output(t) for t in ("-2", "-02", "steal", "StEaL", "STEAL")}
    assert moves == {STEAL}
    assert game.move_to_str(STEAL) == "STEAL"
    a, b = game.copy(), game.copy()
    a.play("-02")
    b.play("steal")
    assert a.key() == b.key() and a.to_text() == b.to_text()


def test_rejections_say_why_like_the_referee():
    game = played("1", "2")
    with pytest.raises(InvalidOutput, match=r'"4x" \(Require integer in range \[0, 8\]\)'):
        game.parse_output("4x")
    with pytest.raises(InvalidOutput, match="out of bounds"):
        game.parse_output("9")


def test_recorded_output_strips_the_message():
    assert Connect4.new().recorded_output("4 hello world") == "4"


def test_time_limits():
    assert (Connect4.limits.first_ms, Connect4.limits.turn_ms) == (1000, 100)


# ---------------------------------------------------------------------- §4 wins and scores


@pytest.mark.parametrize("moves,cells", [
    ("0 0 1 1 2 2 3", [(6, 0), (6, 1), (6, 2), (6, 3)]),  # horizontal
    ("5 6 5 6 5 6 5", [(3, 5), (4, 5), (5, 5), (6, 5)]),  # vertical
    ("0 1 1 2 2 3 2 3 3 8 3", [(3, 3), (4, 2), (5, 1), (6, 0)]),  # '/' diagonal
    ("8 7 7 6 6 5 6 5 5 0 5", [(3, 5), (4, 6), (5, 7), (6, 8)]),  # '\' diagonal
])
def test_four_in_a_row_in_every_direction_wins(moves, cells):
    game = played(*moves.split()[:-1])
    assert game.outcome() is None
    game.play(moves.split()[-1])
    out = game.outcome()
    assert (out.winner, out.reason, out.scores) == (0, "connected", (10, 0))
    assert game.winning_cells() == cells
    assert game.legal_moves() == []


def test_five_in_a_row_through_the_middle_wins_for_the_mover():
    game = played("0", "0", "1", "1", "3", "3", "4", "4")
    assert game.outcome() is None
    game.play("2")
    assert game.outcome().winner == 0
    assert game.winning_cells() == [(6, c) for c in range(5)]


def test_second_player_wins_score_0_10():
    game = played("0", "1", "0", "1", "0", "1", "8", "1")
    out = game.outcome()
    assert (out.winner, out.scores) == (1, (0, 10))


def test_winning_cells_union_of_two_lines_and_empty_otherwise():
    game = position([EMPTY_ROW] * 3 + ["......0..", ".....01..", "....0111.", "000.1110."], 14, last=7)
    assert game.outcome() is None and game.winning_cells() == []
    game.play("3")  # lands on (6, 3): a horizontal and a '/' line at once
    assert game.outcome().winner == 0
    assert game.winning_cells() == [(3, 6), (4, 5), (5, 4), (6, 0), (6, 1), (6, 2), (6, 3)]
    assert played(*DRAW_63).winning_cells() == []


def test_forfeit_gives_the_offender_0_and_the_other_10():
    game = played("1")
    out = game.forfeit(1, "invalid", 'wrong action "x"')
    assert (out.winner, out.reason, out.scores) == (0, "invalid", (10, 0))
    out = game.forfeit(0, "timeout")
    assert (out.winner, out.reason, out.scores) == (1, "timeout", (0, 10))


# ---------------------------------------------------------------------- §5 input lines (golden)


def test_input_on_turn_0():
    assert Connect4.new().bot_input(first=True) == (
        ["0 1", "0"] + [EMPTY_ROW] * 7 + ["9"] + [str(c) for c in range(9)] + ["-1"])


def test_input_on_turn_1_has_init_line_steal_and_first_column():
    assert played("1").bot_input(first=True) == (
        ["1 0", "1"] + [EMPTY_ROW] * 6 + [".0......."] + ["10"] + [str(c) for c in range(9)] + ["-2", "1"])


def test_input_on_turn_2_after_steal():
    assert played("1", "STEAL").bot_input(first=False) == (
        ["2"] + [EMPTY_ROW] * 6 + [".1......."] + ["9"] + [str(c) for c in range(9)] + ["-2"])


def test_input_on_turn_2_without_steal_names_the_column_and_omits_init():
    assert played("1", "1").bot_input(first=False) == (
        ["2"] + [EMPTY_ROW] * 5 + [".1.......", ".0......."] + ["9"] + [str(c) for c in range(9)] + ["1"])


def test_input_on_turn_3_after_steal_names_player_0s_column():
    lines = played("1", "STEAL", "0").bot_input(first=False)
    assert lines[0] == "3" and lines[7] == "01......." and lines[-1] == "0"


def test_init_line_on_a_seats_first_turn_from_a_custom_position():
    """Our choice (module docstring): the referee's rule (turnIndex 0/1) plus `first` at a custom start."""
    game = played("4", "4", "3", "3")
    assert game.bot_input(first=False)[0] == "4"
    custom = Connect4.from_text(game.to_text())
    assert custom.bot_input(first=True)[:2] == ["0 1", "4"]
    custom.play("0")
    assert custom.bot_input(first=True)[:2] == ["1 0", "5"]
    # the referee's own rule wins at turn index 0 and 1 whatever `first` says
    assert Connect4.new().bot_input(first=False)[0] == "0 1"


# ---------------------------------------------------------------------- the bot's side


def read(lines: list[str]) -> Connect4:
    it = iter(lines)
    reader = Connect4.input_reader()
    return reader.read_turn(lambda: next(it))


@pytest.mark.parametrize("moves", [[], ["1"], ["1", "STEAL"], ["1", "STEAL", "5"], ["1", "STEAL", "5", "5"],
                                   ["1", "1"], ["1", "2", "3"]])
def test_reader_rebuilds_the_position(moves):
    game = played(*moves)
    for first in (True, False):
        seen = read(game.bot_input(first=first))
        assert seen.key() == game.key()
        assert seen.to_text() == game.to_text()
        assert seen.legal_moves() == game.legal_moves()


def test_reader_on_a_logged_turn():
    lines = ["17", ".........", ".........", ".........", ".......0.", ".0.....0.", ".111...1.", "011100100",
             "9", "0", "1", "2", "3", "4", "5", "6", "7", "8", "5"]
    seen = read(lines)
    assert seen.current_player() == 1 and seen.turn_index == 17
    assert seen.steal_used  # logged game 0 opened with a STEAL: 16 chips at turn index 17
    assert seen.last_cell() == (6, 5)


# ---------------------------------------------------------------------- play / undo


def test_pop_undoes_a_steal_exactly():
    game = played("7")
    before = (game.key(), game.to_text(), game.legal_moves())
    game.play("STEAL")
    assert game.pop() == STEAL
    assert (game.key(), game.to_text(), game.legal_moves()) == before
    assert game.can_steal()


def test_steal_cannot_be_pushed_on_another_turn():
    with pytest.raises(IllegalMove):
        Connect4.new().push(STEAL)
    assert not played("1", "2").is_legal(STEAL)
    assert not played("1", "2").can_steal()


def test_pop_from_a_won_game_reopens_it():
    game = played(*"0 0 1 1 2 2 3".split())
    game.pop()
    assert game.outcome() is None and game.legal_moves() == list(range(9))


def test_same_chips_with_and_without_steal_are_different_positions():
    plain = played("1", "2")  # 0 at col 1, 1 at col 2, player 0 to move
    stolen = played("2", "STEAL", "1")  # 1 at col 2, 0 at col 1, player 1 to move
    assert plain.board() == stolen.board()
    assert plain.key() != stolen.key()
    assert plain.current_player() != stolen.current_player()


# ---------------------------------------------------------------------- position text


def test_position_text_example():
    game = played("3", "4", "4")
    assert game.to_text() == "\n".join([EMPTY_ROW] * 5 + ["....0....", "...01...."]) + (
        "\nturn_index = 3\nsteal_used = false\nlast = 4\nto_move = 1\n")
    again = Connect4.from_text(game.to_text())
    assert again.key() == game.key() and again.last_cell() == (5, 4)


def test_position_text_after_steal_and_when_over():
    for moves in (["5", "STEAL"], DRAW_64_STEAL, WIN_ON_63RD):
        game = played(*moves)
        again = Connect4.from_text(game.to_text())
        assert again.to_text() == game.to_text()
        assert again.outcome() == game.outcome()
        assert again.winning_cells() == game.winning_cells()


def test_position_text_accepts_comments_blank_lines_and_game_line():
    text = "# a comment\ngame = connect4\n\n" + played("3").to_text()
    assert Connect4.from_text(text).key() == played("3").key()


BASE = [EMPTY_ROW] * 6


@pytest.mark.parametrize("text,where,why", [
    ("\n".join(BASE + ["..0......"]) + "\nturn_index = 1\nsteal_used = false\nlast = 2\nto_move = 0\n",
     "line 11", "to_move"),
    ("\n".join(BASE[:5] + ["..0......", "........."]) + "\nturn_index = 1\nsteal_used = false\nlast = 2\n"
     "to_move = 1\n", "line 6", "floats"),
    ("\n".join(BASE + ["..1......"]) + "\nturn_index = 1\nsteal_used = false\nlast = 2\nto_move = 1\n",
     "line 8", "chips"),
    ("\n".join(BASE + ["..00....."]) + "\nturn_index = 2\nsteal_used = false\nlast = 2\nto_move = 0\n",
     "line 8", "chips"),
    ("\n".join(BASE + ["..0......"]) + "\nturn_index = 1\nsteal_used = true\nlast = 2\nto_move = 1\n",
     "line 9", "steal_used"),
    ("\n".join(BASE + ["..01....."]) + "\nturn_index = 2\nsteal_used = false\nlast = 2\nto_move = 0\n",
     "line 10", "player 1"),
    ("\n".join(BASE + ["..0......"]) + "\nturn_index = 1\nsteal_used = false\nlast = none\nto_move = 1\n",
     "line 10", "last"),
    ("\n".join(BASE + ["..0......"]) + "\nturn_index = 1\nsteal_used = false\nto_move = 1\n", "line 10", "missing"),
    ("\n".join(BASE + ["..0......"]) + "\nturn_index = 1\nsteal_used = false\nlast = 2\nto_move = 1\nfoo = 1\n",
     "line 12", "unknown"),
    ("\n".join(BASE + ["..0..x..."]) + "\nturn_index = 1\n", "line 7", "board row"),
    ("\n".join(BASE) + "\nturn_index = 0\nsteal_used = false\nlast = none\nto_move = 0\n", "line 10", "7 rows"),
    ("\n".join(BASE[:5] + ["010......", "000..1111"]) +
     "\nturn_index = 10\nsteal_used = false\nlast = 1\nto_move = 0\n", "line 10", "four-in-a-row"),
])
def test_position_text_errors_name_the_line(text, where, why):
    with pytest.raises(PositionError) as err:
        Connect4.from_text(text)
    assert str(err.value).startswith(where + ":"), str(err.value)
    assert why in str(err.value)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=".01\n =#abcdefghijklmnopqrstuvwxyz_0123456789", max_size=200))
def test_position_text_never_crashes_on_junk(text):
    try:
        Connect4.from_text(text)
    except PositionError as err:
        assert str(err).startswith("line ")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_from_text_agrees_with_play_along_random_games(seed):
    rng = random.Random(seed)
    game = Connect4.new()
    while game.outcome() is None:
        again = Connect4.from_text(game.to_text())
        assert again.key() == game.key() and again.legal_moves() == game.legal_moves()
        assert again.last_cell() == game.last_cell()
        assert again.bot_input(first=False) == game.bot_input(first=False)
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    assert Connect4.from_text(game.to_text()).outcome() == game.outcome()


# ---------------------------------------------------------------------- UI helpers


def test_board_last_cell_and_can_steal():
    game = Connect4.new()
    assert game.last_cell() is None and not game.can_steal()
    assert game.board() == [EMPTY_ROW] * 7
    game.play("8")
    assert game.can_steal() and game.last_cell() == (6, 8)
    assert game.cell(6, 8) == "0" and game.cell(5, 8) == "."
    assert not game.copy().is_legal(9)


def test_position_text_rejects_huge_numbers_without_crashing():
    text = played("3").to_text().replace("turn_index = 1", "turn_index = " + "9" * 5000)
    with pytest.raises(PositionError, match="line 8"):
        Connect4.from_text(text)
