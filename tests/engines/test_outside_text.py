"""What engines say and write about other people's text: a refusal quotes a bot's answer escaped, and a
save file termarena writes holds no control character from a player's name, a date, a detail, an
unknown header, a move's comment or a position's comments, and still loads as the same game."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from engines import GAME_IDS, get_game
from engines.base import EngineError
from engines.savefile import KNOWN_KEYS, SavedGame, dump, parse
from engines.visible import is_hidden, visible

ATTACKS = ["\x1b]52;c;cm0gLXJmIH4=\x07", "\x1b]0;title\x07", "\x1b[2J", "\x1b[8m", "\x9b2J", "\u202e", "\x85",
           "\u2028", "\r", "\x00", "[/x]"]
outside = st.text() | st.lists(st.sampled_from(ATTACKS) | st.text(max_size=5), max_size=6).map("".join)


def hidden(text: str) -> list[str]:
    return [ch for ch in text if is_hidden(ch)]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAME_IDS), st.sampled_from(["", "4 ", "0 MOVE 3 ", "a1a3", "WAIT "]), outside)
def test_a_refused_answer_is_quoted_with_its_controls_escaped(game_id, start, answer):
    game = get_game(game_id).new(7)
    try:
        game.play(start + answer)
    except EngineError as e:
        assert hidden(str(e)) == []


# a Connect 4 move may carry any comment after the column: the referee ignores it
moves = st.lists(st.tuples(st.sampled_from("0123456"), st.none() | outside), max_size=6).map(
    lambda ms: [col if comment is None else f"{col} {comment}" for col, comment in ms])
header_keys = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8).filter(lambda k: k not in KNOWN_KEYS)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(outside, outside, outside, outside, st.dictionaries(header_keys, outside, max_size=3), moves)
def test_a_save_termarena_writes_holds_no_control_character_and_loads_as_the_same_game(p1, p2, date, detail,
                                                                                         extra, played):
    final = get_game("connect4").new()
    for move in played:
        final.play(move)
    saved = SavedGame(game="connect4", moves=played, players=(p1, p2), date=date, detail=detail, extra=extra)
    text = dump(saved, final)
    assert hidden(text.replace("\n", "")) == []
    loaded, again = parse(text)
    assert again.key() == final.key() and loaded.moves == [visible(m) for m in played]
    assert dump(loaded, again) == text  # written once, the file stays as it is


def test_a_start_position_with_controls_in_its_comments_is_written_as_the_position_itself():
    game = get_game("lines-of-action").new()
    start = game.to_text() + "# \x1b]0;title\x07 \x1b[2J\n"
    saved = SavedGame(game="lines-of-action", start=start)
    text = dump(saved, get_game("lines-of-action").from_text(start))
    assert hidden(text.replace("\n", "")) == []
    assert parse(text)[0].start == game.to_text()
