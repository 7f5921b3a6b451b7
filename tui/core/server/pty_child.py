"""What the ssh front starts for each session, in a pseudo-terminal: `termarena online` on the server's
front port, after taking that terminal as its controlling one (so that the terminal's size changes
reach the app as SIGWINCH, and closing it ends the app with SIGHUP).

    python -m tui.core.server.pty_child online 127.0.0.1:PORT --name NAME

Its environment (config folder with the pinned certificate and the session's token, TERM) is made by
tui.core.server.sessions; it reads nothing the player names.
"""
from __future__ import annotations

import fcntl
import os
import sys
import termios


def main(argv: list[str]) -> int:
    os.setsid()  # a session of its own, whose controlling terminal is the pty on its stdin
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    sys.argv = ["termarena", *argv]
    from tui.entry import main as termarena  # ends with the server (TERMARENA_SERVED: its pid), as served apps do

    termarena()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
