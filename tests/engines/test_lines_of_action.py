"""Lines of Action: the facts of /work/shared/rules/lines-of-action.md, one test or more each.

Positions are written in the engine's text form (rank 8 first); `pos(...)` fills in the key lines.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_game
from engines.base import EngineError, InvalidOutput, PositionError
from engines.endings import describe
from engines.javarandom import JavaRandom, next_int, scramble
from engines.lines_of_action import (
    LINES,
    PASS,
    LinesOfAction,
    Move,
    RandomMove,
    is_connected,
    parse_square,
    square_name,
)
from tests.helpers.conformance_data import logged_games
from tests.helpers.players import random_position

START_ROWS = [".bbbbbb.", "w......w", "w......w", "w......w", "w......w", "w......w", "w......w", ".bbbbbb."]

# Black (to move) has no legal move: a1 and h8 are walled in by white.
NO_MOVE_ROWS = [
    "......wb",
    "......ww",
    "........",
    "........",
    "........",
    "........",
    "ww......",
    "bw......",
]


def pos(rows: list[str], turns: int = 10, last: str = "null", rng: str = "unknown") -> LinesOfAction:
    text = "\n".join(rows) + f"\nturns_played = {turns}\nlast_move = {last}\nrandom_state = {rng}\n"
    return LinesOfAction.from_text(text)


def move(name: str) -> Move:
    return Move(parse_square(name[:2]), parse_square(name[2:]))


def names(game: LinesOfAction, moves) -> list[str]:
    return [game.move_to_str(m) for m in moves]


# ---------------------------------------------------------------------------- java.util.Random


def test_java_random_matches_the_jvm():
    """Values printed by a real JVM (javac/java 17): `new Random(42).nextInt(10)` ten times, and others.

    The brief claimed 0 3 8 4 0 5 5 8 1 9; the JVM prints 0 3 8 4 0 5 5 8 9 3.
    """
    r = JavaRandom(42)
    assert [r.next_int(10) for _ in range(10)] == [0, 3, 8, 4, 0, 5, 5, 8, 9, 3]
    r = JavaRandom(42)
    assert [r.next_int(16) for _ in range(6)] == [11, 0, 10, 0, 4, 15]  # power-of-two branch
    r = JavaRandom(-5)
    assert [r.next_int(7) for _ in range(6)] == [5, 6, 2, 6, 1, 5]  # negative seed
    r = JavaRandom(0)  # bound 2^30 + 1 rejects about half of the draws
    assert [r.next_int((1 << 30) + 1) for _ in range(6)] == [
        516548029, 663681053, 251269761, 715581077, 542832677, 827187473]


def test_java_random_mixed_bounds_from_the_jvm():
    """`new Random(0)` with bounds 1, 2, 3, 7, 10, 16, 33, 36, 64, 100 in turn (JVM output)."""
    r = JavaRandom(0)
    bounds = [1, 2, 3, 7, 10, 16, 33, 36, 64, 100]
    assert [r.next_int(b) for b in bounds] == [0, 1, 1, 2, 5, 4, 2, 21, 38, 54]


def test_java_random_state_functions_agree_with_the_object():
    state = scramble(1234)
    value, state = next_int(state, 77)
    r = JavaRandom(1234)
    assert r.next_int(77) == value and r.state == state
    with pytest.raises(ValueError):
        next_int(state, 0)


# ---------------------------------------------------------------------------- 1. board and setup


def test_setup_black_on_ranks_1_and_8_white_on_files_a_and_h():
    """§1 and the 'colours' row: index 0 = black on b1-g1, b8-g8; index 1 = white on a2-a7, h2-h7."""
    g = LinesOfAction.new()
    assert g.board() == START_ROWS
    assert g.checker_counts() == (12, 12)
    assert g.current_player() == 0
    assert g.piece_at(parse_square("b1")) == "b" and g.piece_at(parse_square("a2")) == "w"
    assert g.piece_at(parse_square("a1")) is None


def test_square_names_are_file_then_rank():
    assert square_name(0) == "a1" and square_name(7) == "h1" and square_name(56) == "a8"
    assert parse_square("h8") == 63
    for bad in ("i1", "a9", "a0", "A1", "", "a", "a10"):
        with pytest.raises(ValueError):
            parse_square(bad)


# ---------------------------------------------------------------------------- 2. move generation


def test_lines_are_the_referees_42_in_generation_order():
    """§2: rows, columns, then anti-diagonals and diagonals of length >= 2, cells in the referee's order."""
    assert len(LINES) == 42
    assert LINES[0] == tuple(range(8))  # row 1, a1..h1
    assert LINES[8] == tuple(range(0, 64, 8))  # column a, a1..a8
    assert [square_name(s) for s in LINES[16]] == ["a2", "b1"]  # first anti-diagonal
    assert [square_name(s) for s in LINES[23]] == ["h2", "g3", "f4", "e5", "d6", "c7", "b8"]
    assert [square_name(s) for s in LINES[29]] == ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
    assert [square_name(s) for s in LINES[36]] == ["b1", "c2", "d3", "e4", "f5", "g6", "h7"]


def test_start_moves_in_generation_order():
    """§2: the internal list (used by `random`) is in generation order, backwards before forwards."""
    g = LinesOfAction.new()
    assert names(g, g.legal_moves()) == [
        "b1h1", "g1a1", "b8h8", "g8a8",
        "b1b3", "b8b6", "c1c3", "c8c6", "d1d3", "d8d6", "e1e3", "e8e6", "f1f3", "f8f6", "g1g3", "g8g6",
        "c1a3", "d1b3", "e1c3", "f1d3", "g1e3", "b8d6", "c8e6", "d8f6", "e8g6", "f8h6",
        "g8e6", "f8d6", "e8c6", "d8b6", "c8a6", "b1d3", "c1e3", "d1f3", "e1g3", "f1h3"]


def test_distance_counts_every_checker_on_the_whole_line():
    """§2: n = checkers of both colours on the whole line, even beyond the destination."""
    g = pos(["...w....",
             "........",
             "........",
             "........",
             "........",
             "...b....",
             "........",
             "b..b...w"], turns=10)
    # column d holds d1, d3 and d8: d3 moves 3 (to d6; d0 is off the board); its other lines hold only d3.
    assert sorted(square_name(s) for s in g.moves_from(parse_square("d3"))) == [
        "c2", "c3", "c4", "d6", "e2", "e3", "e4"]
    # generation order: row, column, anti-diagonal (a6..f1), diagonal (b1..h7); backwards first
    assert [m for m in names(g, g.legal_moves()) if m.startswith("d3")] == [
        "d3c3", "d3e3", "d3d6", "d3c4", "d3e2", "d3c2", "d3e4"]


def test_may_jump_own_checkers_but_not_opponent_checkers():
    """§2: own checkers may be jumped; an opponent checker strictly between blocks."""
    g = pos(["...w....", "........", "........", "....b...", "........", "........", "........",
             "bb.w...."], turns=10)
    # row 1 holds 3: a1 -> d1 jumps b1 (own) and captures d1; b1 -> e1 would jump d1 (white).
    row_moves = [m for m in names(g, g.legal_moves()) if m[1] == "1" and m[3] == "1"]
    assert row_moves == ["a1d1"]


def test_cannot_land_on_own_checker_and_landing_on_opponent_captures():
    """§2: the destination may not hold an own checker; landing on an opponent checker removes it."""
    g = pos(["........", "........", "........", "........", "........", "........", "........",
             "b.b..w.w"], turns=10)
    # row 1 holds 4: a1 -> e1 (legal), c1 -> g1 jumps f1 (white: blocked), nothing lands on c1.
    row = [m for m in names(g, g.legal_moves()) if m[1] == "1" and m[3] == "1"]
    assert row == ["a1e1"]
    g = pos([".......w", "........", "........", "........", "........", "........", "..w.....",
             "b.b....."], turns=10)
    assert parse_square("c1") not in g.moves_from(parse_square("a1"))  # row holds 2: c1 is own
    g = pos([".......w", "........", "........", "....b...", "........", "........", "w.......",
             "b.w....."], turns=10)
    g.push(move("a1c1"))  # row 1 holds 2: a1 lands on c1 (white)
    assert g.board()[7] == "..b....."
    assert g.checker_counts() == (2, 2)
    assert g.outcome() is None


# ---------------------------------------------------------------------------- 3. turn loop and parsing


def test_prefix_match_accepts_trailing_junk():
    """Ambiguity row 'move format': the first 4 characters must be a legal move; `b1d3xyz` is accepted."""
    g = LinesOfAction.new()
    assert g.parse_output("b1d3xyz") == move("b1d3")
    assert g.parse_output("b1d3\r") == move("b1d3")  # a kept CR is junk too
    assert g.parse_output("b1d3 b1h1 comment") == move("b1d3")
    for bad in ("b1d", "b1", "", " b1d3", "B1D3", "b1d4", "xb1d3", "a2a4"):
        with pytest.raises(InvalidOutput):
            g.parse_output(bad)


@pytest.mark.parametrize("output, why", [
    ("b1b2", "'b1b2': a checker moves exactly as many squares as its line holds checkers: 2 on this column, not 1"),
    ("b1c3", "'b1c3': b1 and c3 are not on one row, column or diagonal"),
    ("a2a4", "'a2a4': a2 holds no black checker"),
    ("b1b1xyz", "'b1b1xyz': a checker must move"),
    ("zz", "'zz' does not begin with any of the 36 legal moves (e.g. b1h1)"),
])
def test_a_rejected_move_says_which_rule_it_breaks(output, why):
    with pytest.raises(InvalidOutput) as refused:
        LinesOfAction.new().parse_output(output)
    assert str(refused.value) == f"Action was not valid! {why}"


@settings(max_examples=15, deadline=None)  # 4,096 outputs each
@given(st.integers(0, 10**6), st.integers(0, 80))
def test_every_move_no_rule_forbids_is_legal_and_every_other_gets_its_rule(seed, plies):
    g = random_position("lines-of-action", seed, plies)
    legal = set(g.legal_moves())
    for src in range(64):
        for dst in range(64):
            m = Move(src, dst)
            try:
                assert g.parse_output(square_name(src) + square_name(dst)) == m and m in legal
            except InvalidOutput as refused:
                assert m not in legal and "does not begin" not in str(refused)


def test_recorded_output_is_the_token_as_written():
    g = LinesOfAction.new()
    assert g.recorded_output("b1d3xyz hello") == "b1d3xyz"
    assert g.recorded_output("random") == "random"


def test_pass_with_legal_moves_is_invalid_and_forfeits():
    """Ambiguity row 'pass': valid only when no legal move exists; otherwise invalid, score -1."""
    g = LinesOfAction.new()
    with pytest.raises(InvalidOutput, match="pass"):
        g.parse_output("pass")
    out = g.forfeit(0, "invalid", "pass")
    assert (out.winner, out.scores, out.reason) == (1, (-1, 0), "invalid")
    assert g.forfeit(1, "timeout").scores == (0, -1)


def test_pass_without_legal_moves():
    """Ambiguity row 'pass': the input lists exactly `pass`; `pass` and `random` pass; nothing else does."""
    g = pos(NO_MOVE_ROWS, turns=10, rng="0x000000000001")
    assert g.legal_moves() == [PASS]
    assert g.bot_input(first=False)[-3:] == ["null", "1", "pass"]
    assert g.parse_output("pass") == PASS
    assert g.parse_output("pass with a comment") == PASS
    assert g.parse_output("random") == PASS
    assert type(g.parse_output("random")) is Move  # no draw consumed
    for bad in ("PASS", "passx", " pass", "", "a1b1", "Random", "random1", "pass\r"):
        with pytest.raises(InvalidOutput):
            g.parse_output(bad)
    g.push(g.parse_output("random"))
    assert g.rng_state == 1
    assert g.turns_played == 11 and g.current_player() == 1
    assert g.bot_input(first=False)[8] == "pass"


def test_passes_count_as_turns_towards_150():
    """Ambiguity row '150 moves': 150 turns in total, passes included, then a draw 0/0."""
    g = pos(NO_MOVE_ROWS, turns=148)
    g.push(PASS)
    assert g.outcome() is None and g.turns_played == 149
    g.push(move("b1d1"))
    out = g.outcome()
    assert (out.winner, out.scores, out.reason) == (None, (0, 0), "turn_limit")
    assert g.legal_moves() == []


def test_win_on_turn_150_counts():
    """§3: a win on turn 150 still counts (the connection test comes before the turn limit)."""
    rows = ["b.......", "........", "........", "........", "b.......", "........", "..w.....", "w......."]
    g = pos(rows, turns=149)
    assert g.current_player() == 1
    g.push(move("c2b2"))  # row 2 holds one checker: c2 -> b2 touches a1
    out = g.outcome()
    assert (out.winner, out.scores, out.reason) == (1, (0, 1), "connected")
    g.pop()
    g.push(move("c2d2"))
    assert g.outcome().winner is None and g.outcome().reason == "turn_limit"


def test_both_connected_mover_wins():
    """Ambiguity row 'connects simultaneously': the mover's group is tested first, so the mover wins."""
    rows = ["......ww", "......w.", "........", "........", "........", "........", "w.b.....", "b......."]
    g = pos(rows, turns=10)
    g.push(move("c2a2"))  # captures a2: black a1+a2 and white g7/g8/h8 are both connected
    assert is_connected(g._bb[0]) and is_connected(g._bb[1])
    out = g.outcome()
    assert (out.winner, out.scores) == (0, (1, 0))


def test_capture_leaving_one_checker_makes_the_opponent_win():
    """Ambiguity row 'connects simultaneously': a capture that leaves the opponent connected (1 checker)
    makes the opponent win when the mover is not connected."""
    rows = [".......w", "........", "........", "....b...", "........", "........", "w.b.....", "b......."]
    g = pos(rows, turns=10)
    g.push(move("c2a2"))
    assert g.checker_counts() == (3, 1)
    out = g.outcome()
    assert (out.winner, out.scores, out.reason) == (1, (0, 1), "connected")
    assert out.mover == 0  # the loser's capture: the words say so
    assert describe(out, LinesOfAction) == "Black's capture left all White's checkers connected"


def test_capture_leaving_one_checker_mover_connected_wins():
    """... unless the mover is connected too: then the mover wins."""
    rows = [".......w", "........", "........", "........", "........", "........", "w.b.....", "b......."]
    g = pos(rows, turns=10)
    g.push(move("c2a2"))
    assert g.outcome().winner == 0


def test_random_picks_as_java_util_random_seeded_with_the_game_seed():
    """Ambiguity row 'random': java.util.Random(seed), once per game, nextInt(size) over generation order.

    JVM: new Random(37).nextInt(36), nextInt(33), nextInt(32), nextInt(33) = 17, 15, 16, 13.
    """
    g = LinesOfAction.new(37)
    picked = []
    for want_size, want_index in ((36, 17), (33, 15), (32, 16), (33, 13)):
        moves = g.legal_moves()
        assert len(moves) == want_size
        before = g.key(), g.rng_state
        m = g.parse_output("random xyz")
        assert (g.key(), g.rng_state) == before  # parse_output changes nothing
        assert isinstance(m, RandomMove) and m == moves[want_index]
        picked.append(g.move_to_str(m))
        g.push(m)
    assert picked == ["d1b3", "a3c1", "f1d3", "h2h8"]
    assert g.bot_input(first=False)[8] == "h2h8"  # lastMove is the resolved move, not "random"


def test_random_draws_are_restored_by_pop_and_shared_with_normal_moves():
    g = LinesOfAction.new(37)
    start = g.rng_state
    assert start == scramble(37)
    g.push(g.parse_output("random"))
    after_first = g.rng_state
    assert after_first != start
    g.push(g.parse_output(g.move_to_str(g.legal_moves()[0])))  # a normal move draws nothing
    assert g.rng_state == after_first
    g.pop()
    g.pop()
    assert g.rng_state == start
    assert g.parse_output("random") == g.legal_moves()[17]


def test_random_with_unknown_generator_is_an_engine_error():
    g = pos(START_ROWS, turns=0)
    assert g.rng_state is None
    with pytest.raises(EngineError):
        g.parse_output("random")


def test_new_without_seed_uses_seed_zero():
    assert LinesOfAction.new().rng_state == scramble(0) == LinesOfAction.new(0).rng_state


def test_random_move_equals_and_hashes_as_the_plain_move():
    m = RandomMove(Move(1, 17), 5)
    assert m == Move(1, 17) and hash(m) == hash(Move(1, 17)) and m.rng_after == 5
    assert LinesOfAction.new().is_legal(m)


# ---------------------------------------------------------------------------- 4. input


def test_first_turn_inputs_golden():
    """§4 golden (logged game seed 37): black's first input; white's first after e8e6."""
    lg = logged_games("lines-of-action")[0]
    g = LinesOfAction.new(lg.seed)
    black = g.bot_input(first=True)
    assert black[:11] == ["b", *START_ROWS, "null", "36"]
    assert black[11:14] == ["b1b3", "b1d3", "b1h1"]  # sorted by string
    g.play("e8e6")
    white = g.bot_input(first=True)
    assert white[0] == "w" and white[9] == "e8e6" and white[10] == "36"
    assert white == list(lg.turns[1].input)
    g.play("h3f1")
    assert g.bot_input(first=False)[0] == ".bbb.bb."  # no colour line after the first turns


def test_moves_are_sent_sorted_by_ascii():
    g = LinesOfAction.new()
    sent = g.bot_input(first=True)[11:]
    assert sent == sorted(sent) and sorted(sent) == sorted(names(g, g.legal_moves()))


def test_limits_and_turns():
    assert LinesOfAction.limits.first_ms == 1000 and LinesOfAction.limits.turn_ms == 150
    assert LinesOfAction.max_turns == 150
    assert get_game("loa") is LinesOfAction


def test_reader_counts_turns_through_passes():
    """A bot rebuilds turns_played as 2k + seat, passes included (logged game with many passes)."""
    lg = logged_games("lines-of-action")[13]
    g = LinesOfAction.new(lg.seed)
    readers = [LinesOfAction.input_reader(), LinesOfAction.input_reader()]
    first = [True, True]
    for turn in lg.turns:
        seat = turn.seat
        lines = iter(g.bot_input(first[seat]))
        first[seat] = False
        seen = readers[seat].read_turn(lambda: next(lines))
        assert seen.key() == g.key() and seen.legal_moves() == g.legal_moves()
        assert seen.last_move == g.last_move
        g.play(turn.output)
    assert g.outcome().reason == "turn_limit"


# ---------------------------------------------------------------------------- text


def test_text_of_the_start_position():
    assert LinesOfAction.new().to_text() == "\n".join([
        "  a b c d e f g h",
        "8 . b b b b b b . 8",
        "7 w . . . . . . w 7",
        "6 w . . . . . . w 6",
        "5 w . . . . . . w 5",
        "4 w . . . . . . w 4",
        "3 w . . . . . . w 3",
        "2 w . . . . . . w 2",
        "1 . b b b b b b . 1",
        "  a b c d e f g h",
        "to_move = b",
        "turns_played = 0",
        "last_move = null",
        "random_state = 0x0005deece66d",
    ]) + "\n"


def test_text_round_trip_keeps_last_move_and_rng():
    g = LinesOfAction.new(9)
    g.play("random")
    g.play("pass" if g.legal_moves() == [PASS] else g.move_to_str(g.legal_moves()[3]))
    again = LinesOfAction.from_text(g.to_text())
    assert again.to_text() == g.to_text() and again.key() == g.key()
    assert again.rng_state == g.rng_state and again.last_move == g.last_move
    assert again.bot_input(False) == g.bot_input(False)


@pytest.mark.parametrize("text,line,words", [
    ("\n".join(START_ROWS[:7]) + "\nturns_played = 0\n", 8, "7 rows"),
    ("\n".join(START_ROWS) + "\n", 8, "turns_played"),
    ("\n".join(START_ROWS) + "\nturns_played = 3\nto_move = b\n", 10, "impossible"),
    ("\n".join(START_ROWS) + "\nturns_played = 151\n", 9, "0..150"),
    ("\n".join(START_ROWS) + "\nturns_played = 2\ncolour = b\n", 10, "unknown key"),
    ("\n".join(START_ROWS) + "\nturns_played = 2\nlast_move = a1b1\n", 10, "does not fit"),
    ("\n".join(START_ROWS) + "\nturns_played = 0\nlast_move = pass\n", 10, "before the first turn"),
    ("\n".join(START_ROWS) + "\nturns_played = 2\nrandom_state = 0x1000000000000\n", 10, "48-bit"),
    ("\n".join(["bbbbbbbb", "bbbbb...", *START_ROWS[2:]]) + "\nturns_played = 2\n", 1, "at most 12"),
    ("\n".join(START_ROWS[:3] + ["..x....."] + START_ROWS[4:]) + "\nturns_played = 2\n", 4, "board row"),
])
def test_from_text_errors_name_the_line(text, line, words):
    with pytest.raises(PositionError, match=f"line {line}:.*{words}"):
        LinesOfAction.from_text(text)


def test_from_text_reads_referee_rows_and_detects_finished_games():
    rows = ["........", "........", "........", "........", "........", "........", "ww......", "bb......"]
    g = pos(rows, turns=7)  # black moved last: black connected wins first
    assert g.outcome().winner == 0 and g.legal_moves() == []


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_from_text_never_crashes_on_junk(text):
    try:
        LinesOfAction.from_text(text)
    except PositionError as e:
        assert str(e).startswith("line ")


# ---------------------------------------------------------------------------- UI helpers and undo


def test_moves_from_and_groups():
    g = LinesOfAction.new()
    assert sorted(square_name(s) for s in g.moves_from(parse_square("b1"))) == ["b3", "d3", "h1"]
    assert g.moves_from(parse_square("a2")) == []  # white's checker, black to move
    groups = g.connected_groups("w")
    assert [len(x) for x in groups] == [6, 6]
    assert g.connected_groups(0)[0] == [parse_square(s) for s in ("b1", "c1", "d1", "e1", "f1", "g1")]


def test_push_pop_restore_everything_over_random_games():
    rng = random.Random(3)
    for _ in range(5):
        g = LinesOfAction.new(rng.randrange(1000))
        texts = []
        while g.outcome() is None:
            texts.append((g.to_text(), g.key()))
            line = "random" if rng.random() < 0.3 else g.move_to_str(rng.choice(g.legal_moves()))
            g.play(line)
        while g.move_stack:
            g.pop()
            assert (g.to_text(), g.key()) == texts.pop()
