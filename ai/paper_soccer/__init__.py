"""Paper Soccer AI: alpha-beta over whole turns (bounce chains deduplicated by effect) with a
transposition table, immediate-goal detection and don't-lose filtering.

`make_player(level, think_ms=None, seed=None)`, `LEVELS`, `search_speed`, `CALIBRATION`, `LADDER` and
`OPENSPIEL_GAME` are what every game's AI package offers (ai/levels.py); `load_compiled` and
`compiled_search_speed` give `termarena bench` the compiled tree of the `fast` extra.  The levels are in
`player.py`, the search in `search.py` (its best-first option in `compiled_best_first.py`), the pitch
and turn generator in `board.py`, the benchmark in `speed.py`, what the tuning tools need in `tools.py`,
the learned value's fit in `fit_value.py`.
"""
from ai.paper_soccer.player import LEVEL_TABLE, LEVELS, PaperSoccerPlayer
from ai.paper_soccer.speed import compiled_search_speed, search_speed

make_player = PaperSoccerPlayer  # make_player(level, *, think_ms=None, seed=None, **level_changes)

# The analysis (ai/analysis.py) searches with level 6's alpha-beta and evaluation, `value:selfplay`, compiled
# or not (ANALYSIS_CHANGES: without the best-first search and its net of the `fast` extra), and its win
# chances are calibrated on strong games: 200 of level 6 against level 6 with `net:selfplay2` (20,000 nodes
# each, 4 random opening turns), every third position scored at 12,000 nodes (`python -m ai.tools.calibrate
# paper-soccer --from strong.txt --games 200 --every 3 --nodes 12000`).  On those positions the earlier
# fit ("learned") fits to a log loss of 0.679 (K = 0.130), the hand-set evaluation 0.687 (K = 0.065) and
# `net:selfplay2` 0.691, a coin's 0.693: in games between equals the score says little until a goal is
# proven.  (On games between levels 2-5 the earlier fit predicted nothing, K = -0.016, log loss 0.692; the
# hand-set one 0.685.)
ANALYSIS_CHANGES: dict = {"best_first": 0, "fast_net": ""}

# What the analysis' win chances are (ai/analysis.py): (A, K) of P(mover wins) = 1 / (1 + e^-(A + K * score)).
CALIBRATION = (-0.1994, 0.0797)  # 3,102 positions of the 200 strong games above, log loss 0.674

# The analysis' node budget per position (ai/analysis.py): no clock, so a game gets the same verdicts
# on any machine; about 0.25 s a position on the 2-core machine of the 2026 trial, what 500 ms of clock reached.
ANALYSIS_NODES = 12_000

# (Elo difference, its 95% error) of level N+1 over level N, N = 1..5 (ai/ratings.py; README, "The level ladder").
LADDER = ((241, 89), (173, 79), (186, 56), (135, 52), (402, 138))

OPENSPIEL_GAME = None  # OpenSpiel has no such game

ACCELERATOR = "ai.paper_soccer.accelerator"  # the `fast` extra's compiled tree (ai/compile_ahead.py)
# `termarena bench`'s words on its compiled column: level 6 with the `fast` extra is another search
COMPILED_NOTE = (f"best-first with {LEVEL_TABLE[6].fast_net}, where pure Python is alpha-beta: other nodes, "
                 "other answers")

TRAINING = "ai.paper_soccer.training"  # `termarena train`'s hooks: the pool, the fit, the gate's player


def load_compiled() -> str:
    """Loads (or compiles, once) the compiled tree of the `fast` extra, so that `termarena bench` starts no
    clock meanwhile: why it is not there, or "" when it is."""
    from ai.paper_soccer import accelerator

    accelerator.compiled_tree(wait=True)
    return accelerator.error


def selfplay_pool(pool: tuple[str, ...] = (), nets: tuple[str, ...] = ()) -> tuple[str, ...]:
    """`termarena selfplay`'s players: the default pool (or `pool`) and level 6 with each earlier net of
    `nets`, each checked to make a player (ValueError: which spec does not)."""
    from ai.paper_soccer import selfplay

    players = selfplay.pool_with(list(nets), tuple(pool) or selfplay.POOL)
    selfplay.check_pool(players)
    return players


def selfplay_games(games: int, out_path: str, players: tuple[str, ...], *, jobs: int = 2, seed: int = 0,
                   runner=None, quiet: bool = False, say=None) -> int:
    """`termarena selfplay`: games between `players` (`selfplay_pool`) appended to `out_path`
    (`selfplay.generate`), played by `runner` (a cluster's) or forked processes, a line every 50 games
    to `say` (stderr by default) unless `quiet`.  Returns how many games were decided."""
    from ai.paper_soccer import selfplay

    return selfplay.generate(games, out_path, jobs=jobs, seed=seed, pool=players,
                             runner=runner or selfplay.in_processes, quiet=quiet,
                             say=say or selfplay.say_on_stderr)


__all__ = ["ACCELERATOR", "ANALYSIS_CHANGES", "ANALYSIS_NODES", "CALIBRATION", "COMPILED_NOTE", "LADDER", "LEVELS", "LEVEL_TABLE", "OPENSPIEL_GAME",
           "TRAINING",
           "PaperSoccerPlayer", "compiled_search_speed", "load_compiled", "make_player", "search_speed",
           "selfplay_games", "selfplay_pool"]
