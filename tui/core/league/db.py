"""The league's SQLite file: its schema, and the few reads and writes the league makes.

What is stored is what happened (players, and every finished game with its result); ratings are derived
from the games (tui.core.league.ratings), never stored, so they can always be recomputed.

Several processes may use one file at once (two `league run`, an `add` during a run): the file is in WAL
mode, every write is one short transaction (`BEGIN IMMEDIATE`), and a writer waits up to BUSY_TIMEOUT_S
for another.  A game is committed the moment it ends, so a run killed by any signal, SIGKILL included,
loses only the games under way.  Runs share the work without claiming it: a game already stored (the
same seed and seats: two runs both played the second game a pair owed) is not stored again, in the
transaction that checks it (record_game).

The file is not trusted: it must be a regular file of at most MAX_DB_BYTES holding exactly our schema
(compared statement by statement, so no trigger or view of someone else's runs), and every row read is
checked (types, names, specs, seats) before it is used.  Whatever is wrong is one LeagueError line.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from engines.numbers import quote
from engines.referee import MatchResult
from tui.core.specs import PlayerSpec, SpecError, parse_spec
from tui.core.storage import StorageError, regular_file_stat, shown

APPLICATION_ID = 0x74726C67  # "trlg": marks the file as a termarena league for `file` and for us
SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 30.0
MAX_DB_BYTES = 4 << 30  # a league of a million games takes well under a gigabyte
MAX_GAMES_READ = 2_000_000  # games of one game id that a table or a run will rate
MAX_SPEC_CHARS = 1000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,39}$")

# Compared with sqlite_master as stored: a file with anything else in it is not one of ours.
SCHEMA = {
    ("table", "players"): """CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    added TEXT NOT NULL,
    removed TEXT
)""",
    # a name is unique among a game's present players; a removed player keeps its games under its id
    ("index", "players_present"): "CREATE UNIQUE INDEX players_present ON players (game, name) WHERE removed IS NULL",
    ("table", "games"): """CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    seat0 INTEGER NOT NULL REFERENCES players (id),
    seat1 INTEGER NOT NULL REFERENCES players (id),
    seed INTEGER NOT NULL,
    winner INTEGER CHECK (winner IN (0, 1)),
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    moves TEXT NOT NULL,
    error TEXT,
    think_ms INTEGER,
    time_limits INTEGER NOT NULL,
    finished TEXT NOT NULL
)""",
    ("index", "games_in_order"): "CREATE INDEX games_in_order ON games (game, id)",
    # finds a game's colour-swapped twin without reading every game (see unanswered)
    ("index", "games_twins"): "CREATE INDEX games_twins ON games (game, seed, seat0, seat1)",
}

# what SQLite adds for AUTOINCREMENT; anything else (a trigger, a view, another table) is refused
STORED_SCHEMA = {**SCHEMA, ("table", "sqlite_sequence"): "CREATE TABLE sqlite_sequence(name,seq)"}


class LeagueError(Exception):
    """A league command that cannot be done; the message is one line that says why."""


@dataclass(frozen=True)
class Player:
    id: int
    game: str
    name: str
    spec: PlayerSpec
    removed: bool = False


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as the ratings need it: who sat where, and who won (None: a draw)."""

    id: int
    seat0: int
    seat1: int
    seed: int
    winner: int | None


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise LeagueError(f"{quote(name)} is not a usable player name: 1 to 40 letters, digits and . _ + -, "
                          f"starting with a letter or digit")
    return name


def player_spec_text(spec: PlayerSpec) -> str:
    if len(spec.label) > MAX_SPEC_CHARS:
        raise LeagueError(f"the spec is longer than {MAX_SPEC_CHARS} characters")
    return spec.label


class LeagueDB:
    """One open league file.  Use as a context manager, or call close()."""

    def __init__(self, path: str | os.PathLike, create: bool = False) -> None:
        self.path = Path(path).expanduser()
        _check_file(self.path, create)
        try:
            self.conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as e:
            raise LeagueError(f"{shown(self.path)}: cannot open: {e}") from None
        self.conn.text_factory = _text
        try:
            self._prepare(create)
        except sqlite3.OperationalError as e:  # read-only, locked past the busy timeout, an I/O error
            self.conn.close()
            raise LeagueError(f"{shown(self.path)}: cannot use it: {e}") from None
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # not a database, or a damaged one (whose
            # schema SQLite reports in an error message that is not UTF-8)
            self.conn.close()
            raise LeagueError(f"{shown(self.path)}: not a termarena league ({e})") from None
        except BaseException:
            self.conn.close()
            raise

    def __enter__(self) -> "LeagueDB":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------------ opening

    def _prepare(self, create: bool) -> None:
        c = self.conn
        # nothing stored in the file may call functions with side effects (and a file with views or
        # triggers is refused by the schema check)
        c.execute("PRAGMA trusted_schema = OFF")
        fresh = self._is_fresh()  # reading a file that is not a database raises here, before any write
        if fresh and not create:
            raise LeagueError(f"{shown(self.path)}: an empty database, not a league yet (`league add` makes one)")
        if not fresh:
            self._check_schema()  # someone else's database is refused before anything is changed in it
        if c.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
            raise LeagueError(f"{shown(self.path)}: SQLite cannot keep a write-ahead log there")
        c.execute("PRAGMA synchronous = FULL")
        c.execute("PRAGMA foreign_keys = ON")
        if fresh:
            with self._write():
                if self._is_fresh():  # another process may have made it while this one waited for the lock
                    for sql in SCHEMA.values():
                        c.execute(sql)
                    c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._check_schema()

    def _is_fresh(self) -> bool:
        c = self.conn
        return (c.execute("PRAGMA application_id").fetchone()[0] == 0
                and c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0)

    def _check_schema(self) -> None:
        c = self.conn
        where = shown(self.path)
        if c.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise LeagueError(f"{where}: an SQLite database, but not a termarena league")
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise LeagueError(f"{where}: a league of schema version {version}; this termarena reads version "
                              f"{SCHEMA_VERSION}")
        found = {(t, n): sql for t, n, sql in c.execute("SELECT type, name, sql FROM sqlite_master")}
        if found != STORED_SCHEMA:
            # (a damaged file may hold bytes where names are: no sorting, no formatting beyond str())
            kind, name = next(k for k in {**STORED_SCHEMA, **found} if found.get(k) != STORED_SCHEMA.get(k))
            raise LeagueError(f"{where}: not the league schema (the {quote(str(kind))} {quote(str(name))} differs)")

    def check_owner(self) -> None:
        """A league lists programs that `league run` starts: a file another user owns or may write could
        make it start theirs, so run refuses it (as ssh refuses such a config file)."""
        if os.name != "posix":
            return
        info = os.stat(self.path)
        if info.st_uid != os.getuid():
            raise LeagueError(f"{shown(self.path)} belongs to another user: its cmd: players would run as you "
                              f"(copy it to make it yours)")
        if info.st_mode & 0o022:
            raise LeagueError(f"{shown(self.path)} may be written by other users: its cmd: players would run "
                              f"as you (chmod go-w)")

    # ------------------------------------------------------------------ players

    def add_player(self, game: str, name: str, spec: PlayerSpec) -> Player:
        check_name(name)
        text = player_spec_text(spec)
        with self._write():
            if self._present_id(game, name) is not None:
                raise LeagueError(f"{game} already has a player named {name}")
            cur = self.conn.execute("INSERT INTO players (game, name, spec, added) VALUES (?, ?, ?, ?)",
                                    (game, name, text, _now()))
        return Player(cur.lastrowid, game, name, spec)

    def remove_player(self, game: str, name: str) -> None:
        """The player stops playing and leaves the table; its games stay (the others' ratings keep them)."""
        with self._write():
            pid = self._present_id(game, name)
            if pid is None:
                raise LeagueError(f"{game} has no player named {quote(name)}")
            self.conn.execute("UPDATE players SET removed = ? WHERE id = ?", (_now(), pid))

    def _present_id(self, game: str, name: str) -> int | None:
        row = self.conn.execute("SELECT id FROM players WHERE game = ? AND name = ? AND removed IS NULL",
                                (game, name)).fetchone()
        return None if row is None else row[0]

    def players(self, game: str) -> dict[int, Player]:
        """Every player the game ever had, removed ones included (their games still count)."""
        out = {}
        for row in self.conn.execute("SELECT id, game, name, spec, removed FROM players WHERE game = ? ORDER BY id",
                                     (game,)):
            player = self._player(row)
            out[player.id] = player
        return out

    def _player(self, row: tuple) -> Player:
        pid, game, name, spec, removed = row
        if not (type(pid) is int and type(name) is str and type(spec) is str and len(spec) <= MAX_SPEC_CHARS
                and _NAME.match(name)):
            raise self._bad_row("players", pid)
        try:
            parsed = parse_spec(spec)
        except SpecError:
            raise self._bad_row("players", pid) from None
        if parsed.kind == "human" or parsed.label != spec:  # stored as written: `ai:N` or `cmd:COMMAND`
            raise self._bad_row("players", pid)
        return Player(pid, game, name, parsed, removed is not None)

    # ------------------------------------------------------------------ games

    def record_game(self, seats: tuple[int, int], result: MatchResult, think_ms: int | None,
                    time_limits: bool) -> int | None:
        """One finished game, committed at once (a run killed after this keeps it); None, and nothing
        stored, when the same game (game, seed and seats) is stored already: another run played it too."""
        with self._write():
            if self.conn.execute("SELECT 1 FROM games WHERE game = ? AND seed = ? AND seat0 = ? AND seat1 = ?",
                                 (result.game, result.seed, seats[0], seats[1])).fetchone():
                return None
            cur = self.conn.execute(
                "INSERT INTO games (game, seat0, seat1, seed, winner, score0, score1, reason, turns, moves, error,"
                " think_ms, time_limits, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (result.game, seats[0], seats[1], result.seed, result.outcome.winner, int(result.outcome.scores[0]),
                 int(result.outcome.scores[1]), result.outcome.reason.value, result.turns, json.dumps(result.moves), result.error,
                 think_ms, int(time_limits), _now()))
        return cur.lastrowid

    def check_writable(self) -> None:
        """LeagueError unless this process can write the file: a run stores its games as they end, so a
        file it cannot write is refused before any game starts, not found out when the first is lost."""
        try:
            with self._write():
                # BEGIN IMMEDIATE alone succeeds on a read-only file in WAL mode; SQLite checks that the
                # file can be written when a statement writes, and this one changes nothing
                self.conn.execute("DELETE FROM games WHERE 0")
        except sqlite3.OperationalError as e:
            raise LeagueError(f"{shown(self.path)}: cannot be written ({e}): no game is played, as none could "
                              f"be stored") from None

    def count_games(self, game: str) -> int:
        return self.conn.execute("SELECT count(*) FROM games WHERE game = ?", (game,)).fetchone()[0]

    def games_after(self, game: str, after_id: int, players: dict[int, Player]) -> list[PlayedGame]:
        """The games of `game` stored after game `after_id`, in the order they were stored."""
        total = self.conn.execute("SELECT count(*) FROM games WHERE game = ? AND id > ?", (game, after_id)).fetchone()[0]
        if total > MAX_GAMES_READ:
            raise LeagueError(f"{shown(self.path)}: {total:,} games of {game} is more than a league rates "
                              f"({MAX_GAMES_READ:,})")
        out = []
        for gid, s0, s1, seed, winner in self.conn.execute(
                "SELECT id, seat0, seat1, seed, winner FROM games WHERE game = ? AND id > ? ORDER BY id",
                (game, after_id)):
            if not (type(gid) is int and s0 in players and s1 in players and s0 != s1 and type(seed) is int
                    and winner in (None, 0, 1) and type(winner) in (int, type(None))):
                raise self._bad_row("games", gid)
            out.append(PlayedGame(gid, s0, s1, seed, winner))
        return out

    def unanswered(self, game: str, players: dict[int, Player]) -> list[PlayedGame]:
        """Games whose colour-swapped twin (same seed, seats the other way round) was never stored, both
        players still present: a run that was stopped between the two games of a pair (or one that is
        playing the twin right now)."""
        rows = self.conn.execute(
            "SELECT g.id, g.seat0, g.seat1, g.seed, g.winner FROM games g"
            " JOIN players a ON a.id = g.seat0 AND a.removed IS NULL"
            " JOIN players b ON b.id = g.seat1 AND b.removed IS NULL"
            " WHERE g.game = ? AND NOT EXISTS (SELECT 1 FROM games t WHERE t.game = g.game AND t.seed = g.seed"
            " AND t.seat0 = g.seat1 AND t.seat1 = g.seat0) ORDER BY g.id LIMIT 1000", (game,)).fetchall()
        out = []
        for gid, s0, s1, seed, winner in rows:
            if not (s0 in players and s1 in players and type(seed) is int):
                raise self._bad_row("games", gid)
            out.append(PlayedGame(gid, s0, s1, seed, winner if winner in (0, 1) else None))
        return out

    # ------------------------------------------------------------------ helpers

    def _write(self) -> "_Transaction":
        return _Transaction(self.conn)

    def _bad_row(self, table: str, row_id) -> LeagueError:
        return LeagueError(f"{shown(self.path)}: row {quote(str(row_id))} of {table} is not something termarena "
                           f"wrote")


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT: takes the write lock at once (waiting up to the busy timeout), so two
    writers never both read and then both write."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, tb) -> None:
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")


def _text(raw: bytes) -> str | bytes:
    """TEXT as str; text that is not UTF-8 stays bytes, which no check of a row accepts."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _check_file(path: Path, create: bool) -> None:
    """The path must be a regular file of a sane size (or, when creating, not exist yet): SQLite must never
    be pointed at a FIFO, a device or a folder."""
    if not os.path.lexists(path):  # (a broken link exists, and is refused below)
        if create:
            return
        raise LeagueError(f"{shown(path)}: no league there (`termarena league add` makes one)")
    try:
        regular_file_stat(path, MAX_DB_BYTES, "a league database")
    except StorageError as e:
        raise LeagueError(str(e)) from None
