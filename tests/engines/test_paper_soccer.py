"""Paper Soccer: the rules file (/work/shared/rules/paper-soccer.md) fact by fact.

Coordinates are (x, y) with y = -1 the top goal row (seat 0 attacks it) and y = 11 the bottom one.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import get_game
from engines.base import EngineError, IllegalMove, InvalidOutput, Outcome, PositionError
from engines.paper_soccer import (
    BOTTOM_GOAL,
    CENTRE,
    MOVE_LIST_LIMIT,
    TOP_GOAL,
    PaperSoccer,
    TurnBuilder,
    attacked_goal,
    goal_of,
    neighbour,
    point_xy,
    xy_point,
)

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(*moves: str) -> PaperSoccer:
    g = PaperSoccer.new()
    for m in moves:
        g.play(m)  # checked like the referee
    return g


def rejected(g: PaperSoccer, line: str) -> str:
    with pytest.raises(InvalidOutput) as e:
        g.parse_output(line)
    return str(e.value)


def P(x: int, y: int) -> int:
    p = xy_point(x, y)
    assert p is not None
    return p


# Positions used below (every intermediate point is fresh, so each one-step turn ends there).
BALL_40_SEAT1 = ("0", "0", "0", "0", "0")  # ball (4,0), seat 1 to move
BALL_40_SEAT0 = ("2", "7", "0", "0", "0", "0")  # ball (4,0), seat 0 to move
BALL_11_SEAT0 = ("7", "7", "7", "0")  # ball (1,1), next to the corner (0,0)
BALL_21_SEAT0 = ("7", "0", "0", "7")  # ball (2,1)
STUCK_SEAT0 = ("7", "7", "7", "0", "2", "4")  # ball (2,2), then "77" bounces at (1,1) into (0,0)


def referee_turns(g: PaperSoccer, max_len: int = 60) -> set[str]:
    """Every accepted output, found by asking the parser only: a prefix the referee calls
    'ended prematurely' is extended by each digit, anything else rejected is dropped."""
    found, todo = set(), [str(d) for d in range(9)]
    while todo:
        s = todo.pop()
        try:
            g.parse_output(s)
            found.add(s)
        except InvalidOutput as e:
            if "prematurely" in str(e) and len(s) < max_len:
                todo += [s + str(d) for d in range(9)]
    return found


def random_position(seed: int, stepwise: bool = False) -> PaperSoccer:
    rng = random.Random(seed)
    g = PaperSoccer.new()
    stop = rng.randrange(40)
    while g.ply < stop and not g.is_over():
        if stepwise:
            g.push(g.random_turn(rng))
        else:
            moves = g.legal_moves()
            g.push(moves[rng.randrange(len(moves))])
    return g


def dense_position() -> PaperSoccer:
    """A late position (random step-by-step play) with far more than MOVE_LIST_LIMIT turns."""
    rng = random.Random(143)
    g = PaperSoccer.new()
    while g.turn < 51:
        g.push(g.random_turn(rng))
    assert not g.is_over()
    return g


# ------------------------------------------------------------------ ambiguity table (rules §8)

def test_row_goal_size_two_squares_wide_three_goal_nodes_each_scores():
    """Row 'small rectangles ... representing the two goals': goal 2 squares wide (x 3..5), 1 deep;
    entering any of the 3 nodes behind the goal line scores."""
    assert [point_xy(p) for p in TOP_GOAL] == [(3, -1), (4, -1), (5, -1)]
    assert [point_xy(p) for p in BOTTOM_GOAL] == [(3, 11), (4, 11), (5, 11)]
    assert xy_point(2, -1) is None and xy_point(6, -1) is None and xy_point(4, -2) is None
    for move, node in (("7", (3, -1)), ("0", (4, -1)), ("1", (5, -1))):
        g = play(*BALL_40_SEAT0)
        g.play(move)
        assert point_xy(g.ball()) == node
        assert g.outcome() == Outcome(0, "goal", (1, -1))


def test_row_predrawn_lines_and_open_goal_mouth():
    """Row "can't move on ... the pitch's lines": 40 pre-drawn edges; the mouth segments are open."""
    g = PaperSoccer.new()
    edges = {frozenset(e) for e in g.drawn_edges()}
    assert len(edges) == 40
    assert frozenset(((0, 3), (0, 4))) in edges and frozenset(((8, 9), (8, 10))) in edges
    assert frozenset(((2, 0), (3, 0))) in edges and frozenset(((5, 10), (6, 10))) in edges
    assert frozenset(((3, -1), (3, 0))) in edges and frozenset(((4, 11), (5, 11))) in edges
    for mouth in (((3, 0), (4, 0)), ((4, 0), (5, 0)), ((3, 10), (4, 10)), ((4, 10), (5, 10))):
        assert frozenset(mouth) not in edges
    assert g.player_edges() == []
    # The open mouth segment (4,0)-(3,0) is playable: "6" from (4,0) goes on from the post.
    g = play(*BALL_40_SEAT1)
    assert g.step_is_legal(P(4, 0), 6) and g.step_is_legal(P(4, 0), 2)


def test_row_border_points_bounce_mouth_centres_do_not():
    """Row bounce 'end of already drawn line': every border point bounces; (4,0), (4,10) do not at first."""
    g = PaperSoccer.new()
    for x in range(9):
        for y in (0, 10):
            assert g.is_bounce_point(P(x, y)) == (x != 4), (x, y)
    for y in range(11):
        assert g.is_bounce_point(P(0, y)) and g.is_bounce_point(P(8, y))
    assert not g.is_bounce_point(CENTRE)
    # Arriving on the mouth centre ends the turn; one more character is invalid.
    g = play("0", "0", "0", "0")
    assert g.parse_output("0") == "0"
    assert "Should finish turn" in rejected(g, "00")
    g.play("0")
    assert g.is_bounce_point(P(4, 0))
    # Arriving on a border point bounces: the turn must go on.
    g = play(*BALL_21_SEAT0)
    assert "prematurely" in rejected(g, "0")
    assert g.parse_output("03") == "03"


def test_row_stuck_in_a_bounce_sequence_is_a_legal_losing_move():
    """Row 'Player also loses if after his turn the ball cannot be moved': blocked mid-sequence, the
    string must stop there (legal, losing); more characters are invalid."""
    g = play(*STUCK_SEAT0)  # ball (2,2); (1,1) touched, (2,2)-(1,1) free
    assert g.current_player() == 0
    assert "77" in g.legal_moves() and "7" not in g.legal_moves()
    assert "Should finish turn" in rejected(g, "770")
    g.play("77")
    assert point_xy(g.ball()) == (0, 0)
    assert g.outcome() == Outcome(1, "blocked", (-1, 1))


def test_row_corners_are_death_traps():
    """Row 'cannot be moved' (corners): reaching a corner blocks the ball and the mover loses."""
    g = play(*BALL_11_SEAT0)
    assert g.current_player() == 0
    assert len(g.free_directions(P(0, 0))) == 1
    g.play("7")
    assert g.is_blocked_point(g.ball())
    out = g.outcome()
    assert (out.winner, out.reason, out.scores) == (1, "blocked", (-1, 1))
    assert g.legal_moves() == []


def test_row_own_goal_loses_and_blocked_player_is_the_mover():
    """Row win/lose: a goal in the opponent's goal wins, an own goal loses, the blocked one is the mover."""
    g = play(*BALL_40_SEAT1)
    assert g.current_player() == 1
    g.play("0")  # seat 1 into the top goal, its own
    assert g.outcome() == Outcome(0, "own_goal", (1, -1))
    g = play("4", "4", "4", "4", "4")  # ball (4,10), seat 1 to move, attacking the bottom goal
    g.play("4")
    assert g.outcome() == Outcome(1, "goal", (-1, 1))
    assert goal_of(0) == BOTTOM_GOAL and goal_of(1) == TOP_GOAL
    assert attacked_goal(0) == TOP_GOAL and attacked_goal(1) == BOTTOM_GOAL


def test_row_turn_limit_draw_after_66_turns():
    """Row '(no draw mentioned)': 66 player-turns without a result is a 0:0 draw (turn_limit)."""
    g = _position_at_turn(66)
    out = g.outcome()
    assert out == Outcome(None, "turn_limit", (0, 0), turns=66)
    assert g.legal_moves() == []
    assert PaperSoccer.max_turns == 66
    g65 = _position_at_turn(65)
    assert g65.outcome() is None and g65.legal_moves()


def _position_at_turn(turn: int) -> PaperSoccer:
    """A position text with enough drawn edges, rewritten to claim `turn` turns (not reachable in
    play, but from_text takes it: the checks are cheap ones)."""
    for seed in range(200):
        rng = random.Random(seed)
        g = PaperSoccer.new()
        while not g.is_over() and g.turn < 40:
            g.push(g.random_turn(rng))
        if not g.is_over() and len(g.player_edges()) >= turn:
            lines = [ln for ln in g.to_text().splitlines() if not ln.startswith(("turn", "to_move"))]
            return PaperSoccer.from_text("\n".join(lines + [f"turn = {turn}"]))
    raise AssertionError("no suitable random position")


def test_row_lines_may_cross():
    """Row 'line crossing': allowed; only the same segment cannot be drawn twice."""
    g = play("1", "6")  # (4,5)-(5,4) drawn, ball (4,4), seat 0 to move
    assert "3" in g.legal_moves()  # (4,4)-(5,5) crosses (4,5)-(5,4)
    g.play("3")
    assert point_xy(g.ball()) == (5, 5) and g.outcome() is None


def test_row_first_turn_input_is_1_and_dash():
    """Row 'first-turn input': player 0 gets `1` / `-`."""
    g = PaperSoccer.new()
    assert g.bot_input(first=True) == ["0", "1", "-"]
    g.play("1")
    assert g.bot_input(first=True) == ["1", "1", "1"]
    g.play("3")
    assert g.bot_input(first=False) == ["1", "3"]
    g.play("1")
    g.play("36")  # (7,4) -> the side line (8,5), bounce -> (7,5)
    assert g.bot_input(first=False) == ["2", "36"]


# ------------------------------------------------------------------ the rules' own examples (§5)

def test_example_61_from_4_0_is_valid_and_scores():
    g = play(*BALL_40_SEAT1)
    assert g.parse_output("61") == "61"
    assert "61" in g.legal_moves()
    g.play("61")
    assert point_xy(g.ball()) == (4, -1)
    assert g.outcome().winner == 0 and g.outcome().reason == "own_goal"


def test_example_21_from_4_0_is_invalid():
    g = play(*BALL_40_SEAT1)
    assert rejected(g, "21") == "Trying to move out of pitch boundary"
    assert "21" not in g.legal_moves()
    assert g.parse_output("27") == "27"  # from the post (5,0) NW into (4,-1)


def test_ways_into_the_goal_from_the_posts_and_beside_them():
    g = play(*BALL_40_SEAT0)
    assert "on already existing edge" in rejected(g, "60")  # N from the post (3,0) is the post
    assert rejected(g, "67") == "Trying to move out of pitch boundary"  # (2,-1) does not exist
    g = play(*BALL_21_SEAT0)  # (2,1): N to the border (2,0), then NE to (3,-1) is no adjacency
    assert rejected(g, "01") == "Trying to move out of pitch boundary"
    assert neighbour(P(2, 0), 1) is None and neighbour(P(6, 0), 7) is None
    assert neighbour(P(2, 10), 3) is None and neighbour(P(6, 10), 5) is None
    assert neighbour(P(3, 0), 1) == P(4, -1) and neighbour(P(5, 0), 7) == P(4, -1)


def test_the_same_point_may_be_visited_twice_in_a_turn():
    g = play(*BALL_40_SEAT1)  # the column (4,0)..(4,5) is drawn
    # (4,0) -> post (3,0) -> (4,1) touched -> post (5,0) -> (4,0) again -> goal (4,-1)
    assert g.parse_output("63160") == "63160"
    assert g.turn_points("63160") == [P(4, 0), P(3, 0), P(4, 1), P(5, 0), P(4, 0), P(4, -1)]
    assert "63160" in g.legal_moves()
    assert rejected(g, "6323").startswith("Should finish turn")  # (5,1) is fresh: the turn ended


def test_same_segment_twice_is_rejected():
    g = play("1", "6")  # ball (4,4); (4,4)-(5,4) drawn by the last turn
    assert rejected(g, "2") == "Trying to move on already existing edge"
    g = play(*BALL_40_SEAT1)
    assert rejected(g, "4") == "Trying to move on already existing edge"  # the turn that arrived


# ------------------------------------------------------------------ the output parser (§4)

@pytest.mark.parametrize("line", ["0 ", " 0", "0\r", "0\n", "9", "-", "a", "0x", "+1", "0.", "٣"])
def test_characters_outside_0_to_8_are_invalid_characters(line):
    g = PaperSoccer.new()
    assert rejected(g, line) == "Invalid characters in move"


def test_empty_output():
    assert rejected(PaperSoccer.new(), "") == "Output empty!"


def test_invalid_characters_are_checked_before_any_step():
    g = PaperSoccer.new()
    assert rejected(g, "80x") == "Invalid characters in move"  # '8' would fail later
    assert rejected(g, "00x") == "Invalid characters in move"


def test_eight_is_out_of_pitch_boundary():
    g = PaperSoccer.new()
    assert rejected(g, "8") == "Trying to move out of pitch boundary"
    assert rejected(play(*BALL_40_SEAT1), "68") == "Trying to move out of pitch boundary"


def test_more_characters_after_a_finished_turn():
    g = PaperSoccer.new()
    assert rejected(g, "08") == "Should finish turn, but there are still more characters in input"
    assert rejected(g, "00") == "Should finish turn, but there are still more characters in input"
    assert rejected(play(*BALL_40_SEAT0), "00").startswith("Should finish turn")  # after a goal


def test_turn_ended_prematurely():
    assert rejected(play(*BALL_40_SEAT1), "6") == "Turn ended prematurely, ball must still move"


def test_parse_changes_nothing():
    g = play(*BALL_40_SEAT1)
    before = g.to_text()
    for line in ("6", "61", "21", "6323", "8", "0x"):
        try:
            g.parse_output(line)
        except InvalidOutput:
            pass
    assert g.to_text() == before


def test_recorded_output_is_the_whole_line():
    g = PaperSoccer.new()
    assert g.recorded_output("0123") == "0123"


# ------------------------------------------------------------------ legal turns

@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_moves_are_exactly_what_the_referee_accepts(seed):
    g = random_position(seed)
    if g.is_over() or g.count_legal_moves(3000) > 3000:
        return
    legal = g.legal_moves()
    assert legal == sorted(legal) and len(set(legal)) == len(legal)
    assert set(legal) == referee_turns(g)


def test_legal_moves_at_the_start():
    assert PaperSoccer.new().legal_moves() == list("01234567")


def test_turns_by_effect_keep_one_smallest_string_per_effect():
    for seed in range(40):
        g = random_position(seed)
        if g.is_over() or g.count_legal_moves(5000) > 5000:
            continue
        by_effect: dict = {}
        for m in g.legal_moves():
            g.push(m)
            by_effect.setdefault(g.key(), m)  # legal_moves is sorted: the first is the smallest
            g.pop()
        assert g.legal_turns_by_effect() == sorted(by_effect.values())


def test_count_and_iter_agree_with_the_list():
    for seed in range(20):
        g = random_position(seed)
        moves = g.legal_moves()
        assert g.count_legal_moves() == len(moves)
        assert list(g.iter_legal_moves()) == moves
        assert g.legal_moves_complete()


def test_dense_position_gives_a_bounded_deterministic_list_of_legal_turns():
    g = dense_position()
    assert g.count_legal_moves(MOVE_LIST_LIMIT) > MOVE_LIST_LIMIT
    assert not g.legal_moves_complete()
    moves = g.legal_moves()
    assert 0 < len(moves) <= 2001 and moves == sorted(moves)
    assert moves == g.copy().legal_moves() == PaperSoccer.from_text(g.to_text()).legal_moves()
    assert all(g.is_legal(m) for m in moves)
    shortest = min(map(len, moves))
    assert [m for m in moves if len(m) == 1] == [m for m in "01234567" if g.is_legal(m)]
    assert shortest == 1
    goal = g.scoring_turn()
    if goal is not None:
        assert goal in moves


def test_scoring_turn_finds_a_goal_and_only_the_right_one():
    g = play(*BALL_40_SEAT0)
    turn = g.scoring_turn()
    assert turn is not None
    g.play(turn)
    assert g.outcome().reason == "goal" and g.outcome().winner == 0
    g = play(*BALL_40_SEAT1)  # seat 1 attacks the bottom goal: nothing reaches it from here
    assert g.scoring_turn() is None
    assert PaperSoccer.new().scoring_turn() is None


def test_random_turns_are_legal_and_leave_the_position_alone():
    rng = random.Random(5)
    for _ in range(30):
        g = PaperSoccer.new()
        while not g.is_over():
            before = g.key()
            m = g.random_turn(rng)
            assert g.key() == before
            assert g.is_legal(m), m
            g.push(m)
        assert g.outcome().winner in (0, 1)


def test_is_legal_checks_the_turn_not_the_list():
    g = dense_position()
    long_turn = g.random_turn(random.Random(1))
    assert g.is_legal(long_turn)
    assert not g.is_legal(long_turn + "0") and not g.is_legal("") and not g.is_legal("9")


# ------------------------------------------------------------------ push / pop / outcome / forfeit

def test_push_pop_restores_every_bit():
    rng = random.Random(3)
    g = PaperSoccer.new()
    keys, texts = [], []
    while not g.is_over():
        keys.append(g.key())
        texts.append(g.to_text())
        g.push(g.random_turn(rng))
    while g.move_stack:
        g.pop()
        assert g.key() == keys.pop() and g.to_text() == texts.pop()
    assert g.key() == PaperSoccer.new().key()


def test_forfeit_scores():
    g = PaperSoccer.new()
    assert g.forfeit(0, "invalid", "x", "9") == Outcome(1, "invalid", (-1, 1), fault=0, output="9", cause="x")
    assert g.forfeit(1, "timeout") == Outcome(0, "timeout", (1, -1), fault=1)


def test_class_attributes():
    assert get_game("ps") is PaperSoccer and PaperSoccer.id == "paper-soccer"
    assert PaperSoccer.limits.first_ms == 1000 and PaperSoccer.limits.turn_ms == 200
    assert PaperSoccer.new().move_to_str("0123") == "0123"


# ------------------------------------------------------------------ referee input and bot reader

def test_golden_inputs_of_a_logged_game():
    """The first turns of conformance game 0 (seed 23): the lines each seat received."""
    logged = [("1", ["0", "1", "-"]), ("3", ["1", "1", "1"]), ("1", ["1", "3"]), ("36", ["1", "1"]),
              ("1616", ["2", "36"]), ("444", ["4", "1616"]), ("75", ["3", "444"])]
    g = PaperSoccer.new()
    seen = [False, False]
    for output, lines in logged:
        seat = g.current_player()
        assert g.bot_input(first=not seen[seat]) == lines
        seen[seat] = True
        g.play(output)


@pytest.mark.parametrize("seat", [0, 1])
def test_reader_rebuilds_the_position_from_the_opponents_moves(seat):
    rng = random.Random(11 + seat)
    g = PaperSoccer.new()
    reader = PaperSoccer.input_reader()
    first = True
    while not g.is_over():
        if g.current_player() == seat:
            lines = iter(g.bot_input(first))
            first = False
            seen = reader.read_turn(lambda: next(lines))
            assert seen.key() == g.key() and seen.bot_input(False) == g.bot_input(False)
            move = g.random_turn(rng)
            reader.played(move)
        else:
            move = g.random_turn(rng)
        g.push(move)


def test_reader_rejects_a_garbled_length():
    reader = PaperSoccer.input_reader()
    lines = iter(["1", "3", "0"])
    with pytest.raises(EngineError):
        reader.read_turn(lambda: next(lines))


# ------------------------------------------------------------------ position text

def test_text_of_the_start():
    text = PaperSoccer.new().to_text()
    body = [ln for ln in text.splitlines() if not ln.startswith("#")]
    assert body == ["game = paper-soccer", "turn = 0", "to_move = 0", "ball = 4,5", "last_move = -"]
    assert "O" in text  # the ball in the diagram


def test_text_round_trip_keeps_last_move_and_input():
    g = play("1", "3", "1", "36")
    again = PaperSoccer.from_text(g.to_text())
    assert again.key() == g.key() and again.to_text() == g.to_text()
    assert again.bot_input(False) == ["2", "36"]
    assert "edge = 4,5 5,4" in g.to_text()


def _start_text_with(*extra: str, drop: tuple[str, ...] = ()) -> str:
    base = play("1", "6").to_text().splitlines()
    return "\n".join([ln for ln in base if not ln.startswith(drop)] + list(extra))


@pytest.mark.parametrize("text,needle", [
    ("turn = 0\nball = 4,5\nfoo = 1", "line 3: unknown key"),
    ("turn = 0\nball = 4,5\nnonsense", "line 3"),
    ("turn = x\nball = 4,5", "line 1: turn"),
    ("turn = 0\nball = 9,9", "line 2"),
    ("turn = 0", "missing 'ball"),
    ("turn = 0\nball = 4,5\ngame = connect4", "line 3: game"),
    ("turn = 0\nball = 4,5\nturn = 0", "line 3: 'turn' given twice"),
    ("turn = 0\nto_move = 1\nball = 4,5", "line 2: to_move"),
    ("turn = 0\nball = 4,4", "turn 0"),
])
def test_bad_text_names_the_line_and_problem(text, needle):
    with pytest.raises(PositionError) as e:
        PaperSoccer.from_text(text)
    assert needle in str(e.value)


@pytest.mark.parametrize("extra,drop,needle", [
    (("edge = 1,1 3,3",), (), "not adjacent"),
    (("edge = 0,0 0,1",), (), "pre-drawn"),
    (("edge = 4,5 5,4",), (), "given twice"),
    (("ball = 2,2",), ("ball",), "end of a drawn edge"),
    (("ball = 5,4",), ("ball",), "bounce point"),
    (("last_move = 3",), ("last_move",), "last_move"),
    (("edge = 1,1 1,2",), (), "one path network"),
    (("turn = 3",), ("turn", "to_move"), "at least 3 drawn edges"),
])
def test_impossible_positions_are_rejected(extra, drop, needle):
    with pytest.raises(PositionError) as e:
        PaperSoccer.from_text(_start_text_with(*extra, drop=drop))
    assert needle in str(e.value)


@FAST
@given(junk=st.text(max_size=200), cut=st.integers(0, 400))
def test_junk_text_never_crashes(junk, cut):
    base = play("1", "6", "3").to_text()
    for text in (junk, base[:cut] + junk, junk + base, base.replace("4,5", junk[:3])):
        try:
            PaperSoccer.from_text(text)
        except PositionError:
            pass


def test_a_finished_position_reads_back_with_its_outcome():
    g = play(*BALL_40_SEAT1, "0")
    again = PaperSoccer.from_text(g.to_text())
    assert again.outcome() == g.outcome() and again.legal_moves() == []
    g = play(*BALL_11_SEAT0, "7")
    assert PaperSoccer.from_text(g.to_text()).outcome().reason == "blocked"


# ------------------------------------------------------------------ step-level API (UI)

def test_turn_builder_steps_bounces_and_steps_back():
    g = play(*BALL_40_SEAT1)
    b = TurnBuilder(g)
    assert not b.ended and b.move == ""
    assert b.step(6) is True  # the post (3,0): bounce, go on
    assert point_xy(b.ball) == (3, 0) and not b.ended
    assert 0 not in b.legal_steps() and 1 in b.legal_steps()
    with pytest.raises(IllegalMove):
        b.step(0)
    assert len(b.drawn_edges()) == len(g.drawn_edges()) + 1
    assert b.step(1) is False and b.ended and b.move == "61"
    assert b.legal_steps() == []
    assert b.back() and not b.ended and b.move == "6"
    assert b.back() and b.move == "" and not b.back()
    assert g.to_text() == play(*BALL_40_SEAT1).to_text()  # the game itself never changed


def test_turn_builder_ends_on_a_stuck_point():
    g = play(*STUCK_SEAT0)
    b = TurnBuilder(g)
    assert b.step(7) is True and b.step(7) is False and b.ended and b.move == "77"
    assert b.turn_edges() == [((2, 2), (1, 1)), ((1, 1), (0, 0))]


def test_edge_owners_follow_the_seats():
    g = play("1", "6", "3")
    owners = g.edge_owners()
    assert owners[((4, 5), (5, 4))] == 0 and owners[((4, 4), (5, 4))] == 1
    assert owners[((4, 4), (5, 5))] == 0 and len(owners) == 3
