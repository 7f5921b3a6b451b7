"""`java.util.Random`, bit for bit: the generator CodinGame referees seed with the game seed.

The whole state is one 48-bit int, so a game can keep it in its position and restore it on undo.
Functions work on that int (`scramble` a seed into a state, `next_int` returns the value and the new
state); `JavaRandom` wraps them for callers that want an object.

Algorithm (java.util.Random since JDK 1.0, unchanged in JDK 17+ for `nextInt(int)`):
    state <- (seed ^ 0x5DEECE66D) mod 2^48
    next(bits): state <- (state * 0x5DEECE66D + 0xB) mod 2^48; return the top `bits` of the 48
    nextInt(bound): power of two -> (bound * next(31)) >> 31; else reject draws u with
    u - u % bound + (bound - 1) >= 2^31 (the Java int overflow test) and return u % bound.
"""
from __future__ import annotations

MULTIPLIER = 0x5DEECE66D
ADDEND = 0xB
MASK = (1 << 48) - 1
_INT_OVERFLOW = 1 << 31


def scramble(seed: int) -> int:
    """The state of `new Random(seed)`; `seed` is a Java long (any Python int is reduced to 64 bits first)."""
    return (seed ^ MULTIPLIER) & MASK


def next_bits(state: int, bits: int) -> tuple[int, int]:
    """`Random.next(bits)` for 1 <= bits <= 31: (the non-negative value, the new state)."""
    state = (state * MULTIPLIER + ADDEND) & MASK
    return state >> (48 - bits), state


def next_int(state: int, bound: int) -> tuple[int, int]:
    """`Random.nextInt(bound)`: (a value in 0..bound-1, the new state)."""
    if bound <= 0 or bound >= _INT_OVERFLOW:
        raise ValueError(f"bound must be a positive Java int, got {bound}")
    r, state = next_bits(state, 31)
    m = bound - 1
    if bound & m == 0:
        return (bound * r) >> 31, state
    u = r
    r = u % bound
    # Java computes u - r + m in 32-bit ints; a negative result (overflow) means "draw again".
    while u - r + m >= _INT_OVERFLOW:
        u, state = next_bits(state, 31)
        r = u % bound
    return r, state


class JavaRandom:
    """A `java.util.Random` object: `JavaRandom(42).next_int(10)` is `new Random(42).nextInt(10)`."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = scramble(seed)

    @classmethod
    def from_state(cls, state: int) -> "JavaRandom":
        rng = cls.__new__(cls)
        rng.state = state & MASK
        return rng

    def next_int(self, bound: int) -> int:
        value, self.state = next_int(self.state, bound)
        return value

    def next_bits(self, bits: int) -> int:
        value, self.state = next_bits(self.state, bits)
        return value
