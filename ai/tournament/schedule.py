"""Which games a tournament plays: pairings of its players, with their seats, seeds and openings.

A scheduler is a function returning the list of `Pairing`s; the loop (ai.tournament.loop) plays them.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Pairing:
    """One game to play: `seats[0]` moves first; `a`/`b` index the players of the tournament."""

    index: int
    a: int
    b: int
    a_seat: int  # seat of player a in this game
    seed: int
    opening: tuple[str, ...] = ()  # moves played before the bots start
    opening_index: int | None = None  # its line among the openings (0-based), if any

    @property
    def seats(self) -> tuple[int, int]:
        return (self.a, self.b) if self.a_seat == 0 else (self.b, self.a)

    @property
    def twin(self) -> int:
        """The key shared by this game and its colour-swapped twin (same players, seed and opening)."""
        return self.index // 2


@dataclass(frozen=True)
class Opening:
    """One line of an openings file: a move prefix, or (where the seed makes the game) a seed."""

    moves: tuple[str, ...] = ()
    seed: int | None = None


def schedule(n_players: int, games_per_pair: int, seed: int,
             openings: Sequence[Opening] = ()) -> list[Pairing]:
    """Round robin; each pair plays `games_per_pair` games (rounded up to even) in colour-swapped pairs
    on the same seed and opening, so a map or opening favouring a seat is played from both sides.
    Round r uses opening r (cycling through them), so each opening is played once with each colour
    before any is played again.  The twins of a pair have consecutive indices."""
    pairs = list(itertools.combinations(range(n_players), 2))
    rounds = (games_per_pair + 1) // 2
    out = []
    for r in range(rounds):
        k = r % len(openings) if openings else None
        op = openings[k] if k is not None else Opening()
        for a, b in pairs:
            for a_seat in (0, 1):
                out.append(Pairing(len(out), a, b, a_seat, seed + r if op.seed is None else op.seed,
                                   op.moves, k))
    return out


def series(games: int, seed: int, swap: bool = False) -> list[Pairing]:
    """`referee --games`: player 0 against player 1, game k on seed `seed` + k, player 0 first (with
    `swap`, second on odd k)."""
    return [Pairing(k, 0, 1, k % 2 if swap else 0, seed + k) for k in range(games)]
