"""The `termarena` console script.  `termarena bot` skips the command line's imports (typer, rich):
a hosted bot's first turn is timed from its start, so every 100 ms of start-up counts."""
from __future__ import annotations

import sys


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["bot"] and not {"-h", "--help"} & set(args):
        from ai.bot import main as bot_main

        sys.exit(bot_main(args[1:], prog="termarena bot"))
    from tui.cli import main as cli_main

    cli_main()
