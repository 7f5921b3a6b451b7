"""What the terminal-text tests share: the hostile text, a save file full of it, and the check that none
of it reaches a screen or a file termarena writes with a character a terminal would act on."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from engines import get_game
from tests.tui.bots.hostile_text_bot import ANSWER, HOSTILE_LINES  # noqa: F401  (re-exported)

BOT = Path(__file__).resolve().parent.parent / "tui" / "bots" / "hostile_text_bot.py"
# ESC, BEL and the C1 controls: what starts or ends a sequence a terminal obeys
ACTING = re.compile("[\x1b\x07\x80-\x9f]")
OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
CONCEAL = "\x1b[8m"


def acting(text: str) -> list[str]:
    """The characters of `text` a terminal would act on (none, in anything termarena shows or writes)."""
    return ACTING.findall(text)


def clean_bytes(data: bytes) -> str:
    """`data` as UTF-8 (strict: a broken sequence fails the test), checked for acting characters."""
    text = data.decode("utf-8")
    assert acting(text) == [], f"raw control characters reached the output: {text!r}"
    return text


def hostile_bot(*args: str) -> str:
    return " ".join([f"cmd:{sys.executable}", str(BOT), *args])


MOVES = ("4 \x1b]0;moved\x07", "4")


def hostile_save(folder: Path, name: str = "hostile", moves=MOVES, result: str = "*") -> Path:
    """A Connect 4 save written by hand (termarena's own writer would escape it): every header value
    carries terminal sequences, both seats are bot commands (p1's end would be concealed by a CSI 8m),
    and the first move carries a comment with an OSC 0 (Connect 4 ignores what follows the column)."""
    final = get_game("connect4").new()
    for move in moves:
        final.play(move)
    path = folder / f"{name}.txt"
    path.write_text(
        "# termarena save\nformat = 1\ngame = connect4\n"
        f"date = 2026-11-21T10:00:00{OSC52}\n"
        f"p1 = cmd:python3 bot.py {CONCEAL}; rm -rf ~\n"
        "p2 = \x1b[2Jhuman\x9b\n"
        f"result = {result}\n" + ("reason = invalid\n" if result != "*" else "") +
        f"detail = {CONCEAL}hidden \x1b]0;pwned\x07\n"
        "note = \x1b]0;title\x07\n"
        f"turns = {len(moves)}\n\n"
        "[moves]\n" + "".join(f"{n} {move}\n" for n, move in enumerate(moves, 1)) + "\n"
        f"[final]\n{final.to_text()}",
        encoding="utf-8")
    return path
