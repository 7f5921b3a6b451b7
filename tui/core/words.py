"""A count said in words for people: "1 move", "41 moves", "2 inaccuracies" (one place for the plural of
every count the app and the CLI show)."""
from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun in the plural (`plural`, else `noun` + "s") unless `n` is 1."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
