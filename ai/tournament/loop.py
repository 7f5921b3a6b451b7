"""The one tournament loop: a schedule of pairings played by an injected game player, the results counted.

fastchess's `matchmaking/` is the model: the schedule (ai.tournament.schedule) says which games, a game
player plays one (ai.tournament.refereed for bot processes, ai.tools.arena's in-process players), a
runner (ai.tournament.runners, or tui.core.cluster's Ray tasks) says where and how many at once, and
output formats (`OutputFormat`) show each game and the end, as the command chose.  `run` counts every
game into `Standings`: W/D/L per pair and per seat, answer times, and an SPRT that stops the run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from ai.sprt import Sprt, pair_bucket
from ai.tournament.runners import Runner, in_threads
from ai.tournament.schedule import Pairing
from ai.tournament.stats import AnswerTimes, Score, points
from engines.base import Termination
from engines.referee import MatchResult


@dataclass
class GameReport:
    """One game of the schedule, played: the referee's result (its moves and its Outcome) and each
    seat's answer times in ms, measured where the game was played."""

    pairing: Pairing
    result: MatchResult
    times_ms: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    opening: int = 0  # moves played before the players' own (in `result.moves`)


GamePlayer = Callable[[Pairing], GameReport]  # plays one game; picklable where the runner needs it


@dataclass
class SprtState:
    """The test and the pentanomial counts of the colour-swapped pairs finished so far."""

    test: Sprt
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    halves: dict[int, float] = field(default_factory=dict)  # twin -> points of player a in the first game
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
class Standings:
    """Everything a tournament's games say, counted as they come."""

    game: str
    names: list[str]  # the players, as the outputs name them
    scores: dict[tuple[int, int], Score]  # (a, b) as the schedule pairs them (a < b), from a's side
    games: list[tuple[Pairing, MatchResult]]  # in the schedule's order once the run is over
    by_seat: dict[tuple[int, int], Score] = field(default_factory=dict)  # (player, seat) -> its results
    times: list[AnswerTimes] = field(default_factory=list)  # per player
    sprt: SprtState | None = None
    openings: int = 0
    planned: int = 0  # games in the schedule (an SPRT may stop before)

    @classmethod
    def start(cls, game: str, names: Sequence[str], planned: int, sprt: Sprt | None = None,
              openings: int = 0) -> "Standings":
        n = len(names)
        return cls(game, list(names), {(a, b): Score() for a in range(n) for b in range(a + 1, n)}, [],
                   {(p, s): Score() for p in range(n) for s in (0, 1)}, [AnswerTimes() for _ in names],
                   SprtState(sprt) if sprt else None, openings, planned)

    def add(self, report: GameReport) -> None:
        p, res = report.pairing, report.result
        out = res.outcome
        pts = points(out.winner, p.a_seat)
        sc = self.scores[(p.a, p.b)]
        sc.add(pts)
        if res.error:
            sc.errors.append(res.error)
        for seat, player in enumerate(p.seats):
            self.by_seat[(player, seat)].add(pts if player == p.a else 1 - pts)
            self.times[player].times_ms.extend(report.times_ms[seat])
        if out.reason == Termination.TIMEOUT and out.winner is not None:
            self.times[p.seats[1 - out.winner]].timeouts += 1
        if self.sprt is not None:
            self.sprt.add(p, pts)
        self.games.append((p, res))

    @property
    def decided(self) -> bool:
        return self.sprt is not None and self.sprt.result != "inconclusive"


class OutputFormat(Protocol):
    """How a command shows its tournament: each game as it ends (in the order they end), then the whole."""

    def on_game(self, report: GameReport, standings: Standings) -> None: ...

    def on_end(self, standings: Standings) -> None: ...


def run(standings: Standings, plan: Sequence[Pairing], play: GamePlayer, *, jobs: int = 1,
        runner: Runner = in_threads, outputs: Sequence[OutputFormat] = ()) -> Standings:
    """Play `plan` with `play`, `jobs` at a time by `runner`, counting each game into `standings` and
    showing it through `outputs`; an SPRT that decides stops the run (the games under way are played out
    and not counted).  The outputs' `on_end` is called once the games are over, not after an error."""

    def count(report: GameReport) -> bool:
        standings.add(report)
        for out in outputs:
            out.on_game(report, standings)
        report.result.record = None  # the outputs had it: a long run must not keep every game's stderr
        return standings.decided

    runner(play, plan, jobs, count)
    standings.games.sort(key=lambda pr: pr[0].index)
    for out in outputs:
        out.on_end(standings)
    return standings
