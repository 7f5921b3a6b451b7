"""Network games: the wire protocol (protocol.py, wire.py), the host (host.py), the joining side
(client.py) and what they tell the game screen (events.py).  Textual-free; asyncio streams."""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PORT = 7777  # here, not in host.py: the CLI and the app name it without loading the networking


@dataclass(frozen=True)
class NetPlan:
    """What `host`, `join` and `watch` asked for."""

    mode: str  # "host", "join", "watch" or "online" (a server's lobby)
    address: str  # host: the address to listen on (--bind); join/watch/online: the host's name or address
    port: int = DEFAULT_PORT
    code: str = ""  # the join code (the host's, or the one given to join); online: the name wanted
    game: str | None = None  # host only
    seat: int = 0  # the host's seat
    seed: int | None = None

    @property
    def role(self) -> str:
        return "watch" if self.mode == "watch" else "play"
