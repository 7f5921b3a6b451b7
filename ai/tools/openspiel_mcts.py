"""OpenSpiel's MCTS as an outside yardstick: our four games as OpenSpiel Python games, played by
`open_spiel.python.algorithms.mcts.MCTSBot` with `RandomRolloutEvaluator`, as a CodinGame bot.

    python -m ai.tools.openspiel_mcts GAME [--seconds S] [--simulations N] [--seed N] [--log FILE]

Needs `open_spiel` (the `yardstick` extra); nothing else in termarena imports this module.

The games (registered with `pyspiel.register_game` as `termarena_<game>`, built like OpenSpiel's own
`open_spiel/python/games/tic_tac_toe.py`: a GameType/GameInfo and a `pyspiel.State` subclass) are
deterministic, perfect-information, zero-sum, terminal rewards +1/-1/0.  The state wraps our engine;
OpenSpiel clones a Python state with `copy.deepcopy`, which here is the engine's `copy()`.
Actions (stable integers, legal lists in ascending order):
- connect4: the column 0..8; STEAL is 9.
- lines-of-action: `from * 64 + to` (squares a1 = 0 .. h8 = 63); pass is 4096.
- cultist-wars: 0 is WAIT; unit u's actions start at 1 + 119 * u: + tile (y * 13 + x, 0..90) for MOVE to
  that tile, + 91 + target for SHOOT, + 105 + target for CONVERT (targets are unit ids 0..13).
  The legal list is the engine's canonical one (one action per distinct effect).  Cultist Wars'
  neutral move is driven by the referee's generator, whose state is part of the position, so the
  game is deterministic for OpenSpiel too.
- paper-soccer: one action is one step, the direction 0..7; during a bounce the same player moves
  again.  So one CodinGame turn is several OpenSpiel decisions: the bot searches each step (a fresh
  `MCTSBot.step` per decision, as OpenSpiel's own game loop would call it) and prints the steps of
  the turn together.  Time per step: all that is left of the turn when no legal step can bounce
  (the step surely ends the turn), else half of it.

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
from engines import get_game, resolve_game_id
from engines.base import Game
from engines.connect4 import STEAL
from engines.cultist_wars import CONVERT, MOVE, SHOOT, WAIT, Move as CwMove
from engines.cultist_wars.board import N_TILES, XY, tile
from engines.cultist_wars.rules import N_UNITS
from engines.lines_of_action import PASS, Move as LoaMove
from engines.paper_soccer import FULL, N_POINTS, TurnBuilder

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


# ------------------------------------------------------------------------------- the engines as integer actions

class _Adapter:
    """One engine position seen through integer actions; `__deepcopy__` is OpenSpiel's clone."""

    def __init__(self, g: Game):
        self.g = g

    def __deepcopy__(self, memo) -> "_Adapter":
        return type(self)(self.g.copy())

    def player(self) -> int:
        return self.g.current_player()

    def outcome(self):
        return self.g.outcome()

    def mid_turn(self) -> bool:
        return False

    def legal(self) -> list[int]:
        return sorted(self.encode(m) for m in self.g.legal_moves())

    def apply(self, action: int) -> None:
        self.g.push(self.decode(action))

    def action_str(self, action: int) -> str:
        return self.g.move_to_str(self.decode(action))

    def turn_output(self, actions: list[int], start: Game) -> str:
        return start.move_to_str(self.decode(actions[0]))

    def encode(self, move) -> int:
        raise NotImplementedError

    def decode(self, action: int):
        raise NotImplementedError


class _Connect4(_Adapter):
    def legal(self) -> list[int]:
        moves = self.g.legal_moves()  # ascending columns, then STEAL
        if moves and moves[-1] == STEAL:
            moves[-1] = 9
        return moves

    def encode(self, move: int) -> int:
        return 9 if move == STEAL else move

    def decode(self, action: int) -> int:
        return STEAL if action == 9 else action


_LOA_MOVES = [LoaMove(a // 64, a % 64) for a in range(64 * 64)] + [PASS]


_LOA_CODES = {m: a for a, m in enumerate(_LOA_MOVES)}


class _LinesOfAction(_Adapter):
    def legal(self) -> list[int]:
        return sorted(map(_LOA_CODES.__getitem__, self.g.legal_moves()))

    def encode(self, move) -> int:
        return _LOA_CODES[move]

    def decode(self, action: int):
        return _LOA_MOVES[action]


_CW_STRIDE = N_TILES + 2 * N_UNITS  # 119 actions per unit


def _cw_encode(move: CwMove) -> int:
    if move.kind == WAIT:
        return 0
    base = 1 + move.unit * _CW_STRIDE
    if move.kind == MOVE:
        return base + tile(move.x, move.y)
    return base + N_TILES + move.target + (N_UNITS if move.kind == CONVERT else 0)


def _cw_decode_table() -> list[CwMove]:
    table = [CwMove(WAIT)] * (1 + N_UNITS * _CW_STRIDE)
    for u in range(N_UNITS):
        for t in range(N_TILES):
            m = CwMove(MOVE, u, *XY[t])
            table[_cw_encode(m)] = m
        for target in range(N_UNITS):
            for kind in (SHOOT, CONVERT):
                m = CwMove(kind, u, target=target)
                table[_cw_encode(m)] = m
    return table


_CW_MOVES = _cw_decode_table()
_CW_CODES = {m: a for a, m in enumerate(_CW_MOVES) if a == 0 or m.kind != WAIT}


class _CultistWars(_Adapter):
    def legal(self) -> list[int]:
        return sorted(map(_CW_CODES.__getitem__, self.g.legal_moves()))

    def encode(self, move: CwMove) -> int:
        return _cw_encode(move)

    def decode(self, action: int) -> CwMove:
        return _CW_MOVES[action]


class _PaperSoccer(_Adapter):
    """`g` is the position at the start of the turn; the turn in progress is built on a TurnBuilder."""

    def __init__(self, g: Game, steps: str = ""):
        super().__init__(g)
        self.tb: TurnBuilder | None = None
        for c in steps:
            self.apply(int(c))

    def __deepcopy__(self, memo) -> "_PaperSoccer":
        return _PaperSoccer(self.g.copy(), self.tb.move if self.tb is not None else "")

    def mid_turn(self) -> bool:
        return self.tb is not None and self.tb.move != ""

    def legal(self) -> list[int]:
        if self.g.is_over():
            return []
        if self.tb is None:
            self.tb = TurnBuilder(self.g)
        return sorted(self.tb.legal_steps())

    def apply(self, action: int) -> None:
        if self.tb is None:
            self.tb = TurnBuilder(self.g)
        if not self.tb.step(action):
            self.g.push(self.tb.move)
            self.tb = None

    def action_str(self, action: int) -> str:
        return str(action)

    def turn_output(self, actions: list[int], start: Game) -> str:
        return "".join(str(a) for a in actions)


_PS_EDGES = sum(bin(m).count("1") for m in FULL[:N_POINTS]) // 2 - len(get_game("paper-soccer").new().drawn_edges())

# game id -> (adapter, num_distinct_actions, max_game_length in OpenSpiel decisions)
_GAMES: dict[str, tuple[type[_Adapter], int, int]] = {
    "connect4": (_Connect4, 10, get_game("connect4").max_turns),
    "lines-of-action": (_LinesOfAction, 64 * 64 + 1, get_game("lines-of-action").max_turns),
    "cultist-wars": (_CultistWars, 1 + N_UNITS * _CW_STRIDE, get_game("cultist-wars").max_turns),
    "paper-soccer": (_PaperSoccer, 8, _PS_EDGES),
}


# ------------------------------------------------------------------------------- OpenSpiel Python games

class TermarenaState(pyspiel.State):
    """An OpenSpiel state over one of our engines (see the module docstring for the actions)."""

    def __init__(self, game: "pyspiel.Game", adapter: _Adapter):
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


def _register(game_id: str) -> None:
    adapter, n_actions, max_length = _GAMES[game_id]
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


for _gid in _GAMES:
    _register(_gid)


def load_game(game_id: str) -> "pyspiel.Game":
    return pyspiel.load_game(short_name(resolve_game_id(game_id)))


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
        if not isinstance(state.a, _PaperSoccer):
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
