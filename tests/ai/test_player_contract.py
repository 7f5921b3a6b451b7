"""What every game's AI player promises, checked on each of the four games alike: the levels exist and
are described, every level answers a legal move and leaves the game as it found it, noisy levels
replay for a seed, deadlines are kept, progress is reported, wins from real play are taken and kept,
the bot answers the referee, and the benchmark measures.

Real-play positions are (logged game, turns before its end) of the official referees' logs, checked
by brute force with the engine alone (tests/helpers/real_play.py).  Each game's own file tests what only
that game has (the book, the goal in the open, the 150-turn draw, the neutral move...).
"""
from __future__ import annotations

import io

import pytest

from ai.base_player import Level, SearchPlayer
from ai.levels import MAX_LEVEL, MIN_LEVEL, ai_module, make_player as make_level_player
from ai.player import SearchInfo
from ai.random_player import RandomPlayer
from engines import GAME_IDS, get_game
from tests.helpers.players import CASES, random_position
from tests.helpers.real_play import logged_position, moves_to_try, mover_wins, wins_within

LEVEL_RANGE = range(MIN_LEVEL, MAX_LEVEL + 1)


def make_player_for(game_id: str, level: int, **options):
    return ai_module(game_id).make_player(level, **options)


def snapshot(game):
    return game.to_text(), list(game.move_stack)


# ------------------------------------------------------------------------------ the interface


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_package_offers_the_same_names(game_id):
    mod = ai_module(game_id)
    for name in ("LEVELS", "LEVEL_TABLE", "make_player", "search_speed"):
        assert name in mod.__all__ and hasattr(mod, name)
    assert sorted(mod.LEVELS) == sorted(mod.LEVEL_TABLE) == list(LEVEL_RANGE)
    for level, spec in mod.LEVEL_TABLE.items():
        assert isinstance(spec, Level) and spec.describe and mod.LEVELS[level] == spec.describe


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_level_is_built_and_named_and_no_other(game_id):
    mod = ai_module(game_id)
    for level in LEVEL_RANGE:
        for player in (mod.make_player(level), make_level_player(game_id, level)):
            assert isinstance(player, SearchPlayer) and player.level == level
            assert player.name == f"{game_id} level {level}"
    for level in (MIN_LEVEL - 1, MAX_LEVEL + 1):
        with pytest.raises(ValueError):
            mod.make_player(level)
        with pytest.raises(ValueError):
            make_level_player(game_id, level)


@pytest.mark.parametrize("level", LEVEL_RANGE)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_level_plays_a_legal_move_and_leaves_the_game_unchanged(game_id, level):
    case = CASES[game_id]
    positions = [get_game(game_id).new(7), random_position(game_id, level, 12),
                 random_position(game_id, level, 40), logged_position(game_id, *case.late)]
    # at most 2,000 nodes a move (the level's own budget when smaller), not 300 ms of the clock: the same
    # moves on any machine, and quickly
    nodes = min(ai_module(game_id).LEVEL_TABLE[level].nodes or 2_000, 2_000)
    for game in positions:
        before = snapshot(game)
        move = make_player_for(game_id, level, seed=1, nodes=nodes, think_ms=60_000).choose(game)
        assert game.is_legal(move)
        assert snapshot(game) == before


def test_a_finished_game_has_no_move_to_choose():
    for game_id in GAME_IDS:
        game = logged_position(game_id, 0, 0)
        assert game.outcome() is not None
        with pytest.raises(ValueError):
            make_player_for(game_id, 3).choose(game)


# ------------------------------------------------------------------------------ noise and seeds


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_noisy_levels_replay_for_a_seed_and_level_1_varies_between_seeds(game_id):
    game = logged_position(game_id, *CASES[game_id].midgame)
    for level in (1, 2, 3):
        picks = [make_player_for(game_id, level, seed=5).choose(game) for _ in range(3)]
        assert picks[0] == picks[1] == picks[2], level
    start = get_game(game_id).new(7)
    assert len({start.move_to_str(make_player_for(game_id, 1, seed=s).choose(start)) for s in range(12)}) > 1


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_level_1_beats_a_random_mover(game_id):
    for k in range(4):  # level 1 moves first in games 0 and 2, second in games 1 and 3
        game = get_game(game_id).new(k)
        players = [make_player_for(game_id, 1, seed=k), RandomPlayer(k)]
        if k % 2:
            players.reverse()
        while game.outcome() is None:
            game.push(players[game.current_player()].choose(game))
        assert game.outcome().winner == k % 2, k


# ------------------------------------------------------------------------------ time and progress


# Each read of the ticking clock (tests/helpers/clock.py) is worth 1 ms: every game's search reads it
# at least every 128 nodes, so a deadline passes after a fixed amount of work on any machine.
CLOCK_STEP = 0.001


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_level_6_keeps_the_deadline(game_id, ticking_clock):
    clock = ticking_clock(CLOCK_STEP)
    case = CASES[game_id]
    game = logged_position(game_id, *case.midgame)
    player = make_player_for(game_id, 6)
    for budget in case.deadlines:
        infos: list[SearchInfo] = []
        start = clock.now
        move = player.choose(game, start + budget, infos.append)
        # the search stops within a few looks at the clock after the deadline; without the deadline it
        # would run on to its node budget or its 2.5 s cap
        assert clock.now - start <= budget + 5 * CLOCK_STEP
        assert player.cfg.nodes is None or infos[-1].nodes < player.cfg.nodes
        assert game.is_legal(move)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_progress_is_reported_with_depth_nodes_and_the_move_played(game_id):
    case = CASES[game_id]
    game = logged_position(game_id, *case.midgame)
    infos: list[SearchInfo] = []
    # A depth limit, not a clock, so the test holds however loaded the machine is (one more than the
    # depth asked for: Paper Soccer answers from odd depths only).
    move = make_player_for(game_id, 6, depth=case.min_depth + 1, cap_ms=120_000).choose(game, None, infos.append)
    assert infos and all(isinstance(i, SearchInfo) for i in infos)
    last = infos[-1]
    assert last.depth >= case.min_depth and last.nodes > 0 and last.best == game.move_to_str(move)
    assert game.parse_output(last.best) is not None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_bot_answers_the_referee_in_time_with_a_legal_move(game_id, ticking_clock, monkeypatch):
    from ai import bot

    # a bot process 0.2 s old at its first input: the referee's 1,000 ms first turn counts that too
    monkeypatch.setattr(bot, "process_age_s", lambda: 0.2)
    clock = ticking_clock(CLOCK_STEP)
    game = get_game(game_id).new(7)
    stdin = io.BytesIO(("\n".join(game.bot_input(first=True)) + "\n").encode())
    out = io.StringIO()
    start = clock.now
    assert bot.run_bot(game_id, make_player_for(game_id, 6).choose, stdin=stdin, stdout=out) == 0
    assert clock.now - start < 1.0 - 0.2
    game.play(out.getvalue().strip())  # raises if the referee would refuse it


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_search_speed_reports_nodes_and_seconds(game_id):
    # What `bench` prints: nodes searched and the time they took (how many is a figure, not a test).
    nodes, seconds = ai_module(game_id).search_speed(0.1)
    assert nodes > 0 and seconds >= 0.05


# ------------------------------------------------------------------------------ wins from real play


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_real_play_positions_are_wins_in_as_many_plies_as_said(game_id):
    case = CASES[game_id]
    for index, back in case.win_in_1:
        game = logged_position(game_id, index, back)
        assert wins_within(game, game.current_player(), 1), (index, back)
    for index, back, plies in case.forced_wins:
        game = logged_position(game_id, index, back)
        me = game.current_player()
        assert wins_within(game, me, plies) and not wins_within(game, me, plies - 1), (index, back)


@pytest.mark.parametrize("level", LEVEL_RANGE)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_level_misses_a_win_in_1(game_id, level):
    for index, back in CASES[game_id].win_in_1:
        game = logged_position(game_id, index, back)
        seat = game.current_player()
        for seed in range(3):
            move = make_player_for(game_id, level, seed=seed, think_ms=2000).choose(game)
            game.push(move)
            assert mover_wins(game, seat), f"level {level} played {game.move_to_str(move)} at {index, back}"
            game.pop()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_level_6_keeps_a_forced_win_and_reports_it(game_id):
    for index, back, plies in CASES[game_id].forced_wins:
        game = logged_position(game_id, index, back)
        me = game.current_player()
        infos: list[SearchInfo] = []
        move = make_player_for(game_id, 6, seed=0, think_ms=5000).choose(game, None, infos.append)
        if len(game.legal_moves()) > 1:  # a move that is the only one is played without a search
            assert infos and infos[-1].score >= 1e6, (index, back)  # reported as a proven win
        game.push(move)
        assert wins_within(game, me, plies - 1), f"{game.move_to_str(move)} lets the win at {index, back} slip"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_level_6_follows_a_win_by_its_next_move_through_to_the_end(game_id):
    for index, back, plies in CASES[game_id].forced_wins:
        if plies != 3:
            continue
        game = logged_position(game_id, index, back)
        seat = game.current_player()
        player = make_player_for(game_id, 6, seed=0, think_ms=5000)
        game.push(player.choose(game))
        for reply in moves_to_try(game):
            game.push(reply)
            if game.outcome() is None:
                game.push(player.choose(game))
                assert mover_wins(game, seat), (index, back)
                game.pop()
            else:
                assert mover_wins(game, seat), (index, back)
            game.pop()
