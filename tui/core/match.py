"""`termarena match`: a tournament between player specs, run as refereed bot processes on several cores.

Results come per pair (W/D/L, score, Elo with its error bar), per player and seat, with each player's
answer times; with an SPRT (two players) the match stops as soon as the test decides.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from ai.sprt import Sprt, pair_bucket
from ai.tournament import (
    AnswerTimes,
    Opening,
    Pairing,
    Score,
    elo_with_error,
    one_sided_elo_bound,
    points,
    schedule,
)
from engines.base import Termination
from engines.endings import headline
from engines.referee import MatchResult
from engines.visible import visible
from tui.core.jobs import GameJob, GameReport, play_game, seat_seeds
from tui.core.pool import Runner, play_in_pool
from tui.core.specs import PlayerSpec


@dataclass
class SprtState:
    """The test and the pentanomial counts of the colour-swapped pairs finished so far."""

    test: Sprt
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    halves: dict[int, float] = field(default_factory=dict)  # twin -> points of player 0 in the first game
    llr: float = 0.0  # of `counts`: computed once a pair (the normalized model iterates to find it)

    def add(self, p: Pairing, points_of_a: float) -> None:
        """A finished game; a pair is counted when both its games are."""
        other = self.halves.pop(p.twin, None)
        if other is None:
            self.halves[p.twin] = points_of_a
        else:
            self.counts[pair_bucket(points_of_a + other)] += 1
            self.llr = self.test.llr(self.counts)

    @property
    def result(self) -> str:
        return self.test.decide(self.llr)

    def to_json(self) -> dict:
        t = self.test
        return {"elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta, "model": t.model,
                "llr": round(self.llr, 3), "lower": round(t.lower, 3), "upper": round(t.upper, 3),
                "result": self.result, "pairs": self.counts}


@dataclass
class TournamentResult:
    game: str
    specs: list[PlayerSpec]
    scores: dict[tuple[int, int], Score]  # (a, b) with a < b, from a's side
    games: list[tuple[Pairing, MatchResult]]
    by_seat: dict[tuple[int, int], Score] = field(default_factory=dict)  # (player, seat) -> its results
    times: list[AnswerTimes] = field(default_factory=list)  # per player
    sprt: SprtState | None = None
    openings: int = 0
    planned: int = 0  # games in the schedule (an SPRT may stop before)


def run_tournament(game: str, specs: list[PlayerSpec], games_per_pair: int, seed: int, jobs: int,
                   time_limits: bool, think_ms: int | None = None, on_result=None,
                   openings: list[Opening] | None = None, sprt: Sprt | None = None,
                   runner: Runner | None = None, on_record=None) -> TournamentResult:
    """`on_record(pairing, result)`, when given, gets each game with its turn-by-turn record (--record),
    here, wherever the game was played; the record is dropped after it, so a long match does not keep
    every game's stderr."""
    plan = schedule(len(specs), games_per_pair, seed, openings or ())
    texts = [s.label for s in specs]
    t = TournamentResult(game, specs, {(a, b): Score() for a in range(len(specs)) for b in range(a + 1, len(specs))},
                         [], {(n, s): Score() for n in range(len(specs)) for s in (0, 1)},
                         [AnswerTimes() for _ in specs], SprtState(sprt) if sprt else None,
                         len(openings or ()), len(plan))

    def play(p: Pairing) -> tuple[Pairing, GameReport]:
        seats = p.seats
        seated = (texts[seats[0]], texts[seats[1]])  # a spec's label is also the spec a bot is made from
        return p, play_game(GameJob(game, seated, seated, p.seed, p.opening, think_ms, time_limits,
                                    seat_seeds(p.seed), on_record is not None))

    def count(played: tuple[Pairing, GameReport]) -> bool:
        p, report = played
        if on_record is not None:
            on_record(p, report.result)
            report.result.record = None
        _count(t, p, report.result, report.times_ms)
        if on_result is not None:
            on_result(p, report.result, t)
        # Decided: no new game starts; the few being played are played out and not counted.
        return t.sprt is not None and t.sprt.result != "inconclusive"

    (runner or play_in_pool)(play, plan, jobs, count)
    t.games.sort(key=lambda pr: pr[0].index)
    return t


def _count(t: TournamentResult, p: Pairing, res: MatchResult, times: tuple[list[float], list[float]]) -> None:
    pts = points(res.winner, p.a_seat)
    sc = t.scores[(p.a, p.b)]
    sc.add(pts)
    if res.error:
        sc.errors.append(res.error)
    for seat, player in enumerate(p.seats):
        t.by_seat[(player, seat)].add(pts if player == p.a else 1 - pts)
        t.times[player].times_ms.extend(times[seat])
    if res.reason == Termination.TIMEOUT and res.winner is not None:
        t.times[p.seats[1 - res.winner]].timeouts += 1
    if t.sprt is not None:
        t.sprt.add(p, pts)
    t.games.append((p, res))


def _seat_json(sc: Score) -> dict:
    return {"wins": sc.wins, "draws": sc.draws, "losses": sc.losses, "score": round(sc.fraction, 4)}


def to_json(t: TournamentResult) -> dict:
    pairs = []
    for (a, b), sc in t.scores.items():
        elo, err = elo_with_error(sc)
        pairs.append({"a": t.specs[a].label, "b": t.specs[b].label, "wins": sc.wins, "draws": sc.draws,
                      "losses": sc.losses, "score": sc.fraction, "elo": round(elo, 1),
                      "elo_error": None if err == float("inf") else round(err, 1),
                      "errors": sc.errors[:10]})
    players = [{"name": s.label, "as_seat_0": _seat_json(t.by_seat[(n, 0)]),
                "as_seat_1": _seat_json(t.by_seat[(n, 1)]), "answer_times": t.times[n].summary()}
               for n, s in enumerate(t.specs)]
    out = {"game": t.game, "players": [s.label for s in t.specs], "pairs": pairs, "by_player": players,
           "games": [dict(r.to_json(), pairing=p.index, opening=p.opening_index) for p, r in t.games]}
    if t.openings:
        out["openings"] = t.openings
    if t.sprt is not None:
        out["sprt"] = t.sprt.to_json()
    return out


def _elo_cell(sc: Score) -> str:
    bound = one_sided_elo_bound(sc)
    if bound is not None:
        return f"≥ {bound:+.0f}" if sc.wins else f"≤ {bound:+.0f}"
    if sc.games and sc.fraction in (0.0, 1.0):
        return "?"  # one-sided, too few games for a bound (the README says so)
    elo, err = elo_with_error(sc)
    return f"{elo:+.0f}" + ("" if err == float("inf") else f" ± {err:.0f}")


def print_table(t: TournamentResult, console) -> None:
    """The tables on the terminal; a player's spec is shown as it is (escaped controls, no markup)."""
    from rich.table import Table
    from rich.text import Text

    def name(spec: PlayerSpec) -> Text:
        return Text(visible(spec.label))

    table = Table(title=f"{t.game}: {len(t.games)} games" + (f", {t.openings} openings" if t.openings else ""))
    for col in ("player A", "player B", "W", "D", "L", "score A", "Elo A-B", "errors"):
        table.add_column(col, justify="left" if col.startswith("player") else "right")
    for (a, b), sc in t.scores.items():
        table.add_row(name(t.specs[a]), name(t.specs[b]), str(sc.wins), str(sc.draws), str(sc.losses),
                      f"{100 * sc.fraction:.1f}%", _elo_cell(sc), str(len(sc.errors)))
    console.print(table)
    players = Table(title="by seat (W-D-L) and answer times")
    for col in ("player", "as p1", "as p2", "mean ms", "p95 ms", "max ms", "timeouts"):
        players.add_column(col, justify="left" if col == "player" else "right")
    for n, s in enumerate(t.specs):
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
            console.print(Text.assemble((f"{visible(t.specs[a].label)} vs {visible(t.specs[b].label)}:", "red"),
                                        f" {visible(e)}"), highlight=False)


def run_match_command(game: str, specs: list[PlayerSpec], games: int, seed: int, jobs: int, as_json: bool,
                      time_limits: bool, think_ms: int | None, openings: list[Opening] | None = None,
                      sprt: Sprt | None = None, cluster: str | None = None, on_record=None) -> None:
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

        def on_result(p: Pairing, res: MatchResult, t: TournamentResult) -> None:
            who = headline(res.outcome, res.seats)
            llr = "" if t.sprt is None else f"LLR {t.sprt.llr:+.2f} ({t.sprt.test.lower:.2f}, {t.sprt.test.upper:.2f}), "
            progress.update(task, advance=1, last=f"{llr}last: {who} ({res.reason}, {res.turns} turns)")

        t = run_tournament(game, specs, games, seed, jobs, time_limits, think_ms, on_result, openings, sprt,
                           runner, on_record)
    print_table(t, console if as_json else Console())
    if as_json:
        sys.stdout.write(json.dumps(to_json(t)) + "\n")
