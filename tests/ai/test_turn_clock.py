"""When a bot's answer is due (ai/turn_clock.py): a share of the limit, brought forward after late answers."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from ai.turn_clock import CALM_LOAD, LATE_FACTOR, LATE_FADE, MIN_SHARE, SHARE, SPARE, TurnClock, machine_load

LIMIT = 0.2  # Paper Soccer's turns after the first
UNUSED = (1 - SPARE - SHARE) * LIMIT  # what twice the lateness may take before a deadline moves


def test_a_game_without_late_answers_gets_the_share_of_each_limit():
    clock = TurnClock()
    for start in (10.0, 11.0, 12.5):
        deadline = clock.deadline(start, LIMIT)
        assert deadline == pytest.approx(start + SHARE * LIMIT)
        clock.answered(deadline, deadline - 0.01)  # early
    assert clock.deadline(20.0, 1.0) == pytest.approx(20.0 + SHARE)


def test_an_answer_a_few_milliseconds_late_changes_nothing():
    clock = TurnClock()
    clock.answered(10.0, 10.0 + UNUSED / LATE_FACTOR)
    assert clock.deadline(11.0, LIMIT) == pytest.approx(11.0 + SHARE * LIMIT)


def test_a_late_answer_brings_the_next_deadlines_forward_then_fades():
    clock = TurnClock()
    deadline = clock.deadline(10.0, LIMIT)
    clock.answered(deadline, deadline + 0.05)  # written 50 ms after its deadline
    reserves = []
    for k in range(8):
        start = 11.0 + k
        deadline = clock.deadline(start, LIMIT)
        reserves.append(start + SHARE * LIMIT - deadline)
        clock.answered(deadline, deadline)  # on time from then on
    assert reserves[0] == pytest.approx(LATE_FACTOR * 0.05 - UNUSED)
    assert reserves[1] == pytest.approx(LATE_FACTOR * 0.05 * LATE_FADE - UNUSED)
    assert all(a >= b for a, b in zip(reserves, reserves[1:])) and reserves[-1] == 0


def test_a_later_answer_replaces_a_fading_smaller_lateness():
    clock = TurnClock()
    clock.answered(10.0, 10.005)
    clock.answered(11.0, 11.05)
    assert clock.deadline(12.0, LIMIT) == pytest.approx(12.0 + SHARE * LIMIT - (LATE_FACTOR * 0.05 - UNUSED))


def test_an_overloaded_machine_shrinks_the_share_in_proportion():
    clock = TurnClock()
    assert clock.deadline(0.0, LIMIT, load=CALM_LOAD) == pytest.approx(SHARE * LIMIT)
    assert clock.deadline(0.0, LIMIT, load=2 * CALM_LOAD) == pytest.approx(SHARE / 2 * LIMIT)
    assert clock.deadline(0.0, LIMIT, load=100.0) == pytest.approx(MIN_SHARE * LIMIT)


def test_the_machine_load_is_a_number_a_core():
    assert machine_load() >= 0.0


@given(st.lists(st.tuples(st.floats(min_value=-1.0, max_value=10.0), st.floats(min_value=0.0, max_value=50.0)),
                max_size=20),
       st.floats(min_value=0.05, max_value=2.0))
def test_however_late_the_answers_and_busy_the_machine_the_search_keeps_a_share_of_the_limit(turns, limit):
    clock = TurnClock()
    for k, (late, load) in enumerate(turns):
        deadline = clock.deadline(float(k), limit, load)
        assert float(k) + MIN_SHARE * limit - 1e-9 <= deadline <= float(k) + SHARE * limit + 1e-9
        clock.answered(deadline, deadline + late)
