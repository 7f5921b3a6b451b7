"""Words for people, each said one way: a count ("1 move", "41 moves", "2 inaccuracies": one place for
the plural of every count the app and the CLI show) and a refused move."""
from __future__ import annotations

from engines.numbers import quote


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun in the plural (`plural`, else `noun` + "s") unless `n` is 1."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def illegal_move(cls, output: str, reason: object) -> str:
    """A refused move as the screens say it: the move and the referee's reason, both in the player's
    notation (`cls` the game's engine class, `output` the move in CodinGame's)."""
    said = refused_move(cls, output, reason)
    return said[0].upper() + said[1:]


def refused_move(cls, output: str, reason: object) -> str:
    """The same inside a sentence: what a host or the server tells a player whose move it refused
    ("The host refused your move: illegal move '13': …")."""
    return f"illegal move {quote(cls.output_to_player(output))}: {cls.reason_to_player(str(reason))}"
