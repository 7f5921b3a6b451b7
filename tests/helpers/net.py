"""Helpers of the network tests: a host app and joining apps on loopback, on a free port."""
from __future__ import annotations

import asyncio
import contextlib

from tests.helpers.app import make_app, wait_until
from tui.core.net import NetPlan

CODE = "test-code"


def host_app(game: str = "connect4", seat: int = 0, clock=None, port: int = 0, seed: int = 5, **options):
    return make_app(net=NetPlan("host", "127.0.0.1", port, CODE, game=game, seat=seat, seed=seed), clock=clock,
                    autosave=False, **options)


def client_app(port: int, mode: str = "join", code: str = CODE, **options):
    return make_app(net=NetPlan(mode, "127.0.0.1", port, code), autosave=False, **options)


async def listening(pilot) -> int:
    link = pilot.app.net_link
    await wait_until(pilot, lambda: link.port != 0)
    return link.port


def net_session(app):
    screen = app._net_screen
    return None if screen is None else screen.session


async def until(pilot, condition, timeout: float = 20.0) -> None:
    await wait_until(pilot, condition, timeout)


@contextlib.asynccontextmanager
async def raw_peer(port: int):
    """A bare TCP connection to the host, for speaking (or breaking) the protocol by hand."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        yield reader, writer
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def hosted_game(game: str = "connect4", **host_options):
    """A host app and a joiner app connected over loopback: yields (host, host pilot, joiner, joiner pilot)."""
    host = host_app(game, **host_options)
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        joiner = client_app(port)
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and host.net_link.connected)
            yield host, hp, joiner, jp
