"""The ssh front of `termarena server --ssh-port 2222`: `ssh -p 2222 NAME@HOST` opens the app's lobby.

For each ssh session with a terminal, the server starts `termarena online` (tui.core.server.pty_child)
in a pseudo-terminal, logged in as NAME on the lobby's front port (loopback TLS, its certificate pinned
in the session's own folder), and copies bytes between the ssh channel and the pty.  The app is the
same as everyone's; it runs with TERMARENA_SERVED (no external bot, and it ends when the server ends,
even by SIGKILL).

Who is who: NAME is claimed by the first public key that logs in with it, and after that only that key
gets it (a name already claimed with `termarena online` is not available over ssh).  Anyone else may
come in by keyboard-interactive authentication (no question asked) as a guest, `guest-` and six hex
digits, who plays casual games only.  Nothing else is served: no shell, no command (`ssh HOST cmd`), no
subsystem (SFTP), no port, agent or X11 forwarding; a session without a terminal is told to use `-t`.

asyncssh (the `[server]` extra) is imported only when the ssh front is asked for.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import struct
import termios
import fcntl
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from engines.visible import visible
from tui.core.net.protocol import ProtocolError
from tui.core.python_module import module_argv
from tui.core.server.lobby import Server
from tui.core.server.protocol import check_name, is_guest
from tui.core.server.sessions import MAX_SESSIONS, PER_ADDRESS, FrontSession, NotYours, clear_sessions, front_session

HOST_KEY_NAME = "ssh_host_ed25519_key"
SESSIONS_DIR = "ssh-sessions"  # each session's config folder, removed when it ends
LOGIN_TIMEOUT_S = 20.0
END_GRACE_S = 3.0  # after SIGHUP, before SIGKILL
MAX_INPUT = 1 << 16  # keystrokes waiting for the app, past which they are dropped
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+_-]{0,39}")


class SshError(Exception):
    """The ssh front cannot start; one line."""


def host_key(data: Path) -> asyncssh.SSHKey:
    """The server's ssh host key, `ssh_host_ed25519_key` in its data folder, made at the first start."""
    path = data / HOST_KEY_NAME
    try:
        if path.exists():
            return asyncssh.read_private_key(str(path))
        key = asyncssh.generate_private_key("ssh-ed25519")
        tmp = path.with_name(path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return key
    except (OSError, asyncssh.KeyImportError, asyncssh.KeyExportError) as e:
        raise SshError(f"cannot use the ssh host key {path}: {e}") from None


@dataclass
class _Who:
    name: str | None = None  # the name asked for (the ssh user name), when it is a valid one
    key: str | None = None  # the fingerprint of the public key that got in
    guest: bool = False


class _Auth(asyncssh.SSHServer):
    """Decides who gets in, as whom; refuses every forwarding (asyncssh's defaults, kept)."""

    def __init__(self, front: "SshFront") -> None:
        self.front = front
        self.who = _Who()

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"

    def begin_auth(self, username: str) -> bool:
        try:
            self.who.name = check_name(username)
        except ProtocolError:
            self.who.name = None  # no key gets in; a guest may
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        name = self.who.name
        if name is None or is_guest(name):
            return False
        fingerprint = key.get_fingerprint("sha256")
        kept = self.front.server.store.ssh_key_of(name)
        if kept is None and not self.front.server.store.name_is_free(name):
            return False  # claimed with `termarena online`: its token holder's
        if kept is not None and kept != fingerprint:
            return False
        self.who.key = fingerprint
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.who.guest = True
        return True  # no question: a guest


class SshFront:
    def __init__(self, server: Server, data: Path, front_port: int, fingerprint: str, log=lambda line: None,
                 sessions: int = MAX_SESSIONS) -> None:
        """`front_port`: the lobby's loopback port for fronts (Server.start_front_port), whose certificate
        has `fingerprint` (pinned for each session's app)."""
        self.server, self.data, self.front_port, self.log = server, data, front_port, log
        self.fingerprint = fingerprint
        self.max_sessions = sessions
        self._sessions: Counter[str] = Counter()
        self._children: set[asyncio.subprocess.Process] = set()
        self._listener: asyncssh.SSHAcceptor | None = None
        self.port = 0
        self.host_fingerprint = ""

    async def start(self, host: str, port: int) -> int:
        clear_sessions(self.data / SESSIONS_DIR)
        key = host_key(self.data)
        self.host_fingerprint = key.get_fingerprint("sha256")
        self._listener = await asyncssh.create_server(
            lambda: _Auth(self), host, port, server_host_keys=[key],
            process_factory=self._session, encoding=None, line_editor=False,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
            login_timeout=LOGIN_TIMEOUT_S, keepalive_interval=30.0)
        self.port = self._listener.sockets[0].getsockname()[1]
        return self.port

    def close(self) -> None:
        for child in list(self._children):
            _signal(child, signal.SIGKILL)
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    # ------------------------------------------------------------------ one session

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        owner = process.channel.get_connection().get_owner()
        address = getattr(owner, "address", "?")
        try:
            refusal = self._refusal(process, address)
            if refusal:
                process.stderr.write(f"termarena: {refusal}\r\n".encode())
                process.exit(1)
                return
            self._sessions[address] += 1
            try:
                await self._run_app(process, owner.who, address)
            finally:
                self._sessions[address] -= 1
                if not self._sessions[address]:
                    del self._sessions[address]
        except Exception as e:  # one session's trouble is its own: the server goes on
            self.log(f"ssh session from {visible(address, 60)}: {type(e).__name__}: {visible(str(e), 200)}")
            with contextlib.suppress(Exception):
                process.exit(1)

    def _refusal(self, process: asyncssh.SSHServerProcess, address: str) -> str | None:
        if process.command is not None or process.subsystem is not None:
            return "this server runs the termarena lobby only: no command, no file transfer"
        if process.get_terminal_type() is None:
            return "the lobby needs a terminal: connect with `ssh -t`"
        if sum(self._sessions.values()) >= self.max_sessions:
            return "the server has as many ssh players as it takes: try again later"
        if self._sessions[address] >= PER_ADDRESS:
            return "too many ssh sessions from your address"
        return None

    async def _run_app(self, process: asyncssh.SSHServerProcess, who: _Who, address: str) -> None:
        named = who.name if who.key is not None else None
        try:
            async with front_session(self.server, self.data / SESSIONS_DIR, self.front_port, self.fingerprint,
                                     named, who.key) as session:
                self.log(f"ssh: {session.name} from {visible(address, 60)}")
                await self._pty(process, session)
        except NotYours as e:
            process.stderr.write(f"termarena: {e}\r\n".encode())
            process.exit(1)

    async def _pty(self, process: asyncssh.SSHServerProcess, session: FrontSession) -> None:
        master, slave = os.openpty()
        try:
            _set_size(master, process.get_terminal_size())
            term = process.get_terminal_type() or "xterm"
            env = {**session.env, "TERM": term if _TERM.fullmatch(term) else "xterm-256color"}
            child = await asyncio.create_subprocess_exec(
                *module_argv("tui.core.server.pty_child", *session.online),
                stdin=slave, stdout=slave, stderr=slave, cwd=session.folder, env=env)
        finally:
            os.close(slave)
        self._children.add(child)
        os.set_blocking(master, False)
        try:
            pumps = [asyncio.create_task(self._to_app(process, master)),
                     asyncio.create_task(_from_app(master, process))]
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
            for pump in pumps:
                pump.cancel()
        finally:
            await _end(child)
            self._children.discard(child)
            os.close(master)
            with contextlib.suppress(Exception):
                process.exit(0)

    async def _to_app(self, process: asyncssh.SSHServerProcess, master: int) -> None:
        """Keystrokes to the app (dropped, never queued without bound, when the app does not read)."""
        while True:
            try:
                data = await process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as change:
                _set_size(master, (change.width, change.height, 0, 0))
                continue
            if not data:
                return
            with contextlib.suppress(BlockingIOError):
                os.write(master, data[:MAX_INPUT])


async def _from_app(master: int, process: asyncssh.SSHServerProcess) -> None:
    """The app's screen to the player, as fast as the player's connection takes it."""
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()
    loop.add_reader(master, ready.set)
    try:
        while True:
            await ready.wait()
            ready.clear()
            try:
                data = os.read(master, 65536)
            except BlockingIOError:
                continue
            except OSError:  # EIO: the app ended and closed the terminal
                return
            if not data:
                return
            process.stdout.write(data)
            await process.stdout.drain()
    finally:
        loop.remove_reader(master)


def _set_size(master: int, size: tuple[int, int, int, int]) -> None:
    width, height = max(1, min(size[0] or 80, 1000)), max(1, min(size[1] or 24, 1000))
    with contextlib.suppress(OSError):
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def _signal(child: asyncio.subprocess.Process, sig: int) -> None:
    if child.returncode is None:
        try:
            os.killpg(child.pid, sig)  # its session: the app and anything it started
        except (ProcessLookupError, PermissionError):  # not yet its own session leader
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(sig)


async def _end(child: asyncio.subprocess.Process) -> None:
    _signal(child, signal.SIGHUP)
    try:
        await asyncio.wait_for(child.wait(), END_GRACE_S)
    except asyncio.TimeoutError:
        _signal(child, signal.SIGKILL)
        await child.wait()
