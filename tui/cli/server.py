"""`termarena server` holds a lobby where players meet and play over TLS; `termarena online` goes there."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

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
    max_connections: int = typer.Option(2000, "--max-connections", min=1, max=1_000_000, metavar="N",
                                        help="Connections at once, in all (2 a game, and the lobby's)."),
    ssh_port: Optional[int] = typer.Option(None, "--ssh-port", min=0, max=65535, metavar="PORT",
                                           help="Also serve the lobby over ssh on this port (`ssh -p PORT NAME@HOST` "
                                                "runs the app; needs the \\[server] extra)."),
    web_port: Optional[int] = typer.Option(None, "--web-port", min=0, max=65535, metavar="PORT",
                                           help="Also serve the lobby to web browsers on this port (http://HOST:PORT "
                                                "runs the app, as a guest; needs the \\[web] extra)."),
    web_name: Optional[List[str]] = typer.Option(None, "--web-name", metavar="NAME",
                                                 help="A name browsers reach this server by (play.example.org), "
                                                      "besides its addresses and this machine's names; repeatable."),
) -> None:
    """Run a lobby: players online, seeks, games refereed with clocks, watchers, ratings; over TLS."""
    from tui.core.server.run import Fronts, run

    names = tuple(web_name or ())
    for name in names:
        if not name or len(name) > 253 or not all(ch.isascii() and (ch.isalnum() or ch in ".-") for ch in name):
            raise typer.BadParameter("a host name: letters, digits, dots and dashes", param_hint="--web-name")
    if names and web_port is None:
        raise typer.BadParameter("names browsers use need a --web-port", param_hint="--web-name")
    exit_with(run(data, host, port, max_connections, Fronts(ssh_port, web_port, names)))


NAME_HELP = ("The name to claim on a server you have not used yet (1 to 20 letters, digits, _ . -); after that "
             "the token kept for that server logs you in as the same name.")


@app.command()
def online(
    address: str = typer.Argument(..., metavar="HOST[:PORT]", help=f"The server (port {DEFAULT_SERVER_PORT} if not given)."),
    name: Optional[str] = typer.Option(None, "--name", metavar="NAME", help=NAME_HELP),
) -> None:
    """Go to a server's lobby: seek, accept, watch, ratings, history; games play as with `join`."""
    import getpass

    from tui.app import run_app
    from tui.core.net import NetPlan
    from tui.core.net.client import parse_address
    from tui.core.net.protocol import ProtocolError
    from tui.core.server.protocol import check_name

    try:
        where, port = parse_address(address, DEFAULT_SERVER_PORT)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="HOST[:PORT]") from None
    try:
        login = getpass.getuser()
    except (OSError, KeyError):  # no login name in this environment
        login = ""
    wanted = name if name is not None else "".join(ch for ch in login if ch.isascii() and ch.isalnum())[:20]
    try:
        wanted = check_name(wanted or "player")
    except ProtocolError as e:
        raise typer.BadParameter(str(e), param_hint="--name") from None
    exit_with(run_app(net=NetPlan("online", where, port, wanted), autosave=False))
