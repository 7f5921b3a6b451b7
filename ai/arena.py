"""The part every game's in-process arena shares: colour-swapped games on a process pool, tallied.

Each game's `ai/<game>/arena.py` knows how to build its players from spec strings and how to play
one game (`play_one`); this runs the pairs and prints one summary line.  The arenas are tuning
tools (faster than `termarena match`: no processes per bot, no referee I/O), not part of the app.
"""
from __future__ import annotations

import multiprocessing as mp
from typing import Callable

from ai.tournament import Score, elo_with_error

# play_one((index, spec of seat 0, spec of seat 1, *extra)) -> (index, winner seat or None,
# length of the game, seconds used by seat 0, seconds used by seat 1)
PlayOne = Callable[[tuple], tuple[int, int | None, int, float, float]]


def parse_spec(spec: str) -> tuple[str, dict]:
    """`kind:key=value,...` -> (kind, {key: value}); values are ints, floats or else strings."""
    kind, _, rest = spec.partition(":")
    opts: dict = {}
    for part in filter(None, rest.split(",")):
        k, _, v = part.partition("=")
        try:
            opts[k] = int(v)
        except ValueError:
            try:
                opts[k] = float(v)
            except ValueError:
                opts[k] = v
    return kind, opts


def run_colour_swapped(play_one: PlayOne, spec_a: str, spec_b: str, n: int, jobs: int, extra: tuple = (),
                       quiet: bool = False, unit: str = "plies") -> Score:
    """Game 2k seats A first and game 2k+1 seats B first, on the same opening (play_one derives the
    opening from index // 2)."""
    tasks = [(i, spec_a, spec_b, *extra) if i % 2 == 0 else (i, spec_b, spec_a, *extra) for i in range(n)]
    score = Score()
    t_a = t_b = 0.0
    length_sum = 0
    with mp.get_context("fork").Pool(jobs) as pool:
        for index, winner, length, u0, u1 in pool.imap_unordered(play_one, tasks):
            a_seat = 0 if index % 2 == 0 else 1
            score.add(0.5 if winner is None else (1.0 if winner == a_seat else 0.0))
            t_a += u0 if a_seat == 0 else u1
            t_b += u1 if a_seat == 0 else u0
            length_sum += length
            if not quiet:
                who = "draw" if winner is None else "A" if winner == a_seat else "B"
                print(f"game {index}: {who} in {length} {unit}", flush=True)
    elo, err = elo_with_error(score)
    half = max(1, length_sum // 2)
    per = unit.rstrip("s") if unit != "plies" else "move"
    print(f"{spec_a} vs {spec_b}: +{score.wins} ={score.draws} -{score.losses} "
          f"score {100 * score.fraction:.1f}% Elo {elo:+.0f} ± {err:.0f}; "
          f"ms/{per} A {1000 * t_a / half:.0f} B {1000 * t_b / half:.0f}", flush=True)
    return score
