"""What `online` remembers of the servers it met, in the user's config folder (tui.core.settings):

* `known_servers`: `HOST:PORT SHA256:<hex>` a line, the certificate first seen there (trust on first use,
  as ssh's known_hosts): a server that shows another one is refused with a warning, the way ssh does;
* `online_tokens` (private, 0600): `HOST:PORT NAME TOKEN` a line, the name claimed there and the token
  that gets it back.

Both files are read bounded and written atomically; a line that cannot be read is kept as it is.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engines.visible import visible
from tui.core.storage import StorageError, atomic_write, read_regular_file

PINS_NAME, TOKENS_NAME = "known_servers", "online_tokens"
MAX_FILE = 1 << 20


class CertificateChanged(Exception):
    """The server shows another certificate than the one pinned; the message is the warning (one line)."""


def server_key(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _lines(path: Path) -> list[str]:
    try:
        return read_regular_file(path, MAX_FILE, "a termarena list of servers").decode("utf-8", "replace").splitlines()
    except StorageError:
        if path.exists():
            raise
        return []


@dataclass(frozen=True)
class Pin:
    status: str  # "new" (pinned now) or "known"
    fingerprint: str


def check_pin(folder: Path, host: str, port: int, fingerprint: str) -> Pin:
    """Compare a server's certificate with the one pinned; pin it when the server is new.
    CertificateChanged when it differs (nothing is written then)."""
    path = folder / PINS_NAME
    key = server_key(host, port)
    lines = _lines(path)
    for number, line in enumerate(lines, 1):
        words = line.split()
        if len(words) == 2 and words[0] == key:
            if words[1] == fingerprint:
                return Pin("known", fingerprint)
            raise CertificateChanged(
                f"WARNING: THE CERTIFICATE OF {visible(key)} HAS CHANGED: someone may be intercepting this "
                f"connection (a man-in-the-middle attack), or its owner made a new certificate. It shows "
                f"{fingerprint}, it was {visible(words[1], 80)}. Not connected. If the owner confirms the new "
                f"fingerprint, remove line {number} of {visible(str(path))} and connect again.")
    atomic_write(path, "".join(f"{line}\n" for line in lines + [f"{key} {fingerprint}"]))
    return Pin("new", fingerprint)


def load_token(folder: Path, host: str, port: int) -> tuple[str, str] | None:
    """The name and token kept for this server, if any."""
    key = server_key(host, port)
    for line in _lines(folder / TOKENS_NAME):
        words = line.split()
        if len(words) == 3 and words[0] == key:
            return words[1], words[2]
    return None


def save_token(folder: Path, host: str, port: int, name: str, token: str) -> None:
    path = folder / TOKENS_NAME
    key = server_key(host, port)
    kept = [line for line in _lines(path) if line.split()[:1] != [key]]
    if not path.exists():  # made private first: atomic_write keeps the mode the file has
        folder.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    atomic_write(path, "".join(f"{line}\n" for line in kept + [f"{key} {name} {token}"]))
