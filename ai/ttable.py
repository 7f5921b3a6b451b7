"""Transposition-table entries as the Cultist Wars and Lines of Action searches keep them.

An entry is (depth, flag, score, move).  A win or loss is stored relative to the node it was found at
(its distance counted from there), so the same position reached at another ply reads back the right
distance from the root."""
from __future__ import annotations

EXACT, LOWER, UPPER = 0, 1, 2


def cutoff(flag: int, score: int, ply: int, alpha: int, beta: int, win_bound: int) -> int | None:
    """The stored score, back relative to the root, where it settles a node searched with window
    (alpha, beta) at `ply`; None where the node must be searched."""
    if score > win_bound:
        score -= ply
    elif score < -win_bound:
        score += ply
    if flag == EXACT:
        return score
    if flag == LOWER:
        return score if score >= beta else None
    return score if score <= alpha else None


def stored(best: int, ply: int, win_bound: int) -> int:
    """`best`, found at `ply`, as an entry keeps it."""
    if best > win_bound:
        return best + ply
    if best < -win_bound:
        return best - ply
    return best
