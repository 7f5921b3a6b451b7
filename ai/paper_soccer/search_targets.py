"""Targets from a search for Paper Soccer's learned value (`termarena train --search-target SHARE`).

A net fitted to game results learns what a position's result was, one noisy bit a game: every fit of
issue 28's loops predicted results better and played no better (README, "Training runs").  Here every
`every`-th sample position of a game is also valued by a search (the champion's, as the gate plays it),
and its target becomes `share * p + (1 - share) * result`, p the search's value as a probability
(`net.UNITS` a logit; a proven result is 0 or 1): the value learns what a deeper look at the position
says, as AlphaZero-style loops learn from their search.

The labels of one generation's games are a text file, a line a game: the labels of its sample positions
(`fit_value.sample_states`, in order; `-` where none) separated by spaces, a tab, then the game as its
games line (the winner's seat, the moves), which keys it.  Labelling runs on a runner as the games do
(forked processes, or a cluster's).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ai.paper_soccer.net import UNITS
from ai.paper_soccer.search import WIN_BOUND
from ai.tournament.outputs import read_games_line
from ai.tournament.runners import Runner, in_processes
from engines.base import EngineError

GAME = "paper-soccer"
NONE = "-"


@dataclass(frozen=True)
class Labeller:
    """Labels game k's sample positions; a game whose moves do not replay gets none (picklable: the
    runners send it to their processes)."""

    spec: str  # the searching player
    every: int  # every this many sample positions, from the first

    def __call__(self, item: tuple[int, list[str]]) -> tuple[int, list[float | None]]:
        from ai.paper_soccer import accelerator
        from ai.paper_soccer.fit_value import sample_states
        from ai.tools.specs import make_player

        k, moves = item
        # a player of its own for each game (about 20 ms): its tables start empty, so a game gets the
        # same labels whichever process labels it after whichever games
        player = make_player(GAME, self.spec)
        # the compiled tree before the first label: meanwhile the pure-Python one would search alpha-beta
        # whatever the spec says (the same nodes, another search when it says best-first)
        player.searcher.get_ready(None, 1.0)
        if accelerator.loading():
            accelerator.compiled_tree(wait=True)
        labels: list[float | None] = []
        try:
            for i, (game, _pm, _ball, _stm) in enumerate(sample_states(moves)):
                if i % self.every:
                    labels.append(None)
                    continue
                # multipv: a position with one safe turn is searched too (else its score is a bare 0)
                found = player.searcher.search(game, node_limit=player.cfg.nodes, multipv=True)
                labels.append(probability(found.score))
        except EngineError:  # moves that do not replay: no labels (the fitter skips the game too)
            return k, []
        return k, labels


def probability(score: int) -> float:
    """A search's score (the mover's side) as the mover's chance to win."""
    if abs(score) >= WIN_BOUND:
        return 1.0 if score > 0 else 0.0
    x = score / UNITS  # a logit of hundreds for a won position not yet proven: exp of its size overflows
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def label_games(games: list[tuple[int, list[str]]], spec: str, *, every: int, jobs: int = 2,
                runner: Runner | None = None, say=None, say_every: int = 100) -> list[list[float | None]]:
    """Each game's labels (`Labeller`), in the games' order; `say` hears "300/1500 games" as they come.
    A game whose moves do not replay gets none (the fitter skips it too)."""
    labeller = Labeller(spec, every)
    out: list[list[float | None]] = [[] for _ in games]
    done = 0

    def on_result(result) -> None:
        nonlocal done
        k, labels = result
        out[k] = labels
        done += 1
        if say is not None and (done % say_every == 0 or done == len(games)):
            say(f"{done}/{len(games)} games")

    (runner or in_processes)(labeller, [(k, moves) for k, (_w, moves) in enumerate(games)], jobs, on_result)
    return out


def format_labels(games: list[tuple[int, list[str]]], labels: list[list[float | None]]) -> str:
    """The labels file's text (see the module's doc)."""
    lines = []
    for (winner, moves), ls in zip(games, labels):
        shown = " ".join(NONE if v is None else f"{v:.4f}" for v in ls)
        lines.append(f"{shown}\t{winner}\t" + "\t".join(moves))
    return "".join(line + "\n" for line in lines)


def parse_labels(text: str) -> dict[tuple[str, ...], list[float | None]]:
    """The labels of each game in a labels file's text, keyed by its moves; a line that is not one (a
    label not a probability, no game) is left out."""
    found: dict[tuple[str, ...], list[float | None]] = {}
    for line in text.splitlines():
        shown, _, rest = line.partition("\t")
        game = read_games_line(rest)
        if game is None:
            continue
        try:
            labels = [None if v == NONE else float(v) for v in shown.split()]
        except ValueError:
            continue
        if all(v is None or 0.0 <= v <= 1.0 for v in labels):  # NaN fails both
            found[tuple(game[1])] = labels
    return found


def mixed(result: int, label: float | None, share: float) -> float:
    """A sample's target: its result, moved toward its search label by `share`."""
    return float(result) if label is None else share * label + (1.0 - share) * result
