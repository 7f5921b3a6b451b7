"""The Paper Soccer AI levels: one Player class, six budgets.

Level 1 looks one turn ahead only: it scores when it sees a goal, never plays an own goal or a stuck
turn when it has another, and otherwise pushes toward the goal with a lot of noise (it does not look
at the opponent's reply, so it leaves goals open).  Level 2 also refuses turns that let the opponent
score at once.  Levels 3..5 are the alpha-beta search at growing node budgets (3 and 4 with the cheap
reply generator only, and now and then a random turn among those that leave no goal open); level 6 is
the full search with the largest budget, or the time limit.

Strength grows unevenly with nodes, and stops growing past about 10,000 (60-200 games a pair,
+-4-6%): against level 4 (600 nodes, random turns) 2,500 nodes scored 64%, 8,000 nodes 60%, 20,000
nodes 70%, 40,000 nodes 83%; 150,000 nodes beat 1,000 nodes 36-4 but 20,000 nodes only 33-27, and
250,000 nodes against 12,000 scored 49-51 over 100 games.  So level 6's budget is 40,000 nodes (more
buys nothing measurable) and level 5 stays well below the knee.  Level 4 is set apart from level 5
by how it searches, not by its budget or its random turns: at 300 or 600 nodes, and with a random
turn 25%, 30% or 40% of the time, it scored the same against levels 3 and 5 (within 2 points, 400
games each), while answering from even depths too (`parity=0`) took 4-6 points off its score
against level 5.

Every search level adds a tie noise at the root (`Searcher.search(tie_noise=...)`): a random 0..3 on
each root score, each score within 3 of the best being exact, so equal-valued turns vary with the
seed (the OS's when none is given) and matches from the standard start are not one game repeated.

The ladder is measured with `termarena match --no-time-limit --think-ms 60000`, so that only the node
budgets bind.  As a CodinGame bot (`termarena bot`, 120 ms a turn after the first) level 6 is bound by
that clock (7,700-12,000 nodes a turn on the bench positions, measured with both cores busy).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ai.paper_soccer.board import Y, apply, can_score, from_game, gen_turns, path_str, undo
from ai.paper_soccer.search import WIN, WIN_BOUND, Searcher, Weights
from ai.player import InfoCallback, SearchInfo


@dataclass(frozen=True)
class Level:
    describe: str
    nodes: int | None = None  # node budget per turn (None: depth 1, no tree)
    cap_ms: int = 3000  # wall-clock cap per turn when no deadline is given (think_ms overrides it)
    temperature: float = 0.0  # softmax temperature over root scores (eval units); 0 = always the best
    margin: int = 0  # only turns within this many units of the best are considered
    safety: float = 1.0  # level 1: how often it checks whether the opponent can score next
    epsilon: float = 0.0  # search levels: how often a random turn among those leaving no goal open
    near_ply: int = 2  # search levels: plies below the root searched with the richer generator
    parity: int = 1  # search levels: 1 = answer from odd depths only, 0 = from every depth (as before)
    tie_noise: int = 3  # search levels: random bonus 0..tie_noise on each root score (varies equal choices)


LEVEL_TABLE: dict[int, Level] = {
    1: Level("beginner: scores when it can, pushes forward with much noise, often leaves goals open",
             None, cap_ms=300, temperature=25.0, safety=0.35),
    2: Level("one turn ahead: never leaves a goal in one open, noisy", None, cap_ms=500, temperature=40.0),
    3: Level("alpha-beta, 70 nodes a turn, cheap replies; every other turn a random one that leaves "
             "no goal open", 70, cap_ms=1000, epsilon=0.5, near_ply=0),
    4: Level("alpha-beta, 600 nodes a turn, cheap replies, answers from even depths too; one turn in four "
             "random (leaving no goal open)", 600, cap_ms=1500, epsilon=0.25, near_ply=0, parity=0),
    5: Level("alpha-beta, 2,500 nodes a turn, rich replies one ply deep", 2_500, cap_ms=2500, near_ply=1),
    6: Level("full alpha-beta over whole turns with a transposition table, rich replies two plies deep, "
             "40,000 nodes or the time limit", 40_000, cap_ms=2500),
}

LEVELS: dict[int, str] = {k: v.describe for k, v in LEVEL_TABLE.items()}

# levels 1 and 2: how far up the pitch, toward the goal the mover attacks, a turn takes the ball
FORWARD = tuple([10 * ((5 - Y[p]) if seat == 0 else (Y[p] - 5)) if p < 99 else 0 for p in range(105)]
                for seat in (0, 1))


class PaperSoccerPlayer:
    def __init__(self, level: int, think_ms: int | None = None, seed: int | None = None,
                 weights: Weights | None = None) -> None:
        if level not in LEVEL_TABLE:
            raise ValueError(f"paper-soccer AI level {level} is out of range 1..6")
        self.level = level
        self.cfg = LEVEL_TABLE[level]
        self.think_ms = think_ms
        self.rng = random.Random(seed)
        self.searcher = Searcher(weights, near_ply=self.cfg.near_ply, parity=self.cfg.parity)
        self.name = f"paper-soccer level {level}"

    def choose(self, game, deadline: float | None = None, on_info: InfoCallback | None = None) -> str:
        if game.is_over():
            raise ValueError("the game is over: there is no move to choose")
        t0 = time.monotonic()
        cfg = self.cfg
        if cfg.nodes is None:
            move, score = self._shallow(game)
            if on_info is not None:
                on_info(SearchInfo(depth=1, nodes=1, score=_info_score(score), best=move,
                                   elapsed_s=time.monotonic() - t0))
            return move
        cap_ms = self.think_ms if self.think_ms is not None else cfg.cap_ms
        stop = t0 + cap_ms / 1000
        if deadline is not None:
            stop = min(stop, deadline)
        multipv = cfg.temperature > 0

        def report(depth, nodes, score, best, elapsed):
            if on_info is not None:
                on_info(SearchInfo(depth=depth, nodes=nodes, score=_info_score(score), best=best,
                                   elapsed_s=elapsed))

        res = self.searcher.search(game, node_limit=cfg.nodes, deadline=stop, on_info=report, multipv=multipv,
                                   tie_noise=0 if multipv else cfg.tie_noise, rng=self.rng)
        move = res.move
        if multipv and res.scores and res.score < WIN_BOUND:
            move = self._noisy_pick(res.scores, cfg.temperature, cfg.margin)
        elif cfg.epsilon and res.score < WIN_BOUND and self.rng.random() < cfg.epsilon:
            # a random turn that leaves no goal open and is not proven lost (while one is not)
            alive = [m for m in res.safe if res.scores.get(m, 0) > -WIN_BOUND]
            if alive:
                move = self.rng.choice(alive)
        if on_info is not None:
            on_info(SearchInfo(depth=res.depth, nodes=res.nodes, score=_info_score(res.score), best=move,
                               elapsed_s=time.monotonic() - t0, note="solved" if res.proven else ""))
        return move

    # ------------------------------------------------------------------ weakening

    def _noisy_pick(self, scores: dict[str, int], temperature: float, margin: int) -> str:
        best = max(scores.values())
        cands = [(m, s) for m, s in scores.items()
                 if (s >= best - margin or not margin) and (s > -WIN_BOUND or best <= -WIN_BOUND)]
        weights = [math.exp((s - best) / temperature) for _, s in cands]
        return self.rng.choices([m for m, _ in cands], weights)[0]

    def _shallow(self, game) -> tuple[str, int]:
        """Levels 1 and 2: one turn ahead, a softmax over how far each turn takes the ball."""
        pm, ball, stm, _turn, _h = from_game(game)
        r = gen_turns(pm, ball, stm, max_states=3000, per_end=3, max_visits=3)
        if r.win is not None:
            return path_str(r.win), WIN - 1
        turns = r.turns
        if not turns and not r.complete:
            r = gen_turns(pm, ball, stm, max_states=50_000)
            turns = r.turns
        if not turns:
            return path_str(r.losing), -WIN + 1
        pv = FORWARD[stm]
        if self.rng.random() < self.cfg.safety:
            safe = []
            for t in turns:
                apply(pm, t[2])
                if can_score(pm, t[0], 1 - stm, 4000) is None:
                    safe.append(t)
                undo(pm, t[2])
            turns = safe or turns
        scores = {}
        for t in turns:
            scores.setdefault(path_str(t[2]), pv[t[0]])
        return self._noisy_pick(scores, self.cfg.temperature, 0), max(scores.values())


def _info_score(score: int) -> float:
    """Scores for SearchInfo: eval units / 10 (a row of progress is about 1), proven results +-1e6."""
    if abs(score) >= WIN_BOUND:
        return float(WIN if score > 0 else -WIN)
    return score / 10.0


def make_player(level: int, *, think_ms: int | None = None, seed: int | None = None) -> PaperSoccerPlayer:
    return PaperSoccerPlayer(level, think_ms=think_ms, seed=seed)


BENCH_LINES = (
    "",
    "1 3 1 36 1616 444 75 0",
    "1 4 1 3 17 0 25270 255 2500 34",
    "1 4 1 3 17 0 25270 255 2500 34 6616 0 7 13 03052503665 3065",
)


def bench_positions():
    from engines.paper_soccer import PaperSoccer

    out = []
    for line in BENCH_LINES:
        g = PaperSoccer.new()
        for m in line.split():
            g.push(m)
        out.append(g)
    return out


def search_speed(seconds: float = 2.0) -> tuple[int, float]:
    """Nodes the level-6 search visits on a fixed set of positions in about `seconds`."""
    positions = bench_positions()
    total = 0
    start = time.perf_counter()
    end = start + seconds
    i = 0
    while True:
        g = positions[i % len(positions)]
        s = Searcher()
        left = end - time.perf_counter()
        res = s.search(g, deadline=time.monotonic() + max(0.01, min(0.5, left)))
        total += res.nodes
        i += 1
        if time.perf_counter() >= end:
            break
    return total, time.perf_counter() - start
