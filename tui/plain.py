"""Text from outside on the screen: each line through engines.visible.visible (a control character is
shown as `\\x1b` and does nothing), and never read as Rich markup (`[/x]` stays `[/x]`).

The widgets that show whatever they are given (dialogs, the message line, notifications, the bot log)
pass their text through these, so a message that quotes a file, a bot or a peer is safe wherever it
was composed.  Text termarena writes itself has no control character: these leave it as it is.
"""
from __future__ import annotations

from rich.text import Text

from engines.visible import visible


def plain_lines(text: str) -> str:
    """`text` with every line made visible; its line breaks are kept (a message may have several lines)."""
    return "\n".join(visible(line) for line in text.split("\n"))


def plain(text: str, style: str = "") -> Text:
    """`text` as a Rich Text of visible lines in `style`: shown as it is written, never as markup."""
    return Text(plain_lines(text), style=style)
