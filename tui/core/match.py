"""`termarena match`: a tournament between player specs, run as refereed bot processes on several cores.

Results come per pair (W/D/L, score, Elo with its error bar), per player and seat, with each player's
answer times; with an SPRT (two players) the match stops as soon as the test decides.
"""
from __future__ import annotations

import sys
from functools import partial

from ai.sprt import Sprt
from ai.tournament import Opening, Score, elo_with_error, one_sided_elo_bound, schedule
from ai.tournament.loop import GameReport, OutputFormat, Standings, run
from ai.tournament.outputs import MatchJson
from ai.tournament.refereed import Refereed
from ai.tournament.runners import Runner, in_threads
from engines.endings import headline
from engines.visible import visible
from tui.core.specs import PlayerSpec, bot_argv


def run_tournament(game: str, specs: list[PlayerSpec], games_per_pair: int, seed: int, jobs: int,
                   time_limits: bool, think_ms: int | None = None, outputs: list[OutputFormat] = (),
                   openings: list[Opening] | None = None, sprt: Sprt | None = None,
                   runner: Runner | None = None, record: bool = False) -> Standings:
    """A round robin of refereed bot processes (ai.tournament's loop); `record`: each game reaches the
    outputs with its turn-by-turn record (--record), here, wherever the game was played."""
    plan = schedule(len(specs), games_per_pair, seed, openings or ())
    labels = [s.label for s in specs]  # a spec's label is also the spec a bot is made from
    player = Refereed(game, [partial(bot_argv, game, s, think_ms) for s in specs], labels, time_limits, record)
    return run(Standings.start(game, labels, len(plan), sprt, len(openings or ())), plan, player, jobs=jobs,
               runner=runner or in_threads, outputs=outputs)


def _elo_cell(sc: Score) -> str:
    bound = one_sided_elo_bound(sc)
    if bound is not None:
        return f"≥ {bound:+.0f}" if sc.wins else f"≤ {bound:+.0f}"
    if sc.games and sc.fraction in (0.0, 1.0):
        return "?"  # one-sided, too few games for a bound (the README says so)
    elo, err = elo_with_error(sc)
    return f"{elo:+.0f}" + ("" if err == float("inf") else f" ± {err:.0f}")


def print_table(t: Standings, console) -> None:
    """The tables on the terminal; a player's spec is shown as it is (escaped controls, no markup)."""
    from rich.table import Table
    from rich.text import Text

    def name(label: str) -> Text:
        return Text(visible(label))

    table = Table(title=f"{t.game}: {len(t.games)} games" + (f", {t.openings} openings" if t.openings else ""))
    # a player's spec folds over lines rather than losing its end: `cmd:/long/path/…` hid which bot it was
    for col in ("player A", "player B", "W", "D", "L", "score A", "Elo A-B", "errors"):
        table.add_column(col, justify="left" if col.startswith("player") else "right",
                         overflow="fold" if col.startswith("player") else "ellipsis")
    for (a, b), sc in t.scores.items():
        table.add_row(name(t.names[a]), name(t.names[b]), str(sc.wins), str(sc.draws), str(sc.losses),
                      f"{100 * sc.fraction:.1f}%", _elo_cell(sc), str(len(sc.errors)))
    console.print(table)
    players = Table(title="by seat (W-D-L) and answer times")
    for col in ("player", "as p1", "as p2", "mean ms", "p95 ms", "max ms", "timeouts"):
        players.add_column(col, justify="left" if col == "player" else "right",
                           overflow="fold" if col == "player" else "ellipsis")
    for n, s in enumerate(t.names):
        seat = [t.by_seat[(n, k)] for k in (0, 1)]
        tm = t.times[n].summary()
        ms = ["-" if tm[k] is None else f"{tm[k]:,.1f}" for k in ("mean_ms", "p95_ms", "max_ms")]
        players.add_row(name(s), *(f"{x.wins}-{x.draws}-{x.losses}" for x in seat), *ms, str(tm["timeouts"]))
    console.print(players)
    if t.sprt is not None:
        j = t.sprt.to_json()
        verdict = {"H1": f"H1 accepted: Elo >= {j['elo1']:g}", "H0": f"H0 accepted: Elo <= {j['elo0']:g}",
                   "inconclusive": f"no decision after {len(t.games)} of at most {t.planned} games"}[j["result"]]
        console.print(f"SPRT [{j['elo0']:g}, {j['elo1']:g}] ({j['model']}, alpha {j['alpha']:g}, beta {j['beta']:g}): "
                      f"LLR {j['llr']:.2f} ({j['lower']:.2f}, {j['upper']:.2f}), pairs {j['pairs']}: {verdict}",
                      highlight=False, markup=False)
    for (a, b), sc in t.scores.items():
        for e in sc.errors[:3]:
            console.print(Text.assemble((f"{visible(t.names[a])} vs {visible(t.names[b])}:", "red"),
                                        f" {visible(e)}"), highlight=False)


class Table:
    """The tables for people, on `console`, once the match is over."""

    def __init__(self, console) -> None:
        self.console = console

    def on_game(self, report: GameReport, standings: Standings) -> None:
        pass

    def on_end(self, standings: Standings) -> None:
        print_table(standings, self.console)


class ProgressLine:
    """The progress bar's last game, with the SPRT's figure."""

    def __init__(self, progress, task) -> None:
        self.progress, self.task = progress, task

    def on_game(self, report: GameReport, t: Standings) -> None:
        res = report.result
        who = headline(res.outcome, res.seats)
        llr = "" if t.sprt is None else f"LLR {t.sprt.llr:+.2f} ({t.sprt.test.lower:.2f}, {t.sprt.test.upper:.2f}), "
        self.progress.update(self.task, advance=1,
                             last=f"{llr}last: {who} ({res.outcome.reason}, {res.turns} turns)")

    def on_end(self, standings: Standings) -> None:
        pass


def run_match_command(game: str, specs: list[PlayerSpec], games: int, seed: int, jobs: int, as_json: bool,
                      time_limits: bool, think_ms: int | None, openings: list[Opening] | None = None,
                      sprt: Sprt | None = None, cluster: str | None = None,
                      recorder: OutputFormat | None = None) -> None:
    from contextlib import ExitStack

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    total = len(schedule(len(specs), games, seed, openings or ()))
    with ExitStack() as stack:
        runner = None
        if cluster is not None:
            from tui.core.cluster import open_cluster

            runner = open_cluster(stack, cluster, jobs, console).play
        progress = stack.enter_context(Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("{task.fields[last]}", markup=False), console=console, transient=True))
        task = progress.add_task(f"{game}", total=total, last="")
        during = [recorder] if recorder is not None else []
        t = run_tournament(game, specs, games, seed, jobs, time_limits, think_ms,
                           during + [ProgressLine(progress, task)], openings, sprt, runner, recorder is not None)
    # the tables after the progress bar is gone
    for out in (Table(console if as_json else Console()),) + ((MatchJson(sys.stdout),) if as_json else ()):
        out.on_end(t)
