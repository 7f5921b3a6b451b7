"""The `termarena` console script.  `termarena bot` skips the command line's imports (typer, rich):
a hosted bot's first turn is timed from its start, so every 100 ms of start-up counts."""
from __future__ import annotations

import os
import signal
import sys


def _end_on_signal(signum, frame) -> None:
    """SIGTERM and SIGHUP end a headless command like Ctrl-C does: `finally` blocks run, bots are ended
    (their guards would end them anyway), and the exit status says which signal it was."""
    from engines.referee.process import end_all_bots

    end_all_bots()
    raise SystemExit(128 + signum)


def _end_with_the_server() -> None:
    """An app started by `termarena serve` ends when the server ends, however it ended (SIGKILL too):
    the kernel sends it SIGTERM when its parent, the server, dies (the server starts it with `exec`, so
    the server is its parent, and from its main thread, which lives as long as the server)."""
    server = os.environ.get("TERMARENA_SERVED", "")
    if not server.isdigit():
        return
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the server's own shutdown still ends its apps
        return
    if os.getppid() != int(server):  # the server died before the line above: end now
        sys.exit(128 + signal.SIGTERM)


def main() -> None:
    _end_with_the_server()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _end_on_signal)
    args = sys.argv[1:]
    if args[:1] == ["bot"] and not {"-h", "--help"} & set(args):
        from ai.bot import main as bot_main

        sys.exit(bot_main(args[1:], prog="termarena bot"))
    from tui.cli import main as cli_main

    cli_main()
