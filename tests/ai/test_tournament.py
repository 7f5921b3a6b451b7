from ai.tournament import Score, elo_from_fraction, elo_with_error, schedule


def test_every_pair_plays_both_colours_on_the_same_seed():
    games = schedule(3, 4, seed=10)
    assert len(games) == 3 * 4
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        mine = [g for g in games if (g.a, g.b) == (a, b)]
        assert sorted(g.a_seat for g in mine) == [0, 0, 1, 1]
        for seed in {g.seed for g in mine}:
            assert sorted(g.a_seat for g in mine if g.seed == seed) == [0, 1]


def test_an_odd_game_count_is_rounded_up_to_a_colour_swapped_pair():
    assert len(schedule(2, 5, seed=0)) == 6


def test_elo_of_even_score_is_zero_and_signs_follow_the_score():
    assert elo_from_fraction(0.5) == 0
    assert elo_from_fraction(0.76) > 190 and elo_from_fraction(0.24) < -190


def test_error_bar_shrinks_with_more_games():
    small, big = Score(wins=7, losses=3), Score(wins=70, losses=30)
    e_small, bar_small = elo_with_error(small)
    e_big, bar_big = elo_with_error(big)
    assert abs(e_small - e_big) < 1e-9
    assert bar_big < bar_small / 2.5


def test_each_opening_is_played_once_with_each_colour_before_any_again():
    from ai.tournament import Opening

    ops = [Opening(("4",)), Opening(("5", "5")), Opening(seed=77)]
    games = schedule(2, 6, seed=3, openings=ops)
    assert [(g.opening, g.a_seat) for g in games] == [
        (("4",), 0), (("4",), 1), (("5", "5"), 0), (("5", "5"), 1), ((), 0), ((), 1)]
    assert [g.seed for g in games] == [3, 3, 4, 4, 77, 77]  # a seed opening is the game's seed
    assert [g.twin for g in games] == [0, 0, 1, 1, 2, 2]
    # More games than openings: the list starts again, still in colour-swapped twins.
    again = schedule(2, 8, seed=0, openings=ops)
    assert again[6].opening == ("4",) and again[6].opening_index == 0 and again[7].twin == again[6].twin


def test_answer_time_statistics_use_the_nearest_rank_percentile():
    from ai.tournament import AnswerTimes, percentile

    assert percentile(list(range(1, 101)), 95) == 95
    assert percentile([5.0], 95) == 5.0
    t = AnswerTimes([float(x) for x in range(1, 21)], timeouts=1)
    assert t.summary() == {"turns": 20, "mean_ms": 10.5, "p95_ms": 19.0, "max_ms": 20.0, "timeouts": 1}
    assert AnswerTimes().summary()["mean_ms"] is None


def test_a_one_sided_result_gives_an_elo_bound_not_a_number():
    from ai.tournament import one_sided_elo_bound

    assert one_sided_elo_bound(Score(wins=46)) == elo_from_fraction(1 - 3 / 46) > 400
    assert one_sided_elo_bound(Score(losses=46)) == -elo_from_fraction(1 - 3 / 46)
    assert one_sided_elo_bound(Score(wins=45, losses=1)) is None
    assert one_sided_elo_bound(Score(wins=3)) is None  # too few games to say anything
    assert one_sided_elo_bound(Score(losses=6)) is None and one_sided_elo_bound(Score(losses=10)) < -100
    assert one_sided_elo_bound(Score(wins=300)) > one_sided_elo_bound(Score(wins=30))


def test_the_loop_plays_the_schedule_with_any_player_and_an_sprt_stops_it():
    # A player that needs no process: seat 0 always wins.  Each pair is then 1-1 for every player, so an
    # SPRT never decides; a player whose games player 0 always wins makes H1 come early.
    from ai.sprt import Sprt
    from ai.tournament import series
    from ai.tournament.loop import GameReport, Standings, run
    from ai.tournament.runners import in_order
    from engines.base import Outcome
    from engines.referee import MatchResult

    def wins_for(winner_of):
        def play(p):
            out = Outcome(winner_of(p), "connected", (10, 0) if winner_of(p) == 0 else (0, 10))
            return GameReport(p, MatchResult("connect4", p.seed, 7, ["4"] * 7, ["a", "b"], out), ([1.0], [2.0]))
        return play

    seen = []

    class Seen:
        def on_game(self, report, standings):
            seen.append(report.pairing.index)

        def on_end(self, standings):
            seen.append("end")

    plan = series(4, 7, swap=True)
    assert [(p.a_seat, p.seed) for p in plan] == [(0, 7), (1, 8), (0, 9), (1, 10)]
    t = run(Standings.start("connect4", ["a", "b"], 4), plan, wins_for(lambda p: 0), runner=in_order,
            outputs=[Seen()])
    assert seen == [0, 1, 2, 3, "end"] and (t.scores[(0, 1)].wins, t.scores[(0, 1)].losses) == (2, 2)
    assert t.by_seat[(0, 0)].wins == 2 and t.times[0].times_ms == [1.0, 2.0, 1.0, 2.0]
    plan = schedule(2, 200, 1)
    t = run(Standings.start("connect4", ["a", "b"], len(plan), Sprt(0, 400)), plan,
            wins_for(lambda p: p.a_seat), runner=in_order)
    assert t.sprt.result == "H1" and len(t.games) == 10 < t.planned


def test_a_referee_result_is_json_as_the_spec_writes_it():
    import json

    from engines.base import Outcome
    from engines.referee import MatchResult

    r = MatchResult("connect4", 7, 1, ["x"], ["ai:1", "cmd:b"], Outcome(0, "invalid", (10, 0), fault=1,
                                                                      output="x", cause="wrong action"))
    assert json.dumps(r.to_json()) == (
        '{"game": "connect4", "seed": 7, "winner": 0, "scores": [10, 0], "reason": "invalid", "turns": 1, '
        '"moves": ["x"], "error": "p2 (cmd:b): sent \'x\': wrong action", "seats": ["ai:1", "cmd:b"]}')
