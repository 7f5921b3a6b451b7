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
