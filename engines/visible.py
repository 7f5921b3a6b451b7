"""Text from outside (a bot's stderr or answer, a save's header, a league name, a network peer's words),
made safe to show on a terminal or write into a file.

A terminal obeys the control characters in what it prints: ESC starts sequences that write the
clipboard (OSC 52), retitle the window, clear the screen or conceal the rest of a line; C1 codes
(U+0080..U+009F) do the same on terminals that read them as 8-bit controls; bidirectional overrides
and other format characters make a line read differently from what it holds.  `visible` writes each
such character as an escape (`\\x1b`, `\\u202e`), so the text still says what was there and nothing
of it acts.  Nothing else changes: printable text, spaces and backslashes stay as they are, which
makes `visible` idempotent (its output has no control character left to escape).

It does not make text safe as Rich markup: show it with `markup=False` or as a `rich.text.Text`
(tui.widgets use `tui.plain`), never through a markup string.
"""
from __future__ import annotations

import unicodedata

# Cc: C0, DEL and C1; Cf: format (bidi overrides, zero-width); Cs: lone surrogates (from
# errors="surrogateescape"); Zl, Zp: the line and paragraph separators
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def is_hidden(ch: str) -> bool:
    """Whether `ch` acts on a terminal or hides text instead of being shown."""
    return unicodedata.category(ch) in _HIDDEN


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, limit: int | None = None) -> str:
    """`text` with every control, format and separator character written as an escape; cut to `limit`
    characters (then ending in `…`) when a limit is given.  One line: newlines and tabs are escaped too."""
    if text.isascii() and text.isprintable():
        out = text
    else:
        out = "".join(_escape(ch) if is_hidden(ch) else ch for ch in text)
    if limit is not None and len(out) > limit:
        out = out[: max(0, limit - 1)] + "…"
    return out
