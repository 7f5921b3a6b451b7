"""Paper Soccer's evaluation tables (ai/paper_soccer/value.py) and the tool that fits the learned value."""
from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from ai.paper_soccer.board import STEPS, can_score, flood, from_game, touched_of
from ai.paper_soccer.search import Searcher, Weights, hand_tables
from ai.paper_soccer.value import BLOCKS, CELL, Tables, features, format_weights, load, parse_weights
from tests.helpers.players import random_position


def _blocks(rng: random.Random) -> dict[str, list[int]]:
    return {name: [rng.randint(-999, 999) for _ in range(size)] for name, size in BLOCKS}


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6))
def test_a_weight_file_reads_back_what_was_written(seed):
    blocks = _blocks(random.Random(seed))
    assert parse_weights(format_weights(blocks, "a header\nof two lines")) == blocks


def test_a_weight_file_with_a_block_missing_or_short_or_not_numbers_is_refused():
    text = format_weights(_blocks(random.Random(1)), "")
    for broken in (text.replace("free:", "frees:"), text.replace("bias:\n", "bias:\n1 "),
                   text.replace("bias:\n", "bias:\nx"), "12\n" + text):
        with pytest.raises(ValueError):
            parse_weights(broken)


def test_the_cells_fold_the_pitch_left_onto_right_and_turn_it_for_seat_1():
    for p in range(99):
        x, y = divmod(p, 11)
        mirror = (8 - x) * 11 + y
        assert CELL[0][p] == CELL[0][mirror] == CELL[1][x * 11 + 10 - y]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80))
def test_the_search_evaluates_what_the_fit_sees(seed, plies):
    # the learned weights are fitted on `features`; the search must add up the same weights
    rng = random.Random(seed)
    blocks = _blocks(rng)
    searcher = Searcher(value=Tables.from_cells(blocks), fast=False)
    pm, ball, stm, _turn, _h = from_game(random_position("paper-soccer", seed, plies))
    if can_score(pm, ball, stm, 4000) is not None:
        return
    touched = touched_of(pm)
    mine, theirs = flood(pm, stm, touched)[1], flood(pm, 1 - stm, touched)[1]
    flat = [v for name, _size in BLOCKS for v in blocks[name]]
    x = features(ball, stm, mine, theirs, len(STEPS[ball]) - pm[ball].bit_count())
    assert searcher._value(pm, ball, stm, 0, touched, mine) == sum(flat[i] * n for i, n in x.items())


def test_the_shipped_learned_value_loads():
    t = load("learned")
    assert len(t.ball) == 2 and len(t.mine_n) == len(t.theirs_n) == 17
    assert any(t.mine[0]) and any(t.theirs[0])


@pytest.mark.slow  # four games of levels 3 and 4, then a fit
def test_the_fitting_tool_writes_weights_the_search_reads(tmp_path, capsys):
    pytest.importorskip("numpy")
    from ai.tools.arena import run
    from ai.paper_soccer.fit_value import main

    games = tmp_path / "games.txt"
    run("paper-soccer", "level:3", "level:4", 4, jobs=1, quiet=True, games_out=str(games))
    out = tmp_path / "value.txt"
    assert main([str(games), "--out", str(out), "--l2", "100", "--test", str(games)]) == 0
    said = capsys.readouterr().out
    # --test: other games (strong players') scored by the fit and the hand-set evaluation too
    assert "--test (" in said and "positions), learned" in said and "positions), hand-set" in said
    t = load(str(out))
    g = random_position("paper-soccer", 3, 10)
    assert g.is_legal(Searcher(value=t, fast=False).search(g, node_limit=300).move)


def test_level_6_and_the_analysis_play_the_self_play_value_and_lower_levels_the_hand_set_one():
    from ai.analysis import analysis_player
    from ai.levels import make_player

    hand = hand_tables(Weights())
    assert make_player("paper-soccer", 6).searcher.ev == load("value:selfplay") != hand
    assert make_player("paper-soccer", 5).searcher.ev == hand
    # its win chances are calibrated on strong games scored with that value (ai/paper_soccer/__init__.py)
    assert analysis_player("paper-soccer").searcher.ev == load("value:selfplay")


def test_the_fitting_tool_skips_what_is_not_a_game(tmp_path, capsys):
    pytest.importorskip("numpy")
    from ai.paper_soccer.fit_value import main, read_games

    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00junk")
    (tmp_path / "broken.txt").write_text("# termarena save\nformat = 99\n")
    (tmp_path / "lines.txt").write_text("0\t9\t99\n1\tnot a move\nx\t1\n")
    os.mkfifo(tmp_path / "pipe.txt")  # opened, it would wait for a writer forever
    (tmp_path / "folder").mkdir()
    games = read_games([str(tmp_path)])
    assert games == [(0, ["9", "99"]), (1, ["not a move"])]  # the two lines that name a winner
    assert main([str(tmp_path)]) == 1  # neither replays: no samples, a message, no traceback
    err = capsys.readouterr().err
    assert "pipe.txt: not a regular file" in err and "folder: not a regular file" in err


def test_the_earlier_fit_stays_an_option_a_level_plays():
    from ai.tools.specs import make_player as from_spec

    assert load("value:selfplay") != load("learned")
    other = from_spec("paper-soccer", "level:6,nodes=300,value=learned", seed=1)
    assert other.searcher.ev == load("learned")
    g = random_position("paper-soccer", 3, 10)
    assert g.is_legal(other.choose(g))
    for bad in ("value:../value", "value:", "value:a/b"):
        with pytest.raises(ValueError):
            load(bad)
