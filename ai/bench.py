"""Throughput figures: random playouts per game (games/s, plies/s)."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ai.levels import ai_part
from engines import get_game


@dataclass(frozen=True)
class PlayoutFigures:
    game: str
    games: int
    plies: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def plies_per_s(self) -> float:
        return self.plies / self.seconds if self.seconds else 0.0


def random_playouts(game_id: str, seconds: float = 2.0, seed: int = 1) -> PlayoutFigures:
    """Play random games (`Game.random_move`) from the start for about `seconds`; count games and plies."""
    cls = get_game(game_id)
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while True:
        game = cls.new(rng.randrange(1 << 31))
        while game.outcome() is None:
            game.push(game.random_move(rng))
            plies += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return PlayoutFigures(cls.id, games, plies, elapsed)


def search_speed(game_id: str, seconds: float = 2.0) -> tuple[int, float] | None:
    """Nodes the game's top-level search visits in about `seconds`, or None if the game has no AI yet."""
    speed = ai_part(game_id, "search_speed", None)
    return None if speed is None else speed(seconds)


def prepare_compiled(game_id: str) -> str | None:
    """None when the game's AI has no compiled search; else loads it before any clock starts and says
    why it is not there ("" when it is: `compiled_search_speed` measures it)."""
    load = ai_part(game_id, "load_compiled", None)
    return None if load is None else load()


def compiled_note(game_id: str) -> str:
    """How the game's compiled search differs from its pure-Python one ("": it gives the same answers)."""
    return ai_part(game_id, "COMPILED_NOTE", "")


def compiled_search_speed(game_id: str, seconds: float = 2.0) -> tuple[int, float] | None:
    """`search_speed` with the game's compiled search (an extra, e.g. `fast`), or None without one."""
    speed = ai_part(game_id, "compiled_search_speed", None)
    return None if speed is None else speed(seconds)


def openspiel_game(game_id: str) -> tuple[str, str] | None:
    """(the name `pyspiel.load_game` takes, how it differs from ours or "") of the nearest game OpenSpiel
    has to this one (its AI package's OPENSPIEL_GAME), or None."""
    name = ai_part(game_id, "OPENSPIEL_GAME", None)
    return None if name is None else (name, ai_part(game_id, "OPENSPIEL_NOTE", ""))


OPENSPIEL_MAX_SIMULATIONS = 100_000  # one search's simulations: its tree must fit OpenSpiel's memory cap


def openspiel_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


def openspiel_playouts(game_id: str, seconds: float = 2.0) -> float | None:
    """OpenSpiel's own C++ rate of random playouts per second on the nearest game it has, or None without
    pyspiel (the `yardstick` extra) or without such a game.

    Measured as the simulations per second of OpenSpiel's C++ MCTSBot with one random rollout each:
    the whole loop runs in C++, which a Python loop over pyspiel's states would not (there the
    bindings, not the game, set the pace).  A simulation is a playout plus a short walk down a tree, so
    the figure slightly undercounts OpenSpiel's pure playouts."""
    try:
        import pyspiel
    except ImportError:
        return None
    nearest = openspiel_game(game_id)
    if nearest is None:
        return None
    game = pyspiel.load_game(nearest[0])
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    simulations, spent, batch = 0, 0.0, 200
    while spent < seconds:
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, batch, 1000, False, 0, False)
        start = time.perf_counter()
        bot.step(game.new_initial_state())
        spent += time.perf_counter() - start
        simulations += batch
        batch = min(2 * batch, OPENSPIEL_MAX_SIMULATIONS)
    return simulations / spent
