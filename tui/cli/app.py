"""The typer application every command module registers on, and its root callback (the app)."""
from __future__ import annotations

import inspect
from typing import Optional

import typer

from tui.cli.args import SAVES_HELP, exit_with, saves_option

app = typer.Typer(
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    help="Play CodinGame arena games in the terminal: Paper Soccer, Cultist Wars, Connect 4, Lines of Action.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

@app.callback()
def root(
    ctx: typer.Context,
    saves_dir: Optional[str] = typer.Option(None, "--saves-dir", help=SAVES_HELP),
) -> None:
    """Without a command: open the game picker (and offer to resume an unfinished autosaved game)."""
    ctx.obj = {"saves_dir": saves_option(saves_dir)}
    if ctx.invoked_subcommand is None:
        from tui.app import run_app

        exit_with(run_app(saves=saves_dir))


def unbroken_help(group: typer.Typer) -> None:
    """Each command's help in `group` and its sub-groups (`league`) with its paragraphs as runs of text,
    the first one its summary in the list of commands: typer 0.29's rich help keeps a docstring's line
    breaks (fastapi/typer#1844), which broke `termarena --help` and `bot --help` mid-sentence."""
    for sub in group.registered_groups:
        unbroken_help(sub.typer_instance)
    for info in group.registered_commands:
        text = info.help or (info.callback.__doc__ if info.callback else None)
        if not text:
            continue
        paragraphs = [" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n")]
        info.help = "\n\n".join(paragraphs)
        if info.short_help is None:
            info.short_help = paragraphs[0]
