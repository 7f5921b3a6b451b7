"""Save files for the tests: real saves of every game, Connect 4 saves written into a folder, and the
leftovers of writers that were killed."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from engines import GAME_IDS, get_game
from engines.numbers import SEED_MAX, SEED_MIN
from engines.savefile import SavedGame, dump, result_text


def real_save(game_id: str, seed: int, plies: int, *, from_position: bool = False, redo: bool = False) -> str:
    """The text of a real game: random legal moves from `new(seed)` (or from a position reached so)."""
    rng = random.Random(f"{game_id}{seed}{plies}")
    cls = get_game(game_id)
    game = cls.new(seed)
    start = None
    if from_position:
        for _ in range(3):
            if game.outcome() is None:
                game.push(game.random_move(rng))
        start = game.to_text()
        game = cls.from_text(start)
    while game.ply < plies and game.outcome() is None:
        game.push(game.random_move(rng))
    redo_moves = []
    if redo and game.ply:
        redo_moves = [game.move_to_str(game.pop())]
    result, reason = result_text(game)
    saved = SavedGame(game=game_id, moves=game.moves_as_str(), start=start, seed=seed, redo=redo_moves,
                      players=("human", "ai:3"), date="2026-11-21T12:00:00", result=result, reason=reason)
    return dump(saved, game)


SHAPES = ((0, 0, False, False), (7, 9, False, True), (SEED_MAX, 4, True, False), (SEED_MIN, 400, False, False),
          (12345, 6, True, True))  # seed, plies (400: to the end), from a position, with a redo line
SAVES = [real_save(g, seed, plies, from_position=pos, redo=redo) for g in GAME_IDS for seed, plies, pos, redo in SHAPES]


def c4_save(folder: Path, name: str, moves=("4", "4"), redo=(), players=("human", "human"), **facts) -> Path:
    """A Connect 4 game of these moves saved as NAME.txt in the folder, as the app saves it."""
    from tui.core.storage import save_game  # here: the engines' tests use this module too

    game = get_game("connect4").new()
    for m in moves:
        game.play(m)
    result, reason = result_text(game)
    saved = SavedGame(game="connect4", moves=list(moves), redo=list(redo), players=players,
                      date="2026-11-21T10:00:00", result=result, reason=reason, **facts)
    path = folder / f"{name}.txt"
    save_game(path, saved, game)
    return path


def dead_pid() -> int:
    """The pid of a process that has ended (a writer killed halfway)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def make_temp(folder: Path, name: str, age_s: float = 0.0) -> Path:
    """A writer's half-written temporary file, last written `age_s` ago."""
    path = folder / name
    path.write_bytes(b"half a save")
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path
