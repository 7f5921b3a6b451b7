"""The game session without Textual: moves through the engine, undo/redo by who plays, forfeits."""
from __future__ import annotations

import pytest

from engines.base import InvalidOutput
from tui.core.session import Session, SessionError
from tui.core.specs import parse_spec


def c4(p1="human", p2="human", moves=()):
    s = Session("c4", [parse_spec(p1), parse_spec(p2)], seed=1)
    for m in moves:
        s.play(m)
    return s


def test_moves_are_recorded_in_codingame_notation_with_their_seat():
    s = c4()
    played = [s.play("4"), s.play("steal"), s.play("+3")]
    assert [(p.seat, p.text) for p in played] == [(0, "4"), (1, "STEAL"), (0, "3")]
    assert s.notation == ["4", "STEAL", "3"] and s.record().moves == s.notation


def test_an_illegal_output_is_refused_with_the_referees_reason_and_changes_nothing():
    s = c4(moves=["4"] * 7)
    key = s.game.key()
    with pytest.raises(InvalidOutput, match="already filled"):
        s.play("4")
    assert s.game.key() == key and s.ply == 7


def test_hot_seat_undo_takes_back_one_ply_and_redo_replays_it():
    s = c4(moves=["4", "3", "2"])
    assert s.undo() == 1 and s.notation == ["4", "3"] and s.to_move() == 0
    assert s.redo() == 1 and s.notation == ["4", "3", "2"]
    assert not s.can_redo()


def test_against_the_ai_undo_goes_back_to_the_humans_own_turn():
    s = c4("human", "ai:1", moves=["4", "3", "2", "1"])
    assert s.undo() == 2 and s.notation == ["4", "3"] and s.human_to_move()
    # while the AI is still to move, one undo takes back the human's move only
    s.play("8")
    assert s.undo() == 1 and s.notation == ["4", "3"]
    # redo goes forward to the next position where the human is to move
    s.play("2")
    s.play("1")
    s.undo()
    assert s.redo() == 2 and s.notation == ["4", "3", "2", "1"]


def test_the_ai_moving_first_leaves_nothing_to_undo_before_the_humans_first_move():
    s = c4("ai:1", "human", moves=["4"])
    assert not s.can_undo() and s.undo_refusal() == "nothing to undo yet"
    s.play("3")
    s.play("2")
    assert s.undo() == 2 and s.notation == ["4"]


def test_playing_the_undone_move_again_keeps_the_rest_of_the_redo_line():
    s = c4(moves=["4", "3", "2"])
    s.undo()
    s.undo()
    s.play("3")
    assert s.redo_moves == ["2"]
    s.play("0")
    assert s.redo_moves == []


def test_undo_is_refused_against_an_external_bot_with_the_reason():
    s = c4("human", "cmd:./bot", moves=["4", "3"])
    assert not s.can_undo()
    with pytest.raises(SessionError, match="bot only understands a game played from its start"):
        s.undo()


def test_a_forfeit_ends_the_game_with_the_referees_scores():
    s = c4("human", "cmd:./bot", moves=["4"])
    s.forfeit(1, "timeout", "no answer within 100 ms")
    out = s.outcome()
    assert out.winner == 0 and out.reason == "timeout" and out.scores == (10, 0)
    with pytest.raises(InvalidOutput):
        s.play("3")
    assert s.result_words() == ("Red wins", "Yellow's bot: no answer within 100 ms")


def test_a_session_rebuilds_from_its_moves_and_redo_line():
    s = Session("c4", [parse_spec("human")] * 2, moves=["4", "3"], redo=["2", "1"])
    assert s.notation == ["4", "3"] and s.redo_moves == ["2", "1"]
    assert s.redo() == 1 and s.notation == ["4", "3", "2"]


def test_the_seed_is_always_fixed_so_the_game_can_be_replayed():
    s = Session("cw", [parse_spec("human")] * 2)
    assert isinstance(s.seed, int) and s.record().seed == s.seed


def test_result_words_name_the_sides_instead_of_seat_numbers():
    s = c4(moves=["0", "1", "0", "1", "0", "1", "0"])
    assert s.result_words(("Red", "Yellow")) == ("Red wins", "Red connected four")


def test_bot_names_are_their_script_names():
    from tui.widgets.status import bot_name, describe_spec

    assert bot_name("python3 bots/my_bot.py --fast") == "my_bot.py"
    assert bot_name("./mybot") == "mybot"
    assert describe_spec(parse_spec("cmd:java -jar build/libs/very_long_bot_name.jar"), 11) == "bot very_long_…"
    assert describe_spec(parse_spec("ai:4")) == "AI level 4"


@pytest.mark.parametrize("start", [False, True])
def test_a_seed_that_could_not_be_saved_and_loaded_again_is_refused_at_the_start(start):
    from engines import get_game
    from engines.base import EngineError
    from engines.numbers import SEED_MAX

    position = get_game("cw").new(3).to_text() if start else None
    with pytest.raises(EngineError, match="out of range"):
        Session("cw", [parse_spec("human"), parse_spec("human")], seed=SEED_MAX + 1, start=position)
    assert Session("cw", [parse_spec("human"), parse_spec("human")], seed=SEED_MAX, start=position).seed == SEED_MAX
