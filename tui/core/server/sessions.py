"""What the server's fronts (ssh, the browser) share: for each player they let in, the server runs the
app (`termarena online`) logged in to the lobby through its loopback front port, in a folder of the
session's own under DIR, with an environment made here and nothing else of the server's.

A session is NAME when a key proved it (ssh), else a guest, `guest-` and six hex digits, who plays
casual games only.  Its folder holds the app's config (the front port's certificate pinned, the
session's token), saves and caches; it is removed when the session ends, and a guest that played no
game is forgotten (so visits do not fill the table of names).
"""
from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncIterator

from tui.core.server.lobby import Server
from tui.core.server.pins import check_pin, save_token
from tui.core.server.protocol import GUEST_PREFIX, TOKEN_BYTES
from tui.core.specs import SERVED_ENV

MAX_SESSIONS = 64  # apps at once, per front (each is a process of ~60 MB)
PER_ADDRESS = 4  # of them from one address


class NotYours(Exception):
    """The name asked for belongs to someone else; the message says so, in one line."""


@dataclass(frozen=True)
class FrontSession:
    name: str
    folder: Path  # the app's working folder and home
    env: dict[str, str]  # its whole environment (nothing of the server's but PATH)
    online: tuple[str, ...]  # the arguments of `termarena online` on the front port as NAME (its token logs it in)


def guest_name() -> str:
    return GUEST_PREFIX + secrets.token_hex(3)


def clear_sessions(folder: Path) -> None:
    """The sessions' folder, empty (a server that was killed left its sessions' folders)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(mode=0o700, parents=True)


@contextlib.asynccontextmanager
async def front_session(server: Server, sessions: Path, front_port: int, fingerprint: str,
                        name: str | None = None, key: str | None = None) -> AsyncIterator[FrontSession]:
    """A session as `name` proved by `key` (both given), else as a new guest; NotYours when the name is
    someone else's.  The folder goes when the block ends."""
    if name is None or key is None:
        name, key = guest_name(), None
    token = secrets.token_hex(TOKEN_BYTES)
    if not await server.store.ssh_login(name, key, token):
        raise NotYours(f"the name {name} is not yours: log in with its key")
    folder = sessions / secrets.token_hex(8)
    config = folder / "config" / "termarena"
    try:
        config.mkdir(parents=True, mode=0o700)
        check_pin(config, "127.0.0.1", front_port, fingerprint)
        save_token(config, "127.0.0.1", front_port, name, token)
        env = {"LANG": "C.UTF-8", "HOME": str(folder), "XDG_CONFIG_HOME": str(folder / "config"),
               "XDG_DATA_HOME": str(folder / "data"), "XDG_CACHE_HOME": str(folder / "cache"),
               "XDG_STATE_HOME": str(folder / "state"), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               SERVED_ENV: str(os.getpid())}
        yield FrontSession(name, folder, env, ("online", f"127.0.0.1:{front_port}", "--name", name))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if key is None:
            with contextlib.suppress(Exception):  # a database that cannot write now keeps a name: no harm
                await server.store.forget_guest(name)
