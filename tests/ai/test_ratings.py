"""Elo per level: level 1 is the reference, each level stronger than the one below, error bars grow."""
from __future__ import annotations

import pytest

from ai.ratings import describe_elo, level_elo
from engines import GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_levels_climb_from_1000_with_growing_error_bars(game):
    ratings = [level_elo(game, n) for n in range(1, 7)]
    assert ratings[0] == (1000, 0)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(ratings, ratings[1:]))
    assert describe_elo(game, 2).startswith("Elo ") and "±" in describe_elo(game, 2)


def test_the_readmes_elo_table_is_what_the_setup_screen_shows():
    # the table is written by hand from the ladder; a new ladder step must reach it too
    import re

    from engines import GAME_IDS, get_game
    from tests.helpers.paths import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    header = re.search(r"^\| level \| (.+) \|$", text, re.M)
    columns = [name.strip() for name in header.group(1).split("|")]
    games = {get_game(game_id).title: game_id for game_id in GAME_IDS}  # the columns are the games' titles
    rows = re.findall(r"^\| ([1-6]) \| (\d{4}(?: ± \d+)?(?: \| \d{4}(?: ± \d+)?)+) \|$", text[header.end():], re.M)
    assert len(rows) == 6
    for level, cells in rows:
        for name, cell in zip(columns, cells.split(" | ")):
            elo, error = level_elo(games[name], int(level))
            assert cell == (f"{elo} ± {error}" if error else str(elo)), (name, level)
