"""`termarena train GAME`: generations of a learned value, each played, fitted and gated, in a run folder
that a later command resumes (issue 28's pipeline, item 3).

A generation g is three or four steps, each ending in a file of the run folder written whole (a step
cut short by a signal or a crash leaves no file and is done again on the next run):

1. `gen-NNN.games`: self-play games between the game's pool of the champion, earlier champions and
   other players (the AI package's `training` hooks), game k seeded by seed + (g - 1) * games + k;
2. `gen-NNN.labels` (with `search_target`): every few sample positions of those games valued by the
   champion's search as the gate plays it (`label`; with `tree_targets`, every one, and the positions
   after the root turns that search looked below);
3. `gen-NNN.net`: a net fitted on the last `window` generations' games, from the champion's weights,
   their targets moved `search_target` of the way to the labels there are;
4. `gen-NNN.gate`: that net against the champion at a fixed node budget, colour-swapped pairs stopped by
   an SPRT; accepted (H1), it becomes the champion (`champion.net` is a copy of it).

`settings.json` holds what the run was started with; a later command resumes with it, and what it
names must agree with it (more generations, other --jobs or --cluster are fine).  `log.txt` gets a line
per step with its time.  Game-agnostic: the game's AI package gives `TRAINING`, the module of its hooks
(`pool`, `label`, `fit`, `player`, `check_gate`).
"""
from __future__ import annotations

import importlib
import json
import os
import resource
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from ai.levels import ai_part
from ai.sprt import Sprt
from ai.tools.arena import play_match
from ai.tournament.outputs import MAX_GAMES_FILE_BYTES
from ai.tournament.runners import in_processes
from tui.core.storage import (StorageError, atomic_write, open_append, read_regular_file, regular_file_stat,
                              shown)
from tui.core.train_settings import MAX_NODES, TrainSettings

SETTINGS = "settings.json"
CHAMPION = "champion.net"
LOG = "log.txt"
SMALL_FILE = 64 << 10  # settings.json and a gate's result are a few hundred bytes


class TrainingError(Exception):
    """What stops a run, in words (a folder of another run, a broken file, nothing to fit)."""


def hooks(game: str):
    """The game's training hooks, or None when it learns nothing from self-play."""
    name = ai_part(game, "TRAINING", None)
    return None if name is None else importlib.import_module(name)


def name(g: int, suffix: str) -> str:
    return f"gen-{g:03d}.{suffix}"


@dataclass
class Gate:
    wins: int
    draws: int
    losses: int
    elo: float
    err: float
    sprt: str  # "H0", "H1" or "inconclusive"
    llr: float

    @property
    def promoted(self) -> bool:
        return self.sprt == "H1"

    def line(self) -> str:
        games = self.wins + self.draws + self.losses
        pct = 100 * (self.wins + self.draws / 2) / max(1, games)
        elo = self.elo if abs(self.elo) >= 0.5 else 0.0  # not "-0"
        return (f"+{self.wins} ={self.draws} -{self.losses} ({pct:.1f}%, Elo {elo:+.0f} ± {self.err:.0f}), "
                f"SPRT {self.sprt} (LLR {self.llr:.2f})")


@dataclass
class Run:
    """A run folder and what its files say so far."""

    folder: Path
    settings: TrainSettings
    say: Callable[[str], None] = print

    # --- what the folder holds -------------------------------------------------------------------
    def path(self, g: int, suffix: str) -> Path:
        return self.folder / name(g, suffix)

    def gate(self, g: int) -> Gate | None:
        path = self.path(g, "gate")
        if not path.exists():
            return None
        try:
            return Gate(**json.loads(read_regular_file(path, SMALL_FILE, "a gate's result")))
        except (StorageError, ValueError, TypeError) as e:
            raise TrainingError(f"{shown(path)}: not a gate's result ({e}); remove it to play the gate again") from None

    def champions(self, g: int) -> list[str]:
        """The champions before generation g, oldest first: the start net, then each promoted one."""
        out = [self.settings.start] if self.settings.start else []
        for k in range(1, g):
            gate = self.gate(k)
            if gate is not None and gate.promoted:
                out.append(str(self.path(k, "net")))
        return out

    def done(self) -> int:
        """Generations gated so far."""
        g = 0
        while self.gate(g + 1) is not None:
            g += 1
        return g

    # --- the steps ---------------------------------------------------------------------------------
    def generation(self, g: int, *, jobs: int, runner=None) -> Gate:
        game, s = self.settings.game, self.settings
        train = hooks(game)
        earlier = self.champions(g)
        champion = earlier.pop() if earlier else None
        games = self.path(g, "games")
        if not games.exists():
            players = train.pool(champion, earlier, s.pool)
            part = games.with_name(games.name + ".part")
            part.unlink(missing_ok=True)  # a step cut short is played again from its start
            t = self._clock()
            decided = ai_part(game, "selfplay_games")(s.games, str(part), players, jobs=jobs,
                                                    seed=s.seed + (g - 1) * s.games, runner=runner,
                                                    say=lambda line: self.say(f"generation {g}: self-play, {line}"))
            os.replace(part, games)
            self._log(g, f"{s.games} self-play games ({decided} decided) between "
                         f"{len(players)} player{'s' if len(players) > 1 else ''}", t)
        search = f" ({s.gate_with})" if s.gate_with else ""
        labels = self.path(g, "labels")
        if s.search_target and not labels.exists():
            t = self._clock()
            try:
                done = train.label(str(games), champion, s.labelling_nodes, s.gate_with, tree=s.tree_targets, jobs=jobs,
                                   runner=runner, say=lambda line: self.say(f"generation {g}: search labels, {line}"))
            except ValueError as e:
                raise TrainingError(f"generation {g}: {e}") from None
            atomic_write(labels, done.text)
            by = "the champion's" if champion else "level 6's"
            turns = f", and {done.turns} turns of them," if s.tree_targets else ""
            self._log(g, f"{done.positions} positions{turns} valued by {by} search at {s.labelling_nodes} nodes"
                         f"{search}", t)
        net = self.path(g, "net")
        if not net.exists():
            t = self._clock()
            window = range(max(1, g - s.window + 1), g + 1)
            files = [str(self.path(k, "games")) for k in window]
            label_files = [str(self.path(k, "labels")) for k in window if s.search_target]
            try:
                for path in files:  # the fitter opens them as they are: no FIFO, nothing of any size
                    regular_file_stat(Path(path), MAX_GAMES_FILE_BYTES, "a file of games")
                for path in label_files:
                    regular_file_stat(Path(path), MAX_GAMES_FILE_BYTES, "a file of search labels")
                fitted = train.fit(files, champion, seed=s.seed + g, report=lambda epoch, ll: self.say(
                    f"generation {g}: fit, epoch {epoch}: validation log loss {ll:.4f}"),
                    label_files=label_files, share=s.search_target)
            except (StorageError, ValueError) as e:
                raise TrainingError(f"generation {g}: {e}") from None
            atomic_write(net, fitted.text)
            held = "" if fitted.held_out is None else f"; held-out log loss {fitted.held_out:.4f}"
            if fitted.before is not None:
                held += f" (the champion's {fitted.before:.4f})"
            self._log(g, f"fitted on {fitted.positions} positions of {fitted.games} games{held}, "
                         f"a coin's {fitted.coin:.4f}", t)
        gate = self.gate(g)
        if gate is None:
            t = self._clock()
            standings = play_match(game, train.player(str(net), s.gate_nodes, s.gate_with),
                                   train.player(champion, s.gate_nodes, s.gate_with),
                                   s.gate_games, jobs=jobs, sprt=Sprt(s.elo0, s.elo1), runner=runner or in_processes,
                                   outputs=[GateProgress(g, self.say)])
            gate = gate_of(standings)
            atomic_write(self.path(g, "gate"), json.dumps(asdict(gate)) + "\n")
            if gate.promoted:
                text = read_regular_file(net, train.NET_FILE_BYTES, "a net's weights").decode("utf-8", "replace")
                atomic_write(self.folder / CHAMPION, text)
            against = "the champion" if champion else "level 6"
            verdict = "the new champion" if gate.promoted else f"kept out: {against} stays"
            self._log(g, f"gate against {against} at {s.gate_nodes} nodes{search}: "
                         f"{gate.line()}: {verdict}", t)
        return gate

    # --- the log -------------------------------------------------------------------------------------
    def _clock(self) -> tuple[float, float]:
        return time.monotonic(), _cpu()

    def _log(self, g: int, text: str, since: tuple[float, float]) -> None:
        wall, cpu = time.monotonic() - since[0], _cpu() - since[1]
        line = f"generation {g}: {text} ({_minutes(wall)}, {_minutes(cpu)} of CPU here)"
        try:
            log = open_append(self.folder / LOG, "the run's log")
        except StorageError as e:
            raise TrainingError(str(e)) from None
        with log as f:
            f.write(time.strftime("%Y-%m-%d %H:%M ") + line + "\n")
        self.say(line)


class GateProgress:
    """A line every `every` gate games: the score and the SPRT's LLR so far."""

    def __init__(self, g: int, say: Callable[[str], None], every: int = 50) -> None:
        self.g, self.say, self.every, self.done = g, say, every, 0

    def on_game(self, report, standings) -> None:
        self.done += 1
        if self.done % self.every == 0:
            score = standings.scores[(0, 1)]
            self.say(f"generation {self.g}: gate, {self.done} games: +{score.wins} ={score.draws} -{score.losses}, "
                     f"LLR {standings.sprt.llr:.2f}")

    def on_end(self, standings) -> None:
        pass


def gate_of(standings) -> Gate:
    from ai.tournament import elo_with_error

    score = standings.scores[(0, 1)]
    elo, err = elo_with_error(score)
    state = standings.sprt
    return Gate(score.wins, score.draws, score.losses, round(elo, 1), round(err, 1), state.result, round(state.llr, 3))


def open_run(folder: Path, settings: TrainSettings, given: frozenset[str] | None = None) -> Run:
    """The run in `folder`: started now with `settings`, or resumed with its own settings when those
    in `given` (the ones the command line named; None: all of them) agree with it.  TrainingError when
    they do not, or when the folder holds something else."""
    before = kept_settings(folder)
    if before is not None:
        differ = [k for k, v in asdict(settings).items()  # in the settings' order, whatever `given`'s
                  if (given is None or k in given) and asdict(before)[k] != v]
        if differ:
            listed = ", ".join(f"{k.replace('_', '-')} {_shown(asdict(before)[k])}" for k in differ)
            raise TrainingError(f"{shown(folder)} is a run started with {listed}: give the same, or another folder")
        return Run(folder, before)
    if folder.exists() and any(folder.iterdir()):
        raise TrainingError(f"{shown(folder)} is not empty and holds no run ({SETTINGS}): give an empty or new folder")
    atomic_write(folder / SETTINGS, settings.to_json())
    return Run(folder, settings)


def kept_settings(folder: Path) -> TrainSettings | None:
    """The settings a run in `folder` was started with; None when it holds no run."""
    path = folder / SETTINGS
    if not path.exists():
        return None
    try:
        kept = json.loads(read_regular_file(path, SMALL_FILE, "a run's settings"))
        kept["pool"] = tuple(kept.get("pool", ()))
        settings = TrainSettings(**kept)
        share = settings.search_target  # a share of a target: what the fitter multiplies by
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            raise ValueError(f"search_target {share!r} is not a share from 0 to 1")
        if not isinstance(settings.tree_targets, bool):
            raise ValueError(f"tree_targets {settings.tree_targets!r} is not true or false")
        if isinstance(settings.label_nodes, bool) or not isinstance(settings.label_nodes, int) or not (
                0 <= settings.label_nodes <= MAX_NODES):
            raise ValueError(f"label_nodes {settings.label_nodes!r} is not a count of nodes")
        return settings
    except (StorageError, ValueError, TypeError, AttributeError) as e:
        raise TrainingError(f"{shown(path)}: not a run's settings ({e})") from None


def _shown(value) -> str:
    """A setting as the command line gives it: a pool as its specs, a start net as its name."""
    if isinstance(value, (tuple, list)):
        return " ".join(value) or "(the game's)"
    return str(value) if value != "" else "(none)"


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the forked game players)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"
