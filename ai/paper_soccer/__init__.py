"""Paper Soccer AI: alpha-beta over whole turns (bounce chains deduplicated by effect) with a
transposition table, immediate-goal detection and don't-lose filtering.

`make_player(level, think_ms=None, seed=None)`, `LEVELS` and `search_speed` are the interface that
ai/levels.py and `termarena bench` use; the levels are in `player.py`, the search in `search.py`,
the pitch and turn generator in `board.py`, the benchmark in `speed.py`.
"""
from ai.paper_soccer.player import LEVEL_TABLE, LEVELS, PaperSoccerPlayer
from ai.paper_soccer.speed import search_speed

make_player = PaperSoccerPlayer  # make_player(level, *, think_ms=None, seed=None, **level_changes)

# The analysis (ai/analysis.py) searches with the hand-set evaluation: its win chances are calibrated on
# games between levels 2-5, where the learned value, fitted to strong players' games, predicts nothing
# (`python -m ai.tools.calibrate paper-soccer --games 40` with it: K = -0.016, log loss 0.692, a coin's)
ANALYSIS_CHANGES = {"value": ""}

__all__ = ["ANALYSIS_CHANGES", "LEVELS", "LEVEL_TABLE", "PaperSoccerPlayer", "make_player", "search_speed"]
