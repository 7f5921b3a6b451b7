"""The neutral-move generator (`model/Random.java`): a static LCG, seeded 42 once per referee JVM.

    seed <- (seed * 1103515245 + 12345) & 0x7FFFFFFF;  return seed % bound

The mask keeps the low 31 bits, so Java's 32-bit overflow of the product does not matter.  The game
keeps the seed in its position, so undo and copies restore the neutrals' future exactly.
"""
from __future__ import annotations

LCG_START = 42
LCG_MASK = 0x7FFFFFFF
_MUL = 1103515245
_ADD = 12345


def lcg_next(seed: int) -> int:
    """The generator's state after one call."""
    return (seed * _MUL + _ADD) & LCG_MASK


def lcg_rand(seed: int, bound: int) -> tuple[int, int]:
    """`Random.rand(bound)` from state `seed`: (the value in 0..bound-1, the new state)."""
    seed = (seed * _MUL + _ADD) & LCG_MASK
    return seed % bound, seed
