"""Paper Soccer's small neural value (ai/paper_soccer/net.py) and its pipeline: the inputs see the pitch
from the mover's side, the pure-Python, numpy and compiled inferences give the same integer, the weight
file is text that reads back, the fitter learns and reports held-out loss, self-play writes replayable
games, and the arena's SPRT stops a match once it decides."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from ai.paper_soccer import net as NN
from ai.paper_soccer.board import flood, from_game, touched_of
from engines.paper_soccer import PaperSoccer
from tests.helpers.nets import tiny_net
from tests.helpers.players import random_position

np = pytest.importorskip("numpy")

VMIRROR = tuple((4 - d) % 8 for d in range(8))  # direction d with the pitch turned top to bottom


def position(seed: int, plies: int):
    g = random_position("paper-soccer", seed, plies)
    pm, ball, stm, _turn, _h = from_game(g)
    touched = touched_of(pm)
    return pm, ball, stm, flood(pm, stm, touched)[1], flood(pm, 1 - stm, touched)[1]


def mirrored(pm, ball, stm, mine, theirs):
    """The same position turned top to bottom, the other seat to move."""
    pm2 = [0] * NN.N_POINTS
    for p in range(NN.N_POINTS):
        pm2[NN.MIRROR[p]] = sum(1 << VMIRROR[d] for d in range(8) if pm[p] >> d & 1)
    bits = lambda b: sum(1 << NN.MIRROR[p] for p in range(NN.N_POINTS) if b >> p & 1)  # noqa: E731
    return pm2, NN.MIRROR[ball], 1 - stm, bits(mine), bits(theirs)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.booleans())
def test_the_inputs_see_the_pitch_from_the_movers_side(seed, plies, distances):
    pos = position(seed, plies)
    assert sorted(NN.inputs(*pos, distances)) == sorted(NN.inputs(*mirrored(*pos), distances))
    on = NN.inputs(*pos, distances)
    n = NN.N_INPUTS_DIST if distances else NN.N_INPUTS
    assert len(set(on)) == len(on) and all(0 <= i < n for i in on)
    assert sorted(NN.flip_inputs(NN.flip_inputs(on))) == sorted(on)  # turning left to right twice: the same
    assert len(on) == len(NN.inputs(*pos)) + (NN.N_POINTS if distances else 0)  # a distance for every point


def reference_distances(pm, ball):
    """The turn distances as plain Dijkstra over the points: a step costs 0 from the ball's point or a
    touched point, 1 from a fresh one; goal nodes lead nowhere; at most DIST_CAP."""
    import heapq

    from ai.paper_soccer.board import DIST_CAP, NBRS

    d = {ball: 1}
    heap = [(1, ball)]
    while heap:
        dq, q = heapq.heappop(heap)
        if dq > d[q] or q >= 99:
            continue
        cost = 0 if q == ball or pm[q] else 1
        for bit, v, _vb in NBRS[q]:
            if not pm[q] & bit and dq + cost < d.get(v, DIST_CAP):
                d[v] = dq + cost
                heapq.heappush(heap, (dq + cost, v))
    return [d.get(p, DIST_CAP) for p in range(NN.N_POINTS)]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 90))
def test_turn_distances_are_the_least_count_of_fresh_points_left_on_the_way(seed, plies):
    from ai.paper_soccer.board import turn_distances

    pm, ball, _stm, _m, _t = position(seed, plies)
    d = turn_distances(pm, ball)
    assert d == reference_distances(pm, ball)
    assert d[ball] == 1 and all(1 <= v <= 9 for v in d)


def plain_value(net: NN.Net, on: list[int]) -> int:
    """The definition (net.py's docstring), written out: no lanes."""
    h = [min(max(net.b1[j] + sum(net.w1[i][j] for i in on), 0), NN.ONE) for j in range(net.hidden)]
    if net.hidden2:
        h = [min(max((net.h2b[k] + sum(net.h2w[j][k] * h[j] for j in range(net.hidden)) + NN.ONE // 2) // NN.ONE,
                     0), NN.ONE) for k in range(net.hidden2)]
    return (net.b2 + sum(w * v for w, v in zip(net.w2, h))) * NN.UNITS // (NN.ONE * NN.ONE)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 1000), st.booleans(), st.sampled_from([0, 3, 6]))
def test_pure_python_and_numpy_give_the_same_integer(seed, plies, net_seed, distances, hidden2):
    from ai.paper_soccer.fit_net import values

    net = tiny_net(net_seed, distances=distances, hidden2=hidden2)  # 6: wider than the first layer's 4
    pos = position(seed, plies)
    on = NN.inputs(*pos, distances)
    x = np.zeros((1, net.n_inputs), np.uint8)
    x[0, on] = 1
    assert net.value(*pos) == int(values(net, x)[0]) == plain_value(net, on)


def test_the_second_layer_rounds_its_sums_and_clips_them_at_both_ends():
    # one input on, one unit a layer: h = 100; the second unit's sum is 64 * 100 + bias, in ONE * ONE units
    w1 = [[0]] * NN.N_INPUTS
    w1[NN.BALL0] = [100]
    for bias, g in ((0, 50), (-64 * 100 - 1, 0), (-64 * 100 + 64, 1), (-64 * 100 + 63, 0), (10 ** 5, NN.ONE)):
        net = NN.Net(w1, [0], [NN.ONE], 0, h2w=[[64]], h2b=[bias])
        assert net.value_of([NN.BALL0]) == g * NN.ONE * NN.UNITS // (NN.ONE * NN.ONE) == plain_value(net, [NN.BALL0])


def test_the_weight_file_reads_back_and_refuses_what_it_is_not():
    net = tiny_net(1, hidden=3)
    text = NN.format_net(net, "a test net\nsecond line")
    back = NN.parse_net(text)
    assert (back.w1, back.b1, back.w2, back.b2) == (net.w1, net.b1, net.w2, net.b2)
    far = tiny_net(2, hidden=3, distances=True)
    back = NN.parse_net(NN.format_net(far, "reads the turn distances"))
    assert back.distances and (back.w1, back.b2) == (far.w1, far.b2)
    with pytest.raises(ValueError):  # the rows of a net without distances, said to read them
        NN.parse_net(text.replace("hidden 3\n", "hidden 3\ninputs with distances\n"))
    for bad in ("", "hidden 3\nb2 1\n", text.replace("hidden 3", "hidden 4"), text + "w1 1 2\n",
                "w2 1 2 3\n" + text, text.replace("b2 ", "b2 x")):
        with pytest.raises(ValueError):
            NN.parse_net(bad)
    big = text.replace("\nb1 ", f"\nb1 {NN.MAX_WEIGHT + 1} ", 1).replace(" ", "  ")
    with pytest.raises(ValueError):
        NN.parse_net(big)


def test_a_two_layer_weight_file_reads_back_and_refuses_what_it_is_not():
    net = tiny_net(3, hidden=3, hidden2=2, distances=True)
    text = NN.format_net(net, "two hidden layers")
    assert "hidden 3\nhidden2 2\ninputs with distances\n" in text
    back = NN.parse_net(text)
    assert back == net and back.hidden2 == 2
    one = NN.format_net(tiny_net(3, hidden=3), "one layer")
    assert "hidden2" not in one and "h2" not in one and NN.parse_net(one).hidden2 == 0
    h2w = text[text.index("\nh2w "):text.index("\nb1 ")]
    for bad in (text.replace("hidden2 2", "hidden2 0"), text.replace("hidden2 2", "hidden2 3"),
                text.replace("hidden2 2\n", ""),  # w2 has 2 weights where 3 are asked for
                text.replace("\nh2b ", "\n# h2b "),  # no biases
                text.replace(h2w, h2w + h2w[:h2w.index(" ", 5)] + " 1 2"),  # a fourth row of the second layer
                text.replace(h2w, h2w[:h2w.rindex("\n")]),  # a row short
                text.replace("hidden2 2\ninputs with distances\nb2", "inputs with distances\nhidden2 2\nb2"),
                text.replace("\nh2b ", f"\nh2b {NN.MAX_BIAS2 + 1} x").replace(" x", " ", 1).replace(" x", ""),
                one.replace("\nb1 ", "\nh2b 1 2 3\nb1 ")):  # a second layer's line in a one-layer file
        with pytest.raises(ValueError):
            NN.parse_net(bad)


@pytest.mark.parametrize("line", ["hidden2 1000000000", "hidden2 257", "hidden2 -1", "hidden2 " + "9" * 5000])
def test_a_hostile_second_layer_is_refused_at_once(line):
    with pytest.raises(ValueError, match=r"^[^\n]+$"):  # a clear line, before anything is made of that size
        NN.parse_net(f"hidden 4\n{line}\nb2 0\n")
    with pytest.raises(ValueError, match="hidden2 N` takes one N of 1..256"):
        NN.parse_net("hidden 4\nhidden2 1000000000\n")


def test_fit_learns_and_its_integers_follow_its_floats():
    from ai.paper_soccer.fit_net import fit, matrix, values
    from ai.paper_soccer.fit_value import loss

    rng = random.Random(5)
    games = []
    for k in range(6):  # random games: a few hundred positions
        g = PaperSoccer.new()
        while g.outcome() is None:
            g.push(g.random_turn(rng))
        if g.outcome().winner is not None:
            games.append((g.outcome().winner, [g.move_to_str(m) for m in g.move_stack]))
    x, y = matrix(games)
    assert len(y) and len(y) % 2 == 0  # each position and its left-right turn
    seen = []
    model = fit(x, y, hidden=4, epochs=15, rate=1e-2, held=(x, y), report=lambda e, ll: seen.append(ll))
    assert len(seen) == 15 and seen[-1] < loss(np.zeros(len(y)), y)[0]  # better than a coin on what it saw
    net = model.quantised()
    floats = model.logits(x.astype(np.float32)) * NN.UNITS
    ints = values(net, x)
    assert np.max(np.abs(ints - floats)) <= 0.05 * max(1.0, np.max(np.abs(floats))) + 5  # rounding only
    row = 3
    assert int(ints[row]) == net.value_of([int(i) for i in np.flatnonzero(x[row])])


def test_the_two_layer_gradient_is_the_losss_slope():
    # the fitter's backward pass through the second layer, against finite differences of the loss
    from ai.paper_soccer.fit_net import FloatNet
    from ai.paper_soccer.fit_value import loss

    rng = np.random.default_rng(3)
    model = FloatNet(3, rng, n_inputs=6, hidden2=2)
    model.w1 *= 5  # some units clipped, some not
    x = (rng.random((40, 6)) < 0.5).astype(np.float64)
    y = (rng.random(40) < 0.5).astype(np.float64)
    grads = model.grads(x, y, 0.0)
    for p, g in zip(model.params(), grads):
        for i in range(p.size):
            at = np.unravel_index(i, p.shape)
            was = p[at]
            p[at] = was + 1e-6
            up = loss(model.logits(x), y)[0]
            p[at] = was - 1e-6
            down = loss(model.logits(x), y)[0]
            p[at] = was
            assert g[at] == pytest.approx((up - down) / 2e-6, abs=1e-6)


@pytest.mark.parametrize("hidden2", [3, 5])
def test_a_second_layer_on_a_one_layer_net_starts_valuing_as_it_did(hidden2):
    # at least as wide as the first layer, the new layer passes it on: the fit starts where the net was
    from ai.paper_soccer.fit_net import FloatNet, values

    init = tiny_net(6, hidden=3)
    x = (np.random.default_rng(1).random((50, NN.N_INPUTS)) < 0.1).astype(np.uint8)
    one = FloatNet(3, np.random.default_rng(0), init)
    two = FloatNet(3, np.random.default_rng(0), init, hidden2=hidden2)
    assert np.allclose(one.logits(x.astype(np.float64)), two.logits(x.astype(np.float64)), atol=1e-9)
    assert np.max(np.abs(values(two.quantised(), x) - values(init, x))) <= 3  # rounding only
    g = np.clip(x @ two.w1 + two.b1, 0.0, 1.0) @ two.h2w + two.h2b
    assert ((g[:, :3] >= 0.25) & (g[:, :3] <= 0.75)).all()  # the passed-on units learn: none is clipped


def test_a_two_layer_fit_learns_and_its_integers_follow_its_floats():
    from ai.paper_soccer.fit_net import fit, values

    rng = np.random.default_rng(7)
    x = (rng.random((600, NN.N_INPUTS)) < 0.05).astype(np.uint8)
    y = (x[:, :40].sum(1) > x[:, 40:80].sum(1)).astype(np.float64)  # a rule a few units can learn
    seen = []
    model = fit(x, y, hidden=6, hidden2=3, epochs=10, rate=3e-2, held=(x, y), report=lambda e, ll: seen.append(ll))
    assert seen[-1] < 0.6 * seen[0]
    net = model.quantised()
    assert net.hidden2 == 3
    floats = model.logits(x.astype(np.float32)) * NN.UNITS
    ints = values(net, x)
    assert np.max(np.abs(ints - floats)) <= 0.05 * max(1.0, np.max(np.abs(floats))) + 5  # rounding only
    assert int(ints[5]) == net.value_of([int(i) for i in np.flatnonzero(x[5])])


def test_a_new_generation_is_reported_beside_the_net_it_started_from(tmp_path, capsys):
    # the held-out games are new to both nets: their losses side by side say what the generation gained
    from ai.paper_soccer.fit_net import main

    rng = random.Random(9)
    lines = []
    while len(lines) < 20:
        g = PaperSoccer.new()
        while g.outcome() is None:
            g.push(g.random_turn(rng))
        if g.outcome().winner is not None:
            lines.append("\t".join([str(g.outcome().winner), *(g.move_to_str(m) for m in g.move_stack)]))
    games = tmp_path / "games.txt"
    games.write_text("\n".join(lines) + "\n")
    first = tmp_path / "first.txt"
    first.write_text(NN.format_net(tiny_net(4, hidden=3), "first"), encoding="ascii")
    assert main([str(games), "--epochs", "1", "--init", str(first), "--out", str(tmp_path / "second.txt"),
                 "--test", str(games)]) == 0
    out = capsys.readouterr().out
    assert "held out, net (integers)" in out and "held out, the --init net" in out
    # --test: other games (strong players') scored by both nets too
    assert re.search(r"--test \(\d+ positions\), net \(integers\)", out)
    assert re.search(r"--test \(\d+ positions\), the --init net", out)
    assert NN.parse_net((tmp_path / "second.txt").read_text()).hidden == 3
    # --distances: a net that reads the turn distances too; an earlier net says which inputs it reads
    assert main([str(games), "--epochs", "1", "--hidden", "2", "--distances", "--out", str(tmp_path / "far.txt")]) == 0
    far = NN.parse_net((tmp_path / "far.txt").read_text())
    assert far.distances and far.hidden == 2
    assert main([str(games), "--epochs", "1", "--init", str(tmp_path / "far.txt"), "--out",
                 str(tmp_path / "far2.txt")]) == 0
    assert NN.parse_net((tmp_path / "far2.txt").read_text()).distances
    # --hidden2: a second hidden layer, new on a one-layer --init net (its first layer kept as the start)
    assert main([str(games), "--epochs", "1", "--hidden2", "2", "--init", str(first), "--rate", "0",
                 "--out", str(tmp_path / "two.txt")]) == 0
    two, one = NN.parse_net((tmp_path / "two.txt").read_text()), NN.parse_net(first.read_text())
    assert (two.hidden, two.hidden2, two.w1, two.b1) == (3, 2, one.w1, one.b1)
    assert main([str(games), "--epochs", "1", "--init", str(tmp_path / "two.txt"), "--out",
                 str(tmp_path / "two2.txt")]) == 0  # a generation keeps the shape it starts from
    assert NN.parse_net((tmp_path / "two2.txt").read_text()).hidden2 == 2
    assert main([str(games), "--epochs", "1", "--hidden2", "3", "--init", str(tmp_path / "two.txt")]) == 1
    assert "second hidden layer of 2 units" in capsys.readouterr().err
    for bad in (tmp_path / "missing.txt", games):  # no file, and a file that is not a net: a line, no traceback
        with pytest.raises(SystemExit) as stop:
            main([str(games), "--init", str(bad)])
        assert stop.value.code == 2 and "--init" in capsys.readouterr().err


def test_selfplay_appends_decided_games_that_replay(tmp_path):
    from ai.paper_soccer.fit_value import read_games
    from ai.paper_soccer.selfplay import generate

    out = tmp_path / "games.txt"
    decided = generate(4, str(out), jobs=1, seed=3, pool=("level:1", "level:2"), quiet=True)
    lines = out.read_text().splitlines()
    assert len(lines) == 4 and decided == len(read_games([str(out)]))
    for winner, moves in read_games([str(out)]):
        g = PaperSoccer.new()
        for m in moves:
            g.play(m)
        assert g.outcome() is not None and g.outcome().winner == winner


def test_the_arena_sprt_stops_a_match_once_it_decides(capsys):
    from ai.sprt import Sprt
    from ai.tools.arena import run

    score = run("paper-soccer", "level:2", "level:1", 200, jobs=1, quiet=True, sprt=Sprt(-400, -200))
    assert score.games < 200  # decided long before: level 2 is far above level 1
    assert "SPRT [-400, -200]: H1" in capsys.readouterr().out


def test_a_level_takes_a_net_from_a_weight_file(tmp_path):
    from ai.paper_soccer.player import PaperSoccerPlayer

    path = tmp_path / "net.txt"
    path.write_text(NN.format_net(tiny_net(2), "test"), encoding="ascii")
    player = PaperSoccerPlayer(6, nodes=300, net=str(path), seed=1)
    g = PaperSoccer.new()
    assert g.is_legal(player.choose(g))
    assert player.searcher.net is not None
    far = PaperSoccerPlayer(6, nodes=300, net="net:dist1", seed=1)  # the net that reads the turn distances
    assert g.is_legal(far.choose(g)) and far.searcher.net.distances


@pytest.mark.parametrize("name", ["net:selfplay1", "net:selfplay2", "net:selfplay3", "net:dist1", "net:tree5",
                                  "net:tree6"])
def test_the_shipped_net_loads_and_values_the_start_near_even(name):
    net = NN.load_net(name)
    assert net.hidden == 32 and net.distances == (name in ("net:dist1", "net:tree5", "net:tree6"))
    pos = position(0, 0)  # the start: nobody is ahead
    assert abs(net.value(*pos)) < 100  # under one logit


def test_level_6s_own_net_is_the_compiled_trees_and_a_given_net_is_both_trees():
    from ai.paper_soccer.player import PaperSoccerPlayer

    own = PaperSoccerPlayer(6, seed=1).searcher
    assert own.python_net is None and own.net.w1 == NN.load_net("net:tree6").w1
    given_net = PaperSoccerPlayer(6, net="net:dist1", seed=1).searcher
    assert given_net.python_net is given_net.net and given_net.net.w1 == NN.load_net("net:dist1").w1


@pytest.mark.parametrize("seed, plies", [(1, 8), (2, 20), (3, 35)])
def test_level_6_in_pure_python_searches_as_it_did_before_its_net(monkeypatch, seed, plies):
    # the default install: alpha-beta with `value:selfplay`; the net and best-first are the fast extra's
    from ai.paper_soccer.player import PaperSoccerPlayer

    monkeypatch.setenv("TERMARENA_PURE_PYTHON", "1")
    g = random_position("paper-soccer", seed, plies)
    now = PaperSoccerPlayer(6, nodes=1500, seed=4).search(g, t0=0, stop=None, deadline=None, all_scores=True,
                                                         report=None)
    before = PaperSoccerPlayer(6, nodes=1500, seed=4, best_first=0, fast_net="").search(
        g, t0=0, stop=None, deadline=None, all_scores=True, report=None)
    assert now.scores == before.scores and now.nodes == before.nodes


@pytest.mark.parametrize("name", ["net:../selfplay1", "net:", "net:a/b"])
def test_a_shipped_net_name_leads_nowhere_out_of_the_package(name):
    with pytest.raises(ValueError):
        NN.load_net(name)


def test_a_net_searchs_score_is_shown_in_the_learned_values_units():
    # the AI panel's number: one logit of advantage reads the same whether a net or `value:selfplay` valued it
    from ai.paper_soccer import CALIBRATION
    from ai.paper_soccer.player import PaperSoccerPlayer
    from ai.paper_soccer.search import WIN

    with_net = PaperSoccerPlayer(6, net="net:dist1", seed=1)
    with_value = PaperSoccerPlayer(6, seed=1)  # the pure-Python tree (tests/conftest.py): value:selfplay
    assert with_net.searcher.net_in_use and not with_value.searcher.net_in_use
    one_logit = with_value.shown_score(1 / CALIBRATION[1], WIN)
    assert with_net.shown_score(NN.UNITS, WIN) == pytest.approx(one_logit, rel=1e-3)
    assert with_net.shown_score(WIN - 3, WIN) == with_value.shown_score(WIN - 3, WIN)  # a proven win alike
