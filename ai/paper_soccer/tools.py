"""Paper Soccer for the tools: the arena's openings and `ab:` player, the MCTS yardstick's position."""
from __future__ import annotations

import random
import time

from ai.paper_soccer.board import STEPS, apply, from_game, gen_turns, path_str, undo
from ai.tools.int_actions import IntActions
from engines.base import Game
from engines.paper_soccer import FULL, N_POINTS, PaperSoccer, TurnBuilder

OPENING_PLIES = 2  # random turns, one per effect


def opening_moves(game) -> list:
    return game.legal_turns_by_effect(500)


def opening_ok(game) -> bool:
    return game.scoring_turn() is None  # no goal in one left open


class AbPlayer:
    """The bare search.  Keys: nodes, ms, eps (how often a random turn among those leaving no goal
    open), noise (the root's tie noise), the `Searcher` options (near_ply, parity, visits...) and the
    evaluation weights of `search.Weights` by name."""

    SEARCH_KEYS = ("visits", "per_end", "states", "root_visits", "root_per_end", "root_states",
                   "near_ply", "near_visits", "near_per_end", "near_states", "parity", "root_short",
                   "lmr_after", "lmr_depth", "root_lmr", "shut_check")

    def __init__(self, opts: dict, seed: int | None):
        from ai.paper_soccer.search import WIN_BOUND, Searcher, Weights

        opts = dict(opts)
        self.nodes = opts.pop("nodes", None)
        self.ms = opts.pop("ms", None)
        self.eps = opts.pop("eps", 0.0)
        self.noise = opts.pop("noise", 0)
        self.rng = random.Random(seed)
        self.proven = WIN_BOUND
        search_opts = {k: opts.pop(k) for k in self.SEARCH_KEYS if k in opts}
        self.searcher = Searcher(Weights(**opts), **search_opts)

    def choose(self, game, deadline=None, on_info=None):
        if self.ms is not None:
            stop = time.monotonic() + self.ms / 1000
            deadline = stop if deadline is None else min(stop, deadline)
        r = self.searcher.search(game, node_limit=self.nodes, deadline=deadline, tie_noise=self.noise, rng=self.rng)
        if self.eps and r.safe and r.score < self.proven and self.rng.random() < self.eps:
            return self.rng.choice(r.safe)
        return r.move


def make_player(kind: str, opts: dict, seed: int | None):
    return AbPlayer(opts, seed) if kind == "ab" else None


class MctsPosition:
    """The pitch (edges drawn per point), the ball and the seat to move.  Actions are whole turns, one
    per effect (`board.gen_turns`, every turn when the position allows, own goals and stuck turns
    included, so that the tree is the real game); rollouts play uniformly random steps (the engine's
    `random_turn` policy) to the end of the game."""

    game_id = "paper-soccer"
    first_turn_s = None

    def __init__(self, game):
        self.pm, self.ball, self.stm, _turn, _h = from_game(game)
        self.stack: list[tuple] = []

    def moves(self) -> list[tuple]:
        """(path, end point, result for the mover: 1 a goal, -1 an own goal or stuck, None)."""
        r = gen_turns(self.pm, self.ball, self.stm, max_states=3000, per_end=1 << 30, max_visits=1 << 30,
                      stop_on_win=True)
        if r.win is not None:
            return [(r.win, -1, 1.0)]
        out = [(t[2], t[0], None) for t in r.turns]
        if not out and r.losing is not None:
            out.append((r.losing, -1, -1.0))
        return out

    def play(self, move: tuple) -> float | None:
        path, end, result = move
        apply(self.pm, path)
        self.stack.append((path, self.ball, self.stm))
        self.ball, self.stm = end, 1 - self.stm
        return result

    def undo(self) -> None:
        path, self.ball, self.stm = self.stack.pop()
        undo(self.pm, path)

    def rollout(self, rng) -> float:
        """Random steps to the end of the game (the pitch is restored after)."""
        pm, p, stm = self.pm, self.ball, self.stm
        drawn = []
        try:
            while True:
                m = pm[p]
                free = [s for s in STEPS[p] if not m & s[0]]
                bit, q, back, _e, sid, fq = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
                mq = pm[q]
                pm[p] = m | bit
                pm[q] = mq | back
                drawn.append(sid)
                if q >= 99:
                    winner = 0 if q < 102 else 1  # the top goal is seat 0's target
                    break
                if pm[q] == fq:
                    winner = 1 - stm  # the mover is stuck
                    break
                if not mq:
                    stm = 1 - stm
                p = q
        finally:
            undo(pm, drawn)
        return 1.0 if winner == self.stm else -1.0

    def engine_move(self, move: tuple) -> str:
        return path_str(move[0])


class OpenSpielActions(IntActions):
    """One action is one step, the direction 0..7; during a bounce the same player moves again, so one
    CodinGame turn is several OpenSpiel decisions.  `g` is the position at the start of the turn; the
    turn in progress is built on a TurnBuilder."""

    NUM_ACTIONS = 8
    # every edge of the pitch drawn, one a decision
    MAX_LENGTH = sum(bin(m).count("1") for m in FULL[:N_POINTS]) // 2 - len(PaperSoccer.new().drawn_edges())
    multi_step = True

    def __init__(self, g: Game, steps: str = ""):
        super().__init__(g)
        self.tb: TurnBuilder | None = None
        for c in steps:
            self.apply(int(c))

    def __deepcopy__(self, memo) -> "OpenSpielActions":
        return OpenSpielActions(self.g.copy(), self.tb.move if self.tb is not None else "")

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
