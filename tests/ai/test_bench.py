"""`termarena bench`: its figures are counts over the time measured, and with OpenSpiel installed (the
yardstick extra) OpenSpiel's own C++ rate on its nearest game is measured in the same run."""
from __future__ import annotations

import pytest

from ai import bench
from tests.helpers.cli import bench_output


def test_playout_figures_count_whole_random_games():
    f = bench.random_playouts("connect4", 0.05)
    assert f.games >= 1 and f.plies >= 7 * f.games and f.seconds >= 0.05
    assert f.games_per_s == f.games / f.seconds


def test_games_openspiel_does_not_have_get_no_rate():
    assert bench.openspiel_playouts("paper-soccer", 0.01) is None
    assert bench.openspiel_playouts("cultist-wars", 0.01) is None


def test_without_openspiel_there_is_no_rate_and_bench_says_how_to_get_one(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if it were not installed
    monkeypatch.setattr(bench, "openspiel_installed", lambda: False)
    assert bench.openspiel_playouts("connect4", 0.01) is None
    out = bench_output(monkeypatch, capsys, "c4", "--seconds", "0.1")
    assert "connect4" in out and "OpenSpiel games/s" not in out and "termarena[yardstick]" in out


@pytest.mark.skipif(not bench.openspiel_installed(), reason="OpenSpiel is not installed (the yardstick extra)")
def test_openspiel_rates_are_measured_on_its_nearest_games():
    assert bench.openspiel_playouts("connect4", 0.2) > 100
    assert bench.openspiel_playouts("lines-of-action", 0.2) > 1
