"""Targets from a search for Paper Soccer's learned value (`termarena train --search-target SHARE`).

A net fitted to game results learns what a position's result was, one noisy bit a game: every fit of
issue 28's loops predicted results better and played no better (README, "Training runs").  Here every
`every`-th sample position of a game is also valued by a search (the champion's, as the gate plays it),
and its target becomes `share * p + (1 - share) * result`, p the search's value as a probability
(`net.UNITS` a logit; a proven result is 0 or 1): the value learns what a deeper look at the position
says, as AlphaZero-style loops learn from their search.

With `turns` (`termarena train --tree-targets`) every sample position is searched, and each root turn
the search looked below (`SearchResult.searched`) gives a sample too: the position after it, valued as
the search valued that turn.  A position's sibling turns then each get a target from one search, where a
game gives one result for the turn it played: the net learns to rank a position's turns (README,
"Targets for a position's sibling turns, over generations": about +100 Elo one ply deep in three
generations, where every fit to results lost).

The labels of one generation's games are a text file, a line a game: the labels of its sample positions
(`fit_value.sample_states`, in order; `-` where none) separated by spaces, a tab, then the game as its
games line (the winner's seat, the moves), which keys it.  A label is the mover's chance, then for each
root turn searched below it `,TURN:CHANCE` (the same mover's chance after that turn), e.g.
`0.6120,53:0.6120,127:0.4410`.  Labelling runs on a runner as the games do (forked processes, or a
cluster's).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ai.paper_soccer.net import UNITS
from ai.paper_soccer.search import WIN_BOUND
from ai.tournament.outputs import read_games_line
from ai.tournament.runners import Runner, in_processes
from engines.base import EngineError

GAME = "paper-soccer"
NONE = "-"


TURN = re.compile(r"[0-7]+")  # a Paper Soccer turn as games files write it: its steps' directions


@dataclass(frozen=True)
class Label:
    """A search's values at a sample position: the mover's chance there, and after each root turn the
    search looked below, the same mover's chance."""

    value: float
    turns: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Labeller:
    """Labels game k's sample positions; a game whose moves do not replay gets none (picklable: the
    runners send it to their processes)."""

    spec: str  # the searching player
    every: int  # every this many sample positions, from the first
    turns: bool = False  # each label also gives the values of the root turns searched below

    def __call__(self, item: tuple[int, list[str]]) -> tuple[int, list[Label | None]]:
        from ai.paper_soccer.fit_value import sample_states

        k, moves = item
        # a player of its own for each game (about 20 ms): its tables start empty, so a game gets the
        # same labels whichever process labels it after whichever games
        player = searching_player(self.spec)
        labels: list[Label | None] = []
        try:
            for i, (game, _pm, _ball, _stm) in enumerate(sample_states(moves)):
                if i % self.every:
                    labels.append(None)
                    continue
                # multipv: a position with one safe turn is searched too (else its score is a bare 0)
                found = player.searcher.search(game, node_limit=player.cfg.nodes, multipv=True)
                turns = ()
                # a proven position's turns are left out, as in the measured run: a proof stops the search
                # where it is, its other turns' values are wherever it left them
                if self.turns and len(found.scores) > 1 and not found.proven:
                    turns = tuple((m, probability(v)) for m, v in found.scores.items() if m in found.searched)
                labels.append(Label(probability(found.score), turns))
        except EngineError:  # moves that do not replay: no labels (the fitter skips the game too)
            return k, []
        return k, labels


def searching_player(spec: str):
    """A new player of `spec` whose searches are what its spec says: the compiled tree loaded first, as
    the pure-Python one would meanwhile search alpha-beta whatever the spec says (the same nodes, another
    search when it says best-first)."""
    from ai.paper_soccer import accelerator
    from ai.tools.specs import make_player

    player = make_player(GAME, spec)
    player.searcher.get_ready(None, 1.0)
    if accelerator.loading():
        accelerator.compiled_tree(wait=True)
    return player


def probability(score: int) -> float:
    """A search's score (the mover's side) as the mover's chance to win."""
    if abs(score) >= WIN_BOUND:
        return 1.0 if score > 0 else 0.0
    x = score / UNITS  # a logit of hundreds for a won position not yet proven: exp of its size overflows
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def label_games(games: list[tuple[int, list[str]]], spec: str, *, every: int, turns: bool = False, jobs: int = 2,
                runner: Runner | None = None, say=None, say_every: int = 100) -> list[list[Label | None]]:
    """Each game's labels (`Labeller`), in the games' order; `say` hears "300/1500 games" as they come.
    A game whose moves do not replay gets none (the fitter skips it too)."""
    labeller = Labeller(spec, every, turns)
    out: list[list[Label | None]] = [[] for _ in games]
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


def format_labels(games: list[tuple[int, list[str]]], labels: list[list[Label | None]]) -> str:
    """The labels file's text (see the module's doc)."""
    def shown(label: Label | None) -> str:
        if label is None:
            return NONE
        return f"{label.value:.4f}" + "".join(f",{m}:{p:.4f}" for m, p in label.turns)

    lines = []
    for (winner, moves), ls in zip(games, labels):
        lines.append(" ".join(shown(v) for v in ls) + f"\t{winner}\t" + "\t".join(moves))
    return "".join(line + "\n" for line in lines)


def parse_labels(text: str) -> dict[tuple[str, ...], list[Label | None]]:
    """The labels of each game in a labels file's text, keyed by its moves; a line that is not one (a
    chance that is not a probability, a turn that is not one, no game) is left out."""
    found: dict[tuple[str, ...], list[Label | None]] = {}
    for line in text.splitlines():
        shown, _, rest = line.partition("\t")
        game = read_games_line(rest)
        if game is None:
            continue
        try:
            labels = [None if v == NONE else _label(v) for v in shown.split()]
        except ValueError:
            continue
        found[tuple(game[1])] = labels
    return found


def _label(text: str) -> Label:
    """One label as `format_labels` writes it; ValueError when it is not one."""
    value, *turns = text.split(",")
    pairs = []
    for turn in turns:
        move, _, p = turn.partition(":")
        if not TURN.fullmatch(move):
            raise ValueError(f"not a turn: {move!r}")
        pairs.append((move, _chance(p)))
    return Label(_chance(value), tuple(pairs))


def _chance(text: str) -> float:
    p = float(text)
    if not 0.0 <= p <= 1.0:  # NaN fails it too
        raise ValueError(f"not a chance: {text!r}")
    return p


def mixed(result: int, label: float | None, share: float) -> float:
    """A sample's target: its result, moved toward its search value by `share`."""
    return float(result) if label is None else share * label + (1.0 - share) * result
