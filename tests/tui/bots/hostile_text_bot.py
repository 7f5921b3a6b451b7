"""A bot that attacks the terminal of whoever shows its text: on its first turn it prints, on stderr,
the clipboard write (OSC 52), a window title (OSC 0), a screen clear (CSI 2J), a conceal (CSI 8m), an
8-bit CSI (C1), a Rich hyperlink and a closing tag; then it answers with an escape sequence, which the
referee refuses (and quotes).  The lines are those of tests/tui/terminal_text.HOSTILE_LINES.

Usage: hostile_text_bot.py [crash]   (crash: exit with status 3 instead of answering)
"""
import sys

HOSTILE_LINES = [
    "clip \x1b]52;c;cm0gLXJmIH4=\x07",
    "title \x1b]0;pwned\x07",
    "clear \x1b[2J",
    "shown \x1b[8mconcealed",
    "eight-bit \x9b2J",
    "[link=file:///etc/passwd]x[/link]",
    "[/x]",
]
ANSWER = "\x1b]0;answer\x07"



def main() -> None:
    sys.stdin.readline()  # the turn has begun
    for line in HOSTILE_LINES:
        print(line, file=sys.stderr, flush=True)
    if sys.argv[1:] == ["crash"]:
        sys.exit(3)
    print(ANSWER, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
