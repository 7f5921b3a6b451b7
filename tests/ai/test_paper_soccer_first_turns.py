"""Level 6's first turn from the table searched ahead (ai/paper_soccer/first_turns.py), and the loading of
the compiled tree that the turn's time goes to meanwhile."""
from __future__ import annotations

import time

import pytest

from ai.paper_soccer import accelerator, first_turns, make_player
from ai.paper_soccer.first_turns import position
from engines.paper_soccer import PaperSoccer


@pytest.mark.parametrize("line", sorted(first_turns.TABLE))
def test_each_position_of_the_table_lists_legal_turns_best_first_within_the_tie_noise(line):
    g = position(line)
    turns = first_turns.TABLE[line]
    assert turns and len({t for t, _ in turns}) == len(turns)
    scores = [v for _t, v in turns]
    assert scores == sorted(scores, reverse=True) and scores[0] - scores[-1] <= make_player(6).cfg.tie_noise
    for turn, _v in turns:
        assert g.is_legal(turn), turn


def test_the_table_holds_the_start_and_every_first_turn_of_seat_0():
    assert sorted(first_turns.TABLE) == ["", *(str(d) for d in range(8))]
    for line in first_turns.TABLE:
        assert first_turns.lookup(position(line)) == first_turns.TABLE[line]
    assert first_turns.lookup(position("04")) == ()  # seat 0's second turn: searched
    g = position("0")
    g.pop()
    assert first_turns.lookup(g) == first_turns.TABLE[""]  # a position, however it was reached


@pytest.fixture
def loading(monkeypatch):
    """The compiled tree loading in the background: the deadlines the player waits until are recorded."""
    waited: list[float] = []
    monkeypatch.delenv("TERMARENA_PURE_PYTHON", raising=False)
    monkeypatch.setattr(accelerator, "loading", lambda: True)
    monkeypatch.setattr(accelerator, "await_loaded", lambda until: waited.append(until))
    return waited


def test_while_the_compiled_tree_loads_level_6_plays_its_first_turn_from_the_table_without_searching(loading):
    for line, turns in first_turns.TABLE.items():
        seen = set()
        for seed in range(12):
            infos = []
            seen.add(make_player(6, seed=seed).choose(position(line), None, infos.append))
            assert infos[-1].note == "opening table" and infos[-1].nodes == 0
        assert seen <= {t for t, _ in turns}
        if len(turns) > 2:
            assert len(seen) > 1  # the tie noise still varies the start of games between seeds


def test_with_nothing_loading_level_6_searches_its_first_turn():
    # pure Python (the tests' tree): a searched first turn scored better than the table's (README)
    assert not accelerator.loading()
    for line in ("", "0"):
        infos = []
        make_player(6, seed=1, nodes=2_000).choose(position(line), None, infos.append)
        assert infos[-1].note != "opening table" and infos[-1].nodes > 0


def test_the_levels_below_6_search_their_first_turn():
    infos = []
    make_player(5, seed=1).choose(PaperSoccer(), None, infos.append)
    assert infos[-1].note != "opening table" and infos[-1].nodes > 0


def test_a_bot_gives_the_loading_its_first_turn(loading):
    # beside the loading thread a pure-Python search gets a tenth of its nodes: the turn's time is the loading's
    deadline = time.monotonic() + 0.4
    assert make_player(6, seed=1).choose(PaperSoccer(), deadline) in {t for t, _ in first_turns.TABLE[""]}
    assert loading == [deadline]


def test_without_a_deadline_or_the_compiled_tree_the_first_turn_does_not_wait(loading, monkeypatch):
    make_player(6, seed=1).choose(PaperSoccer(), None)  # the app: no deadline to fill
    monkeypatch.setenv("TERMARENA_PURE_PYTHON", "1")
    make_player(6, seed=1).choose(PaperSoccer(), time.monotonic() + 0.4)  # never loads it
    assert loading == []
