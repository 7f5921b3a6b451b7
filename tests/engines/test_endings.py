"""Endings as data: an Outcome holds facts, engines/endings.py words them for every game, the result code
comes from the outcome, and what the referee records of a forfeit reads back into the same sentence."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAME_IDS, get_game
from engines.base import FORFEIT_REASONS, Outcome, Termination
from engines.endings import cause_from_detail, describe, fault_line, headline, short, summary
from engines.savefile import SavedGame, dump, parse
from engines.visible import visible

ROOT = Path(__file__).resolve().parents[2]
SAVES = sorted((ROOT / "tests" / "data" / "saves").rglob("*.txt")) + sorted((ROOT / "saves").glob("*.txt"))
games = st.sampled_from(GAME_IDS).map(get_game)


def finished(cls, seed: int):
    game = cls.new(seed if cls.seeded else None)
    rng = random.Random(seed)
    while game.outcome() is None:  # every game has a turn limit
        game.push(game.random_move(rng))
    return game


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 2**31 - 1))
def test_any_finished_game_is_described_naming_the_winners_side(cls, seed):
    out = finished(cls, seed).outcome()
    sentence = describe(out, cls)
    assert sentence and visible(sentence) == sentence
    listed = summary(out.result(), out.reason, cls)
    if out.winner is None:
        assert headline(out, cls.side_names) == "draw" and listed.startswith("draw (")
    else:
        side = cls.side_names[out.winner]
        assert side in sentence, sentence
        assert headline(out, cls.side_names) == f"{side} wins" and listed.startswith(f"{side} won (")


@settings(max_examples=80, deadline=None)
@given(games, st.sampled_from(FORFEIT_REASONS), st.integers(0, 1), st.text(max_size=60),
       st.none() | st.text(max_size=60), st.lists(st.text(min_size=1, max_size=20), min_size=2, max_size=2))
def test_a_forfeit_names_the_side_at_fault_and_never_lets_a_control_character_through(
        cls, reason, seat, cause, output, labels):
    out = cls.new(1).forfeit(seat, reason, cause, output)
    assert out.winner == 1 - seat and out.result() == ("0-1" if seat == 0 else "1-0")
    sentence = describe(out, cls)
    assert cls.side_names[seat] in sentence and visible(sentence) == sentence
    line = fault_line(out, labels)
    if cause or output is not None:
        assert line.startswith(visible(f"p{seat + 1} ({labels[seat]}): ")) and visible(line) == line
    else:
        assert line is None  # a clock that fell: nothing to record beyond the reason


@settings(max_examples=150, deadline=None)
@given(games, st.none() | st.integers(0, 1), st.sampled_from(list(Termination)), st.none() | st.integers(0, 1),
       st.none() | st.integers(0, 1), st.none() | st.integers(0, 999), st.text(max_size=30),
       st.none() | st.text(max_size=30), st.tuples(st.integers(-9, 99), st.integers(-9, 99)))
def test_no_outcome_makes_the_words_fail(cls, winner, reason, fault, mover, turns, cause, output, scores):
    out = Outcome(winner, reason, scores, fault=fault, mover=mover, turns=turns, output=output, cause=cause)
    for text in (describe(out, cls), headline(out, cls.side_names), summary(out.result(), out.reason, cls),
                 fault_line(out, ("a", "b")) or ""):
        assert visible(text) == text


def test_each_game_says_its_own_endings():
    c4, loa = get_game("connect4"), get_game("lines-of-action")
    assert summary("1-0", "connected", c4) == "Red won (four in a row)"
    assert summary("0-1", "connected", loa) == "White won (all checkers connected)"
    assert describe(Outcome(0, "connected", (10, 0)), c4) == "Red connected four"
    assert summary("1/2-1/2", "board_full", c4) == "draw (the board is full)"
    assert summary("*", "", c4) == "unfinished"
    cw = get_game("cultist-wars")
    assert describe(Outcome(1, "elimination", (0, 3)), cw) == "a side has no unit left; units: Red 0, Blue 3"
    assert describe(Outcome(None, "turn_limit", (2, 2), turns=150), cw) == \
        "150 turns played; units left: Red 2, Blue 2"
    assert short(get_game("paper-soccer"), "own_goal") == "an own goal"


def test_the_referees_error_line_names_the_seat_as_people_do():
    """`referee --json`'s `error` and a recorded save's `detail` (SPEC: the seat, the output, the rule); the
    seat is p1/p2 as in every text for people (the conformance run checks only that `error` is given)."""
    labels = ["cmd:./a", "cmd:./b"]
    c4 = get_game("connect4").new()
    refused = c4.forfeit(1, "invalid", 'Wrong output! wrong action "x"', output="x")
    assert fault_line(refused, labels) == "p2 (cmd:./b): sent 'x': Wrong output! wrong action \"x\""
    late = c4.forfeit(0, "timeout", "no answer within 100 ms")
    assert fault_line(late, labels) == "p1 (cmd:./a): no answer within 100 ms"
    assert fault_line(Outcome(0, "connected", (10, 0)), labels) is None


@settings(max_examples=60, deadline=None)
@given(games, st.sampled_from(FORFEIT_REASONS), st.integers(0, 1), st.text(min_size=1, max_size=80),
       st.none() | st.text(max_size=40))
def test_a_saved_forfeit_reads_back_into_the_same_sentence(cls, reason, seat, cause, output):
    game = cls.new(1)
    out = game.forfeit(seat, reason, cause, output)
    players = ("cmd:./first bot", "cmd:./second")
    saved = SavedGame(cls.id, seed=1, players=players, result=out.result(), reason=out.reason,
                      detail=fault_line(out, players))
    loaded, final = parse(dump(saved, game))
    again = final.forfeit(seat, loaded.reason, cause_from_detail(loaded.detail, seat, loaded.players))
    assert again.result() == out.result()
    # a save's header is one line with single spaces: compare the words
    assert describe(again, cls).split() == describe(out, cls).split()


def test_an_odd_detail_is_read_as_it_stands():
    assert cause_from_detail("the bot was late", 1, ("human", "cmd:./b")) == "the bot was late"
    assert cause_from_detail("p2 (cmd:./b): late", 1, ("human", "cmd:./b")) == "late"
    assert cause_from_detail("seat 1 (cmd:./b): late", 1, ("human", "cmd:./b")) == "late"  # saves from before p1/p2


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.name)
def test_the_outcome_gives_each_saved_games_result(path):
    saved, final = parse(path.read_text(encoding="utf-8"))
    out = final.outcome()
    if out is None and saved.reason in FORFEIT_REASONS:  # the position goes on: a forfeit ended it
        out = final.forfeit(1 if saved.result == "1-0" else 0, saved.reason)
    assert (out.result() if out is not None else "*") == saved.result
    if out is not None:
        assert out.reason == saved.reason
        assert summary(saved.result, saved.reason, type(final)).startswith(headline(out, type(final).side_names)
                                                                          .replace(" wins", " won"))


def test_no_shipped_module_words_an_ending_but_endings():
    """Each wording comes from engines/endings.py (and the game's own EndingWords)."""
    for phrase in ("ran out of time", "connected four", "scored a goal", "crashed:", "did not answer in time"):
        found = [p.relative_to(ROOT) for top in ("engines", "tui") for p in (ROOT / top).rglob("*.py")
                 if phrase in p.read_text(encoding="utf-8") and p.name != "endings.py"
                 and not (phrase == "connected four" and p.name == "connect4.py")]
        assert not found, f"{phrase!r} worded in {found}"
