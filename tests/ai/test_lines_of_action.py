"""Lines of Action AI: defences against a threatened connection, the 150-turn draw, passing, and the
strong levels' tie noise.  What every game's player promises is in test_player_contract.py."""
from __future__ import annotations

import pytest

from ai.lines_of_action import make_player
from ai.lines_of_action.search import WIN, Searcher
from engines.lines_of_action import PASS, LinesOfAction
from tests.helpers.real_play import logged_position, safe_moves, winning_moves
from tests.helpers.conformance_data import logged_games

GAMES = logged_games("lines-of-action")


def replay(index: int, back: int) -> LinesOfAction:
    """Game `index` of the logged sample, `back` turns before its end."""
    return logged_position("lines-of-action", index, back)


def _threat_positions():
    """Real-play positions where the opponent threatens to connect and a move exists that stops it."""
    out = []
    for index, lg in enumerate(GAMES):
        if lg.winner is None:
            continue
        for back in (2, 4):
            g = replay(index, back)
            if g.outcome() is not None or winning_moves(g):
                continue
            g.push(g.legal_moves()[0])
            threatened = g.outcome() is None and winning_moves(g)
            g.pop()
            safe = safe_moves(g)
            if threatened and safe and len(safe) < len(g.legal_moves()):
                out.append((index, back))
    return out


THREATS = _threat_positions()


def test_there_are_real_threat_positions():
    assert len(THREATS) >= 3


@pytest.mark.parametrize("index,back", THREATS)
def test_level_6_stops_a_threatened_connection(index, back):
    g = replay(index, back)
    # a node budget, not the clock, ends the search: the same move on any machine (1,000 nodes are enough)
    move = make_player(6, nodes=20_000, think_ms=60_000).choose(g)
    assert move in safe_moves(g), g.move_to_str(move)


def test_the_150_turn_draw_is_known_to_the_search():
    # White to move on turn 149 (the last one): nothing but an immediate connection wins, and the
    # position is otherwise bad or good; every non-connecting move is a draw, scored 0.
    g = replay(3, 1)
    assert g.turns_played == 149 and not winning_moves(g)
    black, white, stm, turns = g.key()
    own, opp = (white, black) if stm else (black, white)
    r = Searcher().search(own, opp, turns, max_depth=6)
    assert r.score == 0 and r.depth >= 1
    # the same board earlier in the game is not scored as a draw
    r2 = Searcher().search(own, opp, 60, max_depth=2)
    assert r2.score != 0


def test_a_forced_win_past_turn_150_is_not_a_win():
    # Game 6, turn 147: white connects by force on turn 149.  The same boards on turn 149 (the last
    # turn) leave no time for it: the search must not score them as won.
    g = replay(6, 3)
    black, white, stm, turns = g.key()
    own, opp = (white, black) if stm else (black, white)
    assert Searcher().search(own, opp, turns, max_depth=4).score > WIN - 100
    assert abs(Searcher().search(own, opp, 149, max_depth=4).score) < WIN - 100


def test_pass_when_there_is_no_legal_move():
    rows = ["......wb", "......ww", "........", "........", "........", "........", "ww......", "bw......"]
    g = LinesOfAction.from_text("\n".join(rows) + "\nturns_played = 10\n")
    assert g.legal_moves() == [PASS]
    assert make_player(6, think_ms=200).choose(g) == PASS


def test_strong_levels_replay_with_a_seed_and_vary_without_one():
    g = replay(1, 60)
    assert make_player(4, seed=3).choose(g) == make_player(4, seed=3).choose(g)
    # near-equal moves are picked at random, so games between fixed budgets do not repeat
    assert len({make_player(4, seed=s).choose(LinesOfAction.new(0)) for s in range(10)}) > 1
