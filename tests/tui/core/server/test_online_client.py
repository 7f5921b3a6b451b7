"""The `online` client against a real server on loopback: the certificate is pinned on first use and a
changed one is refused with the warning before anything is sent; two clients meet in the lobby and
their game comes as the `join` screen's events."""
from __future__ import annotations

import asyncio
import shutil

from tests.helpers.server import running_server
from tui.core.net.events import Lost, MoveIn, Welcome
from tui.core.server.client import InLobby, Listed, OnlineClient, Offered, Pinned, Started
from tui.core.server.pins import PINS_NAME, TOKENS_NAME
from tui.core.server.tls import CERT_NAME, KEY_NAME, ensure_certificate


class Recorder:
    def __init__(self) -> None:
        self.events: list[object] = []
        self.changed = asyncio.Event()

    def __call__(self, event: object) -> None:
        self.events.append(event)
        self.changed.set()

    async def first(self, kind: type) -> object:
        while True:
            for event in self.events:
                if isinstance(event, kind):
                    return event
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 20)


def online(port: int, name: str, config) -> tuple[OnlineClient, Recorder, asyncio.Task]:
    events = Recorder()
    client = OnlineClient("127.0.0.1", port, name, events, config)
    return client, events, asyncio.ensure_future(client.run())


async def test_first_use_pins_the_certificate_and_a_changed_one_is_refused_with_the_warning(tmp_path):
    config, data = tmp_path / "config", tmp_path / "data"
    async with running_server(data) as (server, port):
        client, events, task = online(port, "alice", config)
        assert (await events.first(Pinned)).new
        assert (await events.first(InLobby)).name == "alice"
        client.shutdown()
        await task
    assert (config / PINS_NAME).read_text().startswith(f"127.0.0.1:{port} SHA256:")
    assert (config / TOKENS_NAME).stat().st_mode & 0o077 == 0  # the token is the user's alone
    other = tmp_path / "other"
    ensure_certificate(other)
    for name in (CERT_NAME, KEY_NAME):
        shutil.copy(other / name, data / name)
    async with running_server(data, port=port) as (server, _):  # the same address, another certificate
        client, events, task = online(port, "alice", config)
        lost = await events.first(Lost)
        await task
        assert "HAS CHANGED" in lost.reason and "man-in-the-middle" in lost.reason and not lost.retrying
        assert f"remove line 1 of {config / PINS_NAME}" in lost.reason
        assert not any(isinstance(e, InLobby) for e in events.events)
        assert server.members == {}  # nothing was sent: not even the token


async def test_two_online_clients_meet_and_play_through_the_join_screens_events(tmp_path):
    async with running_server(tmp_path / "data") as (server, port):
        alice, a_events, a_task = online(port, "alice", tmp_path / "a")
        bob, b_events, b_task = online(port, "bob", tmp_path / "b")
        await a_events.first(InLobby)
        await b_events.first(InLobby)
        alice.request("SEEK", "connect4", "5+3", "rated")
        offer = await b_events.first(Offered)
        bob.list("seeks")
        assert [row[1] for row in (await b_events.first(Listed)).rows] == ["alice"]
        bob.request("ACCEPT", offer.words[0])
        welcomes = [await e.first(Welcome) for e in (a_events, b_events)]
        assert {w.seat for w in welcomes} == {0, 1} and welcomes[0].clock.base_s == 300
        assert (await a_events.first(Started)).role == "play"
        first = alice if welcomes[0].seat == 0 else bob
        first.send_move(1, "4")
        assert (await b_events.first(MoveIn)).text == "4"
        for client, task in ((alice, a_task), (bob, b_task)):
            client.shutdown()
            await task


def test_resign_and_abort_are_offered_only_by_a_server_that_knows_them(tmp_path):
    """A server of the first lobby (LOBBY 1) would cut the connection off for RESIGN: not offered there."""
    from tui.core.net.protocol import Message

    client = OnlineClient("127.0.0.1", 7778, "alice", lambda event: None, tmp_path)
    client._handle(Message("LOBBY", ("1", "alice", "a" * 48)))
    assert not client.can_resign
    client._handle(Message("LOBBY", ("2", "alice", "a" * 48)))
    assert client.can_resign
