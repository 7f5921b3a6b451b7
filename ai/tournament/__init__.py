"""Tournaments: which games (schedule), the one loop that plays and counts them (loop), where they are
played (runners), the refereed game player (refereed), how they are shown (outputs), and the statistics
(stats).  Only the pure parts are named here, so that importing the statistics starts no machinery."""
from ai.tournament.schedule import Opening, Pairing, schedule, series  # noqa: F401
from ai.tournament.stats import (  # noqa: F401
    AnswerTimes, Score, elo_from_fraction, elo_with_error, one_sided_elo_bound, percentile, points,
)
