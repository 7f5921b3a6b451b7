"""`termarena train GAME`: generations of a learned value (self-play, fit, SPRT gate) in a run folder that
the same command resumes; tui/core/training.py runs them."""
from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import List, Optional, Tuple

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
from tui.core.train_settings import MAX_NODES, TrainSettings

LINE_LIMIT = 300


# The run's settings default to None: a resumed run keeps its own for each one the command leaves out,
# a new run takes TrainSettings' default (shown in the help).
D = TrainSettings


def kept(value) -> str:
    return f"{value} in a new run, or the run's own"


@app.command("train")
def train(
    game: str = typer.Argument(..., help=GAMES_HELP),
    folder: Path = typer.Option(..., "--dir", metavar="DIR",
                                help="The run's folder: a new or empty one starts a run, a run's own resumes it "
                                     "with the settings it was started with."),
    generations: int = typer.Option(1, "--generations", "-g", min=1, max=999,  # gen-NNN: three digits
                                    help="Go on until this many generations are gated."),
    games: Optional[int] = typer.Option(None, "--games", "-n", min=2, max=MAX_GAMES, show_default=kept(D.games),
                                        help="Self-play games a generation."),
    jobs: int = typer.Option(2, "--jobs", "-j", min=1, max=MAX_JOBS, help="Games played at the same time."),
    seed: Optional[int] = typer.Option(None, "--seed", parser=Seed(0), show_default=kept(D.seed),
                                       help="Generation g's game k is seeded by seed + (g - 1) * games + k."),
    start: Optional[str] = typer.Option(None, "--start", metavar="NET",
                                        help="The first champion: a weight file or net:NAME (default in a new "
                                             "run: the first net is fitted from scratch and gated against level "
                                             "6; a resumed run keeps its own)."),
    window: Optional[int] = typer.Option(None, "--window", min=1, max=999, show_default=kept(D.window),
                                         help="Generations whose games a fit reads: this one and those before it."),
    gate_games: Optional[int] = typer.Option(None, "--gate-games", min=2, max=MAX_GAMES,
                                             show_default=kept(D.gate_games),
                                             help="At most this many gate games (colour-swapped pairs) a generation."),
    gate_nodes: Optional[int] = typer.Option(None, "--gate-nodes", min=1, max=MAX_NODES,
                                             show_default=kept(D.gate_nodes),
                                             help="Nodes a turn for both sides of the gate: strength per node."),
    sprt: Optional[Tuple[float, float]] = typer.Option(None, "--sprt", metavar="ELO0 ELO1",
                                                       show_default=kept(f"{D.elo0:g} {D.elo1:g}"),
                                                       help="The gate's test: the new net becomes the champion "
                                                            "when it accepts Elo >= ELO1."),
    gate_with: Optional[str] = typer.Option(None, "--gate-with", metavar="KEY=V,...",
                                            show_default=kept("none"),
                                            help="Level fields both gate players add, e.g. the search the net "
                                                 "is for: best_first=1,explore=100,wide=500."),
    search_target: Optional[float] = typer.Option(None, "--search-target", metavar="SHARE", min=0.0, max=1.0,
                                                  show_default=kept(f"{D.search_target:g}"),
                                                  help="How far a fitted position's target moves from its game's "
                                                       "result to the champion's search value (every third "
                                                       "position, every one with --tree-targets; searched as the "
                                                       "gate plays, at --label-nodes): 0 results only."),
    label_nodes: Optional[int] = typer.Option(None, "--label-nodes", min=1, max=MAX_NODES, metavar="N",
                                              show_default=kept("the gate's nodes"),
                                              help="Nodes of the search that labels positions (with "
                                                   "--search-target): deeper than the gate's, its values "
                                                   "teach what the players' own search does not see."),
    tree_targets: Optional[bool] = typer.Option(None, "--tree-targets/--no-tree-targets",
                                                show_default=kept("--no-tree-targets"),
                                                help="Label every position, and value the position after each "
                                                     "root turn the search looked below: a position's sibling "
                                                     "turns each get a target (needs --search-target, 1 to "
                                                     "fit the search's values alone)."),
    pool: Optional[List[str]] = typer.Option(None, "--pool", metavar="SPEC",
                                             help="A self-play player (repeat it); {net} stands for the "
                                                  "champion's weight file (default in a new run: the game's "
                                                  "pool; a resumed run keeps its own)."),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP),
) -> None:
    """Train GAME's learned value (Paper Soccer's) in generations: self-play games, a net fitted on them,
    an SPRT gate against the champion; rerun to resume or to go on."""
    from ai.sprt import Sprt
    from tui.core.cluster import ClusterError
    from tui.core.training import TrainingError, hooks, kept_settings, open_run

    gid = game_id(game)
    hook = hooks(gid)
    if hook is None:
        raise typer.BadParameter(f"{gid} learns nothing from self-play (Paper Soccer does)", param_hint="GAME")
    try:
        if sprt:
            Sprt(*sprt)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--sprt") from None
    try:
        import numpy  # noqa: F401  (the fitter's)
    except ImportError:
        fail("train", "fitting needs numpy: pip install 'termarena[fast]'")
    cluster = cluster_option(cluster)
    if start and Path(start).is_file():
        start = str(Path(start).resolve())  # a resumed run may start from another folder
    named = {"games": games, "seed": seed, "start": start, "window": window, "gate_games": gate_games,
             "gate_nodes": gate_nodes, "elo0": sprt and sprt[0], "elo1": sprt and sprt[1],
             "pool": tuple(pool or ()) or None, "gate_with": gate_with, "search_target": search_target,
             "tree_targets": tree_targets, "label_nodes": label_nodes}
    named = {k: v for k, v in named.items() if v is not None}
    settings = TrainSettings(gid, **named)
    console = stderr_console()
    try:
        chosen = kept_settings(folder) or settings  # what the run plays with
        if chosen.tree_targets and not chosen.search_target:
            raise typer.BadParameter("tree targets are search values: give --search-target too (1: those alone)",
                                     param_hint="--tree-targets")
        check_seed_run(chosen.seed, generations * chosen.games)
        hook.pool(chosen.start or None, [], chosen.pool)  # a bad spec or net: one line, before anything
        hook.check_gate(chosen.gate_with)
        run = open_run(folder, settings, frozenset(named) | {"game"})
        run.say = lambda line: console.print(line, highlight=False, markup=False, soft_wrap=True)
        done = run.done()
        if done >= generations:
            print(f"{_gated(done)} already in {shown_path(folder)}; the champion: {_champion(run, done)}; "
                  f"give --generations {done + 1} to go on")
            return
        with ExitStack() as stack:
            runner = None
            if cluster is not None:
                from tui.core.cluster import open_cluster

                runner = open_cluster(stack, cluster, jobs, console).play
            for g in range(done + 1, generations + 1):
                run.generation(g, jobs=jobs, runner=runner)
    except (TrainingError, ClusterError, ValueError) as e:
        fail("train", str(e), LINE_LIMIT)
    except OSError as e:
        fail("train", f"{shown_path(getattr(e, 'filename', None) or folder)}: {e.strerror or e}", LINE_LIMIT)
    print(f"{_gated(generations)} in {shown_path(folder)}; the champion: {_champion(run, generations)}")


def _gated(n: int) -> str:
    return f"{n} generation{'s' if n > 1 else ''} gated"


def _champion(run, generations: int) -> str:
    champions = run.champions(generations + 1)
    return shown_path(champions[-1]) if champions else "level 6's own value (no net promoted yet)"
