"""Cultist Wars engine: the rules file (shared/rules/cultist-wars.md) fact by fact.

Positions are built with `position()` below: an open 13x7 map unless obstacles are given, units by
id as (owner, hp, x, y); ids not given are out of the game (hp 0, owner 0 unless `dead_owner` says:
so they are not in the neutral list).
"""
from __future__ import annotations

import random

import pytest

from engines import get_game
from engines.base import InvalidOutput, PositionError
from engines.cultist_wars import CultistWars, Move
from engines.cultist_wars.board import bresenham, bullet_line, find_path, tile, tile_in_direction
from engines.cultist_wars.lcg import LCG_START, lcg_next, lcg_rand
from engines.cultist_wars.mapgen import SplittableRandom, generate_map
from engines.cultist_wars.reader import CultistWarsReader
from tests.helpers.conformance_data import logged_games

WAIT = Move("WAIT")


def mv(u, x, y):
    return Move("MOVE", u, x, y)


def shoot(u, t):
    return Move("SHOOT", u, target=t)


def convert(u, t):
    return Move("CONVERT", u, target=t)


def position(units, obstacles=(), lcg=LCG_START, turn=0, dead_owner=None):
    """units: {id: (owner, hp, x, y)}; leaders default to their start tiles with 10 hp."""
    spec = {0: (0, 10, 0, 3), 1: (1, 10, 12, 3)}
    spec.update(units)
    dead_owner = dead_owner or {}
    pos, hp, owner = [-1] * 14, [0] * 14, [0] * 14
    owner[1] = 1
    for u in range(14):
        if u in spec:
            owner[u], hp[u], x, y = spec[u]
            if hp[u] > 0:
                pos[u] = tile(x, y)
        elif u in dead_owner:
            owner[u] = dead_owner[u]
    return CultistWars(frozenset(tile(x, y) for x, y in obstacles), pos, hp, owner, lcg, turn)


def lcg_picking(index, bound=12):
    """An LCG state whose next rand(bound) is `index`."""
    s = 1
    while lcg_rand(s, bound)[0] != index:
        s += 1
    return s


def where(game, u):
    v = game.units()[u]
    return (v.x, v.y)


# ---------------------------------------------------------------- map generation (§2)


@pytest.mark.parametrize("lg", logged_games("cultist-wars"), ids=lambda lg: f"seed{lg.seed}")
def test_map_of_a_logged_seed_is_the_referees(lg):
    """§2: same seed, same map: obstacle rows and neutral tiles of the official game's first input."""
    first = lg.turns[0].input
    m = generate_map(lg.seed)
    assert m.rows() == list(first[2:9])
    start = {int(l.split()[0]): tuple(map(int, l.split()[3:5])) for l in first[10:]}
    assert [start[u] for u in range(2, 14)] == list(m.neutrals)
    game = CultistWars.new(lg.seed)
    assert game.bot_input(first=True) == list(first)


def test_splittable_random_draws_are_java_ints_and_doubles():
    """§2.3: nextInt(bound) stays in range, nextDouble in [0,1); same seed, same stream."""
    a, b = SplittableRandom(49), SplittableRandom(49)
    draws = [a.next_int(5) for _ in range(200)]
    assert draws == [b.next_int(5) for _ in range(200)]
    assert set(draws) == set(range(5))
    assert all(0.0 <= a.next_double() < 1.0 for _ in range(200))
    assert all(-(1 << 31) <= a.next_int() < (1 << 31) for _ in range(200))


def test_ambiguity_symmetric_map():
    """Ambiguity row "randomly generated, but is symmetric": left-right mirror x -> 12-x; neutrals
    drawn in x 1..5 and mirrored (id 8+i mirrors id 2+i); column 6 never has obstacles; all floor
    connected."""
    for seed in range(60):
        m = generate_map(seed)
        assert all((12 - x, y) in m.obstacles for x, y in m.obstacles)
        assert not any(x == 6 for x, _ in m.obstacles)
        for i in range(6):
            (x, y), (mx, my) = m.neutrals[i], m.neutrals[i + 6]
            assert 1 <= x <= 5 and (mx, my) == (12 - x, y)
        assert len(set(m.neutrals)) == 12 and not set(m.neutrals) & m.obstacles
        assert (0, 3) not in m.obstacles


def test_ambiguity_obstacle_count_is_random_and_even():
    """Ambiguity row "obstacle count": random (even, about 2..26), not fixed."""
    counts = {len(generate_map(seed).obstacles) for seed in range(100)}
    assert all(c % 2 == 0 for c in counts)
    assert len(counts) >= 5


def test_default_seed_is_fixed():
    """new(None) is the documented default map (game seed 0)."""
    assert CultistWars.new().key() == CultistWars.new(0).key()
    assert CultistWars.new().map_seed == 0


# ---------------------------------------------------------------- input (§8)


def test_golden_first_inputs_of_both_players():
    """§8: init lines (myId, `13 7`, 7 rows) on each player's first turn, then units in id order,
    `id type hp x y owner`; the state after the opponent's action and the neutral move."""
    lg = logged_games("cultist-wars")[0]
    game = CultistWars.new(lg.seed)
    assert game.bot_input(first=True) == list(lg.turns[0].input)
    assert game.bot_input(first=True)[:2] == ["0", "13 7"]
    game.play(lg.turns[0].output)
    assert game.bot_input(first=True) == list(lg.turns[1].input)
    game.play(lg.turns[1].output)
    assert game.bot_input(first=False) == list(lg.turns[2].input)
    assert game.bot_input(first=False)[1] == "0 1 10 1 3 0"


def test_input_leaves_out_dead_units_but_lists_neutrals():
    """§8: numOfUnits counts units in the game, neutrals included, dead left out; type 1 = leader."""
    game = position({2: (2, 10, 5, 5), 3: (0, 4, 6, 6)}, dead_owner={4: 1})
    assert game.bot_input(first=False) == ["4", "0 1 10 0 3 0", "1 1 10 12 3 1", "2 0 10 5 5 2", "3 0 4 6 6 0"]


def test_converted_unit_keeps_type_0_and_hp():
    """§1/§7: conversion changes only the owner: hp kept, type stays 0."""
    game = position({5: (2, 6, 1, 3)}, lcg=lcg_picking(11))
    game.push(convert(0, 5))
    assert "5 0 6 1 3 0" in game.bot_input(first=False)


# ---------------------------------------------------------------- parsing (§4)


@pytest.mark.parametrize("text,expected", [
    ("WAIT", WAIT),
    ("  WAIT\t\r", WAIT),  # Java trim strips every char <= ' '
    ("2 MOVE 4 5", mv(2, 4, 5)),
    ("2 MOVE +4 05", mv(2, 4, 5)),  # Integer.parseInt accepts a sign and leading zeros
    ("2 MOVE 4 5 hi", mv(2, 4, 5)),  # extra tokens are ignored
    ("2 MOVE 4 5 6 7 8", mv(2, 4, 5)),
    ("2 MOVE 4 5  x", mv(2, 4, 5)),  # an empty token among the ignored ones is harmless
    (" 2 SHOOT 1 ", shoot(2, 1)),
    ("2 MOVE \u0664 5", mv(2, 4, 5)),  # Character.digit: any Unicode decimal digit
    ("0 CONVERT 3", convert(0, 3)),
])
def test_outputs_the_referee_accepts(text, expected):
    """§4: trim, split on single spaces, case-sensitive command, Integer.parseInt."""
    game = position({2: (0, 10, 3, 3), 3: (2, 10, 0, 4)})
    assert game.parse_output(text) == expected
    assert game.is_legal(expected)


@pytest.mark.parametrize("text,reason", [
    ("", "is not a valid action"),
    ("wait", "is not a valid action"),
    ("WAIT x", "No enum constant"),  # 2 tokens: the second must be a command
    ("2 WAIT", "is not a valid action"),  # WAIT as the second token is invalid
    ("2 move 4 5", "No enum constant"),
    ("2  MOVE 4 5", "No enum constant"),  # a double space makes an empty token
    ("2\tMOVE 4 5", "No enum constant"),  # a tab is not a separator: the command token is "4"
    ("\u00a0WAIT", "is not a valid action"),  # trim leaves non-ASCII spaces
    ("2 MOVE 4", "out of bounds"),  # missing argument
    ("2 SHOOT", "out of bounds"),
    ("x MOVE 4 5", "For input string"),
    ("2 MOVE 4 5x", "For input string"),
    ("2 MOVE 1_0 5", "For input string"),
    ("2 MOVE 2147483648 1", "For input string"),  # int overflow
    ("2 MOVE -1 1", "Invalid coordinates"),
    ("2 MOVE 13 1", "Invalid coordinates"),
    ("2 MOVE 4 7", "Invalid coordinates"),
    ("14 MOVE 0 0", "not a valid unit ID"),
    ("-1 MOVE 0 0", "not a valid unit ID"),
    ("1 MOVE 11 3", "is not your unit"),
    ("3 MOVE 1 1", "is not your unit"),  # a neutral
    ("2 SHOOT 14", "Invalid target ID"),
    ("2 SHOOT 2", "cannot shoot itself"),
    ("0 SHOOT 1", "Cult leaders cannot shoot"),
    ("2 SHOOT 4", "no longer in game"),  # a dead target
    ("0 CONVERT 2", "Can't convert own unit"),
    ("0 CONVERT 1", "Cult leaders cannot be converted"),
    ("2 CONVERT 3", "Only cult leaders can convert"),
    ("0 CONVERT 4", "no longer in game"),
])
def test_outputs_the_referee_rejects(text, reason):
    """§4: each invalid form, with the referee's own reason."""
    game = position({2: (0, 10, 3, 3), 3: (2, 10, 0, 4)}, dead_owner={4: 2})
    with pytest.raises(InvalidOutput, match=reason):
        game.parse_output(text)


def test_dead_own_unit_cannot_act():
    """§4: MOVE/SHOOT need the unit alive; a dead unit still belongs to its player."""
    game = position({3: (2, 10, 5, 5)}, dead_owner={2: 0})
    for text in ("2 MOVE 1 1", "2 SHOOT 3"):
        with pytest.raises(InvalidOutput, match="Unit 2 is no longer in game"):
            game.parse_output(text)


def test_recorded_output_is_the_trimmed_line():
    """The move list keeps the line as written, Java-trimmed (it replays to the same action)."""
    game = CultistWars.new(49)
    assert game.recorded_output("  0 MOVE 4 2 go \r") == "0 MOVE 4 2 go"
    assert game.parse_output(game.recorded_output("  0 MOVE 4 2 go \r")) == mv(0, 4, 2)


# ---------------------------------------------------------------- resolution (§5)


def test_bfs_takes_the_first_step_in_up_right_down_left_order():
    """§5: of the shortest paths, the first in U<R<D<L order (BFS tree path)."""
    game = position({2: (0, 10, 2, 2)})
    assert game.preview(mv(2, 4, 4)).step == (3, 2)  # R before D
    assert game.preview(mv(2, 4, 0)).step == (2, 1)  # U before R
    assert game.preview(mv(2, 0, 4)).step == (2, 3)  # D before L
    blocked = position({2: (0, 10, 2, 2), 3: (2, 10, 3, 2)})
    assert blocked.preview(mv(2, 4, 4)).step == (2, 3)


def test_bfs_target_may_be_an_obstacle_or_a_unit():
    """§5/ambiguity "MOVE onto an obstacle or unit": the target test comes before the free test."""
    game = position({2: (0, 10, 2, 2), 3: (2, 10, 6, 2)}, obstacles=[(6, 5)])
    assert game.preview(mv(2, 6, 5)).step == (3, 2)
    assert game.preview(mv(2, 6, 2)).resolved == mv(2, 3, 2)


def test_findpath_fails_then_bfs_ignoring_units():
    """Ambiguity row "no path … move along the shortest path": BFS ignoring units; the first step
    is taken only if it has no unit, else WAIT."""
    # Row 0 is a corridor (row 1 is all obstacles, x 9..12 of row 0 too); neutral 3 closes it.
    walls = [(x, 1) for x in range(13)] + [(x, 0) for x in range(9, 13)]
    game = position({2: (0, 10, 1, 0), 3: (2, 10, 4, 0)}, obstacles=walls)
    assert find_path(game._occ, tile(1, 0), tile(7, 0)) is None
    assert tile_in_direction(game._occ, tile(1, 0), tile(7, 0)) == tile(2, 0)
    res = game.preview(mv(2, 7, 0))
    assert (res.resolved, res.how) == (mv(2, 2, 0), "direction")
    jammed = position({2: (0, 10, 1, 0), 3: (2, 10, 2, 0)}, obstacles=walls)
    res = jammed.preview(mv(2, 7, 0))
    assert (res.resolved, res.how) == (WAIT, "direction_blocked")


def test_boxed_in_target_means_wait():
    """§5: if even the BFS over all floor fails, WAIT."""
    game = position({2: (0, 10, 2, 2)}, obstacles=[(5, 4), (7, 4), (6, 3), (6, 5)])
    res = game.preview(mv(2, 6, 4))
    assert res.resolved == WAIT and res.how == "no_path"


def test_ambiguity_move_onto_obstacle_or_unit_is_valid():
    """Ambiguity row "MOVE onto an obstacle or unit": not an error; adjacent -> WAIT; far -> path."""
    game = position({2: (0, 10, 2, 2), 3: (2, 10, 2, 3)}, obstacles=[(3, 2)])
    for text in ("2 MOVE 3 2", "2 MOVE 2 3", "2 MOVE 2 2"):
        move = game.parse_output(text)
        assert game.is_legal(move) and move not in game.legal_moves()
        assert game.preview(move).resolved == WAIT
    before = game.key()
    game.push(game.parse_output("2 MOVE 3 2"))
    assert where(game, 2) == (2, 2) and game.turn == 1
    game.pop()
    assert game.key() == before


def test_ambiguity_out_of_range_shoot_and_far_convert_move_towards():
    """Ambiguity row "target beyond its range": SHOOT beyond 6 and non-adjacent CONVERT become a
    one-step move by the BFS rules."""
    game = position({2: (0, 10, 2, 2), 3: (1, 10, 9, 2), 4: (2, 10, 0, 6)})
    assert game.preview(shoot(2, 3)).resolved == mv(2, 3, 2)  # distance 7
    assert game.preview(convert(0, 4)).resolved == mv(0, 0, 4)
    near = position({2: (0, 10, 2, 2), 3: (1, 10, 8, 2)})
    assert near.preview(shoot(2, 3)).resolved == shoot(2, 3)  # distance 6


# ---------------------------------------------------------------- shooting (§6)


def test_bresenham_forward_and_backward_lines():
    """§6: fragkakis Bresenham, end points excluded, diagonal steps skip the corner tiles."""
    assert bresenham(0, 0, 3, 1) == [(1, 0), (2, 1)]
    assert bresenham(0, 0, 2, 2) == [(1, 1)]
    assert bresenham(0, 0, 2, 1) == [(1, 0)]
    assert bresenham(2, 1, 0, 0) == [(1, 1)]  # not the same tiles backwards
    # shooter below (larger y) -> the line is drawn from the target, nearest-shooter first
    assert bullet_line((2, 1), (0, 0)) == [(1, 0)]
    assert bullet_line((0, 0), (2, 1)) == [(1, 0)]
    assert bullet_line((0, 3), (4, 3)) == [(1, 3), (2, 3), (3, 3)]


def test_backward_line_is_drawn_from_the_target():
    """Ambiguity row "Bresenham … lower Y towards higher Y": a shooter at (2,1) aiming at (0,0) is
    blocked by (1,0) (on the target->shooter line), not by (1,1)."""
    shooter = {2: (0, 10, 2, 1), 3: (1, 10, 0, 0)}
    clear = position(shooter, obstacles=[(1, 1)])
    assert clear.preview(shoot(2, 3)).hit_unit == 3
    blocked = position(shooter, obstacles=[(1, 0)])
    assert blocked.preview(shoot(2, 3)).hit == (1, 0) and blocked.preview(shoot(2, 3)).hit_unit is None


def test_forward_shot_hits_the_first_blocker_backward_the_one_nearest_the_shooter():
    """§6: forward keeps the first blocking tile, backward (equal y included) the last drawn one;
    either way the blocker nearest the shooter."""
    down = position({2: (0, 10, 5, 0), 3: (1, 10, 5, 4), 4: (2, 10, 5, 1), 5: (2, 10, 5, 2)})
    assert down.preview(shoot(2, 3)).hit_unit == 4
    up = position({2: (0, 10, 5, 4), 3: (1, 10, 5, 0), 4: (2, 10, 5, 1), 5: (2, 10, 5, 2)})
    assert up.preview(shoot(2, 3)).hit_unit == 5
    level = position({2: (0, 10, 1, 3), 3: (1, 10, 5, 3), 4: (2, 10, 3, 3), 5: (2, 10, 4, 3)})
    p = level.preview(shoot(2, 3))
    assert p.hit_unit == 4 and p.damage == 5 and not p.kills
    assert p.bullet == ((2, 3), (3, 3), (4, 3), (5, 3))
    corner = position({2: (0, 10, 5, 0), 3: (1, 10, 7, 2)}, obstacles=[(6, 0), (5, 1)])
    assert corner.preview(shoot(2, 3)).hit_unit == 3  # a diagonal step skips the corner tiles


def test_ambiguity_damage_counts_distance_to_the_unit_hit():
    """Ambiguity row "Damage is 7 - distance": distance to the unit actually hit; shooting
    neutrals is legal; an obstacle absorbs the shot."""
    game = position({2: (0, 10, 0, 5), 3: (1, 10, 5, 5), 4: (2, 10, 2, 5)}, lcg=lcg_picking(11))
    assert shoot(2, 3) in game.legal_moves()
    game.push(shoot(2, 3))
    assert game._hp[4] == 10 - 5 and game._hp[3] == 10
    neutral = position({2: (0, 10, 0, 5), 4: (2, 10, 6, 5)}, lcg=lcg_picking(11))
    neutral.push(shoot(2, 4))
    assert neutral._hp[4] == 9
    wall = position({2: (0, 10, 0, 5), 3: (1, 10, 4, 5)}, obstacles=[(2, 5)], lcg=lcg_picking(11))
    wall.push(shoot(2, 3))
    assert wall._hp[3] == 10


def test_friendly_fire_counts_against_the_shooter():
    """§6: own units block and take the damage; numberOfUnits of the owner drops."""
    game = position({2: (0, 10, 0, 5), 3: (1, 10, 4, 5), 4: (0, 2, 2, 5)}, lcg=lcg_picking(11))
    assert game.unit_counts() == (3, 2)
    game.push(shoot(2, 3))
    assert game._hp[4] == 0 and game._hp[3] == 10 and game.unit_counts() == (2, 2)
    own = position({2: (0, 10, 0, 5), 4: (0, 10, 1, 5)}, lcg=lcg_picking(11))
    assert shoot(2, 4) in own.legal_moves() and shoot(2, 0) in own.legal_moves()
    own.push(shoot(2, 0))  # the own leader, 2 tiles away
    assert own._hp[0] == 5


def test_dead_units_keep_their_tile_until_the_end_of_the_turn():
    """§6: a unit killed this turn still occupies its tile during the neutral move."""
    box = [(2, 2), (4, 2), (3, 1)]
    units = {5: (0, 10, 3, 5), 8: (1, 1, 3, 3), 4: (2, 10, 3, 2)}
    game = position(units, obstacles=box, lcg=lcg_picking(0))  # neutral 4 is picked
    start = game.lcg_state
    game.push(shoot(5, 8))
    assert where(game, 4) == (3, 2)  # could not step onto the dying unit's tile
    assert game.lcg_state == lcg_next(lcg_next(start))  # pick + rand(1) for the lone WAIT
    assert game._occ[tile(3, 3)] == -1 and where(game, 8) == (None, None)  # freed at the end
    assert game.bot_input(first=False)[0] == "4"


def test_lone_wait_option_still_draws_rand_1():
    """§9: a picked neutral with no free neighbour WAITs, using one rand(1) call."""
    game = position({4: (2, 10, 0, 0), 5: (2, 10, 1, 0), 6: (2, 10, 0, 1)}, lcg=lcg_picking(0),
                    obstacles=[(2, 0), (1, 1)])
    start = game.lcg_state
    game.push(WAIT)
    assert game.lcg_state == lcg_next(lcg_next(start))
    assert where(game, 4) == (0, 0)


def test_dead_neutrals_stay_in_the_neutral_list():
    """§9: neutrals = owner-2 units including dead ones, by id; a dead pick moves nothing and
    draws no second number."""
    alive_pick = position({3: (2, 10, 5, 5)}, lcg=lcg_picking(1), dead_owner={2: 2})
    start = alive_pick.lcg_state
    alive_pick.push(WAIT)
    assert where(alive_pick, 3) != (5, 5)  # index 1 is unit 3 because dead unit 2 is index 0
    assert alive_pick.lcg_state == lcg_next(lcg_next(start))
    dead_pick = position({3: (2, 10, 5, 5)}, lcg=lcg_picking(0), dead_owner={2: 2})
    start = dead_pick.lcg_state
    dead_pick.push(WAIT)
    assert where(dead_pick, 3) == (5, 5)
    assert dead_pick.lcg_state == lcg_next(start)


def test_ambiguity_neutral_move_frequency_and_generator():
    """Ambiguity row "A random neutral unit moves": only when rand(12) < #owner-2 units; the LCG
    starts at 42 whatever the game seed; uniform among free U/R/D/L steps."""
    assert CultistWars.new(1).lcg_state == CultistWars.new(2).lcg_state == 42
    game = position({3: (2, 10, 5, 5)}, lcg=lcg_picking(1))  # one neutral: index 1 is past it
    game.push(WAIT)
    assert where(game, 3) == (5, 5)
    k_state = lcg_picking(0)
    _, after_pick = lcg_rand(k_state, 12)
    k, _ = lcg_rand(after_pick, 4)
    game = position({3: (2, 10, 5, 5)}, lcg=k_state)
    game.push(WAIT)
    assert where(game, 3) == [(5, 4), (6, 5), (5, 6), (4, 5)][k]
    none_left = position({3: (0, 10, 5, 5)})
    none_left.push(WAIT)
    assert none_left.lcg_state == LCG_START  # no neutral at all: no draw


def test_lcg_is_the_referee_formula():
    """§9: seed = (seed*1103515245 + 12345) & 0x7FFFFFFF; value = seed % bound."""
    assert lcg_rand(42, 12) == (((42 * 1103515245 + 12345) & 0x7FFFFFFF) % 12,
                                (42 * 1103515245 + 12345) & 0x7FFFFFFF)


# ---------------------------------------------------------------- converting (§7)


def test_converting_an_enemy_moves_the_count():
    """§7: old owner loses one, new owner gains one; hp unchanged."""
    game = position({5: (1, 3, 1, 3)}, lcg=lcg_picking(11))
    assert convert(0, 5) in game.legal_moves()
    game.push(convert(0, 5))
    assert game._owner[5] == 0 and game._hp[5] == 3 and game.unit_counts() == (2, 1)


def test_ambiguity_leader_death_stops_conversion_only():
    """Ambiguity row "leader death": the game goes on; conversion is impossible from then on."""
    game = position({0: (0, 0, 0, 0), 2: (0, 10, 4, 4), 3: (2, 10, 4, 5)}, turn=10)
    assert game.outcome() is None
    assert not any(m.kind == "CONVERT" for m in game.legal_moves())
    with pytest.raises(InvalidOutput, match="Unit 0 is no longer in game"):
        game.parse_output("0 CONVERT 3")
    assert game.legal_moves()[0] == WAIT


def test_leader_converts_only_adjacent_non_leaders_it_does_not_own():
    """§4/§5: canonical CONVERTs are the adjacent valid targets."""
    game = position({0: (0, 10, 5, 3), 1: (1, 10, 6, 3), 2: (2, 10, 5, 2), 3: (1, 10, 4, 3),
                     4: (0, 10, 5, 4), 5: (2, 10, 5, 6)})
    converts = [m for m in game.legal_moves() if m.kind == "CONVERT"]
    assert converts == [convert(0, 2), convert(0, 3)]


# ---------------------------------------------------------------- legal moves


def test_canonical_moves_cover_every_effect():
    """legal_moves: WAIT, free steps, every unit in range (any owner) for cultists, adjacent
    converts for the leader; out-of-range SHOOT is valid but not listed (it is a step)."""
    game = position({2: (0, 10, 2, 3), 3: (1, 10, 8, 3), 4: (2, 10, 9, 3)}, obstacles=[(2, 2)])
    moves = game.legal_moves()
    assert moves[0] == WAIT
    assert mv(0, 0, 2) in moves and mv(0, 1, 3) in moves
    assert mv(2, 2, 2) not in moves and mv(2, 3, 3) in moves
    assert shoot(2, 3) in moves and shoot(2, 0) in moves  # own leader in range: friendly fire
    assert shoot(2, 4) not in moves and game.is_legal(shoot(2, 4))  # distance 7
    assert len(moves) == len(set(moves))


def test_is_legal_is_the_referees_validity():
    """is_legal accepts what the referee validates (broader than legal_moves) and nothing else."""
    game = position({2: (0, 10, 2, 3)}, obstacles=[(2, 2)])
    assert game.is_legal(mv(2, 2, 2)) and game.is_legal(mv(2, 12, 6)) and game.is_legal(mv(0, 0, 3))
    assert not game.is_legal(mv(2, 13, 0))
    assert not game.is_legal(mv(1, 5, 5))
    assert not game.is_legal(shoot(0, 1))
    assert not game.is_legal(Move("WAIT", 2))


# ---------------------------------------------------------------- end of game (§3)


def test_ambiguity_more_units_by_the_last_round():
    """Ambiguity row "Have more units by the last round": after turn index 149 the counts of
    players 0 and 1 decide; neutrals are not counted; equal is a draw."""
    game = position({2: (0, 10, 5, 5), 3: (2, 10, 6, 6), 4: (2, 10, 7, 6)}, turn=149)
    assert game.current_player() == 1
    game.push(WAIT)
    out = game.outcome()
    assert (out.winner, out.reason, out.scores) == (0, "turn_limit", (2, 1))
    assert game.legal_moves() == []
    draw = position({}, turn=149)
    draw.push(WAIT)
    assert draw.outcome().winner is None and draw.outcome().scores == (1, 1)
    assert position({}, turn=148).outcome() is None


def test_elimination_is_checked_after_every_turn():
    """§3 step 7: a player without units loses at once; scores are the unit counts."""
    game = position({1: (1, 2, 3, 3), 2: (0, 10, 3, 5)}, lcg=lcg_picking(11))
    game.push(shoot(2, 1))
    out = game.outcome()
    assert (out.winner, out.reason, out.scores) == (0, "elimination", (2, 0))


def test_ambiguity_invalid_action_scores_minus_one():
    """Ambiguity row "You output an invalid action": score -1, the other keeps 0 and wins; a MOVE
    that cannot be carried out is not invalid."""
    game = CultistWars.new(49)
    out = game.forfeit(0, "invalid", "0 SHOOT 1")
    assert (out.winner, out.scores, out.reason) == (1, (-1, 0), "invalid")
    out = game.forfeit(1, "timeout")
    assert (out.winner, out.scores, out.reason) == (0, (0, -1), "timeout")
    assert game.parse_output("0 MOVE 12 3") == mv(0, 12, 3)


# ---------------------------------------------------------------- push/pop, text, reader


def test_pop_restores_everything_including_the_lcg_and_dead_units():
    game = position({2: (0, 10, 0, 5), 3: (1, 1, 2, 5), 4: (2, 10, 8, 0)}, lcg=lcg_picking(0))
    before = (game.key(), game.to_text(), game.legal_moves(), game.unit_counts())
    game.push(shoot(2, 3))
    assert game.unit_counts() == (2, 1)
    game.pop()
    assert (game.key(), game.to_text(), game.legal_moves(), game.unit_counts()) == before


def test_position_text_round_trip_and_errors():
    """to_text/from_text: readable, exact, and bad input names the line."""
    game = CultistWars.new(49)
    for text in ("0 MOVE 4 2", "1 MOVE 3 5", "0 CONVERT 3"):
        game.play(text)
    text = game.to_text()
    again = CultistWars.from_text(text)
    assert again.key() == game.key() and again.to_text() == text and again.map_seed == 49
    assert "row 3 = .0.........1." in text and "unit = 3 0 cultist 10 1 2" in text
    bad_lines = {
        "to_move = ": "to_move = 0",
        "row 3 = ": "row 3 = .0..?......1.",
        "row 4 = ": "row 4 = x6...5",
        "unit = 0 ": "unit = 0 1 leader 10 1 3",
        "unit = 5 ": "unit = 5 2 cultist 10 1 3",
        "lcg_seed = ": "lcg_seed = x",
        "unit_counts = ": "unit_counts = 9 9",
        "map_seed = ": "map_seed = ?",
        "map_seed = 4": "map_seed = 50",  # the rows are not that seed's map
    }
    lines = text.splitlines()
    for prefix, replacement in bad_lines.items():
        i = next(k for k, line in enumerate(lines) if line.startswith(prefix))
        broken = lines[:i] + [replacement] + lines[i + 1:]
        with pytest.raises(PositionError, match=f"^line {i + 1}:"):
            CultistWars.from_text("\n".join(broken))
    for junk in ("", "nonsense", "game = connect4", "unit = 1 2 3", "\x00\n=\n", text.replace("unit = 13", "x")):
        with pytest.raises(PositionError):
            CultistWars.from_text(junk)


def test_dead_units_and_owner_survive_the_text():
    game = position({3: (2, 10, 5, 5)}, dead_owner={2: 0, 4: 2}, lcg=12345, turn=7)
    text = game.to_text()
    assert "unit = 2 0 cultist 0 - -" in text and "turn = 7" in text and "to_move = 1" in text
    assert CultistWars.from_text(text).key() == game.key()


def test_reader_rebuilds_player_ones_first_turn_after_a_conversion():
    """InputReader: player 1's first input follows a conversion by player 0; the start is rebuilt
    from the map's symmetry, the LCG from the replay."""
    for seed in range(400):
        game = CultistWars.new(seed)
        converts = [m for m in game.legal_moves() if m.kind == "CONVERT"]
        if converts:
            break
    else:
        pytest.skip("no seed with a neutral next to leader 0")
    game.push(converts[0])
    reader = CultistWars.input_reader()
    lines = iter(game.bot_input(first=True))
    seen = reader.read_turn(lambda: next(lines))
    assert seen.key() == game.key() and seen.legal_moves() == game.legal_moves()


def test_reader_follows_a_whole_game_with_kills():
    """InputReader over random games rich in shots: same key and moves every turn."""
    rng = random.Random(7)
    for _ in range(3):
        game = CultistWars.new(rng.randrange(1000))
        readers, first = [CultistWars.input_reader(), CultistWars.input_reader()], [True, True]
        while game.outcome() is None:
            seat = game.current_player()
            lines = iter(game.bot_input(first[seat]))
            first[seat] = False
            seen = readers[seat].read_turn(lambda: next(lines))
            assert seen.key() == game.key()
            moves = game.legal_moves()
            shots = [m for m in moves if m.kind in ("SHOOT", "CONVERT")]
            move = rng.choice(shots) if shots and rng.random() < 0.7 else rng.choice(moves)
            readers[seat].played(move)
            game.push(move)


def test_registry_and_class_facts():
    cls = get_game("cw")
    assert cls is CultistWars and cls.max_turns == 150
    assert (cls.limits.first_ms, cls.limits.turn_ms) == (1000, 50)
