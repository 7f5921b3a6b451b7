"""The `termarena` command line (typer): one module a capability, each registering its commands on
`tui.cli.app.app`; `main` is the console-script entry."""
from __future__ import annotations

import sys

import typer

from tui.cli import games  # noqa: F401  (importing it registers play, referee, bot, match, bench, prepare)
from tui.cli import league  # noqa: F401  (league add/remove/run/table)
from tui.cli import replay  # noqa: F401  (registers replay)
from tui.cli import analyse  # noqa: F401  (registers analyse)
from tui.cli import net  # noqa: F401  (host, join, watch)
from tui.cli import serve  # noqa: F401  (serve)
from tui.cli import server  # noqa: F401  (server, online)
from tui.cli import selfplay  # noqa: F401  (selfplay)
from tui.cli import train  # noqa: F401  (train)
from engines.visible import visible
from tui.cli.app import app, unbroken_help

unbroken_help(app)

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry: bad arguments give one line on stderr and exit status 2."""
    try:
        status = app(standalone_mode=False)
    except typer.Exit as e:
        status = e.exit_code
    except typer.Abort:
        sys.stderr.write("termarena: aborted\n")
        status = 130
    except typer.TyperException as e:  # usage errors (exit code 2) and other click errors
        # the message may quote a file name, a file's content or a player spec: its controls escaped
        sys.stderr.write(f"termarena: {visible(e.format_message())}\n")
        status = e.exit_code
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:
        status = 0
    sys.exit(status if isinstance(status, int) else 0)
