"""Fits Paper Soccer's small neural value (`net.py`) to game results, and writes its weight file.

    python -m ai.paper_soccer.selfplay --games 2000 --out selfplay.txt
    python -m ai.paper_soccer.fit_net selfplay.txt --hidden 32 --epochs 30 --out net.txt [--init OLD] [--distances]
    python -m ai.paper_soccer.fit_net selfplay.txt --hidden 32 --hidden2 16 --out net2.txt   # two hidden layers

The samples are fit_value's (every position of a decided game at the start of a turn whose mover cannot
score at once, labelled 1 when its mover went on to win), each also turned left to right (the same
position for the value).  The net is fitted in floats (numpy, Adam, minibatches, an L2 penalty on the
weights) with its hidden layers clipped to 0..1 as the integer net clips them, then quantised (`net.ONE`).
A second hidden layer (`--hidden2 M`) starts at random; from a one-layer `--init` net, its first layer is
that net's, and with M at least that net's width the new layer first passes it on (`FloatNet._extend`):
the fit starts from the net's own values.
A tenth of the games is held out (every tenth) and another tenth validates (the fifth of every ten):
the net kept is the epoch's with the least validation loss (positions of one game share their label,
so a net soon learns the games by heart: on 1,600 games the held-out loss rose from 0.664 after one
epoch to 0.880 after twelve at l2 1e-5); the held-out log loss is reported at the end for the quantised
net (what the search reads, computed here exactly as `net.Net.value` does) beside a coin's.
"""
from __future__ import annotations

import argparse
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ai.paper_soccer import net as NN
from ai.paper_soccer.board import from_game
from ai.paper_soccer.fit_value import dangers, loss, read_games, sample_rows, sample_states
from ai.paper_soccer.search_targets import mixed


def samples(winner: int, moves: list[str], distances: bool = False, labels=(), share: float = 0.0):
    """(inputs that are on, target) of each sample position of one game: 1 when its mover won, else 0,
    moved by `share` toward its search value where `labels` has one (`search_targets.Label`); with a
    share, each turn a label gives is a sample too: the position after it, its search value as target."""
    for i, (game, pm, ball, stm) in enumerate(sample_states(moves)):
        label = labels[i] if i < len(labels) else None
        yield (NN.inputs(pm, ball, stm, *dangers(pm, stm), distances),
               mixed(int(winner == stm), label and label.value, share))
        for turn, p in (label.turns if label is not None and share else ()):
            game.play(turn)  # the referee's check: a turn not legal here is an EngineError, the game skipped
            if not game.is_over():
                after, ball2, stm2, _t, _h = from_game(game)
                yield NN.inputs(after, ball2, stm2, *dangers(after, stm2), distances), p if stm2 == stm else 1.0 - p
            game.pop()


class Rows:
    """Samples' inputs compressed by row (the inputs that are on, row after row): with tree targets a
    generation is millions of positions, which as a 0/1 matrix of 1,663 columns would not fit in memory.
    `rows[indices]` is those rows as a float matrix (a fit's minibatch); `dense` all of them."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.on = array("h")
        self.ends = array("q")
        self._arrays = None

    def add(self, on: list[int]) -> None:
        self.on.extend(on)
        self.ends.append(len(self.on))
        self._arrays = None

    def __len__(self) -> int:
        return len(self.ends)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self), self.width

    def __getitem__(self, sel) -> np.ndarray:
        return self.dense(sel)

    def dense(self, sel=None, dtype=np.float32) -> np.ndarray:
        """The rows `sel` (all by default) as a 0/1 matrix of `dtype`."""
        if sel is None:
            sel = np.arange(len(self))
        if self._arrays is None:
            ends = np.frombuffer(self.ends, np.int64) if len(self.ends) else np.zeros(0, np.int64)
            self._arrays = (np.frombuffer(self.on, np.int16) if len(self.on) else np.zeros(0, np.int16),
                            np.concatenate(([0], ends[:-1])), ends)
        on, starts, ends = self._arrays
        sel = np.asarray(sel, np.int64)
        lens = ends[sel] - starts[sel]
        rows = np.repeat(np.arange(len(sel)), lens)
        # each selected row's positions in `on`: its start, then one more for each of its inputs
        at = np.repeat(starts[sel] - np.concatenate(([0], np.cumsum(lens)[:-1])), lens) + np.arange(lens.sum())
        x = np.zeros((len(sel), self.width), dtype)
        x[rows, on[at]] = 1
        return x


def table(games, flips: bool = True, distances: bool = False, labels=None,
          share: float = 0.0) -> tuple[Rows, np.ndarray]:
    """The samples of `games` (one row a position, and its left-right turn with `flips`; with
    `distances`, the inputs of a net that reads the turn distances) and their targets (with `labels`, a
    game's moves -> its search labels, moved toward them by `share`)."""
    rows = Rows(NN.N_INPUTS_DIST if distances else NN.N_INPUTS)
    labels_of = labels or {}
    targets = array("d")

    def of(w, m):
        return samples(w, m, distances, labels_of.get(tuple(m), ()), share)

    for game in games:
        for on, y in zip(*sample_rows([game], of)):  # a game at a time: a window's rows never as lists
            for variant in ((on, NN.flip_inputs(on)) if flips else (on,)):
                rows.add(variant)
                targets.append(y)
    return rows, np.array(targets, np.float64)


def matrix(games, flips: bool = True, distances: bool = False, labels=None,
           share: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """`table`'s samples as a 0/1 matrix, a row a sample."""
    rows, y = table(games, flips, distances, labels, share)
    return rows.dense(dtype=np.uint8), y  # a quarter of the float matrix


def values(net: NN.Net, x: np.ndarray) -> np.ndarray:
    """`net.Net.value` of each row of `x`, in integers exactly as the search computes it."""
    w1 = np.array(net.w1, np.int64)
    h = x.astype(np.int64) @ w1 + np.array(net.b1, np.int64)
    h = np.clip(h, 0, NN.ONE)
    if net.hidden2:
        h = h @ np.array(net.h2w, np.int64) + np.array(net.h2b, np.int64)
        h = np.clip((h + NN.ONE // 2) // NN.ONE, 0, NN.ONE)
    out = h @ np.array(net.w2, np.int64) + net.b2
    return out * NN.UNITS // (NN.ONE * NN.ONE)


class FloatNet:
    """The net in floats while it is fitted: w1, b1, with a second hidden layer h2w, h2b (`hidden2`; else
    they are empty), then w2, b2; each hidden layer clipped to 0..1."""

    def __init__(self, hidden: int, rng: np.random.Generator, init: NN.Net | None = None,
                 n_inputs: int = NN.N_INPUTS, hidden2: int = 0) -> None:
        if init is not None:
            self.w1 = np.array(init.w1, np.float64) / NN.ONE
            self.b1 = np.array(init.b1, np.float64) / NN.ONE
            hidden = init.hidden
        else:
            self.w1 = rng.normal(0.0, 0.1, (n_inputs, hidden))
            self.b1 = np.full(hidden, 0.5)
        if init is not None and init.hidden2:
            self.h2w = np.array(init.h2w, np.float64) / NN.ONE
            self.h2b = np.array(init.h2b, np.float64) / (NN.ONE * NN.ONE)
        else:  # a second layer new to the net: its units start in their linear part, as the first layer's
            self.h2w = rng.normal(0.0, 0.1, (hidden, hidden2))
            self.h2b = np.full(hidden2, 0.5)
        if init is not None and init.hidden2 == hidden2:
            self.w2 = np.array(init.w2, np.float64) / NN.ONE
            self.b2 = np.array([init.b2 / (NN.ONE * NN.ONE)])
        else:
            self.w2 = rng.normal(0.0, 0.1, hidden2 or hidden)
            self.b2 = np.zeros(1)
        if init is not None and not init.hidden2 and hidden2 >= hidden:
            self._extend(init)

    def _extend(self, init: NN.Net) -> None:
        """A second layer on a one-layer net that values as it did: unit k < hidden passes the first
        layer's unit k on at half its value plus a quarter (inside its linear part, where it learns), its
        output weight doubled and the output's bias less what the quarters add; the units beyond add nothing
        (output weight 0) until they learn."""
        n = init.hidden
        w2 = np.array(init.w2, np.float64) / NN.ONE
        self.h2w[:, :n] = 0.5 * np.eye(n)
        self.h2b[:n] = 0.25
        self.w2[:] = 0.0
        self.w2[:n] = 2.0 * w2
        self.b2 = np.array([init.b2 / (NN.ONE * NN.ONE) - 0.5 * w2.sum()])

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.h2w, self.h2b, self.w2, self.b2]

    def set_params(self, params: list[np.ndarray]) -> None:
        self.w1, self.b1, self.h2w, self.h2b, self.w2, self.b2 = params

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.clip(x @ self.w1 + self.b1, 0.0, 1.0)
        if self.h2b.size:
            h = np.clip(h @ self.h2w + self.h2b, 0.0, 1.0)
        return h @ self.w2 + self.b2[0]

    def grads(self, x: np.ndarray, y: np.ndarray, l2: float) -> list[np.ndarray]:
        pre = x @ self.w1 + self.b1
        h = np.clip(pre, 0.0, 1.0)
        last = h
        if self.h2b.size:
            pre2 = h @ self.h2w + self.h2b
            last = np.clip(pre2, 0.0, 1.0)
        z = last @ self.w2 + self.b2[0]
        dz = (1.0 / (1.0 + np.exp(-z)) - y) / len(y)  # the mean log loss's gradient at the logit
        dlast = np.outer(dz, self.w2)
        if self.h2b.size:
            d2 = dlast * ((pre2 > 0.0) & (pre2 < 1.0))
            g2 = [h.T @ d2 + l2 * self.h2w, d2.sum(0)]
            dh = (d2 @ self.h2w.T) * ((pre > 0.0) & (pre < 1.0))
        else:
            g2 = [np.zeros_like(self.h2w), np.zeros_like(self.h2b)]
            dh = dlast * ((pre > 0.0) & (pre < 1.0))
        return [x.T @ dh + l2 * self.w1, dh.sum(0), *g2, last.T @ dz + l2 * self.w2, np.array([dz.sum()])]

    def quantised(self) -> NN.Net:
        def ints(a, scale, bound=None):
            q = np.rint(a * scale).astype(np.int64)
            return np.clip(q, -bound, bound) if bound is not None else q
        return NN.Net(ints(self.w1, NN.ONE, NN.MAX_WEIGHT).tolist(), ints(self.b1, NN.ONE, NN.MAX_WEIGHT).tolist(),
                      ints(self.w2, NN.ONE).tolist(), int(np.rint(self.b2[0] * NN.ONE * NN.ONE)),
                      self.w1.shape[0] == NN.N_INPUTS_DIST,
                      ints(self.h2w, NN.ONE, NN.MAX_WEIGHT).tolist() if self.h2b.size else [],
                      ints(self.h2b, NN.ONE * NN.ONE, NN.MAX_BIAS2).tolist())


def fit(x: np.ndarray, y: np.ndarray, *, hidden: int = 32, epochs: int = 20, batch: int = 256, rate: float = 1e-3,
        l2: float = 1e-3, seed: int = 0, init: NN.Net | None = None, held: tuple[np.ndarray, np.ndarray] | None = None,
        report=None, hidden2: int | None = None) -> FloatNet:
    """Adam on the mean log loss plus l2 / 2 times the squared weights; with `held` (validation samples)
    the epoch with the least loss on them is kept, and `report(epoch, that loss)` hears each.  `hidden2`:
    the second hidden layer's units (0: none; None: the `init` net's, else none)."""
    rng = np.random.default_rng(seed)
    if init is not None and init.n_inputs != x.shape[1]:
        raise ValueError(f"the net to start from reads {init.n_inputs} inputs, the samples have {x.shape[1]}")
    if hidden2 is None:
        hidden2 = init.hidden2 if init is not None else 0
    if init is not None and init.hidden2 and hidden2 != init.hidden2:
        raise ValueError(f"the net to start from has a second hidden layer of {init.hidden2} units, not {hidden2}")
    model = FloatNet(hidden, rng, init, x.shape[1], hidden2)
    m = [np.zeros_like(p) for p in model.params()]
    v = [np.zeros_like(p) for p in model.params()]
    b1, b2, eps, t = 0.9, 0.999, 1e-8, 0
    xf = x if isinstance(x, Rows) else x.astype(np.float32)
    hx = None
    if held is not None and len(held[1]):
        hx = held[0] if isinstance(held[0], Rows) else held[0].astype(np.float32)
    best, kept = float("inf"), None
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        for at in range(0, len(y), batch):
            idx = order[at:at + batch]
            t += 1
            for p, g, mi, vi in zip(model.params(), model.grads(xf[idx], y[idx], l2), m, v):
                mi *= b1
                mi += (1 - b1) * g
                vi *= b2
                vi += (1 - b2) * g * g
                p -= rate * (mi / (1 - b1 ** t)) / (np.sqrt(vi / (1 - b2 ** t)) + eps)
        if hx is not None:
            ll = loss(_logits(model, hx), held[1])[0]
            if ll < best:
                best, kept = ll, [p.copy() for p in model.params()]
            if report is not None:
                report(epoch + 1, ll)
    if kept is not None:
        model.set_params(kept)
    return model


def _logits(model: FloatNet, x) -> np.ndarray:
    """The model's logits of every row of `x`, packed rows a chunk at a time."""
    if not isinstance(x, Rows):
        return model.logits(x)
    return np.concatenate([model.logits(x[np.arange(at, min(at + 4096, len(x)))]) for at in range(0, len(x), 4096)])


@dataclass(frozen=True)
class Fitted:
    net: NN.Net  # quantised: what the search reads
    games: int  # fitted on (the validating and held-out tenths apart)
    positions: int  # training samples, with their left-right turns
    held: tuple[np.ndarray, np.ndarray]  # the held-out tenth's samples, for the loss to report


def fit_games(games: list, *, distances: bool, announce=None, labels=None, share: float = 0.0,
              validate_on_targets: bool = False, **settings) -> Fitted:
    """A net fitted on `games` (`fit`'s settings): every tenth game held out, the fifth of every ten
    validating (the epoch kept), the rest fitted, their targets moved by `share` toward their search
    `labels` (`table`).  The held-out games keep their results (the loss reported stays comparable
    between fits); the validating ones too, unless `validate_on_targets`: then the epoch kept is the
    one that best predicts what is fitted (tree targets: the search's values of a position's turns,
    which a game's one result does not rank).  `announce` hears the samples' counts before the fit.
    ValueError when no position is left to fit."""
    train = [g for i, g in enumerate(games) if i % 10 not in (0, 5)]
    x, y = table(train, distances=distances, labels=labels, share=share)
    validating = [g for i, g in enumerate(games) if i % 10 == 5]
    if validate_on_targets:
        vx, vy = table(validating, flips=False, distances=distances, labels=labels, share=share)
    else:
        vx, vy = matrix(validating, flips=False, distances=distances)
    hx, hy = matrix([g for i, g in enumerate(games) if i % 10 == 0], flips=False, distances=distances)
    if announce is not None:
        announce(f"{len(y)} training samples (with their left-right turns), {len(vy)} validating, {len(hy)} held out")
    if not len(y):
        raise ValueError("no positions to fit: no decided game replays")
    model = fit(x, y, held=(vx, vy), **settings)
    return Fitted(model.quantised(), len(train), len(y), (hx, hy))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.paper_soccer.fit_net", description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+", help="arena --games files, records, folders of records")
    ap.add_argument("--out", help="where to write the weights (default: only report the fit)")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--hidden2", type=int, default=None, metavar="M",
                    help="a second hidden layer of M units (0: none; default: the --init net's, else none)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--rate", type=float, default=1e-3, help="Adam's step size")
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", metavar="FILE", help="start from this net (an earlier generation)")
    ap.add_argument("--distances", action="store_true",
                    help="a net that also reads each point's turn distance from the ball (as QtPaperSoccer's)")
    ap.add_argument("--test", nargs="+", default=[], metavar="FILE",
                    help="also report the log loss on these games (e.g. strong players', none of them fitted)")
    args = ap.parse_args(argv)
    if not 1 <= args.hidden <= NN.MAX_HIDDEN or args.epochs < 1:
        ap.error(f"--hidden must be 1..{NN.MAX_HIDDEN} and --epochs at least 1")
    if args.hidden2 is not None and not 0 <= args.hidden2 <= NN.MAX_HIDDEN:
        ap.error(f"--hidden2 must be 0..{NN.MAX_HIDDEN}")
    try:
        init = NN.load_net(args.init) if args.init else None
    except (OSError, ValueError) as e:  # UnicodeDecodeError is a ValueError
        ap.error(f"--init {args.init}: {e}")
    dist = init.distances if init is not None else args.distances  # a generation reads what the one before read
    games = read_games(args.inputs)
    try:
        fitted = fit_games(games, distances=dist, hidden=args.hidden, hidden2=args.hidden2, epochs=args.epochs,
                           rate=args.rate, l2=args.l2, seed=args.seed, init=init,
                           announce=lambda line: print(f"{len(games)} games: {line}", flush=True),
                           report=lambda e, ll: print(f"epoch {e}: validation log loss {ll:.4f}", flush=True))
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    net, (hx, hy) = fitted.net, fitted.held
    tests = [("held out", hx, hy)]
    if args.test:
        tx, ty = matrix(read_games(args.test), flips=False, distances=dist)
        tests.append((f"--test ({len(ty)} positions)", tx, ty))
    for name, tx, ty in tests:
        if not len(ty):
            continue
        # the net started from is scored on the same games: the new generation's gain on games neither
        # saw (when those games are new to it)
        scored = [("net (integers)", values(net, tx) / NN.UNITS), ("no model", np.zeros(len(ty)))]
        if init is not None:
            scored.insert(1, ("the --init net", values(init, tx) / NN.UNITS))
        for label, logit in scored:
            ll, acc = loss(logit, ty)
            print(f"{name}, {label:14s}: log loss {ll:.4f}, accuracy {100 * acc:.1f}%")
    if args.out:
        header = (f"Paper Soccer's small neural value (ai/paper_soccer/fit_net.py): {net.hidden} hidden units"
                  f"{f', then {net.hidden2}' if net.hidden2 else ''}"
                  f"{', turn distances read' if net.distances else ''};\n"
                  f"fitted on {fitted.positions} positions of {fitted.games} games, {args.epochs} epochs, l2 {args.l2}")
        Path(args.out).write_text(NN.format_net(net, header), encoding="ascii")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
