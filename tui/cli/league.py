"""`termarena league add/remove/run/table`: a persistent league of bots on an SQLite file."""
from __future__ import annotations

import json
import sys
from contextlib import ExitStack, contextmanager
from typing import Iterator, Optional

import typer

from engines.endings import headline
from engines.numbers import one_line
from engines.visible import visible
from tui.cli.app import app
from tui.cli.args import (
    CLUSTER_HELP,
    GAMES_HELP,
    MAX_GAMES,
    MAX_JOBS,
    MAX_THINK_MS,
    cluster_option,
    fail,
    game_id,
    player_spec,
    shown_path,
    stderr_console,
)
from tui.core.league import DEFAULT_DB

# SQLite, openskill and Ray's adapter are imported by the commands that use them, not by every
# `termarena` start (the CLI loads every command module).

league_app = typer.Typer(help="A persistent league: players, rated games, the table (an SQLite file).",
                         no_args_is_help=True)
app.add_typer(league_app, name="league")

DB_HELP = "The league's database file (made by the first `league add`)."
db_option = typer.Option(DEFAULT_DB, "--db", help=DB_HELP)


@contextmanager
def league_errors() -> Iterator[None]:
    """A league that cannot be read or written is one line on stderr and exit status 1, never a traceback."""
    import sqlite3

    from tui.core.cluster import ClusterError
    from tui.core.league.db import LeagueError

    try:
        yield
    except (LeagueError, ClusterError) as e:
        fail("league", str(e))
    except (sqlite3.Error, UnicodeDecodeError) as e:  # a file damaged or changed behind our back (SQLite's
        # message may then quote bytes that are not UTF-8), a full disk, a lock held too long
        fail("league", f"the league database failed: {one_line(str(e))}")


@league_app.command("add")
def add(
    game: str = typer.Argument(..., help=GAMES_HELP),
    name: str = typer.Argument(..., help="The player's name in the league: letters, digits, . _ + -"),
    spec: str = typer.Argument(..., help="Who plays: ai:N or cmd:COMMAND (or any command)."),
    db: str = db_option,
) -> None:
    """Add a player to GAME's league (creating the database if needed)."""
    from tui.core.league.db import LeagueDB, LeagueError, check_name

    gid = game_id(game)
    parsed = player_spec(spec, allow_human=False, option="SPEC")
    try:
        check_name(name)  # before the file is made
    except LeagueError as e:
        raise typer.BadParameter(str(e), param_hint="NAME") from None
    with league_errors(), LeagueDB(db, create=True) as league:
        league.add_player(gid, name, parsed)
    # a spec is anyone's text (it may hold terminal control sequences): shown escaped
    stderr_console().print(f"{gid}: {name} ({visible(parsed.label)}) joins the league in {shown_path(db)}",
                           highlight=False, markup=False, soft_wrap=True)


@league_app.command("remove")
def remove(
    game: str = typer.Argument(..., help=GAMES_HELP),
    name: str = typer.Argument(..., help="The player to remove."),
    db: str = db_option,
) -> None:
    """Take a player out of GAME's league: it plays no more and leaves the table; its games stay."""
    from tui.core.league.db import LeagueDB

    gid = game_id(game)
    with league_errors(), LeagueDB(db) as league:
        league.remove_player(gid, name)
    stderr_console().print(f"{gid}: {name} leaves the league", highlight=False, markup=False, soft_wrap=True)


@league_app.command("run")
def run(
    game: str = typer.Argument(..., help=GAMES_HELP),
    games: int = typer.Option(100, "--games", "-n", min=1, max=MAX_GAMES, help="Games to play in this run."),
    jobs: int = typer.Option(2, "--jobs", "-j", min=1, max=MAX_JOBS, help="Games played at the same time."),
    think_ms: Optional[int] = typer.Option(None, "--think-ms", min=1, max=MAX_THINK_MS,
                                           help="Budget per turn of every AI player."),
    no_time_limit: bool = typer.Option(False, "--no-time-limit", help="Do not enforce the referee's limits."),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP),
    db: str = db_option,
) -> None:
    """Play more games of GAME's league, the most instructive pairs first, each stored as it ends."""
    from tui.core.league.db import LeagueDB
    from tui.core.league.run import run_league
    from tui.core.league.table import table_rows

    gid = game_id(game)
    cluster = cluster_option(cluster)
    console = stderr_console()
    lines = RunLines(console, games)

    with league_errors(), LeagueDB(db) as league, ExitStack() as stack:
        league.check_owner()
        league.check_writable()
        runner = None  # this machine's threads
        if cluster is not None:
            from tui.core.cluster import open_cluster

            runner = open_cluster(stack, cluster, jobs, console).play
        console.print(f"{gid}: {league.count_games(gid)} games stored; playing {games} more, {jobs} at a time"
                      + (f" on Ray ({cluster})" if cluster else ""), highlight=False, markup=False, soft_wrap=True)
        try:
            ratings = run_league(league, gid, games, think_ms, not no_time_limit, jobs=jobs, runner=runner,
                                 outputs=[lines])
        except (KeyboardInterrupt, SystemExit):  # Ctrl-C, SIGTERM, SIGHUP
            console.print(f"stopped: the {lines.stored} games this run finished are stored; the next run goes on "
                          f"from there", highlight=False, markup=False, soft_wrap=True)
            raise
        rows, stored = table_rows(league, gid, ratings), league.count_games(gid)
    _print_table(gid, rows, stored)


class RunLines:
    """`league run`'s output (ai.tournament.loop.OutputFormat): a line for each game once it is stored,
    or found stored by another run."""

    def __init__(self, console, games: int) -> None:
        self.console, self.games = console, games
        self.stored = 0  # games this run stored, for the line a stopped run ends with

    def on_game(self, report, standings) -> None:
        f = standings.last  # tui.core.league.run.RoundStandings: how the game was stored
        self.stored = f.number
        r = f.result
        seats = [visible(name) for name in r.seats]
        if f.stored_id is None:
            self.console.print(f"{seats[0]} vs {seats[1]}, seed {r.seed}: another run stored this game first; "
                               f"not stored again", highlight=False, markup=False, soft_wrap=True)
            return
        who = headline(r.outcome, tuple(seats))
        count = f"{f.number}/{self.games}" if f.number <= self.games else f"{f.number} (finishing a pair)"
        self.console.print(f"game {count}: {seats[0]} vs {seats[1]}: {who} ({r.outcome.reason}, {r.turns} turns, "
                           f"seed {r.seed})", highlight=False, markup=False, soft_wrap=True)
        if r.error:  # may quote a bot's answer
            self.console.print(f"  {visible(r.error)}", style="red", highlight=False, markup=False, soft_wrap=True)

    def on_end(self, standings) -> None:
        pass


@league_app.command("table")
def table(
    game: str = typer.Argument(..., help=GAMES_HELP),
    as_json: bool = typer.Option(False, "--json", help="The table as a JSON list on stdout, best first."),
    db: str = db_option,
) -> None:
    """GAME's league table, best first: games, wins, draws, losses and the openskill rating."""
    from tui.core.league.db import LeagueDB
    from tui.core.league.table import table_rows

    gid = game_id(game)
    with league_errors(), LeagueDB(db) as league:
        rows, stored = table_rows(league, gid), league.count_games(gid)
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
    else:
        _print_table(gid, rows, stored)


def _print_table(game: str, rows: list[dict], stored: int) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = Table(title=f"{game} league: {len(rows)} players, {stored} games",
                caption="rating = mu - 3 sigma (openskill, Plackett-Luce)")
    for col in ("#", "name", "spec", "games", "W", "D", "L", "mu", "sigma", "rating"):
        # a name or spec folds over lines rather than losing its end (which bot it is)
        out.add_column(col, justify="left" if col in ("name", "spec") else "right",
                       overflow="fold" if col in ("name", "spec") else "ellipsis")
    for r in rows:
        # a command is shown as it is, its control characters escaped, never read as rich markup
        out.add_row(str(r["rank"]), Text(visible(r["name"])), Text(visible(r["spec"])), str(r["games"]),
                    str(r["wins"]), str(r["draws"]),
                    str(r["losses"]), f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['rating']:.2f}")
    Console().print(out)
