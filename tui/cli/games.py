"""The game commands: the app on one game, headless refereed games and tournaments, the bot, benchmarks."""
from __future__ import annotations

import random
import sys
from typing import Optional

import typer

from engines import game_ids
from engines.endings import headline, seat_side, seat_word
from engines.visible import visible
from tui.cli.app import app
from tui.cli.args import (
    CLOCK_HELP,
    CLUSTER_HELP,
    DEFAULT_P1,
    DEFAULT_P2,
    GAMES_HELP,
    MAX_BENCH_SECONDS,
    MAX_GAMES,
    MAX_JOBS,
    MAX_THINK_MS,
    SAVES_HELP,
    SPRT_MAX_GAMES,
    Seed,
    check_seed_run,
    clock_option,
    cluster_option,
    exit_with,
    game_id,
    player_spec,
    saves_option,
    shown_path,
    stderr_console,
)
from tui.core.specs import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL, PlayerSpec, bot_argv

RECORD_HELP = ("Write every game to DIR as a save file (one a game) with each turn's answers, times and "
               "both bots' stderr; `termarena replay FILE` shows it.")


def record_folder(record: str | None):
    """--record DIR: refused at once when games cannot be written there, not after the first game."""
    if record is None:
        return None
    from tui.core.record import RecordFolder

    folder = RecordFolder(record)
    problem = folder.check()
    if problem:
        raise typer.BadParameter(problem, param_hint="--record")
    return folder


def write_record(folder, result, index: int):
    """One game written to the --record folder; a failed write ends the command with one line."""
    from tui.core.storage import StorageError

    try:
        return folder.write(result, index)
    except StorageError as e:
        stderr_console().print(f"termarena: {visible(str(e))}", style="red", highlight=False, markup=False)
        raise typer.Exit(1) from None

@app.command()
def play(
    ctx: typer.Context,
    game: str = typer.Argument(..., help=GAMES_HELP),
    p1: Optional[str] = typer.Option(None, "--p1", show_default=DEFAULT_P1,
                                     help="p1, who moves first: human, ai, ai:N, cmd:COMMAND. With --load: "
                                          "replaces the file's player."),
    p2: Optional[str] = typer.Option(None, "--p2", show_default=DEFAULT_P2,
                                     help="p2: human, ai, ai:N, cmd:COMMAND. With --load: replaces the "
                                          "file's player."),
    seed: Optional[int] = typer.Option(None, "--seed", parser=Seed(),
                                       help="Game seed (Cultist Wars map); random if not given. "
                                                            "With --load, the file's seed wins."),
    load: Optional[str] = typer.Option(None, "--load", help="Start from a saved game or position file: "
                                                            "play on from where it stopped."),
    saves_dir: Optional[str] = typer.Option(None, "--saves-dir", help=SAVES_HELP),
    no_time_limit: bool = typer.Option(False, "--no-time-limit",
                                       help="Wait for external bots as long as they take (default: the "
                                            "CodinGame limits, e.g. 100 ms a turn in Connect 4)."),
    think_ms: Optional[int] = typer.Option(None, "--think-ms", min=1, max=MAX_THINK_MS,
                                           help="How long the AI may think per move, in ms (default: each "
                                                "level's own time; node budgets still apply)."),
    clock: Optional[str] = typer.Option(None, "--clock", metavar="MIN+INC", help=CLOCK_HELP),
) -> None:
    """Open GAME straight away (default: you against the AI)."""
    gid = game_id(game)
    given = [None if p is None else player_spec(p, allow_human=True, option=opt) for p, opt in ((p1, "--p1"), (p2, "--p2"))]
    defaults = [player_spec(DEFAULT_P1, allow_human=True, option="--p1"), player_spec(DEFAULT_P2, allow_human=True, option="--p2")]
    specs = [g or d for g, d in zip(given, defaults)]
    saves = saves_option(saves_dir) or (ctx.obj or {}).get("saves_dir")
    clock_spec = clock_option(clock)
    if load is not None:
        _check_bots_can_join(gid, load, given)
    from tui.app import run_app

    exit_with(run_app(game=gid, specs=specs, seed=seed, load=load,
                       overrides=given if load is not None else None, saves=saves,
                       bot_time_limits=not no_time_limit, ai_think_ms=think_ms, clock=clock_spec))


def _check_bots_can_join(gid: str, load: str, given: list[PlayerSpec | None]) -> None:
    """An external bot given with --p1/--p2 cannot join a saved game that has moves: a CodinGame bot only
    knows games from their start.  Refused here, before the app starts, in one line.  (Other problems
    with the file, and bots written in the file itself, are told in the app.)"""
    bots = [(n, s) for n, s in enumerate(given, 1) if s is not None and s.kind == "cmd"]
    if not bots:
        return
    from pathlib import Path

    from tui.core.storage import StorageError, load_game

    try:
        saved, _ = load_game(Path(load).expanduser(), gid)
    except StorageError:
        return  # the app says what is wrong with the file
    if saved.moves:
        n, spec = bots[0]
        raise typer.BadParameter(
            f"the bot {spec.command!r} cannot join {load}: the game has {len(saved.moves)} moves already and "
            f"an external bot only understands a game from its start (play it as human or ai:N, or load a "
            f"position file, which has no moves)", param_hint=f"--p{n}")


@app.command()
def referee(
    game: str = typer.Argument(..., help=GAMES_HELP),
    p1: str = typer.Option(..., "--p1", help="p1, who moves first: ai, ai:N, cmd:COMMAND (or any command)."),
    p2: str = typer.Option(..., "--p2", help="p2, who moves second."),
    seed: Optional[int] = typer.Option(None, "--seed", parser=Seed(),
                                       help="Seed of game 0 (game k uses seed+k); random if not given."),
    games: int = typer.Option(1, "--games", min=1, max=MAX_GAMES, help="Number of games."),
    swap: bool = typer.Option(False, "--swap", help="On odd games --p1 moves second (as p2) and --p2 first."),
    no_time_limit: bool = typer.Option(False, "--no-time-limit", help="Wait for bots as long as they take."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per game on stdout."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show the bots' stderr as it comes."),
    record: Optional[str] = typer.Option(None, "--record", metavar="DIR", help=RECORD_HELP),
) -> None:
    """Play bots against each other headless, exactly as the official CodinGame referee would."""
    from functools import partial

    from ai.tournament import series
    from ai.tournament.loop import Standings, run
    from ai.tournament.outputs import JsonLines
    from ai.tournament.refereed import Refereed
    from ai.tournament.runners import in_order

    gid = game_id(game)
    specs = [player_spec(p1, allow_human=False, option="--p1"), player_spec(p2, allow_human=False, option="--p2")]
    if seed is None:
        seed = random.randrange(1 << 31)
    check_seed_run(seed, games)
    recorder = record_folder(record)
    console = stderr_console()
    on_stderr = (lambda s, line: console.print(stderr_line(s, line), highlight=False, soft_wrap=True)) \
        if verbose else None
    labels = [s.label for s in specs]
    player = Refereed(gid, [partial(bot_argv, gid, s) for s in specs], labels, not no_time_limit,
                      recorder is not None, seeded=False, on_stderr=on_stderr)
    outputs = ([JsonLines(sys.stdout)] if as_json else []) + [RefereeLines(console, recorder)]
    plan = series(games, seed, swap)
    run(Standings.start(gid, labels, len(plan)), plan, player, runner=in_order, outputs=outputs)


class RefereeLines:
    """`referee`'s text on stderr: a line per game (and its fault), and where --record wrote it."""

    def __init__(self, console, recorder) -> None:
        self.console, self.recorder = console, recorder

    def on_game(self, report, standings) -> None:
        result, k = report.result, report.pairing.index
        out = result.outcome
        who = headline(out, tuple(seat_side(i, label) for i, label in enumerate(result.seats)))
        line = (f"game {k} seed {report.pairing.seed}: {who}, scores {out.scores[0]}:{out.scores[1]}, "
                f"{out.reason}, {result.turns} turns")
        self.console.print(line, highlight=False, markup=False)
        if result.error:
            self.console.print(f"  {visible(result.error)}", style="red", highlight=False, markup=False)
        if self.recorder is not None:
            self.console.print(f"  recorded in {shown_path(write_record(self.recorder, result, k))}",
                               highlight=False, markup=False)

    def on_end(self, standings) -> None:
        """With more than one game, the tally by player name (one name when both are the same spec)."""
        if standings.planned < 2:
            return
        sc, names = standings.scores[(0, 1)], standings.names
        tally = {names[0]: 0, names[1]: 0, "draw": 0}
        tally[names[0]] += sc.wins
        tally[names[1]] += sc.losses
        tally["draw"] += sc.draws
        summary = ", ".join(f"{visible(name)}: {n}" for name, n in tally.items())
        self.console.print(f"{standings.planned} games: {summary}", highlight=False, markup=False)


def stderr_line(seat: int, line: str):
    """A line a bot printed on stderr, for `referee -v`: its control characters escaped, its brackets
    shown as they are (never read as markup: `[/x]` stays, `[link=...]` makes no link)."""
    from rich.text import Text

    return Text.assemble((f"{seat_word(seat)}: ", "dim"), visible(line))


@app.command()
def bot(
    game: str = typer.Argument(..., help=GAMES_HELP),
    level: int = typer.Option(DEFAULT_LEVEL, "--level", min=MIN_LEVEL, max=MAX_LEVEL, help="AI level."),
    think_ms: Optional[int] = typer.Option(None, "--think-ms", min=1, max=MAX_THINK_MS,
                                           help="Time budget per turn in ms (default: the level's budget, "
                                                "always inside the CodinGame time limits)."),
    seed: Optional[int] = typer.Option(None, "--seed", parser=Seed(0, (1 << 64) - 1),
                                       help="Seed of the bot's own randomness."),
) -> None:
    """The built-in AI as a CodinGame bot: reads the game's input on stdin, answers on stdout.

    Any referee can host it (this one, the official one, another project's). By default it answers
    well inside the game's CodinGame time limits (first turn and later turns).
    """
    from ai.bot import main as bot_main

    gid = game_id(game)
    argv = [gid, "--level", str(level)] + (["--think-ms", str(think_ms)] if think_ms else []) \
        + (["--seed", str(seed)] if seed is not None else [])
    raise typer.Exit(bot_main(argv))


@app.command()
def match(
    game: str = typer.Argument(..., help=GAMES_HELP),
    players: list[str] = typer.Argument(..., help="Two or more player specs: ai:N, cmd:COMMAND."),
    games: Optional[int] = typer.Option(None, "--games", "-n", min=1, max=MAX_GAMES, show_default="100",
                                        help="Games per pair (rounded up to even). Default 100; with "
                                             "--openings each opening once per colour; with --sprt at "
                                             f"most {SPRT_MAX_GAMES}."),
    seed: Optional[int] = typer.Option(None, "--seed", parser=Seed(),
                                       help="Seed of the first pair of games."),
    jobs: int = typer.Option(2, "--jobs", "-j", min=1, max=MAX_JOBS, help="Games played at the same time."),
    think_ms: Optional[int] = typer.Option(None, "--think-ms", min=1, max=MAX_THINK_MS,
                                           help="Budget per turn of every AI."),
    no_time_limit: bool = typer.Option(False, "--no-time-limit", help="Do not enforce the referee's limits."),
    openings: Optional[str] = typer.Option(None, "--openings", metavar="FILE",
                                           help="One opening a line: moves separated by spaces (Cultist Wars: "
                                                "a map seed); each is played once with each colour."),
    sprt: Optional[tuple[float, float]] = typer.Option(None, "--sprt", metavar="ELO0 ELO1",
                                                       help="Two players: stop as soon as a sequential test "
                                                            "accepts Elo <= ELO0 (H0) or Elo >= ELO1 (H1)."),
    alpha: float = typer.Option(0.05, "--alpha", min=1e-6, max=0.5, help="SPRT: the chance of accepting H1 wrongly."),
    beta: float = typer.Option(0.05, "--beta", min=1e-6, max=0.5, help="SPRT: the chance of accepting H0 wrongly."),
    sprt_model: str = typer.Option("logistic", "--sprt-model",
                                   help="SPRT Elo model: logistic (the Elo of the table) or normalized "
                                        "(fastchess's default)."),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP),
    as_json: bool = typer.Option(False, "--json", help="Results as one JSON object on stdout."),
    record: Optional[str] = typer.Option(None, "--record", metavar="DIR", help=RECORD_HELP),
) -> None:
    """A tournament: every pair of players plays colour-swapped games; W/D/L, score and Elo difference,
    results by seat and answer times; optionally from an openings file and stopped by an SPRT."""
    from tui.core.match import run_match_command

    gid = game_id(game)
    specs = [player_spec(p, allow_human=False, option="PLAYERS") for p in players]
    if len(specs) < 2:
        raise typer.BadParameter("give at least two players", param_hint="PLAYERS")
    book = openings_option(openings, gid)
    test = sprt_option(sprt, alpha, beta, sprt_model, len(specs))
    if games is None:
        games = SPRT_MAX_GAMES if test else 2 * len(book) if book else 100
    if seed is None:
        seed = random.randrange(1 << 31)
    check_seed_run(seed, (games + 1) // 2)
    from tui.core.cluster import ClusterError

    from ai.tournament.outputs import EachGame

    recorder = record_folder(record)
    recording = None if recorder is None else \
        EachGame(lambda report, _: write_record(recorder, report.result, report.pairing.index))
    try:
        run_match_command(gid, specs, games, seed, jobs, as_json, not no_time_limit, think_ms, book, test,
                          cluster_option(cluster), recording)
    except ClusterError as e:
        stderr_console().print(f"termarena: {e}", highlight=False, markup=False)
        raise typer.Exit(1) from None
    if recorder is not None:
        stderr_console().print(f"{len(recorder.written)} games recorded in {shown_path(recorder.folder)}",
                               highlight=False, markup=False)


def openings_option(path: str | None, gid: str):
    if path is None:
        return None
    from pathlib import Path

    from tui.core.openings import OpeningsError, load_openings

    try:
        return load_openings(Path(path).expanduser(), gid)
    except OpeningsError as e:
        raise typer.BadParameter(str(e), param_hint="--openings") from None


def sprt_option(values: tuple[float, float] | None, alpha: float, beta: float, model: str, players: int):
    if values is None:
        return None
    from ai.sprt import Sprt

    if players != 2:
        raise typer.BadParameter("an SPRT compares two players", param_hint="--sprt")
    try:
        return Sprt(values[0], values[1], alpha, beta, model)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--sprt") from None


@app.command()
def bench(
    game: Optional[str] = typer.Argument(None, help=GAMES_HELP + " All games if not given."),
    seconds: float = typer.Option(2.0, "--seconds", min=0.1, max=MAX_BENCH_SECONDS, help="Time per measurement."),
) -> None:
    """Engine and AI speed per game: random playouts (games/s, plies/s) and top-level search (nodes/s);
    with the yardstick extra installed, OpenSpiel's C++ playouts/s on its nearest game, in the same run."""
    from rich.console import Console
    from rich.table import Table

    from ai.bench import (compiled_note, compiled_search_speed, openspiel_game, openspiel_installed, openspiel_playouts,
                          prepare_compiled, random_playouts, search_speed)
    from engines import get_game

    ids = [game_id(game)] if game else list(game_ids())
    with_openspiel = openspiel_installed()
    caption = "OpenSpiel's C++ rates beside these: pip install 'termarena\\[yardstick]'"
    if with_openspiel:
        nearest = [f"{name} ({note})" if note else name for name, note in filter(None, map(openspiel_game, game_ids()))]
        caption = (f"OpenSpiel: simulations/s of its C++ MCTS with random rollouts, on {' and '.join(nearest)}; "
                   "× = termarena's games/s ÷ OpenSpiel's")
    # compiled searches are loaded (or compiled, once) here, before any clock starts
    compiled = {gid: problem for gid in ids if (problem := prepare_compiled(gid)) is not None}
    with_compiled = bool(compiled)
    for gid, problem in compiled.items():
        title = get_game(gid).title
        caption += (f"\n{title}'s compiled search: pip install 'termarena\\[fast]'" if problem
                    else f"\ncompiled: {title}'s level 6 with the `fast` extra (numba), "
                         f"{compiled_note(gid) or 'same answers'}")
    table = Table(title=f"termarena bench ({seconds:g} s per measurement, one core)", caption=caption)
    columns = ["game", "games", "plies", "games/s", "plies/s", "search nodes/s"]
    if with_compiled:
        columns.append("compiled nodes/s")
    if with_openspiel:
        columns += ["OpenSpiel games/s", "×"]
    for col in columns:
        # the two-word headers on two lines, so that they take no room from the game's id ("paper-socc…")
        table.add_column(col.replace(" ", "\n") if col != "game" else col, justify="left" if col == "game" else "right")
    for gid in ids:
        f = random_playouts(gid, seconds)
        s = search_speed(gid, seconds)
        nps = "-" if s is None else f"{s[0] / s[1]:,.0f}"
        row = [gid, str(f.games), str(f.plies), f"{f.games_per_s:,.1f}", f"{f.plies_per_s:,.0f}", nps]
        if with_compiled:
            c = compiled_search_speed(gid, seconds)
            row.append("-" if c is None else f"{c[0] / c[1]:,.0f}")
        if with_openspiel:
            rate = openspiel_playouts(gid, seconds)
            row += ["-", "-"] if rate is None else [f"{rate:,.0f}", f"{f.games_per_s / rate:.2f}"]
        table.add_row(*row)
    Console().print(table)


@app.command()
def prepare() -> None:
    """Compile the fast searches (the `fast` extra) now, once after installing or upgrading, instead of
    during the first games; the app does it by itself at its first start, in the background."""
    import time

    from ai.compile_ahead import accelerators
    from engines import get_game

    err = stderr_console()
    for gid, accelerator in accelerators():
        title = get_game(gid).title
        started = time.monotonic()
        with err.status(f"loading {title}'s compiled search…") as status:
            def show(progress) -> None:
                if progress.compiling and not progress.finished:
                    status.update(f"compiling the fast {title} search… {progress.percent}% "
                                  "(about half a minute of CPU, once)")

            final = accelerator.prepare(show)
        if final.error:
            err.print(f"termarena: {final.error}", style="red", highlight=False, markup=False)
            raise typer.Exit(1)
        how = "compiled" if final.compiling else "loaded from numba's cache"
        print(f"{title}'s compiled search is ready: {how} in {time.monotonic() - started:.1f} s")
