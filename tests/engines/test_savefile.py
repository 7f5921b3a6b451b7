"""The save format: every game round-trips, and every kind of bad file is refused with its line."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAME_IDS, get_game
from engines.savefile import FORMAT_VERSION, SavedGame, SaveFormatError, dump, parse, result_text


def random_game(game_id: str, seed: int, finish: bool = False):
    rng = random.Random(seed)
    cls = get_game(game_id)
    game_seed = rng.randrange(1000)
    game = cls.new(game_seed)
    plies = cls.max_turns if finish else rng.randrange(1, 40)
    while game.ply < plies and game.outcome() is None:
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    return game, game_seed


def save_of(game, game_id, seed) -> SavedGame:
    result, reason = result_text(game)
    return SavedGame(game=game_id, moves=game.moves_as_str(), seed=seed, players=("human", "ai:3"),
                     date="2026-11-21T12:00:00", result=result, reason=reason)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), finish=st.booleans())
def test_saved_games_load_as_the_same_state_and_record(game_id, seed, finish):
    game, game_seed = random_game(game_id, seed, finish)
    saved = save_of(game, game_id, game_seed)
    text = dump(saved, game)
    loaded, state = parse(text)
    assert loaded.moves == saved.moves and loaded.seed == game_seed and loaded.players == saved.players
    assert (loaded.result, loaded.reason) == (saved.result, saved.reason)
    assert state.key() == game.key() and state.to_text() == game.to_text()
    assert state.moves_as_str() == game.moves_as_str()
    assert dump(loaded, state) == text  # load and save again: not a byte changes


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_custom_start_position_and_redo_moves_round_trip(game_id):
    game, seed = random_game(game_id, 5)
    if game.outcome() is not None:
        game.pop()
    cls = get_game(game_id)
    start = cls.from_text(game.to_text())  # the position as a start, no history
    moves = []
    for _ in range(2):
        if start.outcome() is None:
            m = start.legal_moves()[0]
            moves.append(start.move_to_str(m))
            start.push(m)
    redo = []
    if start.outcome() is None:
        probe = start.copy()
        m = probe.legal_moves()[-1]
        redo.append(probe.move_to_str(m))
    saved = SavedGame(game=game_id, moves=moves, start=game.to_text(), seed=seed, redo=redo)
    loaded, state = parse(dump(saved, start))
    assert loaded.start == game.to_text() and loaded.moves == moves and loaded.redo == redo
    assert state.key() == start.key()


def test_a_position_file_of_just_a_header_and_a_start_block_loads():
    c4 = get_game("connect4").new()
    c4.play("4")
    text = f"# termarena save\nformat = {FORMAT_VERSION}\ngame = c4\n\n[start]\n{c4.to_text()}"
    saved, state = parse(text)
    assert saved.moves == [] and state.key() == c4.key()


def _c4_text(moves=("4", "STEAL", "3")) -> str:
    g = get_game("connect4").new()
    for m in moves:
        g.play(m)
    return dump(SavedGame(game="connect4", moves=list(moves)), g)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith(needle))


def test_an_illegal_move_is_refused_with_its_line_and_turn():
    text = _c4_text().replace("\n3 3\n", "\n3 STEAL\n")
    with pytest.raises(SaveFormatError) as e:
        parse(text)
    assert e.value.line == _line_of(text, "3 STEAL") and "turn 3" in str(e.value)


def test_a_truncated_file_is_refused():
    text = _c4_text()
    for cut in (text[: text.index("[final]")], text[: text.index("[moves]") + 12], text[:40]):
        with pytest.raises(SaveFormatError) as e:
            parse(cut)
        assert "truncated" in str(e.value) or "line" in str(e.value)


def test_a_save_of_another_game_is_refused_when_a_game_is_expected():
    with pytest.raises(SaveFormatError) as e:
        parse(_c4_text(), expect_game="loa")
    assert "connect4" in str(e.value) and e.value.line == 3


def test_an_unknown_format_version_is_refused():
    with pytest.raises(SaveFormatError) as e:
        parse(_c4_text().replace("format = 1", "format = 99"))
    assert "99" in str(e.value) and e.value.line == 2


def test_binary_junk_and_huge_files_are_refused():
    with pytest.raises(SaveFormatError):
        parse("\x00\x01\x02garbage")
    with pytest.raises(SaveFormatError):
        parse("# termarena save\n" + "x" * 3_000_000)


def test_an_edited_final_position_is_detected():
    text = _c4_text()
    lines = text.splitlines()
    i = next(i for i, l in enumerate(lines) if "1" in l and set(l) <= set(".01"))
    lines[i] = lines[i].replace("1", "0", 1)
    with pytest.raises(SaveFormatError) as e:
        parse("\n".join(lines) + "\n")
    assert e.value.line is not None


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_loader_never_fails_with_anything_but_a_clear_error(data):
    """Fuzz: mutate a real save (drop, duplicate, change lines and characters); loading either works
    or raises SaveFormatError, never another exception."""
    lines = _c4_text().splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["drop", "dup", "text", "char"]))
        i = data.draw(st.integers(0, len(lines) - 1))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "text":
            lines[i] = data.draw(st.text(max_size=30))
        elif op == "char" and lines[i]:
            j = data.draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:j] + data.draw(st.characters()) + lines[i][j + 1:]
    try:
        parse("\n".join(lines))
    except SaveFormatError as e:
        assert str(e)
