"""Every game's InputReader against input no referee sends: only the project's own errors come out.

The valid inputs are what the referee sends one seat (`bot_input`, as engines/referee/match.py
feeds a bot) during a random game; the bot's side plays what it would (`played`).  Mutating one line,
or feeding arbitrary text, must end in an InputError with a short one-line message naming a line of
the input, or in EOFError when the input ends at a turn boundary; nothing else, never a crash.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAME_IDS, get_game
from engines.base import InputError

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEAT_TURNS = 6  # turns of the seat in each valid input: enough to reach the checks between turns


@lru_cache(maxsize=None)
def referee_input(game_id: str, seed: int) -> tuple[tuple[str, ...], tuple[int, ...], tuple]:
    """The lines one seat receives over its first SEAT_TURNS turns of a random game, the index of
    each turn's first line (the turn boundaries), and the seat's answer to each turn."""
    rng = random.Random(seed)
    game = get_game(game_id).new(rng.randrange(1 << 31))
    seat = rng.randrange(2)
    lines: list[str] = []
    starts: list[int] = []
    answers = []
    while game.outcome() is None and len(starts) < SEAT_TURNS:
        move = game.random_move(rng)
        if game.current_player() == seat:
            starts.append(len(lines))
            lines += game.bot_input(first=len(starts) == 1)
            answers.append(move)
        game.push(move)
    return tuple(lines), tuple(starts), tuple(answers)


def feed(game_id: str, lines: list[str], answers=()) -> list[int]:
    """Reads `lines` turn by turn as `termarena bot` does until the input ends or is refused, answering
    `answers` in turn where legal, else a random legal move; returns the number of lines read by each
    turn that was read.  Fails the test on any exception but InputError, and on an InputError whose
    message is long, has several lines or names no line of the input."""
    reader = get_game(game_id).input_reader()
    rng = random.Random(1)
    it = iter(lines)
    read = 0

    def readline() -> str:
        nonlocal read
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        read += 1
        return line

    ends = []
    while True:
        try:
            state = reader.read_turn(readline)
        except EOFError:
            return ends
        except InputError as e:
            message = str(e)
            assert "\n" not in message and len(message) <= 200, message
            assert 1 <= e.line <= len(lines) + 1 and message.startswith(f"input line {e.line}: "), message
            raise
        ends.append(read)
        assert state.outcome() is None and state.legal_moves()
        turn = len(ends) - 1
        answer = answers[turn] if turn < len(answers) and state.is_legal(answers[turn]) else None
        reader.played(answer if answer is not None else state.random_move(rng))


def feed_expecting_refusal_or_end(game_id: str, lines: list[str], answers=()) -> None:
    try:
        feed(game_id, lines, answers)
    except InputError:
        pass


# ---------------------------------------------------------------------------- valid input stays valid


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", range(8))
def test_the_referees_input_is_read_whole(game_id, seed):
    lines, starts, answers = referee_input(game_id, seed)
    ends = feed(game_id, list(lines), answers)
    assert ends == [*starts[1:], len(lines)]


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", range(3))
def test_input_ending_inside_a_turn_is_refused_and_at_a_boundary_is_a_clean_end(game_id, seed):
    lines, starts, answers = referee_input(game_id, seed)
    for cut in range(len(lines)):
        if cut in starts:
            assert feed(game_id, list(lines[:cut]), answers) == list(starts[1:starts.index(cut) + 1])
        else:
            with pytest.raises(InputError, match="ended in the middle of a turn"):
                feed(game_id, list(lines[:cut]), answers)


# ---------------------------------------------------------------------------- fuzzing


def mutate(data, lines: list[str]) -> list[str]:
    """One line of `lines` changed as a hostile tester would: digits replaced, the line cut, repeated
    or dropped, numbers made huge, a character swapped, or arbitrary text instead."""
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    line = lines[i]
    how = data.draw(st.sampled_from(["digits", "cut", "repeat", "drop", "huge", "char", "text", "append"]))
    out = list(lines)
    if how == "digits":
        digit = data.draw(st.sampled_from("0123456789"))
        out[i] = "".join(digit if c.isdigit() else c for c in line)
    elif how == "cut":
        out[i] = line[:data.draw(st.integers(0, max(0, len(line) - 1)))]
    elif how == "repeat":
        out.insert(i, line)
    elif how == "drop":
        del out[i]
    elif how == "huge":
        out[i] = data.draw(st.sampled_from(["9" * 13, "-" + "9" * 11, "99999999999", "1" * 5000, "-1", "-0",
                                            line + "0" * 7, line.replace(" ", " 1000000"), "١٢", "²", "1_0"]))
    elif how == "char":
        j = data.draw(st.integers(0, len(line)))
        c = data.draw(st.sampled_from(".01bwx-9 \t\0é\u2003"))
        out[i] = line[:j] + c + line[j + 1:]
    elif how == "text":
        out[i] = data.draw(st.text(max_size=20))
    else:
        out.insert(i + 1, data.draw(st.text(max_size=20)))
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(FUZZ, max_examples=100)  # each example reads a whole input: half of the cheap test's examples
@given(seed=st.integers(0, 24), data=st.data())
def test_a_mutated_line_is_refused_with_a_short_line_or_read(game_id, seed, data):
    lines, _, answers = referee_input(game_id, seed)
    feed_expecting_refusal_or_end(game_id, mutate(data, list(lines)), answers)


LINE_PARTS = st.sampled_from(["0", "1", "-1", "-2", "7", "9", "13 7", "0 1", "1 0", ".........", ".bbbbbb.",
                              "w......w", "........", "............x", ".............", "null", "pass", "b1b3",
                              "2 0 10 3 3 2", "0 1 10 0 3 0", "-", "02217", "14"])


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(lines=st.lists(st.one_of(LINE_PARTS, st.text(max_size=30)), max_size=40))
def test_arbitrary_lines_are_refused_with_a_short_line_or_read(game_id, lines):
    feed_expecting_refusal_or_end(game_id, lines)
