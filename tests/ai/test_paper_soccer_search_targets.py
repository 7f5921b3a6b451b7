"""Search targets for Paper Soccer's learned value (ai/paper_soccer/search_targets.py): every third sample
position valued by a search, a target moved toward that value, and a labels file that reads back what was
written and nothing else."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from ai.paper_soccer.fit_value import sample_states
from ai.paper_soccer.net import UNITS
from ai.paper_soccer.search import WIN, WIN_BOUND
from ai.paper_soccer.search_targets import Labeller, format_labels, mixed, parse_labels, probability

GAME = (0, ["5", "3", "1", "7", "5", "3", "1", "7", "6"])  # a few turns of one game, then a win


def test_a_score_reads_as_the_mover_s_chance_and_a_proof_as_certain():
    assert probability(0) == 0.5
    assert probability(UNITS) == pytest.approx(1 / (1 + math.exp(-1)))
    assert probability(-UNITS) == pytest.approx(1 - probability(UNITS))
    assert probability(WIN - 3) == 1.0 and probability(-WIN_BOUND) == 0.0


@given(st.integers(-WIN, WIN))
def test_every_score_is_a_probability_that_grows_with_it(score):
    # unproven scores reach hundreds of logits (a won position the search has not proven)
    p = probability(score)
    assert 0.0 <= p <= 1.0 and probability(-score) == pytest.approx(1.0 - p)
    assert probability(score + 1) >= p


@given(st.integers(0, 1), st.one_of(st.none(), st.floats(0, 1)), st.floats(0, 1))
def test_a_target_lies_between_the_result_and_the_label(result, label, share):
    t = mixed(result, label, share)
    if label is None or share == 0:
        assert t == result
    else:
        assert min(result, label) - 1e-12 <= t <= max(result, label) + 1e-12
        assert mixed(result, label, 1.0) == label


def _game_of(n: int) -> list[str]:
    """The first n turns of a game level 3 plays against itself."""
    from ai.tools.specs import make_player
    from engines.paper_soccer import PaperSoccer

    game, moves = PaperSoccer.new(), []
    player = make_player("paper-soccer", "level:3", seed=1)
    while len(moves) < n and not game.is_over():
        move = player.choose(game)
        game.play(move)
        moves.append(move)
    return moves


def test_every_third_sample_position_is_searched_and_the_same_search_gives_the_same_labels():
    moves = _game_of(14)
    k, labels = Labeller("level:6,nodes=200", 3)((7, moves))
    assert k == 7 and len(labels) == sum(1 for _ in sample_states(moves))
    assert all((v is None) == (i % 3 > 0) for i, v in enumerate(labels))
    assert all(0.0 <= v <= 1.0 for v in labels[::3])
    assert Labeller("level:6,nodes=200", 3)((7, moves))[1] == labels


def test_a_labels_file_reads_back_and_a_line_that_is_not_one_is_left_out():
    games = [(0, ["5", "37"]), (1, ["1", "23", "4"])]
    text = format_labels(games, [[0.25, None], [1.0, None, 0.0]])
    back = parse_labels(text)
    assert back == {("5", "37"): [0.25, None], ("1", "23", "4"): [1.0, None, 0.0]}
    bad = ["1.5 -\t0\t5", "nan\t0\t6", "x\t0\t7", "0.5\tno game", "-1e-3\t1\t2", "0.5"]
    assert parse_labels(text + "\n".join(bad) + "\n") == back


def test_the_fit_s_targets_move_toward_the_labels_and_only_where_there_are_some():
    pytest.importorskip("numpy")
    from ai.paper_soccer.fit_net import matrix

    moves = _game_of(12)
    n = sum(1 for _ in sample_states(moves))
    labels = {tuple(moves): [0.9 if i % 3 == 0 else None for i in range(n)]}
    _x, results = matrix([(0, moves)], flips=False)
    _x, moved = matrix([(0, moves)], flips=False, labels=labels, share=0.5)
    for i, (r, m) in enumerate(zip(results, moved)):
        assert m == (0.5 * 0.9 + 0.5 * r if i % 3 == 0 else r)
    _x, flipped = matrix([(0, moves)], labels=labels, share=0.5)
    assert list(flipped[::2]) == list(flipped[1::2]) == list(moved)  # a position and its left-right turn


def test_a_game_whose_moves_do_not_replay_gets_no_labels():
    assert Labeller("level:6,nodes=50", 3)((4, ["5", "99", "1"])) == (4, [])
