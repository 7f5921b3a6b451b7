"""Cultist Wars (CodinGame), as the official referee plays it.

Modules: mapgen (SplittableRandom + map generation), lcg (neutral-move generator), board (tiles,
Bresenham bullets, BFS), protocol (Move, output parsing), rules (validity, resolution), game (the
engine), reader (InputReader), position_text (to_text/from_text), views (UI data).

UI helpers on `CultistWars`: `preview(move)` -> views.Preview (resolved action, step tile, bullet
line, hit tile/unit, damage, conversion); `units()` -> [views.UnitView]; `unit_at(x, y)`;
`obstacles()`; `tiles()`; `unit_counts()`; `turn` (0..150) and `TURNS`; `lcg_state`; `map_seed`.
"""
from .game import DEFAULT_SEED, TURNS, CultistWars
from .protocol import CONVERT, MOVE, SHOOT, WAIT, Move
from .views import Preview, UnitView

__all__ = ["CultistWars", "Move", "WAIT", "MOVE", "SHOOT", "CONVERT", "Preview", "UnitView", "TURNS",
           "DEFAULT_SEED"]
