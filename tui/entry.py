"""The `termarena` console script.  `termarena bot` skips the command line's imports (typer, rich):
a hosted bot's first turn is timed from its start, so every 100 ms of start-up counts."""
from __future__ import annotations

import signal
import sys


def _end_on_signal(signum, frame) -> None:
    """SIGTERM and SIGHUP end a headless command like Ctrl-C does: `finally` blocks run, bots are ended
    (their guards would end them anyway), and the exit status says which signal it was."""
    from engines.referee.process import end_all_bots

    end_all_bots()
    raise SystemExit(128 + signum)


def main() -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _end_on_signal)
    args = sys.argv[1:]
    if args[:1] == ["bot"] and not {"-h", "--help"} & set(args):
        from ai.bot import main as bot_main

        sys.exit(bot_main(args[1:], prog="termarena bot"))
    from tui.cli import main as cli_main

    cli_main()
