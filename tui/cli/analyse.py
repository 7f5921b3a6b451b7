"""`termarena analyse FILE`: every move of a saved game judged by the top level's search, headless."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from engines.visible import visible
from tui.cli.app import app
from tui.cli.args import MAX_THINK_MS

MAX_ANALYSE_NODES = 100_000_000  # a bound on a typo, not on patience: about a minute a position

@app.command()
def analyse(
    file: str = typer.Argument(..., help="A saved or recorded game."),
    nodes: Optional[int] = typer.Option(None, "--nodes", min=1, max=MAX_ANALYSE_NODES,
                                        help="Nodes searched per position (default: the game's own budget). "
                                             "The same file gives the same output on any machine."),
    think_ms: Optional[int] = typer.Option(None, "--think-ms", min=1, max=MAX_THINK_MS,
                                           help="Bound each position by time instead (ms; with the top level's "
                                                "node budget unless --nodes): faster or deeper, but the "
                                                "verdicts then depend on the machine and its load."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout instead of the table."),
) -> None:
    """Evaluate every move of a saved game with the top AI level: best move, win probability, and
    inaccuracies, mistakes and blunders."""
    from ai.analysis import analyse_game
    from tui.core.analysis_text import analysis_object, analysis_table
    from tui.core.storage import StorageError, load_game

    try:
        saved, _final = load_game(Path(file).expanduser())
    except StorageError as e:
        sys.stderr.write(f"termarena analyse: {visible(str(e))}\n")
        raise typer.Exit(1) from None
    live = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if live:
            sys.stderr.write(f"\ranalysing position {done}/{total} ")
            sys.stderr.flush()

    result = analyse_game(saved.start_position(), list(saved.moves), nodes=nodes, think_ms=think_ms,
                          on_progress=progress)
    if live:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
    if as_json:
        sys.stdout.write(json.dumps(analysis_object(result)) + "\n")
    else:
        sys.stdout.write(analysis_table(result, saved.players))
