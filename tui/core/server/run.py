"""Running `termarena server`: TLS, the lobby, and a clean stop on SIGINT/SIGTERM (a SIGKILL loses
nothing either: see tui.core.server.store)."""
from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from engines.visible import visible
from tui.core.server.lobby import Server
from tui.core.server.store import StoreError
from tui.core.server.tls import TLSError, server_context


class ServerError(Exception):
    """The server cannot start; one line for the user."""


def log_line(line: str) -> None:
    sys.stderr.write(f"termarena server: {visible(line)}\n")
    sys.stderr.flush()


async def serve(data: Path, host: str, port: int, log=log_line) -> None:
    try:
        data.mkdir(parents=True, exist_ok=True)
        context, fingerprint = server_context(data)
        server = Server(data, log=log)
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
        server.close()
        log("stopped")


def run(data: Path, host: str, port: int) -> int:
    try:
        asyncio.run(serve(data, host, port))
    except ServerError as e:
        log_line(str(e))
        return 1
    except KeyboardInterrupt:
        pass
    return 0
