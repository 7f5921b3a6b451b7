"""`termarena selfplay GAME`: self-play games for a game's learned values, here or on a Ray cluster."""
from __future__ import annotations

from contextlib import ExitStack
from typing import List, Optional

import typer

from tui.cli.app import app
from tui.cli.args import (
    CLUSTER_HELP,
    GAMES_HELP,
    MAX_GAMES,
    MAX_JOBS,
    Seed,
    check_seed_run,
    cluster_option,
    fail,
    game_id,
    shown_path,
    stderr_console,
)

LINE_LIMIT = 300  # characters of a refusal: a refused spec's error may repeat a long net path


@app.command("selfplay")
def selfplay(
    game: str = typer.Argument(..., help=GAMES_HELP),
    out: str = typer.Option(..., "--out", metavar="FILE",
                            help="Append the decided games here, one a line (what the fitters read)."),
    games: int = typer.Option(100, "--games", "-n", min=1, max=MAX_GAMES, help="Games to play."),
    jobs: int = typer.Option(2, "--jobs", "-j", min=1, max=MAX_JOBS, help="Games played at the same time."),
    seed: int = typer.Option(0, "--seed", parser=Seed(0),
                             help="Game k draws its players and opening from seed + k: the same command "
                                  "gives the same games."),
    pool: Optional[List[str]] = typer.Option(None, "--pool", metavar="SPEC",
                                             help="A player of the pool (repeat it), e.g. level:6,nodes=4000 "
                                                  "(default: the game's own pool)."),
    net: Optional[List[str]] = typer.Option(None, "--net", metavar="FILE",
                                            help="An earlier net's weight file (repeat it): level 6 with it "
                                                 "joins the pool."),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP),
) -> None:
    """Play self-play games for GAME's learned values (Paper Soccer's), on this machine's cores or on Ray."""
    from ai.levels import ai_part
    from tui.core.storage import StorageError, open_append

    gid = game_id(game)
    check_seed_run(seed, games)
    make = ai_part(gid, "selfplay_games", None)
    if make is None:
        raise typer.BadParameter(f"{gid} learns nothing from self-play (Paper Soccer does)", param_hint="GAME")
    cluster = cluster_option(cluster)
    try:
        # a bad spec or net file: one line, before anything starts
        players = ai_part(gid, "selfplay_pool")(tuple(pool or ()), tuple(net or ()))
        with open_append(out, "a file of games"):
            pass
    except (OSError, ValueError, StorageError) as e:
        fail("selfplay", str(e), LINE_LIMIT)
    console = stderr_console()
    from tui.core.cluster import ClusterError

    try:
        with ExitStack() as stack:
            runner = None  # forked processes on this machine
            if cluster is not None:
                from tui.core.cluster import open_cluster

                runner = open_cluster(stack, cluster, jobs, console).play
            console.print(f"{gid}: {games} self-play games, {jobs} at a time"
                          + (f" on Ray ({cluster})" if cluster else "") + f", appended to {shown_path(out)}",
                          highlight=False, markup=False, soft_wrap=True)
            decided = make(games, out, players, jobs=jobs, seed=seed, runner=runner)
    except ClusterError as e:
        fail("selfplay", str(e), LINE_LIMIT)
    except OSError as e:
        fail("selfplay", f"{shown_path(out)}: {e.strerror or e}", LINE_LIMIT)
    print(f"{decided} decided games of {games} appended to {shown_path(out)}")
