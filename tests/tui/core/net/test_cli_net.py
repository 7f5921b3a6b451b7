"""host, join, watch and play --clock refuse bad arguments in one line (status 2), before any app or socket."""
from __future__ import annotations

import pytest

from tests.helpers.cli import run_cli
from tui.core.net.client import parse_address


@pytest.mark.parametrize("args", [
    ["play", "c4", "--clock", "0+5"],
    ["play", "c4", "--clock", "5+x"],
    ["host", "c4", "--clock", "1e9"],
    ["host", "c4", "--port", "70000"],
    ["host", "c4", "--seat", "3"],
    ["host", "c4", "--password", "two words"],
    ["host", "c4", "--password", "x" * 65],
    ["host", "chess"],
    ["join", "localhost:99999", "--password", "abc"],
    ["join", "localhost:http", "--password", "abc"],
    ["watch", ":7777", "--password", "abc"],
    ["join", "localhost:7777", "--password", "bad\tcode"],
])
def test_bad_network_and_clock_arguments_are_refused_in_one_line(monkeypatch, capsys, args):
    code, err = run_cli(monkeypatch, capsys, *args)
    assert code == 2
    assert err.startswith("termarena: ") and err.count("\n") == 1 and "Traceback" not in err


def test_join_without_a_code_and_no_terminal_to_ask_on_is_refused(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    code, err = run_cli(monkeypatch, capsys, "join", "localhost")
    assert code == 2 and "join code" in err


@pytest.mark.parametrize("text, address", [
    ("example.org", ("example.org", 7777)),
    ("10.0.0.2:4000", ("10.0.0.2", 4000)),
    ("[::1]:4000", ("::1", 4000)),
    ("::1", ("::1", 7777)),
])
def test_addresses_name_a_host_and_a_port(text, address):
    assert parse_address(text, 7777) == address
