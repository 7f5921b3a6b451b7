"""A count said in words: one noun in the singular, any other number in the plural."""
from __future__ import annotations

from tui.core.words import counted


def test_a_game_s_length_is_said_in_moves_and_one_move_is_one():
    assert [counted(n, "move") for n in (1, 2, 41)] == ["1 move", "2 moves", "41 moves"]


def test_a_noun_with_its_own_plural_and_a_count_of_none():
    assert [counted(n, "inaccuracy", "inaccuracies") for n in (0, 1, 2)] == [
        "0 inaccuracies", "1 inaccuracy", "2 inaccuracies"]
    assert counted(1, "turn") + " left" == "1 turn left" and counted(0, "watcher") == "0 watchers"
