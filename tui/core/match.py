"""`termarena match`: a tournament between player specs, run as refereed bot processes on several cores."""
from __future__ import annotations

import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from ai.tournament import Pairing, Score, elo_with_error, schedule
from engines.referee import MatchResult, run_match
from engines.referee.process import end_all_bots
from tui.core.specs import PlayerSpec, bot_argv


@dataclass
class TournamentResult:
    game: str
    specs: list[PlayerSpec]
    scores: dict[tuple[int, int], Score]  # (a, b) with a < b, from a's side
    games: list[tuple[Pairing, MatchResult]]


def run_tournament(game: str, specs: list[PlayerSpec], games_per_pair: int, seed: int, jobs: int,
                   time_limits: bool, think_ms: int | None = None, on_result=None, record=None) -> TournamentResult:
    """`record(pairing, result)`, when given, is called in the game's own thread with each game played
    with its turn-by-turn record (--record)."""
    plan = schedule(len(specs), games_per_pair, seed)
    argvs = [bot_argv(game, s, think_ms) for s in specs]
    scores = {(a, b): Score() for a in range(len(specs)) for b in range(a + 1, len(specs))}
    done: list[tuple[Pairing, MatchResult]] = []
    lock = threading.Lock()

    def play(p: Pairing) -> tuple[Pairing, MatchResult]:
        seats = p.seats
        res = run_match(game, [argvs[seats[0]], argvs[seats[1]]], seed=p.seed,
                        labels=[specs[seats[0]].label, specs[seats[1]].label], time_limits=time_limits,
                        record=record is not None)
        if record is not None:
            record(p, res)
            res.record = None  # written: a long match does not keep every game's stderr
        return p, res

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(play, p) for p in plan]
        try:
            for fut in as_completed(futures):
                p, res = fut.result()
                with lock:
                    sc = scores[(p.a, p.b)]
                    if res.winner is None:
                        sc.add(0.5)
                    else:
                        sc.add(1.0 if res.winner == p.a_seat else 0.0)
                    if res.error:
                        sc.errors.append(res.error)
                    done.append((p, res))
                if on_result is not None:
                    on_result(p, res)
        except BaseException as e:
            pool.shutdown(wait=False, cancel_futures=True)  # no new game starts
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                # Ctrl-C or a signal: the games being played end now (their bots are ended), so
                # leaving the pool does not wait for them to be played out.
                end_all_bots()
            raise
    done.sort(key=lambda pr: pr[0].index)
    return TournamentResult(game, specs, scores, done)


def to_json(t: TournamentResult) -> dict:
    pairs = []
    for (a, b), sc in t.scores.items():
        elo, err = elo_with_error(sc)
        pairs.append({"a": t.specs[a].label, "b": t.specs[b].label, "wins": sc.wins, "draws": sc.draws,
                      "losses": sc.losses, "score": sc.fraction, "elo": round(elo, 1),
                      "elo_error": None if err == float("inf") else round(err, 1),
                      "errors": sc.errors[:10]})
    return {"game": t.game, "players": [s.label for s in t.specs], "pairs": pairs,
            "games": [dict(r.to_json(), pairing=p.index) for p, r in t.games]}


def print_table(t: TournamentResult, console) -> None:
    from rich.table import Table

    table = Table(title=f"{t.game}: {len(t.games)} games")
    for col in ("player A", "player B", "W", "D", "L", "score A", "Elo A-B", "errors"):
        table.add_column(col, justify="left" if col.startswith("player") else "right")
    for (a, b), sc in t.scores.items():
        elo, err = elo_with_error(sc)
        bar = "" if err == float("inf") else f" ± {err:.0f}"
        table.add_row(t.specs[a].label, t.specs[b].label, str(sc.wins), str(sc.draws), str(sc.losses),
                      f"{100 * sc.fraction:.1f}%", f"{elo:+.0f}{bar}", str(len(sc.errors)))
    console.print(table)
    for (a, b), sc in t.scores.items():
        for e in sc.errors[:3]:
            console.print(f"[red]{t.specs[a].label} vs {t.specs[b].label}:[/] {e}", highlight=False)


def run_match_command(game: str, specs: list[PlayerSpec], games: int, seed: int, jobs: int, as_json: bool,
                      time_limits: bool, think_ms: int | None, record=None) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    total = len(schedule(len(specs), games, seed))
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[last]}"), console=console,
                  transient=True) as progress:
        task = progress.add_task(f"{game}", total=total, last="")

        def on_result(p: Pairing, res: MatchResult) -> None:
            who = "draw" if res.winner is None else f"{res.seats[res.winner]} won"
            progress.update(task, advance=1, last=f"last: {who} ({res.reason}, {res.turns} turns)")

        t = run_tournament(game, specs, games, seed, jobs, time_limits, think_ms, on_result, record)
    print_table(t, console if as_json else Console())
    if as_json:
        sys.stdout.write(json.dumps(to_json(t)) + "\n")
