"""Network games: `host` waits for an opponent and referees, `join` plays the other seat, `watch` follows."""
from __future__ import annotations

import sys
from typing import Optional

import typer

from tui.cli.app import app
from tui.cli.args import CLOCK_HELP, GAMES_HELP, Seed, clock_option, exit_with, game_id
from tui.core.net import DEFAULT_PORT, NetPlan

BIND_HELP = ("Address to listen on: 127.0.0.1 (the default) lets only this machine join; a LAN address, "
             "or 0.0.0.0 for every interface, lets any machine that can reach this one try (with the code).")
PASSWORD_HELP = "The join code (default: a random one, shown when the game opens)."
MAX_CODE = 64


def _code(text: str, option: str = "--password") -> str:
    """A join code travels as one word of the protocol: printable, no spaces, not too long."""
    if not text or len(text) > MAX_CODE or not text.isprintable() or " " in text or not text.isascii():
        raise typer.BadParameter(f"use 1 to {MAX_CODE} ASCII letters, digits or signs, no spaces",
                                 param_hint=option)
    return text


def _address(text: str) -> tuple[str, int]:
    from tui.core.net.client import parse_address

    try:
        return parse_address(text, DEFAULT_PORT)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="HOST:PORT") from None


def _asked_code(password: Optional[str]) -> str:
    if password is not None:
        return _code(password)
    if not sys.stdin.isatty():
        raise typer.BadParameter("give the host's join code", param_hint="--password")
    return _code(typer.prompt("Join code (the host shows it)").strip(), "join code")


@app.command()
def host(
    game: str = typer.Argument(..., help=GAMES_HELP),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535, help="TCP port (0: any free one)."),
    bind: str = typer.Option("127.0.0.1", "--bind", metavar="ADDR", help=BIND_HELP),
    seat: int = typer.Option(1, "--seat", min=1, max=2, help="Your seat: 1 (p1) moves first, 2 (p2) second."),
    clock: Optional[str] = typer.Option(None, "--clock", metavar="MIN+INC", help=CLOCK_HELP),
    password: Optional[str] = typer.Option(None, "--password", metavar="PW", help=PASSWORD_HELP),
    seed: Optional[int] = typer.Option(None, "--seed", parser=Seed(),
                                       help="Game seed (Cultist Wars map); random if not given."),
) -> None:
    """Host GAME for a person on another machine: waits for them to join, and referees with its own engine."""
    from tui.app import run_app
    from tui.core.net.host import new_join_code

    gid = game_id(game)
    clock_spec = clock_option(clock)
    code = _code(password) if password is not None else new_join_code()
    plan = NetPlan("host", bind, port, code, game=gid, seat=seat - 1, seed=seed)
    exit_with(run_app(clock=clock_spec, net=plan))


ADDRESS_ARG = typer.Argument(..., metavar="HOST:PORT", help=f"The host (port {DEFAULT_PORT} if not given).")
CODE_OPTION = typer.Option(None, "--password", metavar="PW", help="The host's join code (asked for if not given).")


def _follow(mode: str, address: str, password: Optional[str]) -> None:
    """join and watch: connect to the host (no autosave: the host keeps the game)."""
    from tui.app import run_app

    where, port = _address(address)
    exit_with(run_app(net=NetPlan(mode, where, port, _asked_code(password)), autosave=False))


@app.command()
def join(address: str = ADDRESS_ARG, password: Optional[str] = CODE_OPTION) -> None:
    """Join a hosted game and play the other seat; a dropped connection is tried again."""
    _follow("join", address, password)


@app.command()
def watch(address: str = ADDRESS_ARG, password: Optional[str] = CODE_OPTION) -> None:
    """Follow a hosted game, read-only."""
    _follow("watch", address, password)
