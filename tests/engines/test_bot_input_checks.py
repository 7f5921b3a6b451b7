"""What each game's InputReader refuses: one edit of the referee's real input, the line it names, why.

The inputs are the first turns the referee sends (`bot_input`); `turns` lists the seat's turns, and
the bot answers `answers` in between (what `termarena bot` tells the reader through `played`).
"""
from __future__ import annotations

import pytest

from engines import get_game
from engines.base import InputError


def seat_turns(game_id: str, moves: list[str], seat: int, seed: int = 5) -> tuple[list[list[str]], list]:
    """The input of `seat`'s turns while `moves` are played from the start, and its answers (parsed)."""
    game = get_game(game_id).new(seed)
    turns, answers = [], []
    for text in moves + [None]:
        if game.current_player() == seat:
            turns.append(game.bot_input(first=not turns))
            if text is not None:
                answers.append(game.parse_output(text))
        if text is not None:
            game.play(text)
    return turns, answers


def read_all(game_id: str, turns: list[list[str]], answers: list) -> None:
    reader = get_game(game_id).input_reader()
    lines = iter([line for turn in turns for line in turn])

    def readline() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    for k in range(len(turns)):
        reader.read_turn(readline)
        if k < len(answers):
            reader.played(answers[k])


def refused(game_id: str, turns: list[list[str]], answers: list) -> InputError:
    with pytest.raises(InputError) as info:
        read_all(game_id, turns, answers)
    return info.value


def edited(turns: list[list[str]], line: int, text: str | None) -> list[list[str]]:
    """`turns` with input line `line` (1-based over all turns) replaced by `text` (None: removed)."""
    out, n = [], 0
    for turn in turns:
        new = []
        for old in turn:
            n += 1
            if n != line:
                new.append(old)
            elif text is not None:
                new.append(text)
        out.append(new)
    return out


def check(game_id, moves, seat, line, text, want_line, want):
    turns, answers = seat_turns(game_id, moves, seat)
    read_all(game_id, turns, answers)  # the unedited input is read
    e = refused(game_id, edited(turns, line, text), answers)
    assert e.line == want_line and want in str(e), str(e)
    assert len(str(e)) <= 200 and "\n" not in str(e)


# ---------------------------------------------------------------------------- Connect 4
# Seat 0's first turn: 1 `0 1`, 2 turnIndex, 3-9 rows, 10 numValidActions, 11-19 actions, 20 previous.

C4 = [
    (1, "0 0", 1, "must differ"),
    (1, "1 0", 1, "myId 1 does not move on turn index 0"),
    (1, "0 1 2", 1, "2 fields"),
    (2, "64", 2, "64 is out of range 0..63"),
    (2, "1_0", 2, "turnIndex '1_0' is not a whole number"),
    (2, "٠", 2, "is not a whole number"),
    (7, "ab..x", 7, "expected 9 characters in a board row, got 5 ('ab..x')"),
    (7, "....x....", 7, "only '.', '0' and '1'"),
    (8, "....0....", 8, "floats above an empty cell"),
    (9, "....0....", 2, "needs 0 chips of player 0"),
    (10, "11", 10, "11 is out of range 1..10"),
    (12, "-1", 12, "valid action -1 where the board's list has 1"),
    (12, "9", 12, "9 is out of range -2..8"),
    (20, "3", 20, "oppPreviousAction 3 on turn index 0"),
    (20, "-2", 20, "oppPreviousAction -2 on turn index 0"),
    (20, "99999999999999999999", 20, "is out of range -2..8"),
]


@pytest.mark.parametrize("line, text, want_line, want", C4)
def test_connect4_refuses(line, text, want_line, want):
    check("connect4", [], 0, line, text, want_line, want)


def test_connect4_refuses_a_list_of_actions_that_is_not_the_boards():
    turns, _ = seat_turns("connect4", [], 0)
    e = refused("connect4", edited(edited(turns, 19, None), 10, "8"), [])
    assert e.line == 10 and "numValidActions 8, but the board has 9 valid actions" in str(e)


def test_connect4_refuses_a_steal_reported_out_of_turn():
    turns, answers = seat_turns("connect4", ["4", "STEAL", "3", "2"], 0)
    last_line = sum(len(turn) for turn in turns)  # oppPreviousAction of turn index 4
    e = refused("connect4", edited(turns, last_line, "-2"), answers)
    assert e.line == last_line and "only turn index 2 follows a STEAL" in str(e)


def test_connect4_refuses_a_board_that_does_not_follow_from_the_last_one():
    # Seat 1 answered 3 on turn index 1; on turn index 3 its chip shows up in column 2.
    turns, answers = seat_turns("connect4", ["4", "3", "4"], 1)
    assert turns[1][6:8] == ["....0....", "...10...."]
    moved = turns[1][:7] + ["..1.0...."] + turns[1][8:]
    e = refused("connect4", [turns[0], moved], answers)
    assert e.line == len(turns[0]) + 2 and "not the previous turn's" in str(e)


def test_connect4_refuses_a_turn_index_out_of_step():
    turns, answers = seat_turns("connect4", ["4", "3", "4"], 1)
    e = refused("connect4", [turns[0], ["5"] + turns[1][1:]], answers)
    assert e.line == len(turns[0]) + 1 and "turnIndex 5 after 1" in str(e)


def test_connect4_refuses_a_finished_game():
    rows = [".........", ".........", ".........", "0........", "0........", "01.......", "01.1....."]
    lines = ["7"] + rows + ["9"] + [str(c) for c in range(9)] + ["0"]
    e = refused("connect4", [lines], [])
    assert e.line == 2 and "the game is over (Red connected four)" in str(e)


# ---------------------------------------------------------------------------- Lines of Action
# Black's first turn: 1 colour, 2-9 rows (rank 8 first), 10 lastMove, 11 moveCount, 12-47 moves.

LOA = [
    (1, "x", 1, "expected the colour 'b' or 'w', got 'x'"),
    (3, "wbbbbbbw", 9, "a 13th black checker"),  # 6 + 6 black: rank 1's first 'b' is the 13th
    (3, "w.......w", 3, "8 cells"),
    (3, "w......W", 3, "8 cells"),
    (10, "e2e9", 10, "expected lastMove"),
    (10, "pass pass", 10, "expected lastMove"),
    (10, "a2a3", 10, "does not fit the board"),
    (11, "0", 11, "0 is out of range 1..96"),
    (11, "35", 11, "moveCount 35, but the board has 36"),
    (12, "b1b4", 12, "legal move 'b1b4' where the board's list has 'b1b3'"),
    (12, "z9z9", 12, "legal move 'z9z9'"),
]


@pytest.mark.parametrize("line, text, want_line, want", LOA)
def test_lines_of_action_refuses(line, text, want_line, want):
    check("lines-of-action", [], 0, line, text, want_line, want)


def test_lines_of_action_refuses_twenty_black_checkers():
    rows = [".bbbbbb.", "wbbbbbbw", "wbbbbbbw", "w......w", "w......w", "w......w", "w......w", ".bbbbbb."]
    turns, _ = seat_turns("lines-of-action", [], 0)
    e = refused("lines-of-action", [[turns[0][0]] + rows + turns[0][9:]], [])
    assert e.line == 4 and "13th black checker" in str(e)


def test_lines_of_action_refuses_a_connected_side():
    rows = [".bbbbbb.", "........", "........", "..wwww..", "..wwww..", "........", "........", ".bbbbbb."]
    e = refused("lines-of-action", [["b"] + rows + ["null", "1", "pass"]], [])
    assert e.line == 2 and "the game is over" in str(e)


def test_lines_of_action_refuses_null_after_the_first_turn_and_a_board_out_of_step():
    turns, answers = seat_turns("lines-of-action", ["b1b3", "a2c2", "b8b6", "h2f2"], 0)
    first = len(turns[0])
    e = refused("lines-of-action", edited(turns, first + 9, "null"), answers)
    assert e.line == first + 9 and "null after" in str(e)
    # The bot says it answered b1d3, but the board shows b1b3 played.
    other = get_game("lines-of-action").new(5).parse_output("b1d3")
    e = refused("lines-of-action", turns, [other] + answers[1:])
    assert e.line == first + 1 and "not the previous turn's" in str(e)


# ---------------------------------------------------------------------------- Paper Soccer
# Seat 0's first turn: 1 myId, 2 opponentMoveLength, 3 opponentMove ('-').

PS = [
    (1, "2", 1, "2 is out of range 0..1"),
    (1, "", 1, "myId is empty, expected a whole number 0..1"),
    (2, "-1", 2, "opponentMoveLength '-1' is out of range 1..356"),
    (2, "2", 3, "comes only on the game's first turn"),
    (3, "0", 3, "seat 0's own"),
    (3, "8", 3, "expected opponentMove: the digits 0-7"),
]


@pytest.mark.parametrize("line, text, want_line, want", PS)
def test_paper_soccer_refuses(line, text, want_line, want):
    check("paper-soccer", [], 0, line, text, want_line, want)


def test_paper_soccer_refuses_a_move_that_is_not_legal_or_not_its_length():
    # Seat 1's first turn after seat 0 played "1": 1 myId, 2 length, 3 the move.
    check("paper-soccer", ["1"], 1, 3, "12", 3, "has 2 digits, opponentMoveLength said 1")
    check("paper-soccer", ["1"], 1, 3, "-", 3, "comes only on the game's first turn")
    e = refused("paper-soccer", [["1", "3", "015"]], [])  # 0 then 1 from the centre: no bounce to go on
    assert e.line == 3 and "not legal" in str(e)


# ---------------------------------------------------------------------------- Cultist Wars
# Seat 0's first turn (seed 5): 1 myId, 2 size, 3-9 map rows, 10 numOfUnits, 11-24 units.

CW = [
    (1, "3", 1, "3 is out of range 0..1"),
    (2, "13 8", 2, "height 8 is out of range 7..7"),
    (2, "13", 2, "2 fields"),
    (3, "....x", 3, "expected 13 characters in a map row, got 5 ('....x')"),
    (3, "....o...x....", 3, "only '.' and 'x'"),
    (10, "15", 10, "15 is out of range 0..14"),
    (11, "0 1 10 50 50 0", 11, "x 50 is out of range 0..12"),
    (11, "14 1 10 0 3 0", 11, "unitId 14 is out of range 0..13"),
    (11, "0 0 10 0 3 0", 11, "units 0 and 1 are the cult leaders"),
    (11, "0 1 0 0 3 0", 11, "hp 0 is out of range 1..10"),
    (11, "0 1 11 0 3 0", 11, "hp 11 is out of range 1..10"),
    (11, "0 1 10 0 3 1", 11, "cult leader 0 has owner 1"),
    (11, "0 1 10 0 3 3", 11, "owner 3 is out of range 0..2"),
    (11, "0 1 10 4 0 0", 11, "stands on an obstacle"),
    (12, "0 1 10 0 3 0", 12, "unit 0 is listed twice"),
    (13, "2 0 10 0 3 2", 13, "units 0 and 2 stand on the same tile"),
    (13, "2 0 10 5 0 2 7", 13, "6 fields"),
    (13, "2 0 +10 5 0 2", 13, "hp '+10' is not a whole number"),
]


@pytest.mark.parametrize("line, text, want_line, want", CW)
def test_cultist_wars_refuses(line, text, want_line, want):
    check("cultist-wars", [], 0, line, text, want_line, want)


def test_cultist_wars_refuses_a_player_without_units():
    turns, _ = seat_turns("cultist-wars", [], 0)
    lines = [line for line in turns[0] if not line.startswith("1 1 ")]
    lines[9] = "13"
    e = refused("cultist-wars", [lines], [])
    assert e.line == 10 and "player 1 has no unit" in str(e)
