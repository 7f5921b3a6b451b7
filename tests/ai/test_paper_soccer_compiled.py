"""The compiled Paper Soccer tree (the `fast` extra) gives exactly what the pure-Python one gives."""
from __future__ import annotations

import importlib.util
import random

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings, strategies as st  # noqa: E402

from ai.paper_soccer import accelerator, board as B  # noqa: E402
from ai.paper_soccer.search import WIN_BOUND, Searcher  # noqa: E402
from ai.paper_soccer.speed import bench_positions  # noqa: E402
from ai.paper_soccer.value import load  # noqa: E402
from engines.paper_soccer import PaperSoccer  # noqa: E402
from tests.helpers.real_play import logged_position, mover_wins  # noqa: E402
from tests.helpers.nets import tiny_net
from tests.helpers.players import random_position  # noqa: E402

# Whether numba is there is asked without importing it: collecting this file (every xdist worker does)
# must not load numba, let alone compile the tree.  One worker runs the file (see pyproject.toml).
pytestmark = [pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed"),
              pytest.mark.xdist_group("numba"), pytest.mark.slow]


@pytest.fixture(scope="module")
def C():
    """The compiled module, loaded (compiled on a fresh clone) by the first test that asks for it."""
    return accelerator.compiled_tree(wait=True)
LEVEL_6 = dict(near_ply=2, parity=1, root_short=3000, lmr_after=2, root_lmr=3, shut_check=0.15)


def _turns(res) -> tuple:
    win, complete, n, ends, keys, offs, lens, buf = res
    turns = [(int(ends[j]), int(keys[j]), tuple(int(s) for s in buf[offs[j]:offs[j] + lens[j]])) for j in range(n)]
    return bool(win), bool(complete), turns


def _check_generators(C, g: PaperSoccer) -> None:
    pm, ball, _stm, _turn, _h = B.from_game(g)
    arr = np.array(pm, np.int64)
    hot = np.empty(B.N_POINTS, np.bool_)
    in_danger = np.empty(B.N_POINTS, np.bool_)
    for seat in (0, 1):
        win, ends, _losing, complete = B.gen_ends(pm, ball, seat)
        assert _turns(C.gen_ends(arr, ball, seat)) == (win is not None, complete, ends)
        for states, per_end, visits in ((400, 1, 1), (1500, 3, 3), (2000, 1 << 30, 1 << 30)):
            r = B.gen_turns(pm, ball, seat, max_states=states, per_end=per_end, max_visits=visits)
            assert _turns(C.gen_turns(arr, ball, seat, states, per_end, visits)) == (r.win is not None, r.complete,
                                                                                     r.turns)
        assert C.can_score(arr, ball, seat, 300) == (B.can_score(pm, ball, seat, 300, reach_checked=True) is not None)
        assert C.can_score_fast(arr, ball, seat, 300) == B.can_score_fast(pm, ball, seat, reach_checked=True)
        hot_bits, danger = B.flood(pm, seat, B.touched_of(pm))
        found = np.empty(B.N_POINTS, np.int64)
        count = C.flood(arr, seat, hot, in_danger, found)
        assert count == danger.bit_count() and sum(1 << int(q) for q in found[:count]) == danger
        assert sum(1 << p for p in range(B.N_POINTS) if hot[p]) == hot_bits
        assert sum(1 << p for p in range(B.N_POINTS) if in_danger[p]) == danger
        assert C.goals_in_reach(arr, ball) == B.goals_in_reach(pm, ball)
        assert bool(C.reach_possible(arr, ball, seat)) == B.reach_possible(pm, ball, seat)
        assert arr.tolist() == pm  # every walk puts back what it drew


def _check_shut(C, g: PaperSoccer) -> None:
    from ai.paper_soccer.tactics import Limits, has_safe_turn, shutting_reply
    pm, ball, stm, _turn, _h = B.from_game(g)
    arr = np.array(pm, np.int64)
    for seat in (0, 1):
        for looks in (3, 4000):
            expected = has_safe_turn(pm, ball, seat, 1500, Limits(looks=looks))
            verdict = C.has_safe_turn(arr, ball, seat, 1500, np.array([looks], np.int64), -1.0)
            assert verdict == {True: C.SAFE, False: C.UNSAFE, None: C.UNKNOWN}[expected]
            reply = shutting_reply(pm, ball, seat, looks=looks)
            j, unknown = C.shutting_reply(arr, ball, seat, 3000, 1500, -1.0, looks)
            if reply is None or reply is False:
                assert (j, bool(unknown)) == (-1, reply is None)
            else:
                r = B.gen_turns(pm, ball, 1 - seat, max_states=3000)
                assert r.turns[j][2] == reply
    assert arr.tolist() == pm


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 90))
def test_compiled_generators_list_the_same_turns_in_the_same_order(C, seed, plies):
    _check_generators(C, random_position("paper-soccer", seed, plies))


@pytest.mark.parametrize("index", range(0, 10, 3))
def test_compiled_generators_agree_late_in_real_games(C, index):
    for back in (1, 3, 6):
        _check_generators(C, logged_position("paper-soccer", index, back))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(20, 90))
def test_the_compiled_shut_check_finds_the_same_reply(C, seed, plies):
    _check_shut(C, random_position("paper-soccer", seed, plies))


@pytest.mark.parametrize("index", range(0, 10, 2))
def test_the_compiled_shut_check_agrees_late_in_real_games(C, index):
    for back in (2, 3, 4):
        _check_shut(C, logged_position("paper-soccer", index, back))


def _answer(g: PaperSoccer, fast: bool, nodes: int, **opts) -> tuple:
    r = Searcher(fast=fast, **opts).search(g, node_limit=nodes)
    return r.move, r.score, r.depth, r.nodes, r.proven, r.scores


def _net():
    return tiny_net(11, hidden=8)


def _net_value_of(pm, ball, stm, net) -> int:
    touched = B.touched_of(pm)
    return net.value(pm, ball, stm, B.flood(pm, stm, touched)[1], B.flood(pm, 1 - stm, touched)[1])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 90), st.integers(0, 100), st.integers(0, 10**6), st.booleans(),
       st.sampled_from([0, 3, 7]))
def test_the_compiled_net_keeps_the_pure_python_value_along_a_path_of_turns_drawn_and_taken_back(C, seed, plies,
                                                                                                net_seed, walk_seed,
                                                                                                distances, hidden2):
    # the tree sums the edges' rows at the root only, then turn by turn down the path, and the danger
    # points' and the turn distances' rows from leaf to leaf (`compiled.net_root`, `net_push`,
    # `_net_edges_at`, `_net_points`, `_net_distances`): wherever a random walk down and back up stops,
    # the value is exactly the one summed from scratch; with a second hidden layer too (`_net_second`;
    # 7 units: wider than the first layer, whose rows the tree pads)
    net = tiny_net(net_seed, hidden=5, distances=distances, hidden2=hidden2)
    pm, ball, stm, _turn, _h = B.from_game(random_position("paper-soccer", seed, plies))
    nn, ns = C.net_arrays(net)
    arr = np.array(pm, np.int64)
    C.net_root(arr, nn, ns, 1)
    rng = random.Random(walk_seed)
    path = []  # (ball, stm, steps) of each turn drawn: the node is at ply 1 + len(path)
    for _ in range(rng.randint(1, 16)):
        assert C.net_value(arr, ball, stm, 1 + len(path), nn, ns, net.b2, int(distances), net.hidden2) == \
            _net_value_of(arr.tolist(), ball, stm, net)
        win, _c, n, ends, _k, offs, lens, buf = C.gen_ends(arr, ball, stm)
        if path and (win or n == 0 or rng.random() < 0.3):  # back up one turn
            ball, stm, steps = path.pop()
            C.undo_steps(arr, steps, 0, len(steps))
            continue
        if win or n == 0:
            break
        j = rng.randrange(n)
        C.net_push(ns, 1 + len(path), buf, offs[j], lens[j])
        steps = buf[offs[j]:offs[j] + lens[j]].copy()
        path.append((ball, stm, steps))
        C.apply_steps(arr, steps, 0, len(steps))
        ball, stm = int(ends[j]), 1 - stm
    while path:
        ball, stm, steps = path.pop()
        C.undo_steps(arr, steps, 0, len(steps))
    assert arr.tolist() == pm
    assert C.net_value(arr, ball, stm, 1, nn, ns, net.b2, int(distances), net.hidden2) == \
        _net_value_of(pm, ball, stm, net)


@pytest.mark.parametrize("opts", [LEVEL_6, dict(near_ply=1, parity=0), dict(LEVEL_6, value=load("learned")),
                                  dict(LEVEL_6, net=_net()), dict(LEVEL_6, value=load("learned"), cut_off=300),
                                  dict(LEVEL_6, net=tiny_net(12, hidden=8, distances=True)),
                                  dict(LEVEL_6, net=tiny_net(13, hidden=8, distances=True, hidden2=4))],
                         ids=["level6", "near1", "learned", "net", "cut_off", "net_distances", "net_two_layers"])
def test_the_compiled_search_gives_the_same_answer_at_the_same_node_budget(opts):
    games = bench_positions() + [random_position("paper-soccer", seed, 40) for seed in range(3)] + [
        logged_position("paper-soccer", i, 4) for i in range(0, 10, 4)] + [
        logged_position("paper-soccer", 9, 12)]  # seat 1 cut off from its goal (the cut-off term at work)
    for g in games:
        assert _answer(g, True, 2500, **opts) == _answer(g, False, 2500, **opts)


BEST_FIRST = dict(LEVEL_6, best_first=2, explore=100.0)
# QtPaperSoccer's breadth: one ply an expansion, every turn of every node (`wide`)
WIDE = dict(LEVEL_6, best_first=1, explore=100.0, wide=500)


def _opponent_is_lost(g: PaperSoccer, move: str) -> bool:
    """Whether, after `move`, a deep alpha-beta with the rich generator at every ply proves the mover lost."""
    after = g.copy()
    after.push(move)
    if after.is_over():
        return mover_wins(after, g.current_player())
    r = Searcher(fast=True, near_ply=8).search(after, node_limit=200_000, multipv=True)  # no one-turn shortcut
    return r.score <= -WIN_BOUND


WON = [(1, 5), (1, 7), (4, 3), (4, 7), (8, 3), (9, 5), (9, 7)]


# `wide` opens hundreds of turns a node, so its tree is shallower: it proves (9, 5) at 67,000 nodes, and
# (9, 7) not before its tree is full
@pytest.mark.parametrize("index, back, opts", [pytest.param(*p, BEST_FIRST, id=f"{p[0]}-{p[1]}-best_first") for p in WON]
                         + [pytest.param(*p, WIDE, id=f"{p[0]}-{p[1]}-wide") for p in WON[:5]])
def test_best_first_plays_a_winning_turn_where_there_is_one(index, back, opts):
    # late positions of real games where the mover can force a goal; in (9, 5) alpha-beta needs about
    # 200,000 nodes to prove it: best-first goes down the forcing line first
    g = logged_position("paper-soccer", index, back)
    r = Searcher(fast=True, **opts).search(g, node_limit=60_000)
    assert r.proven and r.score >= WIN_BOUND  # from the mover's side
    assert _opponent_is_lost(g, r.move)


@pytest.mark.parametrize("opts", [BEST_FIRST, WIDE], ids=["best_first", "wide"])
@pytest.mark.parametrize("seed, plies", [(8, 30), (17, 30), (21, 30), (22, 30), (23, 60)])
def test_a_win_best_first_claims_holds(seed, plies, opts):
    # the cheap generator lists one way to each end point, so a loss seen on its list may be none
    # (another way draws other edges); best-first goes deep along one line, and from these positions it
    # claimed wins that were not while such a loss counted as proven (`compiled_best_first._bf_value`)
    g = random_position("paper-soccer", seed, plies)
    for _ in range(30):
        if g.is_over():
            break
        r = Searcher(fast=True, **opts).search(g, node_limit=20_000)
        if r.score >= WIN_BOUND:
            assert _opponent_is_lost(g, r.move)
        g.push(r.move)


def test_a_searcher_that_switches_to_the_compiled_tree_mid_game_plays_the_same_game():
    # the background loader may finish at any turn: the table built so far carries over
    def play(switch_at: int | None) -> list:
        s = Searcher(fast=False, **LEVEL_6)
        g, out = random_position("paper-soccer", 7, 6), []
        for turn in range(5):
            if turn == switch_at:
                s.fast = True
            r = s.search(g, node_limit=1500)
            out.append((r.move, r.score, r.nodes))
            g.push(r.move)
            if g.is_over():
                break
        return out

    assert play(2) == play(None)


def test_the_loader_reports_the_module():
    loaded = accelerator.compiled_tree(wait=True)
    assert loaded is not None and accelerator.compiled_tree() is loaded and not accelerator.loading()
    assert accelerator.error == ""


def test_a_search_keeps_to_half_its_time_while_the_compiled_tree_loads(monkeypatch, ticking_clock):
    # the loading thread shares the GIL: the parts of a search that cannot stop would take twice as long
    clock = ticking_clock(0.0)  # frozen: the node budget ends the search, the deadlines are exact
    s = Searcher(fast=None, **LEVEL_6)
    g = PaperSoccer.new()
    for loading, most in ((False, 8.5), (True, 4.25)):  # the answer is due before the shut check's 15%
        monkeypatch.setattr(accelerator, "loading", lambda loading=loading: loading)
        s.search(g, node_limit=300, deadline=clock.now + 10.0)
        assert s.answer_deadline - clock.now == pytest.approx(most)


def test_a_bot_that_may_load_the_compiled_tree_plays_legal_turns():
    # a real `termarena bot` process, free to load the compiled tree in the background (as users run it)
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "TERMARENA_PURE_PYTHON"}
    g = PaperSoccer.new()
    proc = subprocess.Popen([sys.executable, "-m", "tui", "bot", "paper-soccer", "--level", "6", "--seed", "3"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        first = True
        for _ in range(4):
            proc.stdin.write("".join(line + "\n" for line in g.bot_input(first=first)))
            proc.stdin.flush()
            first = False
            g.push(g.parse_output(proc.stdout.readline().strip()))
            if g.is_over():
                break
            g.push(g.random_turn(random.Random(1)))
            if g.is_over():
                break
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_bench_shows_the_compiled_rate_beside_the_pure_one(monkeypatch, capsys):
    from tests.helpers.cli import bench_output

    out = bench_output(monkeypatch, capsys, "paper-soccer", "--seconds", "0.2")
    row = next(line for line in out.splitlines() if "paper-soccer" in line)
    pure, fast = [int(cell.strip().replace(",", "")) for cell in row.split("│")[6:8]]
    assert pure > 0 and fast > 0 and "compiled" in out  # the header over "nodes/s"


def test_a_wide_best_first_tree_lists_every_way_to_each_end_point():
    # the cheap generator lists one turn an end point below the first plies; `wide` lists them all (up to
    # its states), so the same search opens nodes with several times the children
    from ai.paper_soccer.compiled_best_first import B_COUNT, C_BF_NODES

    g = random_position("paper-soccer", 3, 30)

    def children_per_opened_node(opts) -> float:
        s = Searcher(fast=True, **opts)
        s.search(g, node_limit=5_000)
        counts = s._bf_tree.ni[B_COUNT, 1:s._bf_tree.counters[C_BF_NODES]]  # node 0, the root, aside
        return counts[counts > 0].mean()

    assert children_per_opened_node(WIDE) > 2 * children_per_opened_node(dict(WIDE, wide=0))  # 62.0 against 20.2


def test_each_compiled_function_was_compiled_once_and_never_for_a_literal(C):
    # A literal argument between compiled functions (a constant, or a variable's first value) makes numba
    # compile the callee once more: best-first's first compile took 23.5 s of CPU with them, 12 s without.
    # What this process compiled is checked, so the check bites where nothing is cached yet (a fresh
    # clone, CI): best-first's functions and the tree's it calls; with a warm cache it holds trivially.
    from numba.core.dispatcher import Dispatcher

    from ai.paper_soccer import compiled_best_first

    Searcher(fast=True, **BEST_FIRST).search(logged_position("paper-soccer", 1, 5), node_limit=500)
    for module in (C, compiled_best_first):
        for name, f in vars(module).items():
            if isinstance(f, Dispatcher):
                assert len(f.overloads) <= 1, (name, list(f.overloads))
                assert not any("Literal" in str(sig) for sig in f.overloads), (name, list(f.overloads))


def test_best_first_tree_targets_value_the_turns_it_went_down_twice_or_more(C):
    # a turn the tree opened once is valued by its replies' leaves alone; `searched` keeps those it went
    # down again (tests/ai/test_paper_soccer_search_targets.py checks the labels against it)
    from tests.ai.test_paper_soccer_search_targets import _game_of, tree_labels_match_a_fresh_search

    labels = tree_labels_match_a_fresh_search("level:6,best_first=1,explore=100,wide=500,nodes=400", _game_of(10))
    assert len(labels) < sum(len(v.turns) for v in labels)
    g = random_position("paper-soccer", 3, 30)
    s = Searcher(fast=True, **WIDE)
    res = s.search(g, node_limit=3000)  # wide: 400 nodes open the root's children and little more
    visits = dict(zip(res.scores, s._bf_tree.visits(len(res.scores))))
    assert res.searched == {m for m, n in visits.items() if n >= 2} and 0 < len(res.searched) < len(res.scores)


def test_level_6_searches_best_first_with_its_net_in_the_compiled_tree(C, monkeypatch):
    # the fast extra's level 6: what `best_first=1,explore=100,wide=500,net=net:tree6` searches
    from ai.paper_soccer.player import PaperSoccerPlayer

    monkeypatch.delenv("TERMARENA_PURE_PYTHON")  # the level's own choice (tests/conftest.py sets it)
    g = random_position("paper-soccer", 6, 12)  # 136 safe turns, none winning
    level = PaperSoccerPlayer(6, nodes=2000, seed=2)
    spelled = PaperSoccerPlayer(6, nodes=2000, seed=2, best_first=1, explore=100, wide=500, net="net:tree6")
    alpha_beta = PaperSoccerPlayer(6, nodes=2000, seed=2, best_first=0, fast_net="")  # level 6 before
    found = [p.search(g, t0=0, stop=None, deadline=None, all_scores=True, report=None)
             for p in (level, spelled, alpha_beta)]
    assert level.searcher._bf_tree is not None and alpha_beta.searcher._bf_tree is None
    assert level.searcher.net_in_use and not alpha_beta.searcher.net_in_use  # its scores shown as a net's
    assert found[0].scores == found[1].scores != found[2].scores
