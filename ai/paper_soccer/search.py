"""Alpha-beta over whole turns for Paper Soccer.

* Moves are whole turns: inside the tree one per reachable end point (`board.gen_ends`, each bounce
  point expanded once); at the root several per end point, one per (edges drawn, end point)
  (`board.gen_turns`, each bounce point expanded up to `root_visits` times).  With `near_ply` k, the
  nodes of the first k plies below the root use `gen_turns` too (`near_*` limits): the cheap
  generator can miss the one reply after which every turn of ours leaves a goal open (seen in
  self-play: a 20,000-node search walked into a loss in 2 because the reply was not generated);
  near_ply=1 beat near_ply=0 37-23 at 3,000 nodes, near_ply=2 beat near_ply=1 35-25.
  A node whose mover can reach the goal it attacks is a win at once; a node where every turn is an
  own goal or gets stuck is a loss (checked again with a full generation before it is believed).
* Leaves: a win if the mover can score this turn (`board.can_score`), else the evaluation.
* Root: a scoring turn is played at once; turns after which the opponent can score are dropped
  while any other turn is left; iterative deepening with a transposition table (keyed by the exact
  edge set, the ball and the mover) orders the rest.  Root scores swing with the parity of the
  depth (about +-20 units); with `parity=1` only odd depths (the root side moving last) give the
  answer, even ones only order the turns: at 2,000 nodes odd-only beat every-depth 39-21 and
  even-only lost 29-31, and with odd-only 4,500 nodes beat 1,200 44-16 (every depth: 35-25).
* Root turns come from the capped depth-first generator (`root_visits`, `root_per_end`); with
  `root_short` the short turns it missed are added, breadth first (`board.gen_turns_short`), and when
  no listed turn is safe the turns the caps left out are looked at before the game is given up.  A
  game level 6 lost to a public C++ bot turned on a two-step turn, the only safe one, that the capped
  generator never listed (tests/ai/test_paper_soccer.py).
* Late-move reductions (`lmr_after`, `root_lmr`): after the first turns of a node, the others are
  searched 2 plies shallower with a null window first (2, not 1: the evaluation swings with the side
  to move at the leaves), and again in full when they beat the best so far.  On 40 late-game
  positions depth 7 took 18 s instead of 78 s; against the C++ bots at CodinGame's limits it changed
  nothing measurable, and with 600 ms a turn it lost more games to the rank-4 bot (5-35 against
  14-26 without): the reduced searches likely miss late-game refutations (see the README).
* Shut check (`shut_check`, `tactics.shutting_reply`): after each answering iteration the best root
  turn is checked for a reply, among every distinct reply, that leaves the mover no safe turn; while
  it has one it is dropped (scored as lost), and the turn finally chosen is checked again in the time
  kept for it (only once the search has an answer: until then the search may use all the time).
  In each of the 33 games level 6 lost to rank_4_jacek_hybrid the bot's last reply but one did that,
  unlisted by the tree's generators in most (it reaches an end point they reach, by other edges).
  With the check, 2 of the next 33 losses could have been avoided two plies before the
  end instead of about a third: the rest were decided deeper (a shutting reply two turns later).
  Against the C++ bots at CodinGame limits it changed nothing measurable (see the README).
* Cut-off term (`cut_off`, off in every level): a leaf's value moves by it when only one side can
  still ever score (`board.goals_in_reach`).  Level 6 was cut off before the end in half the games it
  lost to QtPaperSoccer, which scores such positions as almost decided; with the term level 6 scored
  no better against it (2-38 against 4-36 and 3-37) and its compiled tree lost 21% of its speed.
* Best-first (`best_first`; level 6's with the `fast` extra): below the root, `compiled_best_first`
  instead of the iterative deepening (compiled tree only).  With the values of then, against level 6's
  alpha-beta it scored 43% at CodinGame's time and 39% at equal nodes (see the README).  With `wide`,
  every node of its tree lists every turn (up to `wide` states), as QtPaperSoccer's does: with a value
  fitted to QtPaperSoccer's it scored 24% against that engine, alpha-beta with the same value 2.5%; with
  our own values 5-12.5% (README).  With `net:tree5`, learned from this search's own values (`fast_net`),
  it beat level 6's alpha-beta 145-55 at CodinGame's time, and is level 6 since (with `net:tree6`, the
  next generation of the same loop, since 2026-11-29).
* `tie_noise` (see `search`) varies the choice among (nearly) equal turns with a seeded rng.
* Evaluation, from the mover's side (`Weights`), measured in self-play (1,000 nodes a turn, 60-100
  games a pair, colours swapped):
  - `danger`: the untouched points the mover could score from minus those the opponent could score
    from (`board.flood`: next to a goal node, or to a bounce point from which a chain of bounce
    points reaches the goal).  Every turn that does not end the game ends on an untouched point, one
    a turn, and ending on a point the opponent can score from loses: this counts the safe landing
    points each side has left for the late game, where games are decided.  Alone it beat a random
    mover that never leaves a goal open 41-19; without it the search did not (25-35).
  - `y`: the ball's row toward the goal the mover attacks.  Forward helps with `danger` (y=3 beat
    y=0 44-16; y=-3 lost to y=0 21-39), though without `danger` a backward row looked better.
  - `free`: the free edges at the ball.
  With `danger` the search scales: 4,000 nodes beat 1,000 nodes 44-16.
  The leaf reads these weights as `value.Tables` (`hand_tables`), the form the learned value
  (`value.load`, fitted to game results by ai/paper_soccer/fit_value.py) has too: a weight per
  point for the ball and for each side's danger points, per count of danger points, per free edge.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ai.paper_soccer.board import (GOAL_BITS, MOVE_KEY_MASK, N_POINTS, OPEN, POINT_KEY, S_Q, SEAT_KEY, STEPS, X,
                                   Y, apply, can_score, can_score_fast, flood, from_game, gen_ends, gen_turns,
                                   gen_turns_short, goals_in_reach, parse_path, path_str, touched_of, undo,
                                   unlisted)
from ai.paper_soccer import accelerator
from ai.paper_soccer.accelerator import compiled_tree, pure_python_wanted
from ai.paper_soccer.tactics import shutting_reply
from ai.paper_soccer.net import Net
from ai.paper_soccer.value import MAX_COUNT, MAX_FREE, Tables
from ai.gc_pause import gc_paused

WIN = 1_000_000
WIN_BOUND = WIN - 1000  # values beyond this are proven results
EXACT, LOWER, UPPER = 0, 1, 2
ROOT_FALLBACK_STATES = 20_000  # the root's last look for a safe turn when the capped lists have none
SHUT_IN = -WIN + 4  # a root turn with a shutting reply: our turn, the reply, any turn of ours, a goal
# nodes a second of the pure-Python tree (level 6 on late-game positions: 43,000 at load 0.8): a search
# whose node budget this rate would not reach in its time is bound by the clock, and waits for the compiled tree
PYTHON_NODES_PER_S = 40_000
# While the compiled tree loads (in a thread: `accelerator`), the loading and the search share Python's lock
# (the GIL): beside CPU-bound processes the search waited up to 48 ms at a time for it, anywhere in its turn
# (also where no clock is read: the answer's write, the input's read).  So a clock-bound search waits for
# the loading up to AWAIT_SHARE of its time (the loading goes faster meanwhile, and the compiled tree then
# searches the rest), and while it still loads answers from the pure-Python tree by LOADING_SHARE (beside 3
# CPU-bound processes, answering by 75% still lost 1 game in 10 on time against koz4k's MCTS).
AWAIT_SHARE = 0.4
LOADING_SHARE = 0.5


def clock_binds(node_limit: int | None, seconds: float) -> bool:
    """Whether a pure-Python search with this node budget would stop at the clock first."""
    return node_limit is None or node_limit > PYTHON_NODES_PER_S * seconds


def move_key(eb: int, end: int) -> int:
    """A turn's effect (edge key, end point) in the 31 bits a table entry keeps; 0 is "none" (a
    turn whose key is 0 is not remembered, once in 2**31)."""
    return (eb ^ POINT_KEY[end]) & MOVE_KEY_MASK


@dataclass
class Weights:
    y: int = 6  # per row of progress toward the attacked goal (mover's side)
    mouth: int = 0  # bonus when the ball is within two rows of the attacked goal, near its middle
    free: int = 3  # per free edge at the ball
    fresh: int = 0  # times the sum, over the points no line touches yet, of their row progress
    fshape: int = 0  # 0: a fresh point counts its progress (-5..5); 1: progress times |progress|
    danger: int = 10  # per untouched point the mover could score from, minus those the opponent could


class SearchResult:
    __slots__ = ("move", "score", "depth", "nodes", "proven", "scores", "elapsed", "safe", "searched")

    def __init__(self):
        self.move: str = ""
        self.score = 0
        self.depth = 0
        self.nodes = 0
        self.proven = False
        self.scores: dict[str, int] = {}  # root turn -> score at the last completed depth
        self.elapsed = 0.0
        self.safe: list[str] = []  # root turns that leave the opponent no goal next turn
        # root turns whose score a search below them gave, not a leaf's value alone (search targets for
        # the positions after them: `search_targets`)
        self.searched: frozenset[str] = frozenset()


class _Stop(Exception):
    pass


def _progress_tables(w: Weights) -> tuple[list[int], list[int]]:
    tabs = []
    for seat in (0, 1):
        t = [0] * N_POINTS
        for p in range(99):
            adv = 5 - Y[p] if seat == 0 else Y[p] - 5  # -5 .. 5
            v = w.y * adv
            if adv >= 3 and 2 <= X[p] <= 6:
                v += w.mouth
            t[p] = v
        tabs.append(t)
    return tabs[0], tabs[1]


def hand_tables(w: Weights) -> Tables:
    """The hand-set evaluation as `value.Tables`: progress (and mouth) by the ball's point, `danger` per
    danger point of the mover and minus that per danger point of the opponent, `free` per free edge."""
    danger = [w.danger if p < 99 else 0 for p in range(N_POINTS)]
    return Tables(ball=[*_progress_tables(w)], mine=[danger, danger], theirs=[[-d for d in danger]] * 2,
                  free=[w.free * k for k in range(MAX_FREE + 1)])


def _fresh_table(shape: int) -> list[int]:
    """Seat 0's progress value of each point, for the sum over fresh points."""
    t = [0] * N_POINTS
    for p in range(99):
        adv = 5 - Y[p]
        t[p] = adv if shape == 0 else adv * abs(adv)
    return t


class Searcher:
    def __init__(self, weights: Weights | None = None, *, visits: int = 1, per_end: int = 1,
                 states: int = 400, root_visits: int = 4, root_per_end: int = 6, root_states: int = 6000,
                 parity: int = 0, near_ply: int = 0, near_visits: int = 3, near_per_end: int = 3,
                 near_states: int = 1500, root_short: int = 0, lmr_after: int = 0, lmr_depth: int = 3,
                 root_lmr: int = 0, shut_check: float = 0.0, fast: bool | None = None,
                 value: Tables | None = None, net: Net | None = None, cut_off: int = 0,
                 best_first: int = 0, explore: float = 0.0, wide: int = 0, fast_net: Net | None = None):
        self.w = weights or Weights()
        # the evaluation: the learned value (`value.load`) or, by default, the hand-set weights; a net
        # (`net.py`) replaces either.  `fast_net` replaces them in the compiled tree only, when no `net` is
        # given: in Python a net's leaf costs several of the tables', so the pure-Python tree keeps `ev`
        self.ev = value or hand_tables(self.w)
        self.python_net = net
        self.net = net or fast_net  # the compiled tree's (`compiled.Tree`)
        # added to a leaf's value when only the opponent is cut off from the goal it attacks, taken off
        # when only the mover is (`board.goals_in_reach`; 0: not looked at)
        self.cut_off = cut_off
        # the compiled tree below the root (the `fast` extra): None = when installed, False = never
        self.fast = fast
        # the share of the time kept for `tactics.shutting_reply` on the chosen root turn (0: no check)
        self.shut_check = shut_check
        self.root_short = root_short  # states of the root's breadth-first supplement (0: none)
        self.lmr_after = lmr_after  # turns searched in full at a node before the reduced ones (0: none)
        self.lmr_depth = lmr_depth  # the least depth left at which a node reduces
        self.root_lmr = root_lmr  # the same at the root (0: none)
        self.pv = _progress_tables(self.w)
        self.ft = _fresh_table(self.w.fshape)
        # move ordering: the static value for the mover of ending a turn on p
        self.order = tuple([self.pv[seat][p] - self.w.fresh * (self.ft[p] if seat == 0 else -self.ft[p])
                            for p in range(N_POINTS)] for seat in (0, 1))
        self.visits = visits
        self.per_end = per_end
        self.states = states
        self.root_visits = root_visits
        self.root_per_end = root_per_end
        self.root_states = root_states
        self.cheap = visits == 1 and per_end == 1
        # nodes at ply <= near_ply (the opponent's replies to the root turns when 1) use the richer
        # generator: the cheap one (one way to each end point, each bounce point expanded once) can miss
        # the one reply that leaves every turn of ours a goal open
        self.near_ply = near_ply
        self.parity = parity  # 0: every depth; 2: only even depths give the answer; 1: only odd ones
        self.near_visits = near_visits
        self.near_per_end = near_per_end
        self.near_states = near_states
        # best-first minimax below the root instead of alpha-beta (`compiled_best_first`: with the compiled
        # tree only, the pure-Python one searches alpha-beta): 1 one ply an expansion, 2 two; its descent's
        # exploration term
        self.best_first = best_first
        self.explore = float(explore)  # one compiled signature, whatever the spec gave (`explore=100`)
        # best-first's breadth: 0 the tree's generators, else every turn of every node, up to `wide` states
        self.wide = wide
        self.tt: dict[int, int] = {}
        self._compiled = None  # a `compiled.Tree` once a search uses the compiled tree
        self._bf_tree = None  # a `compiled_best_first.Tree`, made by the first best-first search

    @property
    def compiled_in_use(self) -> bool:
        """Whether the searches run the compiled tree (from the first search after it has loaded)."""
        return self._compiled is not None

    @property
    def net_in_use(self) -> bool:
        """Whether the searches value leaves with a net (its scores are in `net.UNITS` a logit)."""
        return self.python_net is not None or (self.net is not None and self._compiled is not None)

    def may_compile(self) -> bool:
        """Whether this searcher's searches use the compiled tree once it has loaded."""
        return self.fast is True or (self.fast is None and not pure_python_wanted())

    def get_ready(self, node_limit: int | None, seconds: float) -> None:
        """Start loading the compiled tree now (a bot, before its first input) when searches of this budget
        and time would wait for it (`clock_binds`); the low levels' budgets do not."""
        if self.may_compile() and clock_binds(node_limit, seconds):
            self._want_parts()
            compiled_tree()

    def _want_parts(self) -> None:
        """The compiled parts beside the tree this searcher will use, loaded with it (if it has not started)."""
        if self.best_first:
            accelerator.want_best_first()

    def _use_compiled(self, node_limit: int | None, t0: float, deadline: float | None) -> None:
        """Set up the compiled tree when it is wanted and installed (its table replaces `tt`).  A search the
        clock binds waits for the loading under way, up to AWAIT_SHARE of its time (`accelerator.await_loaded`)."""
        if self._compiled is not None or not self.may_compile():
            return
        self._want_parts()
        c = compiled_tree(wait=bool(self.fast))
        if c is None and deadline is not None and accelerator.loading() and clock_binds(node_limit, deadline - t0):
            c = accelerator.await_loaded(t0 + AWAIT_SHARE * (deadline - t0))
        if c is None:
            if self.fast:
                raise RuntimeError(accelerator.error)
            return  # not installed, or loading: the pure-Python tree meanwhile
        self._compiled = c.Tree(self)
        self.tt = self._compiled.table

    def _tree(self, pm, ball, stm, h, depth, alpha, beta, ply, f0, tch) -> int:
        """The value of a node below the root: `_negamax`, or its compiled twin (same value, same nodes)."""
        if self._compiled is None:
            return self._negamax(pm, ball, stm, h, depth, alpha, beta, ply, f0, tch)
        v, self.nodes, stopped = self._compiled.value(pm, ball, stm, h, depth, alpha, beta, ply, f0, self.nodes,
                                                      self.node_limit, self.deadline)
        if stopped:
            raise _Stop
        return v

    # ------------------------------------------------------------------ evaluation

    def _value(self, pm, ball, stm, f0, touched, mine) -> int:
        """The evaluation (`value.Tables`, or the net), given `mine`: the danger points of the mover
        (`board.flood`)."""
        if self.python_net is not None:
            return self.python_net.value(pm, ball, stm, mine, flood(pm, 1 - stm, touched)[1])
        ev = self.ev
        v = ev.ball[stm][ball] + ev.bias + ev.free[len(STEPS[ball]) - pm[ball].bit_count()]
        if self.w.fresh:
            v += self.w.fresh * (f0 if stm == 0 else -f0)
        for bits, row, by_count in ((mine, ev.mine[stm], ev.mine_n),
                                    (flood(pm, 1 - stm, touched)[1], ev.theirs[stm], ev.theirs_n)):
            v += by_count[min(bits.bit_count(), MAX_COUNT)]
            while bits:
                b = bits & -bits
                bits ^= b
                v += row[b.bit_length() - 1]
        return v

    def _leaf(self, pm, ball, stm, f0, touched, ply) -> int:
        # one flood fill gives both the mover's danger points and whether the goal is within reach
        hot, mine = flood(pm, stm, touched)
        if OPEN[ball][pm[ball]] & (hot | GOAL_BITS[stm]) and can_score_fast(pm, ball, stm, reach_checked=True):
            return WIN - ply
        v = self._value(pm, ball, stm, f0, touched, mine)
        if self.cut_off:
            reach = goals_in_reach(pm, ball)
            if reach != 3 and reach:
                v += self.cut_off if reach >> stm & 1 else -self.cut_off
        return v

    # ------------------------------------------------------------------ search

    def search(self, game, *, max_depth: int = 64, node_limit: int | None = None,
               deadline: float | None = None, on_info=None, multipv: bool = False,
               tie_noise: int = 0, rng=None) -> SearchResult:
        """The best turn.  With `tie_noise` k > 0 (and `rng`), the root turns are searched in a random
        order among equal static values, each root score within k of the best is exact (the root window
        is lowered by k), and the turn played is the one with the highest score plus a random 0..k:
        equal-valued choices vary between seeds while no turn more than k below the best is played."""
        t0 = time.monotonic()
        if len(self.tt) > 400_000:
            self.tt.clear()
        pm, ball, stm, _turn, h = from_game(game)
        res = SearchResult()
        with gc_paused():  # also when a tool calls the searcher without a player
            self.tie_noise = tie_noise if rng is not None else 0
            self.rng = rng
            self.shut_seen: dict[str, bool] = {}  # root turn -> whether the shut check found a shutting reply
            self._set_deadline(t0, deadline)
            self._search(pm, ball, stm, h, res, max_depth, node_limit, deadline, on_info, multipv, t0)
            if self.tie_noise and res.depth >= 2 and not res.proven and abs(res.score) < WIN_BOUND:
                self._tie_pick(res)
            if self.shut_check and abs(res.score) < WIN_BOUND and len(res.scores) > 1:
                self._avoid_shut(pm, ball, stm, res, self.due)
        res.elapsed = time.monotonic() - t0
        return res

    def _set_deadline(self, start: float, deadline: float | None) -> None:
        """The search's deadline from `start` on: `due` for the answer, `answer_deadline` for the iterations
        once there is an answer (the rest is the shut check's); until then the tree may use all the time."""
        self.due = self.deadline = self.answer_deadline = deadline
        if self.shut_check and deadline is not None:
            self.answer_deadline = start + (1 - self.shut_check) * (deadline - start)

    def _use_tree(self, node_limit: int | None, t0: float, deadline: float | None) -> None:
        """The root's own work done, the tree to search with: the compiled one when loaded, or waited for
        (`_use_compiled`), else the pure-Python one, which keeps to LOADING_SHARE of the time while the
        loading goes on (against CodinGame's 200 ms the full time cost 11 timeouts in 80 games)."""
        self._use_compiled(node_limit, t0, deadline)  # the first search of a process starts loading it
        if deadline is not None and accelerator.loading():
            self._set_deadline(time.monotonic(), t0 + LOADING_SHARE * (deadline - t0))

    def _search(self, pm, ball, stm, h, res, max_depth, node_limit, deadline, on_info, multipv, t0):
        self.nodes = 0
        self.near_lists: dict[int, tuple] = {}  # `_near_turns`' lists of this search
        self.node_limit = node_limit if node_limit is not None else 1 << 62
        r = gen_turns(pm, ball, stm, max_states=self.root_states, per_end=self.root_per_end,
                      max_visits=self.root_visits)
        if r.win is None and not r.complete and self.root_short:
            # the capped depth-first generator can miss a short turn (it spends a bounce point's visits
            # on long ways through it first), and that turn can be the only safe one: add the short turns
            extra = gen_turns_short(pm, ball, stm, max_states=self.root_short, per_end=self.root_per_end)
            r.win = extra.win
            r.turns += unlisted(r.turns, extra.turns)
        if r.win is not None:
            res.move, res.score, res.proven, res.depth = path_str(r.win), WIN - 1, True, 1
            res.scores = {res.move: res.score}
            return
        turns = r.turns
        if not turns and not r.complete:
            r = gen_turns(pm, ball, stm, max_states=50_000)
            turns = r.turns
        if not turns:
            # every turn loses: an own goal or stuck (the game is lost anyway)
            res.move, res.score, res.proven, res.depth = path_str(r.losing), -WIN + 1, True, 1
            res.scores = {res.move: res.score}
            return
        # drop turns that let the opponent score at once, while others remain
        safe = self._safe_turns(pm, stm, turns, deadline, t0)
        if not safe and not r.complete and self.root_short:
            # before giving the game up, the turns the caps left out (about 50 ms at most)
            full = gen_turns(pm, ball, stm, max_states=ROOT_FALLBACK_STATES)
            safe = self._safe_turns(pm, stm, unlisted(turns, full.turns), deadline, t0)
        res.safe = [path_str(t[2]) for t in safe]
        if not safe:
            t = turns[0]
            res.move, res.score, res.proven, res.depth = path_str(t[2]), -WIN + 2, True, 1
            res.scores = {path_str(x[2]): -WIN + 2 for x in turns}
            return
        if len(safe) == 1 and not multipv:
            res.move, res.score, res.depth = path_str(safe[0][2]), 0, 1
            res.scores = {res.move: 0}
            return
        self._use_tree(node_limit, t0, deadline)
        ft = self.ft
        f0 = sum(ft[p] for p in range(99) if not pm[p])
        self.f0 = f0
        pv = self.order[stm]
        if self.tie_noise:
            safe = safe[:]
            self.rng.shuffle(safe)
        root = sorted(safe, key=lambda t: -pv[t[0]])
        best = root[0]
        if self.best_first and self._compiled is not None:
            self._best_first(pm, ball, stm, root, res, node_limit)
            return
        scores: dict = {}
        dropped: dict[str, int] = {}  # root turns dropped by the shut check -> their (lost) score
        for depth in range(2, max_depth + 1):
            self.partial = []
            try:
                vals = self._root(pm, ball, stm, h, root, depth, multipv)
            except _Stop:
                # an unfinished iteration still proves a win when one of its searched turns wins
                won = [(v, i) for i, v in enumerate(self.partial) if v >= WIN_BOUND]
                if won:
                    v, i = max(won)
                    res.depth, res.score, res.proven = depth, v, True
                    res.move = path_str(root[i][2])
                    res.scores = {path_str(t[2]): x for t, x in zip(root, self.partial)}
                break
            # stable sort: best first, earlier order among equals
            order = sorted(range(len(root)), key=lambda i: -vals[i])
            root = [root[i] for i in order]
            vals = [vals[i] for i in order]
            if self.parity and depth % 2 != self.parity % 2 and abs(vals[0]) < WIN_BOUND:
                continue
            if self.shut_check and not multipv and abs(vals[0]) < WIN_BOUND:
                self._drop_shut(pm, ball, stm, root, vals, dropped)
            best = root[0]
            scores = {path_str(t[2]): v for t, v in zip(root, vals)}
            # each one searched to this depth (the dropped ones were not); without multipv the others'
            # scores are bounds from a null window, only the best one's is a value
            res.searched = frozenset(scores) if multipv else frozenset({path_str(best[2])})
            scores.update(dropped)
            res.depth, res.score = depth, vals[0]
            res.move = path_str(best[2])
            res.scores = scores
            self.deadline = self.answer_deadline
            if on_info is not None:
                on_info(depth, self.nodes, vals[0], res.move, time.monotonic() - t0)
            if abs(vals[0]) >= WIN_BOUND:
                res.proven = True
                break
            if not multipv and len(root) > 1 and vals[1] <= -WIN_BOUND:
                break  # only one turn does not lose
        if not res.move:
            res.move = path_str(best[2])
            res.scores = {path_str(t[2]): 0 for t in root}
        res.nodes = self.nodes

    def _best_first(self, pm, ball, stm, root, res: SearchResult, node_limit) -> None:
        """The compiled best-first search below the safe root turns (`compiled_best_first`): the best value
        is played (ties: the root order, the static one), each root turn scored by its value."""
        if self._bf_tree is None:
            from ai.paper_soccer.compiled_best_first import Tree  # compiled (or loaded) by its first search

            self._bf_tree = Tree(self._compiled, self.wide)
        limit = (node_limit if node_limit is not None else 1 << 62) - self.nodes
        vals, nodes, depth = self._bf_tree.search(pm, ball, stm, self.f0, root, limit, self.answer_deadline,
                                                  self.explore, self.best_first == 2)
        self.nodes += nodes
        i = max(range(len(root)), key=lambda k: (vals[k], -k))
        res.move, res.score, res.depth, res.nodes = path_str(root[i][2]), vals[i], max(depth, 2), self.nodes
        res.scores = {path_str(t[2]): v for t, v in zip(root, vals)}
        res.proven = abs(vals[i]) >= WIN_BOUND
        # a root turn visited once was only opened (its value is its replies' leaf values): from the
        # second visit on, the tree below it gave its value (the measured Descent-like run kept these)
        res.searched = frozenset(path_str(t[2]) for t, n in zip(root, self._bf_tree.visits(len(root))) if n >= 2)

    def _safe_turns(self, pm, stm, turns, deadline, t0) -> list:
        """The turns after which the opponent cannot score at once."""
        opp = 1 - stm
        safe = []
        # past 40% of the time, the cheap test (the full one can cost milliseconds a turn late in a game)
        hurry = None if deadline is None else t0 + 0.4 * (deadline - t0)
        for t in turns:
            apply(pm, t[2])
            if hurry is not None and time.monotonic() > hurry:
                bad = can_score_fast(pm, t[0], opp)
            else:
                bad = can_score(pm, t[0], opp, 4000) is not None
            undo(pm, t[2])
            self.nodes += 1
            if not bad:
                safe.append(t)
        return safe

    def _avoid_shut(self, pm, ball, stm, res: SearchResult, deadline) -> None:
        """Replace the chosen turn while the opponent has a reply to it that leaves us no safe turn
        (`tactics.shutting_reply`), trying the others best first; such turns are scored as lost.  The
        search checked its best turns already (`_drop_shut`); this looks at the turn finally chosen
        (the tie noise may pick another) and at the next ones when the search ran out of time."""
        order = [res.move] + sorted((m for m in res.scores if m != res.move), key=lambda m: -res.scores[m])
        for move in order:
            if deadline is not None and time.monotonic() >= deadline:
                return
            if res.scores[move] <= -WIN_BOUND:
                return  # the rest lose anyway
            shut = self._is_shut(pm, ball, stm, move, deadline)
            if not shut:
                if move != res.move:
                    res.move, res.score = move, res.scores[move]
                return
            res.scores[move] = SHUT_IN

    def _is_shut(self, pm, ball, stm, move: str, deadline) -> bool:
        """Whether the opponent has a shutting reply to the root turn `move` (False when unknown)."""
        seen = self.shut_seen.get(move)
        if seen is not None:
            return seen
        path = parse_path(ball, move)
        apply(pm, path)
        try:
            if self._compiled is None:
                shut = shutting_reply(pm, S_Q[path[-1]], stm, deadline=deadline)
            else:
                shut = self._compiled.shutting_reply(pm, S_Q[path[-1]], stm, deadline)
        finally:
            undo(pm, path)
        if shut is not None or deadline is None or time.monotonic() < deadline:
            self.shut_seen[move] = bool(shut)  # an answer, or unknown for want of states (not of time)
        return bool(shut)

    def _drop_shut(self, pm, ball, stm, root: list, vals: list, dropped: dict) -> None:
        """While the best root turn has a shutting reply and others are left, drop it from the search
        (`dropped` keeps it, scored as lost).  Checked during the search, so that the time after a
        clean check still goes to the search."""
        while len(root) > 1 and vals[0] > -WIN_BOUND:
            move = path_str(root[0][2])
            if not self._is_shut(pm, ball, stm, move, self.deadline):
                return
            root.pop(0)
            vals.pop(0)
            dropped[move] = SHUT_IN

    def _tie_pick(self, res: SearchResult) -> None:
        best = max(res.scores.values())
        k = self.tie_noise
        cands = [(v + self.rng.randint(0, k), m) for m, v in res.scores.items() if v >= best - k]
        top = max(x for x, _ in cands)
        res.move = self.rng.choice([m for x, m in cands if x == top])
        res.score = res.scores[res.move]

    def _root(self, pm, ball, stm, h, root, depth, multipv):
        vals = []
        alpha = -WIN - 1
        k1 = self.tie_noise + 1 if self.tie_noise else 0
        tch0 = touched_of(pm) | (1 << ball)
        late = self.root_lmr if self.root_lmr and depth >= 4 and not multipv else 1 << 30
        for i, t in enumerate(root):
            end, eb, path = t
            apply(pm, path)
            try:
                f1 = self.f0 - self.ft[end]
                tch = tch0 | (1 << end)
                if i >= late:
                    # a late root turn: first a null window 2 plies shallower at the edge of the exact band
                    edge = alpha - k1
                    v = -self._tree(pm, end, 1 - stm, h ^ eb, depth - 3, -edge - 1, -edge, 1, f1, tch)
                if i < late or v > edge:
                    beta = WIN + 1 if multipv or alpha <= -WIN - 1 else -alpha + k1
                    v = -self._tree(pm, end, 1 - stm, h ^ eb, depth - 1, -WIN - 1, beta, 1, f1, tch)
            finally:
                undo(pm, path)
            vals.append(v)
            self.partial = vals
            if v > alpha:
                alpha = v
        return vals

    def _near_turns(self, pm, ball, stm, key):
        """The richer generator's (win, turns, complete) at a near ply, generated once a search: every
        iteration of the deepening comes back to the same near nodes, and generating their turns again
        took a third of the pure-Python search's time.  Kept with the exact position, so a key shared by
        two positions never hands one the other's turns; a copy of the list, which the node reorders."""
        pos = (ball, stm, *pm)
        hit = self.near_lists.get(key)
        if hit is None or hit[0] != pos:
            r = gen_turns(pm, ball, stm, max_states=self.near_states, per_end=self.near_per_end,
                          max_visits=self.near_visits)
            hit = self.near_lists[key] = (pos, r.win, r.turns, r.complete)
        return hit[1], hit[2][:], hit[3]

    def _negamax(self, pm, ball, stm, h, depth, alpha, beta, ply, f0, tch):
        # tch: the touched points (`board.touched_of`), kept up to date turn by turn: a turn touches
        # only the point it starts from and the one it ends on (it bounces at touched points)
        self.nodes += 1
        if self.nodes >= self.node_limit or (self.nodes & 15 == 0 and self.deadline is not None
                                              and time.monotonic() >= self.deadline):
            raise _Stop
        if depth <= 0:
            return self._leaf(pm, ball, stm, f0, tch, ply)
        key = h ^ SEAT_KEY[stm][ball]
        ent = self.tt.get(key)
        best_key = 0
        if ent is not None:
            # packed as one int (ints are not tracked by the garbage collector): see the store below
            e_val = (ent & 0x3FFFFF) - 0x200000
            e_flag = (ent >> 22) & 3
            e_depth = (ent >> 24) & 0xFF
            best_key = ent >> 32
            if e_depth >= depth:
                if e_val > WIN_BOUND:
                    e_val -= ply
                elif e_val < -WIN_BOUND:
                    e_val += ply
                if e_flag == EXACT:
                    return e_val
                if e_flag == LOWER and e_val >= beta:
                    return e_val
                if e_flag == UPPER and e_val <= alpha:
                    return e_val
        if ply <= self.near_ply:
            win, turns, complete = self._near_turns(pm, ball, stm, key)
        elif self.cheap:
            win, turns, _losing, complete = gen_ends(pm, ball, stm)
        else:
            r = gen_turns(pm, ball, stm, max_states=self.states, per_end=self.per_end, max_visits=self.visits)
            win, turns, complete = r.win, r.turns, r.complete
        if win is not None:
            return WIN - ply
        if not turns and not complete:
            r = gen_turns(pm, ball, stm, max_states=2_000)
            if r.win is not None:
                return WIN - ply
            turns, complete = r.turns, r.complete
        if not turns:
            return -WIN + ply + 1  # every turn loses (own goal or stuck)
        pv = self.order[stm]
        turns.sort(key=lambda t: -pv[t[0]])
        if best_key:
            for i, t in enumerate(turns):
                if move_key(t[1], t[0]) == best_key:
                    if i:
                        turns.insert(0, turns.pop(i))
                    break
        a0 = alpha
        best = -WIN - 1
        bk = 0
        nstm = 1 - stm
        ft = self.ft
        tch1 = tch | (1 << ball)
        searched = 0
        # late turns at deep enough nodes are searched 2 plies shallower first (2: the evaluation swings
        # with the side to move at the leaves), with a null window; again in full when they beat alpha
        late = self.lmr_after if self.lmr_after and depth >= self.lmr_depth else 1 << 30
        while True:
            for i, t in enumerate(turns[searched:], searched):
                end, eb, path = t
                apply(pm, path)
                try:
                    tch2 = tch1 | (1 << end)
                    if i >= late:
                        v = -self._negamax(pm, end, nstm, h ^ eb, depth - 3, -alpha - 1, -alpha, ply + 1,
                                           f0 - ft[end], tch2)
                    if i < late or v > alpha:
                        v = -self._negamax(pm, end, nstm, h ^ eb, depth - 1, -beta, -alpha, ply + 1,
                                           f0 - ft[end], tch2)
                finally:
                    undo(pm, path)
                if v > best:
                    best = v
                    bk = move_key(eb, end)
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            searched = len(turns)
            # a loss found with a partial list of turns: look at every turn before believing it
            if best < -WIN_BOUND and not complete:
                complete = True
                r = gen_turns(pm, ball, stm, max_states=2_000)
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    raise _Stop  # that generation can take milliseconds: never past the deadline by many
                extra = unlisted(turns, r.turns)
                if extra:
                    turns = turns + extra
                    continue
            break
        sv = best
        if sv > WIN_BOUND:
            sv += ply
        elif sv < -WIN_BOUND:
            sv -= ply
        flag = UPPER if best <= a0 else (LOWER if best >= beta else EXACT)
        self.tt[key] = (bk << 32) | (depth << 24) | (flag << 22) | (sv + 0x200000)
        return best
