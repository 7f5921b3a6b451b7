"""Best-first minimax below the Paper Soccer root, compiled by numba (the `fast` extra):
`Searcher(best_first=...)`, i.e. `level:6,best_first=2,explore=100`.  Issue 28 asked for the search to be
chosen by measurement, alpha-beta or best-first (QtPaperSoccer's and jacek_native_bfm's kind); this is
the best-first one, on the tree's own pieces (`compiled.gen_ends`, `gen_turns`, `leaf`, the net's running
sums), so that only the search differs.  Measured against level 6's alpha-beta (README, "Best-first
against alpha-beta"), it lost with the values of then; with `net:tree5`, learned from its own values,
it won (145-55 at CodinGame's time) and is level 6's search with the `fast` extra.

From the root, the descent follows the child best for each node's mover (plus an exploration term) to a
node without children and opens it: its turns, each valued by the leaf, and with `two_ply` their turns
too, then values are backed up (negamax).  Wins found by the leaf or the generators are proofs; a loss
on the cheap generator's list is only believed once every turn has been listed (`_bf_value`).

`wide` (`Tree(..., wide)`): every node lists its turns as the root's first replies are listed, every way
to each end point up to `wide` states, QtPaperSoccer's breadth (README, "Where level 6 loses to
QtPaperSoccer").

Its own module: the compiled tree every level loads at a bot's start (`compiled.warm_up`) does not grow
by it.  `warm_up` loads it (compiling what numba's cache lacks) beside the tree when a searcher will
search best-first (`accelerator.want_best_first`) and in `termarena prepare`; else its first search does.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from ai.paper_soccer.compiled import (BIG, C_LIMIT, C_NODES, C_STOP, P_NEAR_PER_END, P_NEAR_PLY,
                                      P_NEAR_STATES, P_NEAR_VISITS, P_NET, PLIES, RELIST_STATES, WIN,
                                      WIN_BOUND, _past, apply_steps, gen_ends, gen_turns, leaf, net_push,
                                      net_root, undo_steps)

C_BF_NODES = 3  # the counters: compiled's (nodes valued, node limit, stopped), then the tree's nodes in use

# a best-first tree's node fields (rows of `ni`): its parent, first child, child count, the turn that leads to it
# (end point, edge key, where its steps start in the step buffer, how many), whether its value is proven,
# its visits, whether its children are every turn its mover has (the cheap generator's list may not be)
B_PARENT, B_FIRST, B_COUNT, B_END, B_KEY, B_OFF, B_LEN, B_SOLVED, B_VISITS, B_COMPLETE = range(10)
B_FIELDS = 10
BF_NODES = 1 << 18  # a best-first tree's nodes at most (CodinGame's turn values about 100,000)
BF_STEPS = 8 * BF_NODES  # and steps


@njit(cache=True)
def _bf_pick(ni, nv, x, explore):
    """The child of x the descent follows: the unsolved one best for x's mover (its value negated), plus
    `explore` times sqrt(ln(visits of x) / (1 + visits of the child)); -1 when every child is solved."""
    first = ni[B_FIRST, x]
    best = -1
    best_v = -np.inf
    lnv = np.log(ni[B_VISITS, x] + 1.0)
    for c in range(first, first + ni[B_COUNT, x]):
        if ni[B_SOLVED, c]:
            continue
        v = -float(nv[c])
        if explore > 0.0:
            v += explore * np.sqrt(lnv / (1.0 + ni[B_VISITS, c]))
        if v > best_v:
            best_v = v
            best = c
    return best


@njit(cache=True)
def _bf_value(ni, nv, x):
    """Set x's value and solved flag from its children's; whether either changed.  x is solved by a
    solved child that wins for its mover, or when every child is solved and they are every turn it has
    (a loss found among the cheap generator's turns is not believed: `_bf_open` lists them all first)."""
    first = ni[B_FIRST, x]
    best = -WIN - 1
    solved = ni[B_COMPLETE, x]
    won = 0
    for c in range(first, first + ni[B_COUNT, x]):
        v = -nv[c]
        if v > best:
            best = v
        if not ni[B_SOLVED, c]:
            solved = 0
        elif v >= WIN_BOUND:
            won = 1
    if won:
        solved = 1
    elif best <= -WIN_BOUND and not solved:
        # lost on the listed turns only: not a proof (so a value beyond WIN_BOUND is always one), yet the
        # worst unproven value, so that the line is looked at again, every turn listed (`best_first`)
        best = -WIN_BOUND + 1
    if nv[x] == best and ni[B_SOLVED, x] == solved:
        return False
    nv[x] = best
    ni[B_SOLVED, x] = solved
    return True


@njit(cache=True)
def _bf_back(ni, nv, x):
    """x's value and solved flag from its children (`_bf_value`), then its ancestors', while they change."""
    while x >= 0 and _bf_value(ni, nv, x):
        x = ni[B_PARENT, x]


@njit(cache=True)
def _bf_children(pm, stm, ply, f0, x, n, ends, keys, offs, lens, buf, ni, nv, steps, used, prm, ev, ft, nn, ns,
                 ctr):
    """Node x (its position on the board, `stm` to move, at `ply`) gets the n turns listed as its children,
    each valued by the leaf (solved when its mover scores at once).  Returns the step buffer's use after,
    or -1 when the tree is full."""
    top = ctr[C_BF_NODES]
    if top + n > ni.shape[1] or used + lens[:n].sum() > steps.shape[0]:
        return -1
    ni[B_FIRST, x] = top
    ni[B_COUNT, x] = n
    nstm = 1 - stm
    for j in range(n):
        c = top + j
        ln = lens[j]
        steps[used:used + ln] = buf[offs[j]:offs[j] + ln]
        ni[B_PARENT, c] = x
        ni[B_FIRST, c] = 0
        ni[B_COUNT, c] = 0
        ni[B_END, c] = ends[j]
        ni[B_KEY, c] = keys[j]
        ni[B_OFF, c] = used
        ni[B_LEN, c] = ln
        ni[B_VISITS, c] = 0
        ni[B_COMPLETE, c] = 0
        used += ln
        apply_steps(pm, steps, ni[B_OFF, c], ln)
        if prm[P_NET]:
            net_push(ns, ply, steps, ni[B_OFF, c], ln)
        v = leaf(pm, ends[j], nstm, f0 - ft[ends[j]], ply + 1, prm, ev, nn, ns)
        undo_steps(pm, steps, ni[B_OFF, c], ln)
        nv[c] = v
        ni[B_SOLVED, c] = 1 if v >= WIN_BOUND else 0
    ctr[C_BF_NODES] = top + n
    ctr[C_NODES] += n
    return used


@njit(cache=True)
def _bf_expand(pm, ball, stm, ply, f0, x, full, ni, nv, steps, used, prm, ev, ft, nn, ns, ctr):
    """Node x's children (`_bf_children`): the tree's cheap generator's turns (as `negamax` has them below
    its first plies), or with `full` every turn (`gen_turns`' as `negamax` looks again, and at least as
    many states as a `wide` listing); x solved when
    its mover can score, or has no turn that does not lose.  Returns the step buffer's use, -1 when full."""
    if not full:
        if ply <= prm[P_NEAR_PLY]:
            win, complete, n, ends, keys, offs, lens, buf = gen_turns(
                pm, ball, stm, prm[P_NEAR_STATES], prm[P_NEAR_PER_END], prm[P_NEAR_VISITS])
        else:
            win, complete, n, ends, keys, offs, lens, buf = gen_ends(pm, ball, stm)
        if n > 0:
            # one turn an end point: another way to one of them draws other edges, and may be the one that
            # does not lose (the best-first line goes deep, where a loss believed on this list is often false)
            complete = False
        full = not win and n == 0 and not complete
    if full:
        # never fewer states than a `wide` node's first listing had: the relisting is what a loss is believed on
        states = max(RELIST_STATES, prm[P_NEAR_STATES])
        win, complete, n, ends, keys, offs, lens, buf = gen_turns(pm, ball, stm, states, BIG, BIG)
        complete = True
    ni[B_COMPLETE, x] = 1 if complete else 0
    if win:
        nv[x] = WIN - ply
        ni[B_SOLVED, x] = 1
        ni[B_COUNT, x] = 0
        return used
    if n == 0:
        nv[x] = -WIN + ply + 1
        ni[B_SOLVED, x] = 1
        ni[B_COUNT, x] = 0
        return used
    return _bf_children(pm, stm, ply, f0, x, n, ends, keys, offs, lens, buf, ni, nv, steps, used, prm, ev, ft,
                        nn, ns, ctr)


@njit(cache=True)
def _bf_open(pm, ball, stm, ply, f0, x, full, two_ply, ni, nv, steps, used, prm, ev, ft, nn, ns, ctr, deadline):
    """Expand x (`_bf_expand`) and, with `two_ply`, its children too, then back the values up from x.
    Two plies an expansion keep every leaf's mover the root's opponent, so that leaves are compared with
    leaves of one parity: a position's value moves by about its mover's share (58 units in value:selfplay's
    bias alone), and one ply at a time the descent swings between a line just opened and the others.
    The deadline is read between the children (near the root, two plies can be thousands of leaves)."""
    used = _bf_expand(pm, ball, stm, ply, f0, x, full, ni, nv, steps, used, prm, ev, ft, nn, ns, ctr)
    if used >= 0 and two_ply:
        first = ni[B_FIRST, x]
        for c in range(first, first + ni[B_COUNT, x]):
            if ni[B_SOLVED, c]:
                continue
            if _past(deadline):
                ctr[C_STOP] = 1
                break
            apply_steps(pm, steps, ni[B_OFF, c], ni[B_LEN, c])
            if prm[P_NET]:
                net_push(ns, ply, steps, ni[B_OFF, c], ni[B_LEN, c])
            e = ni[B_END, c]
            used = _bf_expand(pm, e, 1 - stm, ply + 1, f0 - ft[e], c, np.bool_(False), ni, nv, steps, used, prm,
                              ev, ft, nn, ns, ctr)
            undo_steps(pm, steps, ni[B_OFF, c], ni[B_LEN, c])
            if used < 0:
                break
            if ni[B_COUNT, c] > 0:
                _bf_value(ni, nv, c)
    if used >= 0:
        _bf_back(ni, nv, x if ni[B_COUNT, x] > 0 else ni[B_PARENT, x])
    return used


@njit(cache=True)
def bf_root(pm, stm, f0, ends, keys, offs, lens, buf, ni, nv, steps, prm, ev, ft, nn, ns, ctr):
    """A new best-first tree: node 0 the root, its children the root turns given.  Returns the step
    buffer's use, or -1 when they do not fit."""
    ctr[C_BF_NODES] = 1
    ni[B_PARENT, 0] = -1
    ni[B_SOLVED, 0] = 0
    ni[B_VISITS, 0] = 0
    ni[B_COMPLETE, 0] = 1
    nv[0] = -WIN - 1
    root = np.int64(0)  # not a literal 0: see compiled.py's doc
    used = _bf_children(pm, stm, root, f0, root, ends.shape[0], ends, keys, offs, lens, buf, ni, nv, steps, root,
                        prm, ev, ft, nn, ns, ctr)
    if used >= 0:
        _bf_back(ni, nv, root)
    return used


@njit(cache=True)
def best_first(pm, ball, stm, f0, ni, nv, steps, used, prm, ev, ft, nn, ns, ctr, deadline, explore, two_ply):
    """Best-first minimax below a root whose children are in the tree (`bf_root`): from the root, follow
    the best unsolved child (`_bf_pick`) to a node without children and open it (`_bf_open`); a node
    whose listed children are all solved without a win gets every turn instead.  Until the root is
    solved, the node limit or the deadline, or the tree is full (ctr[C_STOP] 1 for the last three).
    Values are from each node's mover's side, as `negamax`'s."""
    path = np.empty(PLIES, np.int64)
    while not ni[B_SOLVED, 0]:
        if ctr[C_NODES] >= ctr[C_LIMIT] or _past(deadline):
            ctr[C_STOP] = 1
            return used
        x = np.int64(0)
        s = stm
        b = ball
        f = f0
        depth = np.int64(0)
        full = False
        while True:
            ni[B_VISITS, x] += 1
            if ni[B_COUNT, x] == 0:
                break
            c = _bf_pick(ni, nv, x, explore)
            if c < 0:
                full = True  # unsolved with every child solved: its list was the cheap one
                break
            apply_steps(pm, steps, ni[B_OFF, c], ni[B_LEN, c])
            if prm[P_NET]:
                net_push(ns, depth, steps, ni[B_OFF, c], ni[B_LEN, c])
            path[depth] = c
            depth += 1
            x = c
            b = ni[B_END, c]
            f = f - ft[b]
            s = 1 - s
        if x == 0:
            ni[B_SOLVED, 0] = 1  # every root turn solved: they are all the root has (the safe ones given)
        elif depth >= PLIES - 3:
            ni[B_SOLVED, x] = 1  # as deep as a path goes: its value taken as it is
            _bf_back(ni, nv, ni[B_PARENT, x])
        else:
            used2 = _bf_open(pm, b, s, depth, f, x, full, two_ply and not full, ni, nv, steps, used, prm, ev, ft,
                             nn, ns, ctr, deadline)
            if used2 < 0:
                ctr[C_STOP] = 1
            else:
                used = used2
        for k in range(depth - 1, -1, -1):
            c = path[k]
            undo_steps(pm, steps, ni[B_OFF, c], ni[B_LEN, c])
        if ctr[C_STOP]:
            return used
    return used


class Tree:
    """A searcher's best-first tree: its nodes' arrays (made once, reused by each search) and counters, beside
    the compiled tree (`compiled.Tree`) whose options, evaluation and net it searches with."""

    def __init__(self, compiled_tree, wide: int = 0) -> None:
        self.base = compiled_tree
        # its own copy of the options: with `wide`, every node lists its turns as the root's first replies
        # are listed, every way to each end point up to `wide` states (QtPaperSoccer's breadth), while the
        # compiled alpha-beta (the shut check's) keeps its generators
        self.params = compiled_tree.params.copy()
        if wide:
            self.params[P_NEAR_PLY] = BIG
            self.params[P_NEAR_STATES] = wide
            self.params[P_NEAR_PER_END] = BIG
            self.params[P_NEAR_VISITS] = BIG
        self.ni = np.zeros((B_FIELDS, BF_NODES), np.int64)
        self.nv = np.zeros(BF_NODES, np.int64)
        self.steps = np.zeros(BF_STEPS, np.int64)
        self.counters = np.zeros(4, np.int64)

    def search(self, pm, ball, stm, f0, turns, node_limit, deadline, explore,
               two_ply) -> tuple[list[int], int, int]:
        """`best_first` below the root turns `turns` ((end, edge key, steps) each): (their values from the
        root mover's side, the nodes valued, the depth of the tree's best line)."""
        base, ni, nv, ctr = self.base, self.ni, self.nv, self.counters
        ctr[C_NODES], ctr[C_LIMIT], ctr[C_STOP] = 0, node_limit, 0
        arr = np.array(pm, np.int64)
        if base.params[P_NET]:
            net_root(arr, base.nn, base.ns, 0)
        lens = np.array([len(t[2]) for t in turns], np.int64)
        offs = np.zeros(len(turns), np.int64)
        offs[1:] = np.cumsum(lens)[:-1]
        buf = np.array([s for t in turns for s in t[2]], np.int64)
        ends = np.array([t[0] for t in turns], np.int64)
        keys = np.array([t[1] for t in turns], np.int64)
        used = bf_root(arr, stm, f0, ends, keys, offs, lens, buf, ni, nv, self.steps, self.params, base.ev, base.ft,
                       base.nn, base.ns, ctr)
        if used < 0:
            raise ValueError("too many root turns for the best-first tree")
        best_first(arr, ball, stm, f0, ni, nv, self.steps, used, self.params, base.ev, base.ft, base.nn, base.ns, ctr,
                   -1.0 if deadline is None else deadline, explore, two_ply)
        depth, x = 0, 0
        while ni[B_COUNT, x]:
            first, n = ni[B_FIRST, x], ni[B_COUNT, x]
            x = first + int(np.argmax(-nv[first:first + n]))
            depth += 1
        return [-int(nv[1 + i]) for i in range(len(turns))], int(ctr[C_NODES]), depth

    def visits(self, n: int) -> list[int]:
        """How often the last search went down each of its n root turns."""
        return [int(v) for v in self.ni[B_VISITS, 1:1 + n]]


def functions() -> list:
    """This module's own compiled functions (numba dispatchers; `accelerator.progress` counts them)."""
    from numba.core.dispatcher import Dispatcher

    return [f for f in globals().values() if isinstance(f, Dispatcher) and f.py_func.__module__ == __name__]


def warm_up() -> None:
    """Load (or compile) every function with the argument types a search passes (`Searcher._best_first`):
    a search of a few nodes from the start on a tree of zeros (no searcher: the loading imports this
    module, and the searcher imports the loading)."""
    from types import SimpleNamespace

    from ai.paper_soccer import board as B
    from ai.paper_soccer.compiled import N, N_PARAMS, net_arrays
    from engines.paper_soccer import PaperSoccer

    pm, ball, stm, _turn, _h = B.from_game(PaperSoccer.new())
    nn, ns = net_arrays(None)
    base = SimpleNamespace(params=np.zeros(N_PARAMS, np.int64), ev=np.zeros((7, N), np.int64),
                           ft=np.zeros(N, np.int64), nn=nn, ns=ns)
    turns = B.gen_turns(pm, ball, stm, max_states=100).turns
    Tree(base).search(pm, ball, stm, 0, turns, 50, time.monotonic() + 60.0, 0.0, False)
