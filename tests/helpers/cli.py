"""`termarena` commands run in this process, as the command line runs them."""
from __future__ import annotations

import sys

import pytest


def run_cli(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """The exit status and stderr of `termarena ARGS`."""
    from tui import cli

    monkeypatch.setattr(sys, "argv", ["termarena", *args])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    return ended.value.code, capsys.readouterr().err


def bench_output(monkeypatch, capsys, *args: str, columns: int = 200) -> str:
    """What `termarena bench ARGS` prints on a terminal `columns` wide (it must end without an error)."""
    from tui import cli

    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(sys, "argv", ["termarena", "bench", *args])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code in (0, None)
    return capsys.readouterr().out
