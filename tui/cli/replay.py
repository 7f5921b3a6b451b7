"""`termarena replay FILE`: the replay screen of a saved or recorded game, straight away."""
from __future__ import annotations

from pathlib import Path

import typer

from tui.cli.app import app
from tui.cli.args import exit_with


@app.command()
def replay(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A saved game, or a game recorded by `referee`/`match --record DIR`."),
) -> None:
    """Step through a saved game; a recorded one shows both bots' answers, times and stderr turn by turn.

    ← → step, Home End, f the turn where a bot timed out, crashed or was refused, ? every key.
    Reading the file never starts a program, even one named in it."""
    from tui.core.storage import StorageError, load_game

    path = Path(file).expanduser()
    try:
        saved, _ = load_game(path)  # read here first: a bad file is one line, and the app is not started
    except StorageError as e:
        raise typer.BadParameter(str(e), param_hint="FILE") from None
    from tui.app import run_app

    exit_with(run_app(saves=(ctx.obj or {}).get("saves_dir"), replay=saved, replay_title=path.stem))
