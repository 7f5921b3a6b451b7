"""The ssh front: `ssh -p PORT NAME@HOST` runs the app's lobby in a pseudo-terminal, NAME claimed by the
first key that uses it, guests unrated; nothing else is served (no command, SFTP, forwarding, shell
without a terminal).  asyncssh is the client; the server runs in this process on loopback."""
from __future__ import annotations

import asyncio
import contextlib
import random
import re

import pytest

asyncssh = pytest.importorskip("asyncssh")

from engines import get_game  # noqa: E402
from tests.helpers.server import Peer, WAIT_S, login, running_server  # noqa: E402
from tui.core.server.ssh import SshFront  # noqa: E402
from tui.core.server.tls import server_context  # noqa: E402

ANSI = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-B]|[=>NOPMc78])")


@contextlib.asynccontextmanager
async def ssh_server(data):
    async with running_server(data) as (server, port):
        context, fingerprint = server_context(data)
        front = SshFront(server, data, await server.start_front_port(context, 8), fingerprint)
        try:
            yield server, port, await front.start("127.0.0.1", 0), front
        finally:
            front.close()


def connect(port, username="sshy", key=None, **options):
    return asyncssh.connect("127.0.0.1", port, username=username, client_keys=[key] if key else None,
                            known_hosts=None, agent_path=None, **options)


async def test_nothing_but_the_lobby_is_served(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with ssh_server(tmp_path) as (server, port, ssh_port, front):
        async with connect(ssh_port, key=key) as conn:
            done = await conn.run("cat /etc/passwd", encoding=None)
            assert done.exit_status == 1 and b"no command" in done.stderr and not done.stdout
            done = await conn.run(encoding=None)  # a shell without a terminal
            assert done.exit_status == 1 and b"ssh -t" in done.stderr
            with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
                await conn.start_sftp_client()
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", port)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", port)
        assert server.store.ssh_key_of("sshy") is None  # nothing was claimed by sessions that ran nothing
        with pytest.raises(asyncssh.PermissionDenied):  # not a name: no key gets in with it
            await connect(ssh_port, username="bad/name", key=key, preferred_auth="publickey")


async def test_a_guest_plays_casual_games_only(tmp_path):
    async with running_server(tmp_path) as (server, port):
        assert await server.store.ssh_login("guest-00aa11", None, "a" * 48)
        guest = await Peer.connect(port)
        guest.send("HELLO", "termarena", 1, "resume", "a" * 48)
        assert (await guest.expect("LOBBY")).words[1] == "guest-00aa11"
        guest.send("SEEK", "c4", "5+3", "rated")
        assert "casual" in (await guest.expect("NO")).text
        bob = await login(port, "bob")
        bob.send("SEEK", "c4", "5+3", "rated")
        offer = await guest.expect("OFFER")
        guest.send("ACCEPT", offer.words[0])
        assert "rated" in (await guest.expect("NO")).text
        claim = await Peer.connect(port)
        claim.send("HELLO", "termarena", 1, "lobby", "guest-1")
        assert "guest" in (await claim.expect("BYE")).text


class Screen:
    """What the ssh client received, its terminal sequences taken out: enough to find words on it."""

    def __init__(self, process) -> None:
        self.process, self.data = process, b""
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.data += chunk
            self.changed.set()

    def text(self) -> str:
        return ANSI.sub(b" ", self.data).decode("utf-8", "replace")

    async def shows(self, words: str, within: float = WAIT_S) -> None:
        """Until `words` are on the screen; AssertionError after `within` seconds in all (a ticking clock
        redraws the screen all the time, so the wait is bounded as a whole, not per redraw)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + within
        while words not in self.text():
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, end - loop.time()))
            except asyncio.TimeoutError:
                raise AssertionError(f"{words!r} not on the screen: {' '.join(self.text()[-1500:].split())}") from None

    async def play(self, move: str, turn: int, bob):
        """Types `:move⏎` in one write once the app shows its turn (`Turn N:`), as a fast typist or a
        slow connection delivers it (tests/tui/screens/test_typed_ahead.py); the server relays the move
        to `bob`."""
        await self.shows(f"Turn {turn}:")
        self.type(f":{move}\r")
        try:
            return await asyncio.wait_for(bob.expect("MOVE"), WAIT_S)
        except asyncio.TimeoutError:
            shown = " ".join(self.text()[-1500:].split())
            raise AssertionError(f"{move!r} typed, not played; the screen: {shown}") from None

    def type(self, keys: str) -> None:
        self.process.stdin.write(keys.encode())


@pytest.mark.slow
async def test_a_player_over_ssh_plays_a_whole_game_through_the_terminal(tmp_path):
    key, other_key = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    async with ssh_server(tmp_path) as (server, port, ssh_port, front):
        async with connect(ssh_port, key=key) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(100, 32), encoding=None)
            screen = Screen(process)
            await screen.shows("In the lobby as sshy")
            bob = await login(port, "bob")
            screen.type("seek c4 5+3 casual\r")
            offer = await bob.expect("OFFER")
            assert offer.words[1] == "sshy"
            bob.send("ACCEPT", offer.words[0])
            welcome = await bob.expect("WELCOME")
            bob_seat = int(welcome.words[2]) - 1
            game = get_game("connect4").new(int(welcome.words[4]))
            rng = random.Random(5)
            typed = plies = 0
            while not game.is_over():
                move = rng.choice(game.legal_moves())
                if game.current_player() == bob_seat:
                    bob.send("MOVE", plies + 1, text=game.move_to_str(move))
                    got = await bob.expect("MOVE")
                else:  # typed on the app's game screen, in the player's notation
                    got = await screen.play(type(game).output_to_player(game.move_to_str(move)), plies + 1, bob)
                    typed += 1
                game.play(got.text)
                plies += 1
            await bob.expect("OVER")
            assert typed >= 4
            await screen.shows("Game over")
            assert len(front._children) == 1
            process.close()
        for _ in range(int(WAIT_S / 0.05)):  # the app ends with its ssh session
            if not front._children:
                break
            await asyncio.sleep(0.05)
        assert not front._children and not list((tmp_path / "ssh-sessions").iterdir())
        assert server.store.ssh_key_of("sshy") == key.get_fingerprint("sha256")
        with pytest.raises(asyncssh.PermissionDenied):  # the name is that key's now
            await connect(ssh_port, key=other_key, preferred_auth="publickey")
