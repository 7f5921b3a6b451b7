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
    header = [line for line in out.splitlines() if "┃" in line]
    assert "connect4" in out and not any("OpenSpiel" in line for line in header) and "termarena[yardstick]" in out


def fixed_figures(monkeypatch) -> None:
    """Every figure fixed (as wide as this machine's), Paper Soccer's compiled search present, no OpenSpiel."""
    monkeypatch.setattr(bench, "openspiel_installed", lambda: False)
    monkeypatch.setattr(bench, "random_playouts", lambda gid, s: bench.PlayoutFigures(gid, 25651, 1692677, 2.0))
    monkeypatch.setattr(bench, "search_speed", lambda gid, s: (343524, 1.0))
    monkeypatch.setattr(bench, "prepare_compiled", lambda gid: "" if gid == "paper-soccer" else None)
    monkeypatch.setattr(bench, "compiled_search_speed", lambda gid, s: (782147, 1.0))


def test_at_80_columns_every_game_id_is_shown_whole(monkeypatch, capsys):
    # they were cut to "paper-socc…" and "lines-of-a…" while the two-word headers kept their room; the
    # figures here are fixed (as wide as this machine's), the layout is what is checked
    fixed_figures(monkeypatch)
    out = bench_output(monkeypatch, capsys, "--seconds", "0.1", columns=80)
    rows = [line.split("│")[1].strip() for line in out.splitlines() if line.startswith("│")]
    assert rows == ["paper-soccer", "cultist-wars", "connect4", "lines-of-action"], out
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.skipif(not bench.openspiel_installed(), reason="OpenSpiel is not installed (the yardstick extra)")
def test_openspiel_rates_are_measured_on_its_nearest_games():
    assert bench.openspiel_playouts("connect4", 0.2) > 100
    assert bench.openspiel_playouts("lines-of-action", 0.2) > 1


def test_paper_soccers_compiled_column_says_it_is_another_search(monkeypatch, capsys):
    # level 6 with the `fast` extra is best-first with a net, the pure-Python one alpha-beta: the caption
    # must not claim the same answers, as it did when both columns timed the bare alpha-beta tree
    fixed_figures(monkeypatch)
    out = " ".join(bench_output(monkeypatch, capsys, "ps", "--seconds", "0.1").split())
    assert "level 6 with the `fast` extra" in out and "best-first" in out and "same answers" not in out
