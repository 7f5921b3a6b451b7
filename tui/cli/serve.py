"""`termarena serve`: the app in web browsers, through textual-serve (each browser tab runs its own app)."""
from __future__ import annotations

import shlex

import typer

from tui.cli.app import app
from tui.cli.args import stderr_console
from tui.core.python_module import module_argv
from tui.core.specs import SERVED_ENV


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDR",
                             help="Address to listen on: 127.0.0.1 (the default) serves only this machine's "
                                  "browsers; 0.0.0.0 serves anyone who can reach this machine."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    max_sessions: int = typer.Option(4, "--max-sessions", min=1, max=64,
                                     help="Apps running at once (one a browser tab); more tabs are told to wait."),
) -> None:
    """Serve the app to web browsers: open http://HOST:PORT; each tab gets its own termarena."""
    import os

    try:
        from tui.web_server import GuardedServer
    except ImportError:
        stderr_console().print("termarena serve needs textual-serve: pip install 'termarena[web]'",
                               markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    # inherited by every app the server starts: they start no bot, and end when this process does
    os.environ[SERVED_ENV] = str(os.getpid())
    command = "exec " + shlex.join(module_argv("tui"))  # exec: the app's parent is this process
    stderr_console().print(f"Serving termarena on http://{host}:{port} (ctrl+c stops)", markup=False,
                           highlight=False)
    try:
        GuardedServer(command, host=host, port=port, title="termarena", max_sessions=max_sessions).serve()
    except OSError as e:  # the port is taken, the address is not this machine's
        stderr_console().print(f"termarena serve: cannot listen on {host}:{port}: {e.strerror or e}",
                               markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
