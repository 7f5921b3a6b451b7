"""Whole numbers read from text someone else wrote (save files, position texts), the game seed's range,
and the short quotes error messages use.

`parse_int(text, lo=..., hi=..., what=...)` accepts only ASCII digits (after one '-' when `lo` is
negative), no '+', spaces, '_' or other scripts' digits, and checks the length before converting, so
Python's int() can neither accept '٣' nor fail on 5000 digits.  It raises NumberError (a ValueError)
whose message names `what` and the problem; callers add the line and re-raise their own error.

Save files, position texts and the bot's input readers (engines.textread) all read numbers with it.
"""
from __future__ import annotations

from engines.base import EngineError, quote  # noqa: F401  (quote: re-exported for the loaders)

MESSAGE_CHARS = 240  # an error message, file name excluded, is cut to about this many

# The CodinGame referees take the game seed as a Java long; Cultist Wars draws its map from it
# (SplittableRandom keeps its 64 bits, so 2**64 + s would silently be the map of s).
SEED_MIN = -(1 << 63)
SEED_MAX = (1 << 63) - 1


class NumberError(ValueError):
    """A number that is not a plain decimal integer within its range; the message says which and why."""


def parse_int(text: str, lo: int, hi: int, what: str = "the number") -> int:
    """`text` as an int in lo..hi: ASCII digits, one leading '-' only where negatives are allowed."""
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    if not digits:
        raise NumberError(f"{what} is empty, expected a whole number {lo}..{hi}")
    if not (digits.isascii() and digits.isdigit()):
        raise NumberError(f"{what} {quote(text)} is not a whole number (ASCII digits only)")
    # checked before int(): more digits than the bounds have cannot be in range (and int() of
    # thousands of digits raises ValueError)
    significant = digits.lstrip("0") or "0"
    if negative and lo >= 0 or len(significant) > max(len(str(abs(lo))), len(str(abs(hi)))):
        raise NumberError(f"{what} {quote(text)} is out of range {lo}..{hi}")
    value = -int(significant) if negative else int(significant)
    if not lo <= value <= hi:
        raise NumberError(f"{what} {value} is out of range {lo}..{hi}")
    return value


def check_seed(seed: int | None, game: str) -> None:
    """Raises EngineError for a seed the referee could not take (None is fine: the default seed)."""
    if seed is not None and not SEED_MIN <= seed <= SEED_MAX:
        # str() of a number of thousands of digits raises ValueError: name its size instead
        shown = str(seed) if seed.bit_length() <= 128 else f"of {seed.bit_length()} bits"
        raise EngineError(f"{game}: seed {shown} is out of range {SEED_MIN}..{SEED_MAX} "
                          "(a Java long, as the CodinGame referee takes it)")


def one_line(message: str, limit: int = MESSAGE_CHARS) -> str:
    """The message on one line (any line break becomes a space), its middle cut beyond `limit`."""
    flat = " ".join(part.strip() for part in message.splitlines() if part.strip())
    if len(flat) > limit:
        flat = flat[: limit * 2 // 3] + " … " + flat[-(limit // 3):]
    return flat
