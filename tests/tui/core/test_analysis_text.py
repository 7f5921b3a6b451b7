"""`termarena analyse`'s table and JSON number a move as the app does: a game saved from a position
counts from that position's turn (the Lines of Action endgame of saves/ starts at turn 59), while the
JSON's `ply` stays the contract's count of the file's moves."""
from __future__ import annotations

from ai.analysis import analyse_game
from engines.savefile import parse
from tests.helpers.paths import ROOT
from tui.core.analysis_text import analysis_object, analysis_table

ENDGAME = ROOT / "saves" / "lines-of-action-endgame.txt"


def test_a_game_from_a_position_is_analysed_in_the_game_s_turns():
    saved, start = parse(ENDGAME.read_text(encoding="utf-8"))
    moves = ["b4b2", "d6c6"]  # quiet moves: the game goes on
    analysis = analyse_game(start, moves, nodes=300)
    rows = analysis_table(analysis, saved.players).splitlines()
    assert rows[0].split()[0] == "turn"
    assert [r.split()[:3] for r in rows[1:3]] == [["59", "p1", "b4b2"], ["60", "p2", "d6c6"]]
    out = analysis_object(analysis)["moves"]
    assert [(m["ply"], m["turn"], m["move"]) for m in out] == [(1, 59, "b4b2"), (2, 60, "d6c6")]


def test_a_game_from_its_start_counts_from_1_in_both():
    from engines import get_game

    game = get_game("connect4").new(3)
    analysis = analyse_game(game, ["4", "4"], nodes=300)
    assert [m["turn"] for m in analysis_object(analysis)["moves"]] == [1, 2]
    assert analysis_table(analysis, ("a", "b")).splitlines()[1].split()[0] == "1"
