"""What every AI opponent offers: choose a move for a position, within a budget, reporting progress."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Protocol

from engines.base import Game


@dataclass(frozen=True)
class SearchInfo:
    """A progress report while an AI thinks (shown in the app; printed by benchmarks)."""

    depth: int = 0  # completed depth, or iterations for MCTS
    nodes: int = 0
    score: float | None = None  # from the mover's point of view; +-1e6 and beyond means a proven win/loss
    best: str | None = None  # best move so far, in CodinGame notation
    elapsed_s: float = 0.0
    note: str = ""
    tree: str = ""  # which implementation searches: "compiled" or "pure Python" (Paper Soccer's tree)

    def describe(self) -> str:
        parts = []
        if self.depth:
            parts.append(f"depth {self.depth}")
        if self.nodes:
            parts.append(f"{self.nodes:,} nodes")
        if self.score is not None:
            parts.append(f"eval {self.score:+.2f}" if abs(self.score) < 1e5 else
                         ("winning" if self.score > 0 else "losing"))
        if self.best:
            parts.append(f"best {self.best}")
        if self.note:
            parts.append(self.note)
        return ", ".join(parts)


InfoCallback = Callable[[SearchInfo], None]


def info_score(score: int, win: int, proven: int, scale: float = 100.0) -> float:
    """A search score for SearchInfo: the evaluation divided by `scale`; a win proven p plies ahead
    (search score win - p, at or beyond `proven`) becomes 1e6 + p, a proven loss its negation."""
    if score >= proven:
        return 1e6 + (win - score)
    if score <= -proven:
        return -1e6 - (win + score)
    return score / scale


class Player(Protocol):
    """An AI opponent.  `choose` must return a legal move of `game` and leave `game` as it found it."""

    name: str

    def choose(self, game: Game, deadline: float | None = None,
               on_info: InfoCallback | None = None) -> Hashable:
        ...
