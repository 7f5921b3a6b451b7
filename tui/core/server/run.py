"""Running `termarena server`: TLS, the lobby, and a clean stop on SIGINT/SIGTERM (a SIGKILL loses
nothing either: see tui.core.server.store)."""
from __future__ import annotations

import asyncio
import dataclasses
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from engines.visible import visible
from tui.core.server.lobby import Server, ServerLimits
from tui.core.server.sessions import MAX_SESSIONS
from tui.core.server.store import StoreError
from tui.core.server.tls import TLSError, server_context, small_tls_buffers


class ServerError(Exception):
    """The server cannot start; one line for the user."""


def log_line(line: str) -> None:
    sys.stderr.write(f"termarena server: {visible(line)}\n")
    sys.stderr.flush()


FILES_BESIDE = 256  # descriptors besides the connections: the database, saves being written, the listener


@dataclass(frozen=True)
class Fronts:
    """The other ways into the lobby: ssh, and browsers (with the public names they may use)."""
    ssh_port: int | None = None
    web_port: int | None = None
    web_names: tuple[str, ...] = ()


def front_classes(fronts: Fronts) -> tuple[type | None, type | None]:
    """The ssh and browser fronts' classes, looked up before anything listens: a missing extra is the
    one line the user reads, not a line after "listening on"."""
    ssh = web = None
    if fronts.ssh_port is not None:
        try:
            from tui.core.server.ssh import SshFront as ssh
        except ImportError:
            raise ServerError("the ssh front needs asyncssh: pip install 'termarena[server]'") from None
    if fronts.web_port is not None:
        try:
            from tui.core.server.web import WebFront as web
        except ImportError:
            raise ServerError("the browser front needs textual-serve: pip install 'termarena[web]'") from None
    return ssh, web


async def serve(data: Path, host: str, port: int, connections: int = ServerLimits.connections,
                fronts: Fronts = Fronts(), log=log_line) -> None:
    front_kinds = front_classes(fronts)
    try:
        data.mkdir(parents=True, exist_ok=True)
        context, fingerprint = server_context(data)
        small_tls_buffers()
        server = Server(data, limits=dataclasses.replace(ServerLimits(), connections=connections), log=log)
    except (TLSError, StoreError) as e:
        raise ServerError(str(e)) from None
    except OSError as e:
        raise ServerError(f"cannot use {data}: {e.strerror or e}") from None
    try:
        bound = await server.start(host, port, context)
    except OSError as e:
        server.close()
        raise ServerError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    log(f"listening on {host}:{bound} (TLS), data in {data}")
    opened: list = []
    try:
        await _open_fronts(server, data, host, fronts, front_kinds, context, fingerprint, log, opened)
    except ServerError:
        await _close(opened, server)
        raise
    files = raise_file_limit(connections + FILES_BESIDE)
    if files < connections + FILES_BESIDE:
        log(f"this process may open {files} files: fewer than {connections} connections will be served "
            f"(raise the limit: `ulimit -n`, or LimitNOFILE= in a systemd unit)")
    log(f"certificate {fingerprint}: players see it when they first connect; tell them, so they can check")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await stop.wait()
    finally:
        await _close(opened, server)
        log("stopped")


async def _open_fronts(server: Server, data: Path, host: str, fronts: Fronts, front_kinds: tuple, context,
                       fingerprint: str, log, opened: list) -> None:
    """The ssh and browser fronts asked for (each front's apps log in through one loopback port of the
    lobby, which takes as many sessions as both fronts run), appended to `opened` as they start."""
    wanted = [kind for kind in front_kinds if kind is not None]
    if not wanted:
        return
    front_port = await server.start_front_port(context, MAX_SESSIONS * len(wanted))
    ssh_front, web_front = front_kinds
    if ssh_front is not None:
        from tui.core.server.ssh import SshError  # importable: front_classes found its module

        front = ssh_front(server, data, front_port, fingerprint, log)
        opened.append(front)
        try:
            bound = await front.start(host, fronts.ssh_port)
        except SshError as e:
            raise ServerError(str(e)) from None
        except OSError as e:
            raise ServerError(f"cannot listen for ssh on {host}:{fronts.ssh_port}: {e.strerror or e}") from None
        log(f"ssh on {host}:{bound}: `ssh -p {bound} NAME@HOST` opens the lobby; host key {front.host_fingerprint} "
            f"(players' ssh shows it the first time: tell them)")
    if web_front is not None:
        web = web_front(server, data, front_port, fingerprint, log)
        try:
            bound = await web.start(host, fronts.web_port, fronts.web_names)
        except OSError as e:
            raise ServerError(f"cannot listen for browsers on {host}:{fronts.web_port}: {e.strerror or e}") from None
        opened.append(web)
        shown = host if host not in ("0.0.0.0", "::", "") else "HOST"
        log(f"browsers on {host}:{bound}: http://{shown}:{bound} opens the lobby (as a guest)")


async def _close(opened: list, server: Server) -> None:
    for front in reversed(opened):
        done = front.close()
        if done is not None:
            await done
    server.close()


def raise_file_limit(wanted: int) -> int:
    """Each connection is a file descriptor: the soft limit (often 1,024) is raised toward the hard one."""
    try:
        import resource
    except ImportError:  # not on Unix: nothing to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else soft


def run(data: Path, host: str, port: int, connections: int = ServerLimits.connections,
        fronts: Fronts = Fronts()) -> int:
    try:
        asyncio.run(serve(data, host, port, connections, fronts))
    except ServerError as e:
        log_line(str(e))
        return 1
    except KeyboardInterrupt:
        pass
    return 0
