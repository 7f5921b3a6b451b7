"""Search targets for Paper Soccer's learned value (ai/paper_soccer/search_targets.py): every third sample
position valued by a search, a target moved toward that value, and a labels file that reads back what was
written and nothing else; tree targets: every position, and each root turn the search looked below."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from ai.paper_soccer.fit_value import sample_states
from ai.paper_soccer.net import UNITS
from ai.paper_soccer.search import WIN, WIN_BOUND
from ai.paper_soccer.search_targets import (Label, Labeller, format_labels, mixed, parse_labels, probability,
                                            searching_player)

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
    assert all(0.0 <= v.value <= 1.0 and v.turns == () for v in labels[::3])
    assert Labeller("level:6,nodes=200", 3)((7, moves))[1] == labels


def test_a_labels_file_reads_back_and_a_line_that_is_not_one_is_left_out():
    games = [(0, ["5", "37"]), (1, ["1", "23", "4"])]
    labels = [[Label(0.25), None], [Label(1.0), None, Label(0.5, (("53", 0.5), ("127", 0.125)))]]
    text = format_labels(games, labels)
    assert text.splitlines()[1] == "1.0000 - 0.5000,53:0.5000,127:0.1250\t1\t1\t23\t4"
    back = parse_labels(text)
    assert back == {("5", "37"): labels[0], ("1", "23", "4"): labels[1]}
    bad = ["1.5 -\t0\t5", "nan\t0\t6", "x\t0\t7", "0.5\tno game", "-1e-3\t1\t2", "0.5",
           "0.5,8:0.5\t0\t8", "0.5,53:1.5\t0\t9", "0.5,:0.5\t0\t10", "0.5,53\t0\t11", "0.5,5;rm:0.1\t0\t12"]
    assert parse_labels(text + "\n".join(bad) + "\n") == back


def test_the_fit_s_targets_move_toward_the_labels_and_only_where_there_are_some():
    pytest.importorskip("numpy")
    from ai.paper_soccer.fit_net import matrix

    moves = _game_of(12)
    n = sum(1 for _ in sample_states(moves))
    labels = {tuple(moves): [Label(0.9) if i % 3 == 0 else None for i in range(n)]}
    _x, results = matrix([(0, moves)], flips=False)
    _x, moved = matrix([(0, moves)], flips=False, labels=labels, share=0.5)
    for i, (r, m) in enumerate(zip(results, moved)):
        assert m == (0.5 * 0.9 + 0.5 * r if i % 3 == 0 else r)
    _x, flipped = matrix([(0, moves)], labels=labels, share=0.5)
    assert list(flipped[::2]) == list(flipped[1::2]) == list(moved)  # a position and its left-right turn


def test_a_game_whose_moves_do_not_replay_gets_no_labels():
    assert Labeller("level:6,nodes=50", 3)((4, ["5", "99", "1"])) == (4, [])


def tree_labels_match_a_fresh_search(spec: str, moves: list[str]) -> list[Label]:
    """The tree labels of `moves` by `spec`, checked against the same searches run again (a new player
    for the game, as the labeller's): its root value, and each turn it searched below, valued as it
    valued that turn; a proven position lists none."""
    labels = Labeller(spec, 1, turns=True)((0, moves))[1]
    assert len(labels) == sum(1 for _ in sample_states(moves)) and None not in labels
    player = searching_player(spec)
    for label, (game, *_rest) in zip(labels, sample_states(moves)):
        found = player.searcher.search(game, node_limit=player.cfg.nodes, multipv=True)
        assert label.value == probability(found.score)
        if found.proven or len(found.scores) == 1:
            assert label.turns == ()
            continue
        assert {m for m, _p in label.turns} == found.searched <= set(found.scores)
        assert all(p == probability(found.scores[m]) for m, p in label.turns)
    return labels


def test_tree_targets_value_every_position_and_every_turn_alpha_beta_searched():
    moves = _game_of(10)
    labels = tree_labels_match_a_fresh_search("level:6,nodes=2000", moves)
    # alpha-beta searches each root turn to the same depth: every one is valued, not only the one played
    assert sum(len(v.turns) for v in labels) > 2 * len(labels)
    # but only with every root turn's window open: a game's search (no multipv) values its best turn alone
    game = next(iter(sample_states(moves)))[0]
    found = searching_player("level:6,nodes=2000").searcher.search(game, node_limit=2000)
    assert len(found.scores) > 1 and len(found.searched) == 1


def test_the_fit_learns_each_searched_turn_as_the_position_after_it_from_its_mover_s_side():
    pytest.importorskip("numpy")
    from ai.paper_soccer import net as NN
    from ai.paper_soccer.board import from_game
    from ai.paper_soccer.fit_net import matrix
    from ai.paper_soccer.fit_value import dangers

    moves = _game_of(6)
    first = next(iter(sample_states(moves)))[0]
    turns = sorted(first.legal_moves())[:2]
    labels = {tuple(moves): [Label(0.75, ((turns[0], 0.75), (turns[1], 0.25)))]}
    x, y = matrix([(0, moves)], flips=False, labels=labels, share=1.0)
    plain, results = matrix([(0, moves)], flips=False)
    assert len(y) == len(results) + 2 and y[0] == 0.75
    for row, turn, target in ((1, turns[0], 0.25), (2, turns[1], 0.75)):  # the opponent moves after either
        game = type(first).new()
        game.play(turn)
        pm, ball, stm, _t, _h = from_game(game)
        assert stm == 1 and y[row] == target
        assert set(x[row].nonzero()[0]) == set(NN.inputs(pm, ball, stm, *dangers(pm, stm)))
    assert (x[3:] == plain[1:]).all() and list(y[3:]) == list(results[1:])
    # without a share the labels are not read, the turns neither
    assert len(matrix([(0, moves)], flips=False, labels=labels, share=0.0)[1]) == len(results)


def test_a_turn_in_a_labels_file_that_is_not_legal_there_skips_its_game_and_nothing_else(capsys):
    pytest.importorskip("numpy")
    from ai.paper_soccer.fit_net import matrix

    moves = _game_of(6)
    bad = {tuple(moves): [Label(0.5, (("0000000000000000", 0.5),))]}
    x, y = matrix([(0, moves)], flips=False, labels=bad, share=1.0)
    assert len(y) == 0 and "skipped a game" in capsys.readouterr().err


def test_with_tree_targets_the_epoch_kept_is_judged_on_what_is_fitted():
    pytest.importorskip("numpy")
    from ai.paper_soccer.fit_net import fit_games

    moves = _game_of(16)
    games = [(k % 2, moves[:k]) for k in range(7, 17)]  # ten games: the sixth validates
    labels = {}
    for _w, m in games:
        # a turn legal at each position (the replayed game moves on: its turns are read as it goes)
        labels[tuple(m)] = [Label(0.5, ((sorted(g.legal_moves())[0], 0.9),)) for g, *_rest in sample_states(m)]

    def fitted(on_targets: bool):
        said, losses = [], []
        fit_games(games, distances=False, labels=labels, share=1.0, validate_on_targets=on_targets, epochs=2,
                  announce=said.append, report=lambda e, ll: losses.append(ll))
        return said[0], losses

    on_results, results_losses = fitted(False)
    on_targets, target_losses = fitted(True)
    n = sum(1 for _ in sample_states(games[5][1]))
    assert f"{n} validating" in on_results and f"{2 * n} validating" in on_targets  # each position and its turn
    assert results_losses != target_losses
