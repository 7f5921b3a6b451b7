"""The league's core, without processes: the file keeps players and games, ratings are derived from the
stored games (the same numbers however they are read), pairing picks the games that teach the most, a
run plays colour-swapped pairs and owes nothing after it is stopped."""
from __future__ import annotations

import dataclasses
import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.tournament.outputs import EachGame
from ai.tournament.schedule import Pairing
from tests.helpers.league import Told, result, run_fake, strongest_wins
from tui.core.league.db import LeagueDB, LeagueError, PlayedGame
from tui.core.league.pairing import choose_pairs
from tui.core.league.ratings import Ratings, rate
from tui.core.league.table import table_rows
from tui.core.specs import parse_spec


@pytest.fixture
def league(tmp_path):
    with LeagueDB(tmp_path / "league.db", create=True) as db:
        yield db


def test_players_are_unique_by_name_and_a_removed_player_keeps_its_games(league):
    one = league.add_player("connect4", "one", parse_spec("ai:1"))
    league.add_player("connect4", "two", parse_spec("ai:2"))
    league.add_player("lines-of-action", "one", parse_spec("ai:1"))  # another game's league
    with pytest.raises(LeagueError, match="already has a player named one"):
        league.add_player("connect4", "one", parse_spec("ai:3"))
    run_fake(league, 4, strongest_wins({"one": 1, "two": 2}))
    league.remove_player("connect4", "one")
    assert [r["name"] for r in table_rows(league, "connect4")] == ["two"]
    assert table_rows(league, "connect4")[0]["wins"] == 4  # the games against `one` still count
    again = league.add_player("connect4", "one", parse_spec("ai:3"))  # the name is free again: a new player
    assert again.id != one.id and table_rows(league, "connect4")[-1]["games"] == 0
    with pytest.raises(LeagueError, match="no player named"):
        league.remove_player("connect4", "nobody")


@pytest.mark.parametrize("name", ["", "-x", "a b", "x" * 41, "é", "a\x1b[31m", "../x"])
def test_player_names_are_short_plain_words(league, name):
    with pytest.raises(LeagueError, match="not a usable player name"):
        league.add_player("connect4", name, parse_spec("ai:1"))
    assert table_rows(league, "connect4") == []


def test_a_run_plays_colour_swapped_pairs_and_the_stronger_player_tops_the_table(league):
    for name, level in (("weak", 1), ("mid", 2), ("strong", 3)):
        league.add_player("connect4", name, parse_spec(f"ai:{level}"))
    run_fake(league, 24, strongest_wins({"weak": 1, "mid": 2, "strong": 3}), jobs=2, think_ms=50, rng=random.Random(1))
    rows = table_rows(league, "connect4")
    assert [r["name"] for r in rows] == ["strong", "mid", "weak"]
    assert sum(r["games"] for r in rows) == 48 and rows[0]["losses"] == 0
    stored = league.conn.execute("SELECT seat0, seat1, seed, think_ms FROM games ORDER BY id").fetchall()
    assert all(t == 50 for *_, t in stored)
    by_seed: dict[int, list[tuple[int, int]]] = {}
    for s0, s1, seed, _ in stored:
        by_seed.setdefault(seed, []).append((s0, s1))
    assert all(sorted(seats) == sorted([seats[0], seats[0][::-1]]) for seats in by_seed.values())


def test_a_stopped_run_owes_the_second_game_of_its_pair_and_the_next_run_plays_it_first(league):
    league.add_player("connect4", "a", parse_spec("ai:1"))
    league.add_player("connect4", "b", parse_spec("ai:2"))
    play = strongest_wins({"a": 1, "b": 1})

    def stopped_after_one_game(player, pairings, jobs, on_result):
        on_result(player(next(iter(pairings))))
        raise KeyboardInterrupt  # Ctrl-C, or any signal: the second game never comes back

    with pytest.raises(KeyboardInterrupt):
        run_fake(league, 2, play, runner=stopped_after_one_game)
    (s0, s1, seed), = stored_games(league)  # the finished game is kept
    told = Told()
    run_fake(league, 1, play, outputs=[told])
    assert [(f.seats, f.result.seed) for f in told.games] == [((s1, s0), seed)]  # that game alone
    assert league.unanswered("connect4", league.players("connect4")) == []
    assert_whole_pairs(stored_games(league))


def test_a_run_finishes_every_pair_left_half_played_even_beyond_its_games(league):
    a = league.add_player("connect4", "a", parse_spec("ai:1"))
    b = league.add_player("connect4", "b", parse_spec("ai:2"))
    for seed in (1, 2, 3):
        league.record_game((a.id, b.id), result(("a", "b"), seed, 0), None, True)
    run_fake(league, 1, strongest_wins({"a": 1, "b": 2}))
    assert league.count_games("connect4") == 6
    assert_whole_pairs(stored_games(league))


def stored_games(db: LeagueDB) -> list[tuple[int, int, int]]:
    return db.conn.execute("SELECT seat0, seat1, seed FROM games ORDER BY id").fetchall()


def assert_whole_pairs(games: list[tuple[int, int, int]]) -> None:
    """No game twice, and every game has its colour-swapped twin (the same seed, the seats swapped)."""
    assert len(set(games)) == len(games)
    assert all((s1, s0, seed) in games for s0, s1, seed in games)


def test_a_run_never_plans_half_a_pair_and_an_odd_count_plays_one_more(league):
    for name in ("a", "b", "c"):
        league.add_player("connect4", name, parse_spec("ai:1"))
    run_fake(league, 3, strongest_wins({"a": 1, "b": 2, "c": 3}), jobs=2)
    assert league.count_games("connect4") == 4
    assert_whole_pairs(stored_games(league))


def test_every_game_of_a_round_goes_through_the_one_loop_its_player_runner_and_outputs(league):
    """A round is a schedule of the tournament loop: the injected runner is handed every game, the
    injected game player plays each, and every output is shown each game after it is stored."""
    ids = [league.add_player("connect4", name, parse_spec("ai:1")).id for name in ("a", "b", "c")]
    play = strongest_wins({"a": 1, "b": 2, "c": 3})
    handed, played, rounds = [], [], []

    def player(players):
        rounds.append([p.id for p in players])
        inner = play(players)
        return lambda p: (played.append(p), inner(p))[1]

    def runner(game_player, pairings, jobs, on_result):
        handed.extend(pairings)
        for p in pairings:
            on_result(game_player(p))

    told, tables = Told(), []
    each = EachGame(lambda report, standings: tables.append((report.pairing, stored_games(league)[-1])))
    run_fake(league, 8, player, jobs=2, runner=runner, outputs=[told, each])
    assert handed == played and len(played) == 8 and rounds == [ids, ids]  # two rounds of two pairs
    assert all(isinstance(p, Pairing) for p in handed)
    assert [(*f.seats, f.result.seed) for f in told.games] == stored_games(league)  # each, as stored
    assert told.rounds == 2  # each round's end
    # an output sees the game it is shown in the file already; the round's players numbered by joining
    assert [row for _, row in tables] == stored_games(league)
    assert all(row == (ids[p.seats[0]], ids[p.seats[1]], p.seed) for p, row in tables)
    assert_whole_pairs(stored_games(league))


def test_games_back_in_any_order_as_copies_are_all_stored(league):
    """A cluster hands back copies of the pairings, in the order the games end."""
    for name in ("a", "b", "c"):
        league.add_player("connect4", name, parse_spec("ai:1"))
    planned = []

    def from_a_cluster(player, pairings, jobs, on_result):
        planned.extend(pairings)
        for p in reversed(list(pairings)):
            on_result(player(dataclasses.replace(p)))

    told = Told()
    run_fake(league, 6, strongest_wins({"a": 1, "b": 2, "c": 3}), jobs=3, runner=from_a_cluster, outputs=[told])
    assert [f.result.seed for f in told.games] == [p.seed for p in reversed(planned)]
    assert stored_games(league) == [(*f.seats, f.result.seed) for f in told.games]
    assert_whole_pairs(stored_games(league))


def test_a_game_another_run_stored_first_is_not_stored_again(tmp_path):
    """Two runs owe the same second game of a pair; both play it, the first to finish stores it."""
    path = tmp_path / "league.db"
    with LeagueDB(path, create=True) as first, LeagueDB(path) as second:
        a = first.add_player("connect4", "a", parse_spec("ai:1"))
        b = first.add_player("connect4", "b", parse_spec("ai:2"))
        ids = {"a": a.id, "b": b.id}
        first.record_game((a.id, b.id), result(("a", "b"), 9, 1), None, True)

        def the_other_run_finishes_first(player, pairings, jobs, on_result):  # (in this thread: a
            for p in pairings:                                                 # connection stays in its own)
                report = player(p)
                if p.seed == 9:  # the owed game: the first run stores it while this one plays it
                    seats = tuple(ids[name] for name in report.result.seats)
                    assert first.record_game(seats, report.result, None, True) is not None
                on_result(report)

        told = Told()
        run_fake(second, 2, strongest_wins({"a": 1, "b": 2}), runner=the_other_run_finishes_first, outputs=[told])
        assert [f.stored_id is None for f in told.games] == [True, False, False]  # not stored twice, not counted
        assert told.games[-1].number == 2
        assert_whole_pairs(stored_games(first))
        assert first.count_games("connect4") == 4


def test_owed_games_are_taken_at_a_run_start_only(league):
    """Later in a run, a half pair in the file is one another run is finishing: it is left to that run."""
    a = league.add_player("connect4", "a", parse_spec("ai:1"))
    b = league.add_player("connect4", "b", parse_spec("ai:2"))
    rounds = []

    def another_run_is_halfway_through_a_pair(player, pairings, jobs, on_result):
        rounds.append(list(pairings))
        if len(rounds) == 1:
            league.record_game((a.id, b.id), result(("a", "b"), 5, 1), None, True)
        for p in pairings:
            on_result(player(p))

    run_fake(league, 4, strongest_wins({"a": 1, "b": 2}), runner=another_run_is_halfway_through_a_pair)
    assert len(rounds) == 2 and all(p.seed != 5 for plan in rounds for p in plan)


def test_a_league_needs_two_players_to_run(league):
    league.add_player("connect4", "alone", parse_spec("ai:1"))
    with pytest.raises(LeagueError, match="needs two players"):
        run_fake(league, 2, strongest_wins({}))


games_lists = st.lists(st.tuples(st.integers(1, 4), st.integers(1, 4), st.sampled_from([0, 1, None]))
                       .filter(lambda g: g[0] != g[1]), max_size=40)


@settings(max_examples=40, deadline=None)
@given(games_lists, st.data())
def test_ratings_fed_in_parts_equal_ratings_computed_at_once(games, data):
    played = [PlayedGame(n, a, b, 0, w) for n, (a, b, w) in enumerate(games, 1)]
    cut = data.draw(st.integers(0, len(played)))
    parts = Ratings()
    parts.add(played[:cut])
    parts.add(played[cut:])
    whole = rate(played)
    assert {p: (s.mu, s.sigma, s.wins, s.draws, s.losses) for p, s in parts.standings.items()} == \
           {p: (s.mu, s.sigma, s.wins, s.draws, s.losses) for p, s in whole.standings.items()}


def test_pairing_prefers_uncertain_players_and_close_ratings():
    # 1 and 2 have played a lot and are sure; 3 is new: every pair with 3 is worth more
    settled = rate([PlayedGame(n, 1, 2, 0, n % 2) for n in range(1, 60)])
    assert 3 in choose_pairs(settled, [1, 2, 3], 1, random.Random(0))[0]
    # 1 beat 3 every time, 2 drew with 3 as often: with the same uncertainty, 2 v 3 is the open game
    lopsided = rate([PlayedGame(n, 1, 3, 0, 0) for n in range(1, 11)] +
                    [PlayedGame(n, 2, 3, 0, None) for n in range(11, 21)])
    assert choose_pairs(lopsided, [1, 2, 3], 1, random.Random(0)) == [(2, 3)]


def test_a_round_spreads_over_the_pairs():
    assert sorted(choose_pairs(Ratings(), [1, 2, 3], 3, random.Random(5))) == [(1, 2), (1, 3), (2, 3)]


def test_two_connections_write_to_one_file_without_losing_a_game(tmp_path):
    path = tmp_path / "league.db"
    with LeagueDB(path, create=True) as first, LeagueDB(path) as second:
        first.add_player("connect4", "a", parse_spec("ai:1"))
        second.add_player("connect4", "b", parse_spec("ai:2"))
        play = strongest_wins({"a": 1, "b": 2})
        run_fake(first, 2, play)
        run_fake(second, 4, play)
        assert first.count_games("connect4") == 6
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


class FileBytes(bytes):
    def __repr__(self) -> str:  # hypothesis prints the arguments of a failing example
        return f"<{len(self)} bytes of a league file>"


@pytest.fixture(scope="module")
def league_bytes(tmp_path_factory) -> bytes:
    """A small league file (three players, twelve games), everything checkpointed into the one file."""
    path = tmp_path_factory.mktemp("template") / "league.db"
    with LeagueDB(path, create=True) as db:
        for name, level in (("a", 1), ("b", 2), ("c", 3)):
            db.add_player("connect4", name, parse_spec(f"ai:{level}"))
        run_fake(db, 12, strongest_wins({"a": 1, "b": 2, "c": 2}), rng=random.Random(3))
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return FileBytes(path.read_bytes())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), min_size=1, max_size=12))
def test_a_damaged_league_file_is_read_or_refused_never_anything_else(tmp_path, league_bytes, edits):
    """Bytes changed anywhere in the file: the table is read, or the error is one the CLI turns into one
    line (see league_errors in tui/cli/league.py); no other exception, no hang."""
    data = bytearray(league_bytes)
    for where, byte in edits:
        data[where % len(data)] = byte
    path = tmp_path / f"damaged-{abs(hash(tuple(edits)))}.db"
    path.write_bytes(bytes(data))
    try:
        with LeagueDB(path) as db:
            for row in table_rows(db, "connect4"):
                assert row["games"] >= 0 and row["name"].isprintable()
    except (LeagueError, sqlite3.Error, UnicodeDecodeError):  # what `league` commands catch
        pass
