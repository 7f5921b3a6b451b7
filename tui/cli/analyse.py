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

DEFAULT_ANALYSE_MS = 500


@app.command()
def analyse(
    file: str = typer.Argument(..., help="A saved or recorded game."),
    think_ms: int = typer.Option(DEFAULT_ANALYSE_MS, "--think-ms", min=1, max=MAX_THINK_MS,
                                 help="Search time per position in ms (the top level's node budget still "
                                      "applies)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout instead of the table."),
) -> None:
    """Evaluate every move of a saved game with the top AI level: best move, win probability, and
    inaccuracies, mistakes and blunders."""
    from ai.analysis import analyse_game, analysis_player
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

    result = analyse_game(saved.start_position(), list(saved.moves),
                          analysis_player(saved.game, think_ms=think_ms), on_progress=progress)
    if live:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
    if as_json:
        sys.stdout.write(json.dumps(analysis_object(result)) + "\n")
    else:
        sys.stdout.write(analysis_table(result, saved.players))
