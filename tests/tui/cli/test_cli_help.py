"""`termarena --help` and `termarena league --help` list each command with its summary unbroken."""
from __future__ import annotations

import inspect
import re

import pytest
from typer.testing import CliRunner

from tui.cli import app
from tui.cli.league import league_app


@pytest.mark.parametrize("args, group", [([], app), (["league"], league_app)], ids=["termarena", "league"])
def test_each_command_is_listed_with_the_first_paragraph_of_its_help_on_one_line(args, group):
    # wide enough for every summary: a line break left from the docstring shows as a row of its own
    out = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "400"}).output
    rows = {line.strip("│ ").split(" ", 1)[0]: " ".join(line.strip("│ ").split()[1:]) for line in out.splitlines()}
    for info in group.registered_commands:
        doc = inspect.cleandoc(info.callback.__doc__).split("\n\n")[0]
        name = info.name or info.callback.__name__
        assert rows[name] == " ".join(doc.split()), (name, out)


def _commands():
    for info in app.registered_commands:
        yield [info.name or info.callback.__name__]
    for info in league_app.registered_commands:
        yield ["league", info.name]


@pytest.mark.parametrize("command", list(_commands()), ids=" ".join)
def test_no_option_shows_bounds_of_many_digits_beside_it(command):
    # a seed's bounds (19 and 20 digits) took a third of an 80-column screen from every option's help
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0 and "Usage" in result.output
    assert not re.search(r"\d{11,}", result.output), result.output
