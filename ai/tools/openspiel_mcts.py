"""OpenSpiel's MCTS as an outside yardstick: our games as OpenSpiel Python games, played by
`open_spiel.python.algorithms.mcts.MCTSBot` with `RandomRolloutEvaluator`, as a CodinGame bot.

    python -m ai.tools.openspiel_mcts GAME [--seconds S] [--simulations N] [--seed N] [--log FILE]

Needs `open_spiel` (the `yardstick` extra); nothing else in termarena imports this module.

The games (registered with `pyspiel.register_game` as `termarena_<game>`, built like OpenSpiel's own
`open_spiel/python/games/tic_tac_toe.py`: a GameType/GameInfo and a `pyspiel.State` subclass) are
deterministic, perfect-information, zero-sum, terminal rewards +1/-1/0.  The state wraps our engine;
OpenSpiel clones a Python state with `copy.deepcopy`, which here is the engine's `copy()`.
Actions are stable integers, legal lists in ascending order: each game's tools module says what they
mean (`OpenSpielActions` in ai/<game>/tools.py, on ai/tools/int_actions.py).  Where one CodinGame turn
is several decisions of one player (Paper Soccer: one action a step), the bot searches each decision (a
fresh `MCTSBot.step` per decision, as OpenSpiel's own game loop would call it) and prints the turn's
actions together.  Time per decision: all that is left of the turn when no legal action can leave the
turn unfinished (the action surely ends the turn), else half of it.

The search is OpenSpiel's unchanged: uct_c = 2, one random rollout per leaf (the defaults of
open_spiel/python/examples/mcts.py), MCTS-Solver on, the most visited child played.  MCTSBot only
knows a simulation count; its loop is `for _ in range(self.max_simulations)`, so `max_simulations`
here is a `SimulationBudget` that the module's `range` iterates: it stops at the count or before a
simulation that might not end by the deadline (the longest simulation so far), after at least 2
simulations (the first only evaluates the root; the second creates its children).

Time: like `termarena bot`, 60% of the CodinGame limit of each turn (first and later turns,
start-up counted on the first), unless `--seconds` sets a think time.  Each turn's search figures go
to stderr, and as JSON lines to `--log FILE`; a summary goes to stderr at the end.
"""
from __future__ import annotations

import builtins
import inspect
import json
import statistics
import sys
import time
from typing import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from ai.bot import MARGIN, run_bot
from ai.tools.int_actions import IntActions
from ai.tools.specs import game_tools
from engines import get_game, resolve_game_id
from engines.base import Game

UCT_C = 2.0  # open_spiel/python/examples/mcts.py: flags.DEFINE_integer("uct_c", 2, ...)
ROLLOUTS = 1  # the same example's rollout_count
MIN_SIMULATIONS = 2


# ------------------------------------------------------------------------------- the time budget

class SimulationBudget:
    """MCTSBot's `max_simulations` with a deadline: iterating it gives the simulation indices."""

    def __init__(self, limit: int | None, deadline: float | None):
        self.limit = limit
        self.deadline = deadline
        self.count = 0

    def __iter__(self):
        last = time.monotonic()
        longest = 0.0
        while self.limit is None or self.count < self.limit:
            if self.deadline is not None:
                now = time.monotonic()
                longest = max(longest, now - last)
                last = now
                if self.count >= MIN_SIMULATIONS and now + longest > self.deadline:
                    return
            yield self.count
            self.count += 1


def _range(*args):
    if len(args) == 1 and isinstance(args[0], SimulationBudget):
        return iter(args[0])
    return builtins.range(*args)


if "range(self.max_simulations)" not in inspect.getsource(mcts.MCTSBot.mcts_search):
    raise ImportError("this open_spiel's MCTSBot.mcts_search no longer loops over range(max_simulations)")
mcts.range = _range  # module globals come before builtins: only a SimulationBudget behaves differently


class TimedMCTSBot(mcts.MCTSBot):
    """MCTSBot whose `step` searches until a deadline or a simulation count, and keeps its root."""

    last_root: mcts.SearchNode | None = None

    def step_within(self, state, deadline: float | None, simulations: int | None) -> int:
        self.max_simulations = SimulationBudget(simulations, deadline)
        return self.step(state)

    def mcts_search(self, state):
        self.last_root = super().mcts_search(state)
        return self.last_root


# ------------------------------------------------------------------------------- OpenSpiel Python games

class TermarenaState(pyspiel.State):
    """An OpenSpiel state over one of our engines (see the module docstring for the actions)."""

    def __init__(self, game: "pyspiel.Game", adapter: IntActions):
        super().__init__(game)
        self.a = adapter
        self._to_move = self._who_moves()

    def _who_moves(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.a.outcome() is not None else self.a.player()

    def current_player(self):
        return self._to_move

    def _legal_actions(self, player):
        return self.a.legal()

    def _apply_action(self, action):
        self.a.apply(action)
        self._to_move = self._who_moves()

    def _action_to_string(self, player, action):
        return self.a.action_str(action)

    def is_terminal(self):
        return self._to_move == pyspiel.PlayerId.TERMINAL

    def returns(self):
        o = self.a.outcome()
        if o is None or o.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if o.winner == 0 else [-1.0, 1.0]

    def __str__(self):
        return self.a.g.to_text()


def short_name(game_id: str) -> str:
    return "termarena_" + game_id.replace("-", "_")


_registered: set[str] = set()


def _register(game_id: str) -> None:
    """The game as `termarena_<game>` in pyspiel, once (its tools module's OpenSpielActions)."""
    if game_id in _registered:
        return
    adapter = game_tools(game_id).OpenSpielActions
    n_actions, max_length = adapter.NUM_ACTIONS, adapter.MAX_LENGTH
    engine = get_game(game_id)
    game_type = pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"termarena {engine.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={})
    game_info = pyspiel.GameInfo(
        num_distinct_actions=n_actions,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_length)

    class TermarenaGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or dict())
            self._start = engine.new()

        def new_initial_state(self, position: Game | None = None):
            """The start position, or a copy of `position` (an engine position, at the start of a turn).

            OpenSpiel's clone of a Python state calls this, then deep-copies the state's attributes."""
            return TermarenaState(self, adapter((position if position is not None else self._start).copy()))

    TermarenaGame.__name__ = TermarenaGame.__qualname__ = f"Termarena_{game_id.replace('-', '_')}"
    pyspiel.register_game(game_type, TermarenaGame)
    _registered.add(game_id)


def load_game(game_id: str) -> "pyspiel.Game":
    gid = resolve_game_id(game_id)
    _register(gid)
    return pyspiel.load_game(short_name(gid))


# ------------------------------------------------------------------------------- the player

class OpenSpielMCTSPlayer:
    """`choose(position, deadline)` plays one CodinGame turn with OpenSpiel's MCTSBot."""

    def __init__(self, game_id: str, *, seconds: float | None = None, simulations: int | None = None,
                 seed: int | None = None, uct_c: float = UCT_C, rollouts: int = ROLLOUTS,
                 report: Callable[[dict], None] | None = None):
        self.game_id = resolve_game_id(game_id)
        self.game = load_game(self.game_id)
        rng = np.random.RandomState(seed)
        self.bot = TimedMCTSBot(self.game, uct_c, 0, mcts.RandomRolloutEvaluator(rollouts, rng),
                                solve=True, random_state=rng)
        self.seconds = seconds
        self.simulations = simulations
        self.report = report
        self.turns: list[dict] = []

    def choose(self, position: Game, deadline: float | None = None):
        t0 = time.monotonic()
        if self.seconds is not None:
            deadline = t0 + self.seconds
        if deadline is None and self.simulations is None:
            raise ValueError("a deadline, --seconds or --simulations is needed")
        state = self.game.new_initial_state(position)
        actions: list[int] = []
        sims: list[int] = []
        while True:
            legal = state.legal_actions()
            if len(legal) == 1:  # MCTSBot would return it too
                action, n = legal[0], 0
            else:
                step_deadline = deadline
                if deadline is not None and self._may_continue(state, legal):
                    now = time.monotonic()
                    step_deadline = now + max(0.0, deadline - now) / 2
                action = self.bot.step_within(state, step_deadline, self.simulations)
                n = self.bot.last_root.explore_count
            actions.append(action)
            sims.append(n)
            state.apply_action(action)
            if not state.a.mid_turn():
                break
        output = state.a.turn_output(actions, position)
        end = time.monotonic()
        record = {"turn": len(self.turns), "sims": sum(sims), "steps": sims, "ms": round((end - t0) * 1000, 1),
                  "budget_ms": None if deadline is None else round((deadline - t0) * 1000, 1),
                  "over_ms": None if deadline is None else round(max(0.0, end - deadline) * 1000, 1),
                  "move": output}
        self.turns.append(record)
        if self.report is not None:
            self.report(record)
        return position.parse_output(output)

    def _may_continue(self, state, legal: list[int]) -> bool:
        """Whether some legal action leaves the same player in the middle of a turn (Paper Soccer)."""
        if not state.a.multi_step:
            return False
        for action in legal:
            probe = state.a.__deepcopy__(None)
            probe.apply(action)
            if probe.mid_turn():
                return True
        return False

    def summary(self) -> str:
        if not self.turns:
            return "openspiel-mcts: no turns played"
        sims = [t["sims"] for t in self.turns]
        later = sims[1:] or sims
        over = [t["over_ms"] for t in self.turns if t["over_ms"]]
        return (f"openspiel-mcts {self.game_id}: {len(sims)} turns, simulations per turn: first {sims[0]}, "
                f"later median {statistics.median(later):g} (min {min(later)}, max {max(later)}); "
                f"past the 60% deadline: {len(over)} turns, by at most {max(over, default=0):g} ms")


def main(argv: list[str] | None = None) -> int:
    import argparse

    from engines import UnknownGame

    ap = argparse.ArgumentParser(prog="python -m ai.tools.openspiel_mcts",
                                 description="OpenSpiel's MCTS (random rollouts) as a CodinGame bot on stdin/stdout.")
    ap.add_argument("game")
    ap.add_argument("--seconds", type=float, default=None,
                    help="think time per turn (default: 60%% of the CodinGame limit of each turn)")
    ap.add_argument("--simulations", type=int, default=None, help="MCTSBot's max_simulations per decision")
    ap.add_argument("--uct-c", type=float, default=UCT_C)
    ap.add_argument("--rollouts", type=int, default=ROLLOUTS)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--log", default=None, help="append one JSON line per turn to this file")
    args = ap.parse_args(argv)
    try:
        gid = resolve_game_id(args.game)
    except UnknownGame as e:
        ap.error(str(e))

    log = open(args.log, "a", encoding="utf-8") if args.log else None

    def report(record: dict) -> None:
        line = json.dumps(record)
        print("openspiel-mcts " + line, file=sys.stderr, flush=True)
        if log is not None:
            log.write(line + "\n")
            log.flush()

    player = OpenSpielMCTSPlayer(gid, seconds=args.seconds, simulations=args.simulations, seed=args.seed,
                                 uct_c=args.uct_c, rollouts=args.rollouts, report=report)
    margin = None if args.seconds is not None else MARGIN
    try:
        return run_bot(gid, player.choose, margin=margin)
    finally:
        print(player.summary(), file=sys.stderr, flush=True)
        if log is not None:
            log.close()


if __name__ == "__main__":
    sys.exit(main())
