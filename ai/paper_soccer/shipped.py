"""Weight files shipped in this package, read by name: `net:NAME` (NAME.net) and `value:NAME` (NAME.value)."""
from __future__ import annotations

from importlib import resources


def shipped_text(kind: str, name: str, suffix: str) -> str:
    """The text of ai/paper_soccer/NAME + suffix; ValueError for a NAME that is not letters, digits and _,
    so that no name leads out of the package."""
    if not (name.isascii() and name.replace("_", "").isalnum()):
        raise ValueError(f"{kind}:{name!r}: a shipped file is {kind}:NAME, NAME letters, digits and _")
    return resources.files(__package__).joinpath(name + suffix).read_text(encoding="ascii")
