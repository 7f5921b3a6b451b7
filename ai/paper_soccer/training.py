"""Paper Soccer's part of `termarena train` (tui/core/training.py runs the generations): who plays a
generation's self-play games, how a new net is fitted on them, and which player a net makes for the gate.

Each generation's games are played by level 6 with the champion net at three node budgets, once with 5%
random turns, and by level 6 with its own value (with the `fast` extra, which training needs, its `fast_net` in
its best-first search; `value:selfplay` in its pure-Python alpha-beta), so that the net meets a search it
does not drive as well as itself; a `level:6` player searches as level 6 does (best-first when compiled,
since `25e5778`: the runs before it played alpha-beta, which `best_first=0,fast_net=` gives).  Earlier
champions join the pool (issue 28 asked for self-play against many opponents: levels, noise, earlier
generations; the openings are `selfplay`'s seeded random turns).  Without a champion (a run from scratch)
the pool is `selfplay`'s default one.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ai.paper_soccer import selfplay
from ai.paper_soccer.net import MAX_FILE_BYTES as NET_FILE_BYTES  # noqa: F401  (the loop reads nets within it)

# A generation starts from the champion at a small rate (at the default 1e-3 the first epoch overshot:
# README, "The second generation"), and keeps the epoch with the least validation loss.
FROM_CHAMPION = {"rate": 2e-4, "epochs": 4, "l2": 1e-4}
FROM_SCRATCH = {"rate": 1e-3, "epochs": 8, "l2": 1e-4, "hidden": 32}
EARLIER_KEPT = 3  # earlier champions in a generation's pool, the newest ones

NET = "{net}"  # in a pool spec: the champion's weight file
# the first {net} player is also how the earlier champions play
CHAMPION_POOL = (f"level:6,nodes=4000,net={NET}", f"level:6,nodes=1500,net={NET}", f"level:6,nodes=10000,net={NET}",
                 f"level:6,nodes=4000,epsilon=0.05,net={NET}", "level:6,nodes=4000")


def pool(champion: str | None, earlier: list[str], template: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A generation's self-play players: `template` (specs in which {net} is the champion's file; by
    default CHAMPION_POOL, or self-play's own pool while there is no champion), then the newest earlier
    champions, each as the template's first {net} player; each spec checked to make a player (ValueError)."""
    template = tuple(template) or (CHAMPION_POOL if champion else selfplay.POOL)
    nets = [spec for spec in template if NET in spec]
    if nets and champion is None:
        raise ValueError("a pool spec names {net}, but the run has no champion net yet (give --start)")
    players = tuple(spec.replace(NET, champion or "") for spec in template)
    if nets:
        players += tuple(nets[0].replace(NET, net) for net in earlier[-EARLIER_KEPT:])
    selfplay.check_pool(players)
    return players


def player(net: str | None, nodes: int, fields: str = "") -> str:
    """The gate's player of a net (None: level 6 with its own value), at a fixed node budget (strength
    per node, whatever the machine's load), with more level fields (`KEY=V,...`: the search the net is
    meant for, e.g. best-first); ValueError when they name the gate's own nodes or net."""
    from ai.tools.specs import parse_spec

    own = sorted(parse_spec("gate:" + fields)[1].keys() & {"nodes", "net"})  # read as the level will read them
    if own:
        raise ValueError(f"the gate sets {' and '.join(own)} itself; give only the search's fields")
    return f"level:6,nodes={nodes}" + (f",{fields}" if fields else "") + (f",net={net}" if net else "")


def check_gate(fields: str) -> None:
    """ValueError, in words, when the gate's players with these level fields make no player."""
    selfplay.check_pool((player(None, 1, fields),))


@dataclass(frozen=True)
class Fitted:
    text: str  # the weight file
    games: int  # read, the validating and held-out tenths included
    positions: int  # training samples, with their left-right turns
    held_out: float | None  # the new net's log loss on the held-out tenth of the games
    before: float | None  # the champion's on the same positions
    coin: float = 0.6931


LABEL_EVERY = 3  # sample positions a search labels: every third (about 3 min a generation of 1,500 games)


@dataclass(frozen=True)
class Labelled:
    text: str  # the labels file
    positions: int  # valued by a search
    turns: int  # root turns valued too (tree targets)


def label(games_file: str, champion: str | None, nodes: int, fields: str = "", *, tree: bool = False, jobs: int = 2,
          runner=None, say=None) -> Labelled:
    """The labels of the decided games of `games_file`: every LABEL_EVERY-th sample position valued by
    the champion's search as the gate plays it (`player`; `search_targets`); with `tree`, every sample
    position, and each root turn the search looked below."""
    from ai.paper_soccer.fit_value import read_games
    from ai.paper_soccer.search_targets import format_labels, label_games

    games = read_games([games_file])
    labels = label_games(games, player(champion, nodes, fields), every=1 if tree else LABEL_EVERY, turns=tree,
                         jobs=jobs, runner=runner, say=say)
    found = [v for ls in labels for v in ls if v is not None]
    return Labelled(format_labels(games, labels), len(found), sum(len(v.turns) for v in found))


def fit(files: list[str], champion: str | None, *, seed: int = 0, report=None, label_files: list[str] = (),
        share: float = 0.0) -> Fitted:
    """A new net fitted on the games in `files` (from the champion's weights when there is one, in its
    shape: one hidden layer or two), as `fit_net` fits one, the epoch kept with the least loss on a tenth
    of the games, its log loss reported on another tenth it never saw; the fitted games' targets moved by
    `share` toward their search labels in `label_files` (`label`'s).  ValueError when there is nothing to
    fit."""
    from ai.paper_soccer import fit_net  # numpy: the `fast` extra brings it
    from ai.paper_soccer import net as NN
    from ai.paper_soccer.fit_value import loss, read_games
    from ai.paper_soccer.search_targets import parse_labels
    from ai.tournament.outputs import read_games_file

    labels: dict = {}
    for path in label_files:
        try:
            labels.update(parse_labels(read_games_file(path).decode("utf-8", "replace")))
        except (OSError, ValueError) as e:
            raise ValueError(f"{Path(path).name}: {getattr(e, 'strerror', None) or e}") from None
    init = NN.load_net(champion) if champion else None
    settings = dict(FROM_SCRATCH) if init is None else dict(FROM_CHAMPION, hidden=init.hidden)
    dist = init.distances if init is not None else True  # the inputs of QtPaperSoccer's net (README)
    # in the files, games come in the order they ended (forked processes, Ray): sorted, the same games
    # make the same net
    games = sorted(read_games(files), key=lambda g: (g[1], g[0]))
    tree = bool(share) and _turns(labels)
    fitted = fit_net.fit_games(games, distances=dist, seed=seed, init=init, report=report, labels=labels,
                               share=share, validate_on_targets=tree, **settings)
    net, (hx, hy) = fitted.net, fitted.held
    held = before = None
    if len(hy):
        held = loss(fit_net.values(net, hx) / NN.UNITS, hy)[0]
        if init is not None:
            before = loss(fit_net.values(init, hx) / NN.UNITS, hy)[0]
    header = (f"Paper Soccer's small neural value (termarena train): {net.hidden} hidden units"
              f"{f', then {net.hidden2}' if net.hidden2 else ''}"
              f"{', turn distances read' if net.distances else ''};\n"
              f"fitted on {fitted.positions} positions of {fitted.games} games"
              + (f", from {champion}" if champion else ", from scratch")
              + f"; rate {settings['rate']:g}, {settings['epochs']} epochs, l2 {settings['l2']:g}"
              + (f"; targets moved {share:g} of the way to a search's values where labelled"
                 if labels and share else "")
              + ("; the positions after the root turns it looked below too, the epoch kept on them" if tree else ""))
    return Fitted(NN.format_net(net, header), len(games), fitted.positions, held, before)


def _turns(labels: dict) -> bool:
    """Whether any label values root turns (the labels of a tree-targets run)."""
    return any(v is not None and v.turns for ls in labels.values() for v in ls)
