"""`termarena server` holds a lobby where players meet and play over TLS; `termarena online` goes there."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from tui.cli.app import app
from tui.cli.args import exit_with
from tui.core.server import DEFAULT_SERVER_PORT

HOST_HELP = ("Address to listen on: 127.0.0.1 (the default) serves only this machine; 0.0.0.0 (or ::) serves "
             "anyone who can reach it (the server is built for that: see the README's \"Server\").")


@app.command()
def server(
    data: Path = typer.Option(..., "--data", metavar="DIR", file_okay=False,
                              help="Folder of everything the server keeps: database, certificate, finished games."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDR", help=HOST_HELP),
    port: int = typer.Option(DEFAULT_SERVER_PORT, "--port", min=0, max=65535, help="TCP port (0: any free one)."),
) -> None:
    """Run a lobby: players online, seeks, games refereed with clocks, watchers, ratings; over TLS."""
    from tui.core.server.run import run

    exit_with(run(data, host, port))
