"""The SPRT of `match --sprt`: its figures against published fastchess results, and the properties that
make its decisions right whatever the counts."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.sprt import PENTANOMIAL_SCORES, Sprt, _closest_with_mean, llr, logistic_score

# fastchess runs with the normalized model, as published in engine authors' logs: the pentanomial
# counts (pairs scoring 0, ½, 1, 1½, 2 points), [elo0, elo1] and the LLR fastchess printed.
PUBLISHED_FASTCHESS = [
    ([40, 67, 295, 123, 54], 0, 10, 2.95),
    ([307, 619, 1202, 725, 353], 0, 5, 2.95),
    ([1, 11, 47, 25, 16], 0, 10, 1.71),
    ([1, 15, 25, 33, 26], 0, 10, 2.19),
    ([1, 24, 42, 25, 8], 0, 10, 0.60),
    ([2, 23, 32, 35, 8], 0, 10, 0.92),
    ([120, 246, 645, 386, 302], 40, 45, 2.95),
    ([29, 80, 142, 101, 60], -5, 5, 2.97),
    ([0, 0, 2, 0, 37], 0, 20, 2.96),
]


@pytest.mark.parametrize("counts, elo0, elo1, printed", PUBLISHED_FASTCHESS)
def test_the_normalized_llr_is_the_one_fastchess_prints(counts, elo0, elo1, printed):
    assert llr(counts, elo0, elo1, "normalized") == pytest.approx(printed, abs=0.006)


def test_the_bounds_are_walds_with_the_published_values():
    # "(-2.94, 2.94)" for alpha = beta = 0.05 on fishtest and in fastchess; "(-4.60, 4.60)" at 0.01.
    assert (round(Sprt(0, 5).lower, 2), round(Sprt(0, 5).upper, 2)) == (-2.94, 2.94)
    assert (round(Sprt(0, 5, 0.01, 0.01).lower, 2), round(Sprt(0, 5, 0.01, 0.01).upper, 2)) == (-4.6, 4.6)
    assert round(Sprt(0, 5, alpha=0.05, beta=0.1).lower, 3) == round(math.log(0.1 / 0.95), 3)


def test_a_decision_needs_the_llr_to_reach_a_bound():
    s = Sprt(0, 10)
    assert s.decide(2.95) == "H1" and s.decide(-2.95) == "H0" and s.decide(2.9) == "inconclusive"


@pytest.mark.parametrize("bad", [dict(elo0=5, elo1=5), dict(elo0=0, elo1=5, alpha=0), dict(elo0=0, elo1=5, beta=1),
                                 dict(elo0=0, elo1=5, alpha=0.6, beta=0.5), dict(elo0=0, elo1=5, model="bayes"),
                                 dict(elo0=0, elo1=250, model="normalized"), dict(elo0=-1200, elo1=0)])
def test_settings_that_make_no_test_are_refused(bad):
    with pytest.raises(ValueError):
        Sprt(**bad)


def test_the_logistic_llr_agrees_with_the_normal_approximation_on_a_long_match():
    # For many games and close hypotheses the GSPRT is the Gaussian one:
    # LLR ≈ (s1 - s0) (2 s - s0 - s1) / (2 var / N)  (fishtest's LLR_logistic approximation).
    counts = [2100, 4000, 2300]  # loss, draw, win
    n = sum(counts)
    s = (counts[1] * 0.5 + counts[2]) / n
    var = sum(c / n * (a - s) ** 2 for c, a in zip(counts, (0, 0.5, 1)))
    s0, s1 = logistic_score(0), logistic_score(5)
    approx = (s1 - s0) * (2 * s - s0 - s1) / (2 * var / n)
    assert llr(counts, 0, 5) == pytest.approx(approx, rel=0.01)


counts5 = st.lists(st.integers(0, 300), min_size=5, max_size=5).filter(lambda c: sum(c) > 0)
elos = st.tuples(st.floats(-100, 100), st.floats(1, 100)).map(lambda t: (t[0], t[0] + t[1]))


@settings(max_examples=60, deadline=None)
@given(counts5, elos)
def test_swapping_the_players_turns_the_llr_round(counts, hyp):
    # B against A is A against B mirrored: H0 of one is H1 of the other.
    elo0, elo1 = hyp
    for model in ("logistic", "normalized"):
        assert llr(counts[::-1], -elo1, -elo0, model) == pytest.approx(-llr(counts, elo0, elo1, model), abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(counts5, st.floats(0.05, 0.95), st.lists(st.floats(0.01, 1), min_size=5, max_size=5))
def test_the_hypothesis_distribution_is_the_most_likely_one_with_its_mean(counts, s, weights):
    # The LLR compares the best explanations of the results under each hypothesis: no other
    # distribution with the same expected score explains the observed results better.
    total = sum(c if c else 1e-3 for c in counts)
    observed = [(c if c else 1e-3) / total for c in counts]
    best = _closest_with_mean(PENTANOMIAL_SCORES, observed, s)
    assert sum(best) == pytest.approx(1, abs=1e-9)
    assert sum(p * a for p, a in zip(best, PENTANOMIAL_SCORES)) == pytest.approx(s, abs=1e-9)
    # Another distribution with expectation s: tilt `weights` exponentially until its mean is s.
    lo, hi = -50.0, 50.0
    for _ in range(200):
        k = (lo + hi) / 2
        q = [w * math.exp(k * a) for w, a in zip(weights, PENTANOMIAL_SCORES)]
        mean = sum(x * a for x, a in zip(q, PENTANOMIAL_SCORES)) / sum(q)
        lo, hi = (k, hi) if mean < s else (lo, k)
    q = [x / sum(q) for x in q]
    loglik = lambda p: sum(o * math.log(x) for o, x in zip(observed, p))  # noqa: E731
    assert loglik(best) >= loglik(q) - 1e-9


def test_results_that_favour_the_stronger_player_raise_the_llr_monotonically():
    s = Sprt(0, 20)
    values = [s.llr([5, 10, 30, 10 + k, 5 + k]) for k in range(0, 40, 5)]
    assert values == sorted(values) and s.decide(values[-1]) == "H1"
