"""Lines of Action AI: legal and timely moves at every level, wins in 1 and 2 taken from real play,
defences against a threatened connection, the 150-turn draw, determinism, the bot and the benchmark.

Real-play positions come from the official referee's logged games (tests/data/conformance); each is
checked here by brute force with the engine alone (not the AI), so the tests cannot agree with an AI bug.
"""
from __future__ import annotations

import io
import time

import pytest

from ai.lines_of_action import LEVELS, make_player, search_speed
from ai.lines_of_action.search import WIN, Searcher
from ai.player import SearchInfo
from engines.lines_of_action import PASS, LinesOfAction
from tests.conformance_data import logged_games

GAMES = logged_games("lines-of-action")


def replay(index: int, back: int) -> LinesOfAction:
    """Game `index` of the logged sample, `back` turns before its end."""
    lg = GAMES[index]
    g = LinesOfAction.new(lg.seed)
    for t in lg.turns[:len(lg.turns) - back]:
        g.play(t.output)
    return g


def mover_wins(g: LinesOfAction, seat: int) -> bool:
    out = g.outcome()
    return out is not None and out.winner == seat


def winning_moves_in_1(g: LinesOfAction) -> list:
    seat = g.current_player()
    out = []
    for m in g.legal_moves():
        g.push(m)
        if mover_wins(g, seat):
            out.append(m)
        g.pop()
    return out


def forced_wins_in_2(g: LinesOfAction) -> list:
    """Moves after which every reply leaves the mover a connecting move (brute force on the engine)."""
    seat = g.current_player()
    out = []
    for m in g.legal_moves():
        g.push(m)
        ok = g.outcome() is None
        if ok:
            for r in g.legal_moves():
                g.push(r)
                if g.outcome() is None:
                    ok = bool(winning_moves_in_1(g))
                else:
                    ok = mover_wins(g, seat)
                g.pop()
                if not ok:
                    break
        g.pop()
        if ok:
            out.append(m)
    return out


def safe_moves(g: LinesOfAction) -> list:
    """Moves that neither lose at once nor leave the opponent a connecting move."""
    seat = g.current_player()
    out = []
    for m in g.legal_moves():
        g.push(m)
        if g.outcome() is None:
            if not winning_moves_in_1(g):
                out.append(m)
        elif mover_wins(g, seat):
            out.append(m)
        g.pop()
    return out


# (game index, turns back from the end): the side to move can connect at once.
WIN_IN_1 = [(0, 1), (4, 1), (5, 1), (7, 1), (8, 1), (9, 1), (10, 1), (12, 1)]
# no win in 1, but a forced win by the mover's next turn (game 6 at turn 147: it must land by turn 149)
WIN_IN_2 = [(0, 3), (6, 3), (12, 3)]


def test_levels_are_described_and_named():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6]
    assert all(isinstance(text, str) and text for text in LEVELS.values())
    for level in LEVELS:
        assert str(level) in make_player(level).name
    with pytest.raises(ValueError):
        make_player(7)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_every_level_plays_a_legal_move_and_leaves_the_game_unchanged(level):
    g = replay(2, 40)
    before = (g.key(), list(g.move_stack))
    move = make_player(level, seed=1, think_ms=300).choose(g)
    assert move in g.legal_moves()
    assert (g.key(), list(g.move_stack)) == before


def test_win_in_1_positions_really_are_wins_in_1():
    for index, back in WIN_IN_1:
        assert winning_moves_in_1(replay(index, back)), (index, back)
    for index, back in WIN_IN_2:
        g = replay(index, back)
        assert not winning_moves_in_1(g) and forced_wins_in_2(g), (index, back)


@pytest.mark.parametrize("level", [1, 3, 6])
@pytest.mark.parametrize("index,back", WIN_IN_1)
def test_no_level_misses_a_win_in_1(level, index, back):
    g = replay(index, back)
    seat = g.current_player()
    for seed in range(3):
        move = make_player(level, seed=seed, think_ms=2000).choose(g)
        g.push(move)
        assert mover_wins(g, seat), f"level {level} played {g.move_to_str(move)}"
        g.pop()


@pytest.mark.parametrize("index,back", WIN_IN_2)
def test_level_6_plays_a_forced_win_in_2(index, back):
    g = replay(index, back)
    good = forced_wins_in_2(g)
    infos: list[SearchInfo] = []
    move = make_player(6, think_ms=5000).choose(g, on_info=infos.append)
    assert move in good, f"{g.move_to_str(move)} is not one of {[g.move_to_str(m) for m in good]}"
    assert infos and infos[-1].score >= 1e6  # reported as a proven win


def test_level_6_follows_up_a_win_in_2_to_the_end():
    g = replay(12, 3)
    seat = g.current_player()
    player = make_player(6, think_ms=5000)
    g.push(player.choose(g))
    for reply in list(g.legal_moves()):
        g.push(reply)
        if g.outcome() is None:
            g.push(player.choose(g))
            assert mover_wins(g, seat)
            g.pop()
        g.pop()


def _threat_positions():
    """Real-play positions where the opponent threatens to connect and a move exists that stops it."""
    out = []
    for index, lg in enumerate(GAMES):
        if lg.winner is None:
            continue
        for back in (2, 4):
            g = replay(index, back)
            if g.outcome() is not None or winning_moves_in_1(g):
                continue
            g.push(g.legal_moves()[0])
            threatened = g.outcome() is None and winning_moves_in_1(g)
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
    move = make_player(6, think_ms=3000).choose(g)
    assert move in safe_moves(g), g.move_to_str(move)


def test_the_150_turn_draw_is_known_to_the_search():
    # White to move on turn 149 (the last one): nothing but an immediate connection wins, and the
    # position is otherwise bad or good; every non-connecting move is a draw, scored 0.
    g = replay(3, 1)
    assert g.turns_played == 149 and not winning_moves_in_1(g)
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


def test_noisy_levels_are_deterministic_for_a_seed():
    g = replay(1, 60)
    picks = [make_player(2, seed=7).choose(g) for _ in range(2)]
    assert picks[0] == picks[1]
    assert len({make_player(1, seed=s).choose(g) for s in range(12)}) > 1  # level 1 does vary


def test_strong_levels_replay_with_a_seed_and_vary_without_one():
    g = replay(1, 60)
    assert make_player(4, seed=3).choose(g) == make_player(4, seed=3).choose(g)
    # near-equal moves are picked at random, so games between fixed budgets do not repeat
    assert len({make_player(4, seed=s).choose(LinesOfAction.new(0)) for s in range(10)}) > 1


def test_deadline_is_kept():
    g = replay(2, 60)
    player = make_player(6)
    start = time.monotonic()
    move = player.choose(g, start + 0.09)
    assert move in g.legal_moves()
    assert time.monotonic() - start < 0.2


def test_progress_is_reported_with_depth_nodes_and_best_move():
    g = replay(2, 50)
    infos: list[SearchInfo] = []
    make_player(6, think_ms=300).choose(g, on_info=infos.append)
    assert infos and infos[-1].depth >= 2 and infos[-1].nodes > 0 and infos[-1].best


def test_level_1_beats_a_random_mover():
    from ai.random_player import RandomPlayer

    for k in range(2):  # level 1 plays black, then white
        g = LinesOfAction.new(k)
        players = [make_player(1, seed=k), RandomPlayer(k)]
        if k:
            players.reverse()
        while g.outcome() is None:
            g.push(players[g.current_player()].choose(g))
        assert g.outcome().winner == k


def test_bot_answers_the_referee_input_inside_the_time_limit():
    from ai.bot import run_bot

    g = LinesOfAction.new(0)
    lines = g.bot_input(first=True)
    out = io.StringIO()
    player = make_player(6)
    start = time.monotonic()
    run_bot("lines-of-action", player.choose, stdin=io.BytesIO(("\n".join(lines) + "\n").encode()), stdout=out)
    assert time.monotonic() - start < 1.0
    g.play(out.getvalue().strip())  # a legal move


def test_search_speed_reports_nodes_and_seconds():
    nodes, seconds = search_speed(0.3)
    assert nodes > 1000 and 0.2 < seconds < 1.5
