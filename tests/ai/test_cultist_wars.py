"""Cultist Wars AI: the search plays the referee's turns exactly, the levels answer legally and in
time, and level 6 never lets a forced win from real play slip."""
from __future__ import annotations

import io
import random
import time

import pytest

from ai.cultist_wars import LEVELS, make_player, search_speed
from ai.cultist_wars.mcts import Greedy
from ai.cultist_wars.search import WIN_BOUND, Searcher
from ai.cultist_wars.state import State, gen_moves, to_engine_move
from ai.player import SearchInfo
from engines.cultist_wars import CultistWars
from tests.conformance_data import logged_games


def _state_key(s: State, game: CultistWars):
    return (s.turn, s.lcg, tuple(s.pos), tuple(s.hp), tuple(s.owner), game.key()[5])


def _logged_position(index: int, plies_before_end: int) -> CultistWars:
    lg = logged_games("cultist-wars")[index]
    game = CultistWars.new(lg.seed)
    for t in lg.turns[:len(lg.turns) - plies_before_end]:
        game.play(t.output)
    return game


def _forced_win(game: CultistWars, me: int, plies: int) -> bool:
    """Does `me` win by force within `plies` plies?  Plain minimax over the engine's canonical moves."""
    o = game.outcome()
    if o is not None:
        return o.winner == me
    if plies == 0:
        return False
    mine = game.current_player() == me
    for m in game.legal_moves():
        game.push(m)
        r = _forced_win(game, me, plies - 1)
        game.pop()
        if r == mine:
            return mine
    return not mine


# ---------------------------------------------------------------- the search's model of the game


@pytest.mark.parametrize("seed", [3, 17])
def test_search_turns_are_the_referees_turns_neutral_move_included(seed):
    """Every search move, played with the neutral move and the removal of the dead, gives the engine's
    position (LCG state included); undo restores it; every engine move's effect is one of the
    search's moves (the pruned shots hit obstacles or one's own units, or duplicate another)."""
    game = CultistWars.new(seed)
    state = State.from_game(game)
    bots = [Greedy(seed), Greedy(seed + 1)]
    rng = random.Random(seed)
    events = 0
    while not game.is_over():
        assert _state_key(state, game) == game.key()
        moves = gen_moves(state.pos, state.hp, state.owner, state.occ, state.turn & 1, all_shots=True)
        if game.turn % 5 == 0:
            effects = set()
            for m in moves:
                state.play(m)
                effects.add(_state_key(state, game))
                state.undo()
            for em in game.legal_moves():
                game.push(em)
                assert game.key() in effects, em
                game.pop()
        m = bots[game.current_player()].pick(state) if rng.random() < 0.7 else rng.choice(moves)
        events += (m & 3) >= 2
        before = _state_key(state, game), state.hash
        state.play(m)
        game.push(to_engine_move(m))
        assert _state_key(state, game) == game.key() and tuple(state.cnt) == game.unit_counts()
        if rng.random() < 0.1:
            state.undo()
            game.pop()
            assert (_state_key(state, game), state.hash) == before
    assert events > 10  # shots and conversions were exercised


def test_searching_leaves_the_position_and_the_game_unchanged():
    game = _logged_position(1, 90)
    key, stack = game.key(), list(game.move_stack)
    for level in (1, 4):
        m = make_player(level, seed=1).choose(game)
        assert game.is_legal(m)
    assert game.key() == key and game.move_stack == stack


# ---------------------------------------------------------------- forced wins from real play

# (logged game, plies before its end, plies within which the side to move wins by force)
FORCED_WINS = [
    (0, 1, 1),  # seed 49, turn 124: the leader converts the last enemy cultist (elimination)
    (0, 3, 1),  # seed 49, turn 122: the same conversion is already on (the logged bot walked away)
    (2, 1, 1),  # seed 71, turn 81: conversion of the last enemy unit
    (1, 2, 2),  # seed 59, turn 148: 2 units against 1; the opponent's last turn must not catch up
    (1, 4, 3),  # seed 59, turn 146: the same, two turns before the end (shoot the leader, then again)
    (1, 6, 5),  # seed 59, turn 144: three turns before the end
]


@pytest.mark.parametrize("index,before_end,plies", FORCED_WINS)
def test_level6_keeps_a_forced_win_from_a_logged_game(index, before_end, plies):
    game = _logged_position(index, before_end)
    me = game.current_player()
    assert _forced_win(game, me, plies)  # the position really is won
    move = make_player(6, seed=0).choose(game)
    game.push(move)
    assert _forced_win(game, me, plies - 1), f"{game.move_to_str(move)} lets the win slip"


def test_search_proves_the_win_it_plays():
    """The search reports a proven win (score beyond WIN_BOUND) in a forced-win position."""
    r = Searcher().search(State.from_game(_logged_position(1, 4)), max_depth=4)
    assert r.score >= WIN_BOUND


# ---------------------------------------------------------------- levels, time, progress


def test_levels_describe_one_to_six():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6]
    assert make_player(3).name == "cultist-wars level 3"
    with pytest.raises(ValueError):
        make_player(7)


def test_same_seed_same_moves_for_a_noisy_level():
    game = _logged_position(1, 100)
    a = [make_player(2, seed=5).choose(game) for _ in range(2)]
    b = [make_player(2, seed=5).choose(game) for _ in range(2)]
    assert a == b


def test_level6_answers_by_the_deadline_of_a_codingame_turn():
    """30 ms is the bot's deadline for a 50 ms CodinGame turn; allow for a loaded machine."""
    game = _logged_position(1, 100)
    player = make_player(6)
    t0 = time.monotonic()
    move = player.choose(game, t0 + 0.030)
    assert time.monotonic() - t0 < 0.030 + 0.060
    assert game.is_legal(move)


def test_a_codingame_first_turn_leaves_time_for_the_bot_to_start():
    """The 1000 ms first turn also pays for the process start-up: the search keeps it short."""
    game = CultistWars.new(49)
    t0 = time.monotonic()
    move = make_player(6).choose(game, t0 + 0.6)
    assert time.monotonic() - t0 < 0.15 + 0.1
    assert game.is_legal(move)


def test_progress_reports_depth_nodes_and_best_move():
    infos: list[SearchInfo] = []
    game = _logged_position(1, 100)
    make_player(5).choose(game, None, infos.append)
    assert infos and infos[-1].depth >= 1 and infos[-1].nodes > 0 and infos[-1].best
    assert game.parse_output(infos[-1].best) is not None


def test_level1_is_beatable_but_not_random():
    """Level 1 takes what is offered (the conversion next to its leader) most of the time."""
    game = _logged_position(0, 1)  # seed 49, turn 124: CONVERT 9 wins on the spot
    picks = [make_player(1, seed=s).choose(game) for s in range(12)]
    assert sum(game.move_to_str(m) == "0 CONVERT 9" for m in picks) >= 9


def test_bot_answers_a_codingame_turn():
    """`termarena bot cultist-wars` reads the referee's input and prints a valid action."""
    from ai.bot import run_bot

    game = CultistWars.new(49)
    stdin = io.BytesIO(("\n".join(game.bot_input(first=True)) + "\n").encode())
    out = io.StringIO()
    assert run_bot("cultist-wars", make_player(6).choose, stdin=stdin, stdout=out) == 0
    game.play(out.getvalue().strip())  # raises if the referee would reject it


def test_search_speed_reports_nodes_and_seconds():
    nodes, seconds = search_speed(0.2)
    assert nodes > 0 and seconds > 0
