"""The [record] section of format 2 saves: escaping keeps any bytes a bot prints on one line of their own,
a recorded game round-trips (moves, answers, times, stderr), stays within RECORD_BYTES, and hostile
records (answers that are not the moves, too large, any lines at all) are refused with one clear line
naming the line of the file."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAME_IDS, get_game
from engines.record import (OUTPUT_CHARS, RECORD_BYTES, STDERR_CHARS, TURN_STDERR_LINES, Recorder, RecordError,
                            TurnRecord, escape, to_lines, unescape)
from engines.savefile import MAX_SAVE_BYTES, SavedGame, SaveFormatError, dump, parse

MOVES = ["4", "STEAL", "3", "5"]


def recorded(record, moves=MOVES, result="*", reason="", detail="") -> str:
    game = get_game("connect4").new(None)
    for m in moves:
        game.play(m)
    saved = SavedGame(game="connect4", moves=list(moves), players=("cmd:./a", "cmd:./b"), result=result,
                      reason=reason, detail=detail, record=record)
    return dump(saved, game)


def plain_turns(n=len(MOVES)):
    return [TurnRecord(k + 1, k % 2, MOVES[k], 10 * k, ([f"p1 at {k}"], [f"p2 at {k}"])) for k in range(n)]


# ---------------------------------------------------------------------------- escaping

@given(st.text())
def test_escaped_text_is_one_printable_line_and_comes_back_exactly(text):
    line = escape(text)
    assert line.isprintable() and len(line.splitlines()) <= 1 and not line.endswith(" ")
    assert unescape(line) == text


@pytest.mark.parametrize("bad", ["\\q", "\\", "\\x4", "\\ud800", "\\U00110000", "a\x1bb", "a\u2028b"])
def test_text_escape_cannot_have_made_is_refused(bad):
    with pytest.raises(RecordError):
        unescape(bad)


# ---------------------------------------------------------------------------- round trips

def test_a_record_round_trips_and_makes_the_file_format_2():
    text = recorded(plain_turns())
    assert "\nformat = 2\n" in text and "\n[record]\n1 p1 out 0 4\n1 p1 err p1 at 0\n1 p2 err p2 at 0\n" in text
    saved, final = parse(text)
    assert saved.record == plain_turns() and saved.moves == MOVES and final.ply == 4


def test_a_save_without_a_record_stays_format_1():
    game = get_game("connect4").new(None)
    assert "\nformat = 1\n" in dump(SavedGame(game="connect4"), game)


bot_text = st.text(st.characters(codec="utf-8"), max_size=60)
turn_records = st.lists(st.tuples(bot_text, st.integers(0, 10 ** 6),
                                  st.lists(bot_text, max_size=4), st.lists(bot_text, max_size=4)),
                        min_size=len(MOVES), max_size=len(MOVES))


@settings(max_examples=60, deadline=None)
@given(turn_records, st.one_of(st.none(), bot_text), st.lists(bot_text, max_size=3))
def test_any_recorded_game_round_trips(turns, last_output, last_err):
    """Whatever the bots printed (control characters, `[final]`, backslashes, trailing spaces; after
    their move, where Connect 4 reads no further), a recorded game with its failed last turn reads back
    the same."""
    rec = Recorder()
    for k, (comment, ms, err1, err2) in enumerate(turns):
        rec.add(k % 2, f"{MOVES[k]} {comment}", ms, (err1, err2))
    rec.add(0, last_output, 100, (last_err, ["[final]", "[record]"]))
    text = recorded(rec.turns, result="0-1", reason="timeout", detail="seat 0 (cmd:./a): no answer within 100 ms")
    saved, _ = parse(text)
    assert saved.record == rec.turns and saved.moves == MOVES
    assert saved.detail == "seat 0 (cmd:./a): no answer within 100 ms" and saved.reason == "timeout"


def test_a_flood_of_stderr_is_cut_so_the_file_still_loads():
    rec = Recorder()
    flood = ["\x00" * 5000] * 500  # every character escaped as \x00: the worst case for the file's size
    for k in range(len(MOVES)):
        rec.add(k % 2, f"{MOVES[k]} " + "\x01" * 10_000, 5, (flood, flood))  # an answer cut, still its move
    for turn in rec.turns:
        assert len(turn.output) == OUTPUT_CHARS and all(len(t) <= TURN_STDERR_LINES for t in turn.stderr)
        assert all(len(line) <= STDERR_CHARS for lines in turn.stderr for line in lines)
    text = recorded(rec.turns)
    assert len(text.encode()) < MAX_SAVE_BYTES
    saved, _ = parse(text)
    assert saved.record == rec.turns
    assert any("the record is full" in line for t in saved.record for lines in t.stderr for line in lines)


# ---------------------------------------------------------------------------- hostile records

def with_record(lines: list[str], **kw) -> str:
    return recorded(None, **kw) + "\n[record]\n" + "\n".join(lines) + "\n"


def with_format(text: str, version: int) -> str:
    return text.replace("\nformat = 1\n", f"\nformat = {version}\n")


GOOD = ["1 p1 out 5 4", "2 p2 out 5 STEAL", "3 p1 out 5 3", "4 p2 out 5 5"]
HOSTILE = {
    "format-1-with-a-record": (GOOD, 1, "a [record] section in a file of format 1"),
    "fake-section-header": (GOOD[:1] + ["[final]"] + GOOD[1:], 2, "section [final] appears twice"),
    "unknown-tag": (GOOD[:1] + ["1 p1 say hi"] + GOOD[1:], 2, "'say' is not out, none or err"),
    "seat-3": (["1 p3 out 5 4"] + GOOD[1:], 2, "seat 'p3' is not p1 or p2"),
    "wrong-seat": (["1 p2 out 5 4"] + GOOD[1:], 2, "turn 1 was p1's, not p2's"),
    "turn-skipped": (GOOD[:1] + GOOD[2:], 2, "turn 3 where turn 2 was expected"),
    "turn-twice": (GOOD[:1] + GOOD, 2, "turn 1 where turn 2 was expected"),
    "stderr-before-its-turn": (["1 p1 err hi"] + GOOD, 2, "outside that turn"),
    "stderr-of-another-turn": (GOOD[:2] + ["1 p1 err hi"] + GOOD[2:], 2, "outside that turn"),
    "turn-after-the-end": (GOOD + ["5 p1 none 100"], 2, "turn 5, but the game has 4 moves"),
    "no-answer-for-a-move": (GOOD[:3] + ["4 p2 none 5"], 2, "turn 4 has a move but no answer"),
    "truncated": (GOOD[:2], 2, "[record] has 2 turns for 4 moves"),
    "superscript-time": (["1 p1 out ² 4"] + GOOD[1:], 2, "time '²' is not a whole number"),
    "huge-time": (["1 p1 out " + "9" * 5000 + " 4"] + GOOD[1:], 2, "is out of range 0.."),
    "huge-turn": (["9" * 5000 + " p1 out 5 4"] + GOOD[1:], 2, "is out of range 0.."),
    "raw-escape-character": (GOOD[:1] + ["1 p1 err \x1b[2J"] + GOOD[1:], 2, "unescaped control character"),
    "bad-escape": (GOOD[:1] + ["1 p1 err \\q"] + GOOD[1:], 2, "unknown escape"),
    "long-stderr-line": (GOOD[:1] + ["1 p1 err " + "x" * (STDERR_CHARS + 1)] + GOOD[1:], 2, "more than 500"),
    "long-answer": (["1 p1 out 5 " + "4" * (OUTPUT_CHARS + 1)] + GOOD[1:], 2, "more than 200 characters"),
    "too-many-stderr-lines": (GOOD[:1] + ["1 p2 err x"] * (TURN_STDERR_LINES + 1) + GOOD[1:], 2, "more than 100 stderr"),
    "no-fields": (GOOD[:1] + ["1"] + GOOD[1:], 2, "expected `<turn> p1|p2"),
    "answer-another-move": (GOOD[:2] + ["3 p1 out 5 6"] + GOOD[3:], 2, "turn 3's answer '6' is another move than '3'"),
    "answer-not-a-move": (GOOD[:1] + ["2 p2 out 5 rm -rf ~"] + GOOD[2:], 2, "turn 2's answer 'rm -rf ~' is not a move"),
    "answer-illegal-there": (GOOD[:2] + ["3 p1 out 5 STEAL"] + GOOD[3:], 2, "is not a move there"),
    "record-too-large": (GOOD[:1] + ["1 p1 err " + "x" * STDERR_CHARS] * 2700 + GOOD[1:], 2,
                         "a record has at most 1,200,000"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_record_is_refused_with_one_line_naming_the_line(name):
    lines, version, words = HOSTILE[name]
    if name == "record-too-large":  # (over the record's bound, within the file's: only the first is hit)
        assert RECORD_BYTES < len("\n".join(lines)) < MAX_SAVE_BYTES - 1000
    with pytest.raises(SaveFormatError) as e:
        parse(with_format(with_record(lines), version))
    message = str(e.value)
    assert words in message and "\n" not in message and len(message) <= 300, message
    assert e.value.line is not None or name == "truncated"


def test_the_good_record_of_the_hostile_cases_loads():
    saved, _ = parse(with_format(with_record(GOOD), 2))
    assert [t.output for t in saved.record] == MOVES


def test_an_extra_turn_is_only_for_a_game_ended_by_a_forfeit():
    forfeit = with_format(with_record(GOOD + ["5 p1 out 7 hello", "5 p1 err it was me"], result="0-1",
                                      reason="invalid"), 2)
    saved, _ = parse(forfeit)
    assert saved.record[-1] == TurnRecord(5, 0, "hello", 7, (["it was me"], []))
    with pytest.raises(SaveFormatError, match="turn 5, but the game has 4 moves"):
        parse(with_format(with_record(GOOD + ["5 p1 out 7 hello"], result="1/2-1/2", reason="board_full"), 2))


def test_a_newer_format_is_still_refused():
    with pytest.raises(SaveFormatError, match="format version 3 is not supported"):
        parse(with_format(recorded(None), 3))


def test_the_answer_a_record_shows_is_the_move_the_engine_reads_from_it():
    """A bot's answer may say more than its move (Connect 4 reads the first word): it is shown as it
    was; only an answer that means another move is refused."""
    saved, _ = parse(with_format(with_record(["1 p1 out 5 4 centre first", "2 p2 out 5 STEAL because",
                                              "3 p1 out 5 3", "4 p2 out 5 5 …"]), 2))
    assert [t.output for t in saved.record][:2] == ["4 centre first", "STEAL because"]


def test_the_longest_game_with_the_worst_answers_and_stderr_stays_within_the_record_bound():
    turns = max(get_game(g).max_turns for g in GAME_IDS) + 1  # and the turn that ended it
    rec = Recorder()
    worst = "\U0010ffff" * 10_000  # a character written as a 10-byte escape
    for k in range(turns):
        rec.add(k % 2, worst, 10 ** 10, ([worst] * 500, [worst] * 500))
    size = sum(len(line.encode()) + 1 for line in to_lines(rec.turns))
    assert 1_000_000 < size <= RECORD_BYTES


record_words = st.sampled_from(["1", "2", "3", "4", "5", "9999", "p1", "p2", "p3", "out", "none", "err", "4",
                                "STEAL", "3", "5", "0", "\\x1b", "\\q", "", " ", "x", "²"])
record_lines = st.one_of(st.lists(record_words, max_size=6).map(" ".join), st.text(max_size=30))


good_edited = st.lists(st.tuples(st.integers(0, 5), st.booleans(), record_lines), max_size=3).map(
    lambda edits: [line for line in _edited(GOOD, edits)])


def _edited(lines: list[str], edits) -> list[str]:
    out = list(lines)
    for where, insert, line in edits:
        if insert or where >= len(out):
            out.insert(where, line)
        else:
            out[where] = line
    return out


answers_changed = st.lists(st.tuples(st.integers(0, 3), st.one_of(record_words, st.text(max_size=8))), max_size=2).map(
    lambda changes: _edited(GOOD, [(k, False, f"{k + 1} p{k % 2 + 1} out 5 {escape(a)}") for k, a in changes]))


@settings(max_examples=150, deadline=None)
@given(st.one_of(good_edited, answers_changed, st.lists(record_lines, max_size=12)),
       st.sampled_from([("*", ""), ("0-1", "invalid"), ("1-0", "timeout")]))
def test_any_record_section_loads_or_is_refused_in_one_line(lines, ending):
    result, reason = ending
    try:
        saved, _ = parse(with_format(with_record(lines, result=result, reason=reason), 2))
    except SaveFormatError as e:
        assert "\n" not in str(e)
        return
    for turn, move in zip(saved.record, MOVES):  # what loads shows the moves that were played
        assert turn.output.split(" ")[0] == move
