"""Fits Paper Soccer's learned value (`ai/paper_soccer/value.py`) to game results, and writes value.txt.

    python -m ai.tools.arena paper-soccer level:6,nodes=20000 level:6,nodes=20000 -n 2000 --opening 4 \\
        --games selfplay.txt
    python -m ai.paper_soccer.fit_value selfplay.txt records/ --out ai/paper_soccer/value.txt

Inputs: files of the arena's `--games` lines, and termarena records (a file, or a folder of them: the
games `termarena match --record` keeps).  Every position of a decided game at the start of a turn whose
mover cannot score at once (those are won, the search never evaluates them) is a sample, labelled 1
when its mover went on to win.  The model is a logistic regression over `value.features`, fitted by
Newton's method with an L2 penalty; a tenth of the games (every tenth) is held out to report its log
loss and accuracy beside the hand-set evaluation's (scaled by its own one-parameter fit).  The weights
are written as integers in hundredths of a logit (UNITS), about the hand evaluation's spread (10 a
danger point, 6 a row), so that the search's tie noise and the scores it shows keep their meaning.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from ai.paper_soccer.board import STEPS, can_score, flood, from_game, touched_of
from ai.paper_soccer.search import Weights, hand_tables
from ai.paper_soccer.value import BLOCKS, CELL, N_FEATURES, OFFSET, features, format_weights
from ai.tournament.outputs import read_games_file, read_games_line
from engines.base import EngineError
from engines.paper_soccer import PaperSoccer
from engines.savefile import parse

UNITS = 100  # weight-file units a logit
SCORE_STATES = 4000  # can_score's budget when a sample is dropped for a goal in one


def read_games(paths: list[str]) -> list[tuple[int, list[str]]]:
    """(winner seat, moves) of every decided game in the files and folders given; a file that is not
    such games (too large, not text, a broken record) is skipped with a line on stderr."""
    games = []
    for name in paths:
        path = Path(name)
        files = sorted(path.iterdir()) if path.is_dir() else [path]
        for f in files:
            try:
                text = read_games_file(f).decode("utf-8")
                if text.startswith("# termarena save"):
                    saved, _final = parse(text, "paper-soccer")
                    if saved.result in ("1-0", "0-1"):
                        games.append((0 if saved.result == "1-0" else 1, saved.moves))
                    continue
            except (OSError, ValueError, EngineError) as e:  # UnicodeDecodeError is a ValueError
                print(f"skipped {f}: {e}", file=sys.stderr)
                continue
            for line in text.splitlines():
                game = read_games_line(line)
                if game is not None and game[0] is not None:  # a decided game
                    games.append(game)
    return games


def sample_states(moves: list[str]):
    """(the game, pitch, ball, mover) at each position of a game whose mover cannot score at once: the
    positions a value is fitted on (the game is the one being replayed: it moves on after each)."""
    game = PaperSoccer.new()
    for move in moves:
        pm, ball, stm, _turn, _h = from_game(game)
        if can_score(pm, ball, stm, SCORE_STATES) is None:
            yield game, pm, ball, stm
        game.play(move)


def sample_positions(moves: list[str]):
    """(pitch, ball, mover, the mover's danger points, the other side's) of each sample position."""
    for _game, pm, ball, stm in sample_states(moves):
        yield (pm, ball, stm, *dangers(pm, stm))


def dangers(pm, stm: int) -> tuple[int, int]:
    """The mover's danger points and the other side's (bits of `board.flood`)."""
    touched = touched_of(pm)
    return flood(pm, stm, touched)[1], flood(pm, 1 - stm, touched)[1]


def samples(winner: int, moves: list[str]):
    """(features, label) of each sample position of one game."""
    for pm, ball, stm, mine, theirs in sample_positions(moves):
        free = len(STEPS[ball]) - pm[ball].bit_count()
        yield features(ball, stm, mine, theirs, free), int(winner == stm)


def sample_rows(games, samples_of=None) -> tuple[list, list[int]]:
    """The (inputs, label) pairs `samples_of(winner, moves)` gives for each of `games`, as two lists; a game
    whose moves do not replay is skipped with a line on stderr."""
    samples_of = samples_of or samples
    rows, labels = [], []
    for winner, moves in games:
        try:
            found = list(samples_of(winner, moves))
        except EngineError as e:  # a line whose moves do not replay
            print(f"skipped a game: {e}", file=sys.stderr)
            continue
        for x, y in found:
            rows.append(x)
            labels.append(y)
    return rows, labels


def matrix(games) -> tuple[np.ndarray, np.ndarray]:
    rows, labels = sample_rows(games)
    a = np.zeros((len(rows), N_FEATURES), np.float32)
    for i, x in enumerate(rows):
        for j, v in x.items():
            a[i, j] = v
    return a, np.array(labels, np.float64)


def fit(a: np.ndarray, y: np.ndarray, l2: float, iterations: int = 25, bias: int = OFFSET["bias"]) -> np.ndarray:
    """Logistic regression weights (Newton's method, L2 penalty on all but the bias column)."""
    w = np.zeros(a.shape[1])
    pen = np.full(a.shape[1], l2)
    pen[bias] = 0.0
    a64 = a.astype(np.float64)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(a64 @ w)))
        grad = a64.T @ (p - y) + pen * w
        hess = (a64 * (p * (1 - p))[:, None]).T @ a64 + np.diag(pen + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def loss(logit: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(mean log loss, accuracy)."""
    p = np.clip(1.0 / (1.0 + np.exp(-logit)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p > 0.5) == (y > 0.5)))


def hand_values(a: np.ndarray) -> np.ndarray:
    """The hand-set evaluation (level 5's weights, `search.Weights()`) of each sample, from its features."""
    t = hand_tables(Weights())
    w = np.zeros(N_FEATURES)
    for name in ("ball", "mine", "theirs"):  # symmetric tables: seat 0's value of a point is its cell's
        for p in range(99):
            w[OFFSET[name] + CELL[0][p]] = getattr(t, name)[0][p]
    for name in ("mine_n", "theirs_n", "free"):
        w[OFFSET[name]:OFFSET[name] + len(getattr(t, name))] = getattr(t, name)
    w[OFFSET["bias"]] = t.bias
    return a.astype(np.float64) @ w


def scale_of(v: np.ndarray, y: np.ndarray) -> float:
    """The one-parameter logistic fit logit = s * v."""
    s = 0.01
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-s * v))
        g = float(np.sum((p - y) * v))
        h = float(np.sum(p * (1 - p) * v * v)) + 1e-9
        s -= g / h
    return s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.paper_soccer.fit_value", description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+", help="arena --games files, records, folders of records")
    ap.add_argument("--out", help="where to write the weights (default: only report the fit)")
    ap.add_argument("--l2", type=float, default=10.0, help="the L2 penalty")
    ap.add_argument("--test", nargs="+", default=[], metavar="FILE",
                    help="also report the log loss on these games (e.g. strong players', none of them fitted)")
    args = ap.parse_args(argv)
    games = read_games(args.inputs)
    if not games:
        print("no decided Paper Soccer games in the inputs", file=sys.stderr)
        return 1
    train = [g for i, g in enumerate(games) if i % 10]
    held = [g for i, g in enumerate(games) if i % 10 == 0]
    a, y = matrix(train)
    ha, hy = matrix(held)
    print(f"{len(games)} games: {len(y)} training samples, {len(hy)} held out", flush=True)
    if not len(y):
        print("no positions to fit: no game replays", file=sys.stderr)
        return 1
    w = fit(a, y, args.l2)
    s = scale_of(hand_values(a), y)
    tests = [("held out", ha, hy)]
    if args.test:
        ta, ty = matrix(read_games(args.test))
        tests.append((f"--test ({len(ty)} positions)", ta, ty))
    for name, ta, ty in tests:
        for label, logit in (("learned", ta.astype(np.float64) @ w), ("hand-set", s * hand_values(ta)),
                             ("no model", np.zeros(len(ty)))):
            if len(ty):
                ll, acc = loss(logit, ty)
                print(f"{name}, {label:8s}: log loss {ll:.4f}, accuracy {100 * acc:.1f}%")
    if args.out:
        ints = np.rint(w * UNITS).astype(int).tolist()
        blocks = {name: ints[OFFSET[name]:OFFSET[name] + size] for name, size in BLOCKS}
        header = (f"Paper Soccer's learned value (ai/paper_soccer/fit_value.py), in hundredths of a logit;\n"
                  f"fitted on {len(y)} positions of {len(train)} games, l2 {args.l2}")
        Path(args.out).write_text(format_weights(blocks, header), encoding="ascii")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
