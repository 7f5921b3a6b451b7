"""`termarena server` and `termarena online`, Textual-free: the lobby protocol (protocol.py), the
database (store.py), one refereed game (game.py), the lobby and its connections (lobby.py), TLS
(tls.py), what the client pins and keeps (pins.py), the client (client.py), and running a server
(run.py)."""
from __future__ import annotations

DEFAULT_SERVER_PORT = 7778  # beside `host`'s 7777
