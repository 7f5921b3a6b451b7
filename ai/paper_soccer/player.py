"""The Paper Soccer AI levels: the shared player (ai/base_player.py) over the whole-turn search.

Level 1 looks one turn ahead only: it scores when it sees a goal, never plays an own goal or a stuck
turn when it has another, and otherwise pushes toward the goal with a lot of noise (it does not look
at the opponent's reply, so it leaves goals open).  Level 2 also refuses turns that let the opponent
score at once.  Levels 3..5 are the alpha-beta search at growing node budgets (3 and 4 with the cheap
reply generator only, and now and then a random turn among those that leave no goal open); level 6 is
the full search with the largest budget, or the time limit, and the only one with a learned evaluation:
`value:selfplay` (`value.py`'s form, fitted to the results of 6,000 games of level 6 against itself and
of no game against another program: at CodinGame's time it beat level 6 with the earlier fit, "learned",
124-76, and scored 59% over the six engines of the README's pool, all of them unseen, where that fit,
trained partly on games against two of them, scored 55%; see the README).  With the `fast` extra level 6
searches best-first instead, with the net `net:tree6` (`fast_net`; README, "Level 6 plays best-first"):
that search with `net:tree5` beat the alpha-beta level 6 145-55 at CodinGame's time, `net:tree6` (the next
generation) beat `net:tree5` 225-175 there (+44 +- 34; README, "`net:tree6`"), and a net's leaf in Python
would cost the pure-Python tree most of its nodes, so that tree keeps the alpha-beta and `value:selfplay`.

Strength grows unevenly with nodes, and stops growing past about 10,000 (60-200 games a pair,
+-4-6%): against level 4 (600 nodes, random turns) 2,500 nodes scored 64%, 8,000 nodes 60%, 20,000
nodes 70%, 40,000 nodes 83%; 150,000 nodes beat 1,000 nodes 36-4 but 20,000 nodes only 33-27, and
250,000 nodes against 12,000 scored 49-51 over 100 games.  Level 6's budget was 40,000 nodes for that
reason; it is 150,000 since the compiled tree (the `fast` extra, `compiled.py`) searches about 60,000
nodes in a CodinGame turn: against the C++ bot `challenger` that lifted level 6 from 31% (80 games) to
51% (160 games; see the README).  Without the extra, level 6 in the app stops at its 2.5 s cap first.
Level 5 stays well below the knee.  Level 4 is set apart from level 5
by how it searches, not by its budget or its random turns: at 300 or 600 nodes, and with a random
turn 25%, 30% or 40% of the time, it scored the same against levels 3 and 5 (within 2 points, 400
games each), while answering from even depths too (`parity=0`) took 4-6 points off its score
against level 5.

Every search level adds a tie noise at the root (`Searcher.search(tie_noise=...)`): a random 0..3 on
each root score, each score within 3 of the best being exact, so equal-valued turns vary with the
seed (the OS's when none is given) and matches from the standard start are not one game repeated.

The ladder is measured with `termarena match --no-time-limit --think-ms 60000`, so that only the node
budgets bind.  As a CodinGame bot (`termarena bot`, 120 ms a turn after the first) level 6 is bound by
that clock: on 40 late-game positions about 46,000 nodes a turn compiled, 5,000 in pure Python.  Its
first turn comes from `first_turns` (the start and seat 0's eight first turns, searched ahead) while the
compiled tree loads, and a bot gives that turn's time to the loading, which a search beside it would slow
(see there); otherwise it is searched.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ai.base_player import Level as BaseLevel, SearchPlayer, level_descriptions
from ai.paper_soccer import accelerator, first_turns
from ai.paper_soccer.board import Y, apply, can_score, from_game, gen_turns, path_str, undo
from ai.paper_soccer.search import WIN, WIN_BOUND, Searcher, SearchResult, Weights
from ai.paper_soccer.net import UNITS, load_net
from ai.paper_soccer.value import load as load_value
from ai.player import InfoCallback, SearchInfo, info_score


@dataclass(frozen=True)
class Level(BaseLevel):
    # nodes None: depth 1, no tree (levels 1 and 2)
    tie_noise: int = 3  # search levels (see the module docstring)
    safety: float = 1.0  # level 1: how often it checks whether the opponent can score next
    epsilon: float = 0.0  # search levels: how often a random turn among those leaving no goal open
    near_ply: int = 2  # search levels: plies below the root searched with the richer generator
    parity: int = 1  # search levels: 1 = answer from odd depths only, 0 = from every depth (as before)
    root_short: int = 0  # states of the root's breadth-first look for short turns (`Searcher`; 0: none)
    lmr_after: int = 0  # late-move reductions in the tree: turns searched in full first (0: none)
    root_lmr: int = 0  # the same at the root
    shut_check: float = 0.0  # the share of the time kept to check the chosen turn for a shutting reply
    value: str = ""  # the evaluation: "" the hand-set weights, else a learned one (`value.load`: "learned", value:NAME)
    net: str = ""  # a small neural value instead (`net.load_net`: a weight file, or net:NAME shipped)
    fast_net: str = ""  # the compiled tree's net when `net` is not given; the pure-Python tree keeps `value`
    cut_off: int = 0  # the leaf's bonus (malus) when only the opponent (the mover) can no longer score (`Searcher`)
    best_first: int = 0  # 1, 2: best-first minimax below the root, not alpha-beta (`Searcher`; compiled tree only)
    explore: float = 0.0  # best-first's exploration term (`compiled_best_first._bf_pick`)
    wide: int = 0  # best-first's breadth: every turn of every node, up to this many states (`Searcher`; 0: off)
    first_turns: bool = False  # while the compiled tree loads, each seat's first turn from `first_turns.TABLE`


LEVEL_TABLE: dict[int, Level] = {
    1: Level("beginner: scores when it can, pushes forward with much noise, often leaves goals open",
             cap_ms=300, temperature=25.0, safety=0.35),
    2: Level("one turn ahead: never leaves a goal in one open, noisy", cap_ms=500, temperature=40.0),
    3: Level("alpha-beta, 70 nodes a turn, cheap replies; every other turn a random one that leaves "
             "no goal open", nodes=70, cap_ms=1000, epsilon=0.5, near_ply=0),
    4: Level("alpha-beta, 600 nodes a turn, cheap replies, answers from even depths too; one turn in four "
             "random (leaving no goal open)", nodes=600, cap_ms=1500, epsilon=0.25, near_ply=0, parity=0),
    5: Level("alpha-beta, 2,500 nodes a turn, rich replies one ply deep", nodes=2_500, cap_ms=2500, near_ply=1),
    # the setup screen shows this under the level: four lines at most at 80 columns (README: the details)
    6: Level("with the fast extra, best-first minimax over every turn, valued by a small neural net learned "
             "from its own searches; else alpha-beta over whole turns with an evaluation learned from its own "
             "games; 150,000 nodes or the time limit",
             nodes=150_000, cap_ms=2500, root_short=3000, lmr_after=2, root_lmr=3, shut_check=0.15,
             value="value:selfplay", first_turns=True, best_first=1, explore=100, wide=500, fast_net="net:tree6"),
}

LEVELS: dict[int, str] = level_descriptions(LEVEL_TABLE)

# levels 1 and 2: how far up the pitch, toward the goal the mover attacks, a turn takes the ball
FORWARD = tuple([10 * ((5 - Y[p]) if seat == 0 else (Y[p] - 5)) if p < 99 else 0 for p in range(105)]
                for seat in (0, 1))


def searcher_options(cfg: Level) -> dict:
    """`Searcher`'s keywords for a level, its value and nets loaded (the tree below the root, `fast`, aside)."""
    return dict(near_ply=cfg.near_ply, parity=cfg.parity, root_short=cfg.root_short, lmr_after=cfg.lmr_after,
                root_lmr=cfg.root_lmr, shut_check=cfg.shut_check, value=load_value(cfg.value) if cfg.value else None,
                net=load_net(cfg.net) if cfg.net else None, cut_off=cfg.cut_off, best_first=cfg.best_first,
                explore=cfg.explore, wide=cfg.wide,
                fast_net=load_net(cfg.fast_net) if cfg.fast_net and not cfg.net else None)


class PaperSoccerPlayer(SearchPlayer):
    game_id = "paper-soccer"
    levels = LEVEL_TABLE
    win = WIN
    proven = WIN_BOUND
    score_scale = 10.0  # a row of progress is about 1

    def __init__(self, level: int, *, think_ms: int | None = None, seed: int | None = None,
                 weights: Weights | None = None, **changes) -> None:
        super().__init__(level, think_ms=think_ms, seed=seed, **changes)
        self.searcher = Searcher(weights, **searcher_options(self.cfg))

    @property
    def net_score_scale(self) -> float:
        """A net's score (hundredths of a logit) in the learned value's units: one logit is 1 / K of them
        (K of `CALIBRATION`), so a position shows about the same number whichever tree valued it."""
        from ai.paper_soccer import CALIBRATION  # here, not at the top: the package imports this module

        return self.score_scale * UNITS * CALIBRATION[1]

    def shown_score(self, score: int, win: int) -> float:
        scale = self.net_score_scale if self.searcher.net_in_use else self.score_scale
        return info_score(score, win, self.proven, scale)

    def quick_move(self, game, t0: float, deadline: float | None, on_info: InfoCallback | None) -> str | None:
        """Level 6's first turn from `first_turns.TABLE` while the compiled tree loads (a bot with the `fast`
        extra), and the turn's time to the loading: a pure-Python search beside it would get a tenth of its
        nodes (see the module).  Otherwise the turn is searched: in pure Python, level 6 without the table
        scored 837-0-763 against level 6 with it (+16 +- 17, CodinGame deadlines, README)."""
        if not (self.cfg.first_turns and self.searcher.may_compile() and accelerator.loading()):
            return None
        turns = first_turns.lookup(game)
        if not turns:
            return None
        if deadline is not None:
            accelerator.await_loaded(deadline)
        best = turns[0][1]
        turn = self.rng.choice([t for t, v in turns if v >= best - self.cfg.tie_noise])
        if on_info is not None:
            on_info(SearchInfo(note="opening table", best=game.move_to_str(turn), elapsed_s=time.monotonic() - t0,
                               tree=self.tree()))
        return turn

    def search(self, game, *, t0, stop, deadline, all_scores, report) -> SearchResult:
        cfg = self.cfg
        if cfg.nodes is None:
            return self._shallow(game)
        return self.searcher.search(game, max_depth=64 if cfg.depth is None else cfg.depth,
                                    node_limit=cfg.nodes, deadline=stop, on_info=report, multipv=all_scores,
                                    tie_noise=0 if all_scores else cfg.tie_noise, rng=self.rng)

    def get_ready(self, turn_s: float) -> None:
        if self.cfg.nodes is not None:
            self.searcher.get_ready(self.cfg.nodes, turn_s)

    def tree(self) -> str:
        if self.cfg.nodes is None:  # levels 1 and 2 look one turn ahead, without the tree
            return ""
        return "compiled" if self.searcher.compiled_in_use else "pure Python"

    def weaken(self, found: SearchResult) -> str:
        cfg = self.cfg
        if cfg.epsilon and found.score < WIN_BOUND and self.rng.random() < cfg.epsilon:
            # a random turn that leaves no goal open and is not proven lost (while one is not)
            alive = [m for m in found.safe if found.scores.get(m, 0) > -WIN_BOUND]
            if alive:
                return self.rng.choice(alive)
        return found.move

    def _shallow(self, game) -> SearchResult:
        """Levels 1 and 2: one turn ahead; the root scores are how far each turn takes the ball (the
        player's softmax chooses among them)."""
        res = SearchResult()
        res.depth = res.nodes = 1
        pm, ball, stm, _turn, _h = from_game(game)
        r = gen_turns(pm, ball, stm, max_states=3000, per_end=3, max_visits=3)
        if r.win is not None:
            res.move, res.score = path_str(r.win), WIN - 1
            return res
        turns = r.turns
        if not turns and not r.complete:
            r = gen_turns(pm, ball, stm, max_states=50_000)
            turns = r.turns
        if not turns:
            res.move, res.score = path_str(r.losing), -WIN + 1
            return res
        pv = FORWARD[stm]
        if self.rng.random() < self.cfg.safety:
            safe = []
            for t in turns:
                apply(pm, t[2])
                if can_score(pm, t[0], 1 - stm, 4000) is None:
                    safe.append(t)
                undo(pm, t[2])
            turns = safe or turns
        for t in turns:
            res.scores.setdefault(path_str(t[2]), pv[t[0]])
        res.score = max(res.scores.values())
        res.move = max(res.scores, key=res.scores.get)
        return res
