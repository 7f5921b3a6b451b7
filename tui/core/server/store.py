"""What the server keeps: one SQLite database in its data folder (players, games, every move, ratings).

A move is committed (WAL, synchronous=FULL: on disk, not in a cache) before any connection hears of
it, so a server killed at any moment, even by SIGKILL, restarts with every move it acknowledged.  A
game's end, its ratings and the players' standings change in one transaction.  Resume tokens are kept
as their SHA-256 only: the database alone does not let anyone play as someone else.

Reads are made here, on the caller's thread (WAL lets them go on while a write commits); every write
is a coroutine that the writer thread commits with others (tui.core.server.writer: group commit), so
the event loop never waits for the disk.  No networking.  Names and words stored here were checked by
the protocol.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from tui.core.server.writer import Writer

from tui.core.league.ratings import MODEL  # the league's model and defaults: the same numbers

DB_NAME = "server.sqlite3"
MAX_PLAYERS = 100_000  # names ever claimed: a flood of new names cannot fill the disk

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, token_hash TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, seed INTEGER NOT NULL, clock TEXT NOT NULL,
    rated INTEGER NOT NULL, p1 TEXT NOT NULL, p2 TEXT NOT NULL, result TEXT NOT NULL DEFAULT '*',
    reason TEXT NOT NULL DEFAULT '', started TEXT NOT NULL, ended TEXT);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL, ply INTEGER NOT NULL, text TEXT NOT NULL,
    left1 REAL NOT NULL, left2 REAL NOT NULL, PRIMARY KEY (game_id, ply));
CREATE TABLE IF NOT EXISTS ssh_keys (
    name TEXT PRIMARY KEY, key TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL, name TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0, losses INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, name));
"""


class StoreError(Exception):
    """The database cannot be used (the message says why, in one line)."""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    seed: int
    clock: str
    rated: bool
    p1: str
    p2: str
    result: str = "*"  # `*` while in progress, and for an aborted game (reason `abort`)
    reason: str = ""

    @property
    def live(self) -> bool:
        return self.result == "*" and not self.reason


@dataclass(frozen=True)
class MoveRow:
    text: str
    left: tuple[float, float]  # both clocks just after the move (its increment included)


@dataclass(frozen=True)
class RatingRow:
    game: str
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        """openskill's ordinal, as the league shows it: the skill the player has almost surely."""
        return self.mu - 3 * self.sigma


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Store:
    def __init__(self, folder: Path) -> None:
        try:
            self.db = sqlite3.connect(folder / DB_NAME, isolation_level=None)  # reads only, after the schema
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
            self.writer = Writer(folder / DB_NAME)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the database in {folder}: {e}") from None

    def close(self) -> None:
        self.writer.close()
        self.db.close()

    # ------------------------------------------------------------------ players

    async def claim(self, name: str, token: str) -> bool:
        """Give a new name to the holder of `token`; False when the name is taken (any case) or the
        table is full.  Looked at and taken in one transaction: two claims of a name cannot both win."""
        def job(db: sqlite3.Connection) -> bool:
            taken = db.execute("SELECT 1 FROM players WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
            if taken or db.execute("SELECT COUNT(*) FROM players").fetchone()[0] >= MAX_PLAYERS:
                return False
            db.execute("INSERT INTO players VALUES (?, ?, ?)", (name, token_hash(token), _now()))
            return True
        return await self.writer.submit(job)

    def ssh_key_of(self, name: str) -> str | None:
        """The public key (OpenSSH text) that claimed `name` over ssh; None if none did."""
        row = self.db.execute("SELECT key FROM ssh_keys WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
        return None if row is None else row[0]

    def name_is_free(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM players WHERE name = ? COLLATE NOCASE", (name,)).fetchone() is None

    async def ssh_login(self, name: str, key: str | None, token: str) -> bool:
        """An ssh session as `name` gets `token` (its `online` process logs in with it): with `key`, the
        name is claimed by the first key that uses it, then only that key gets it; without (a guest's
        name, made by the ssh front), the name must be new.  False: the name is someone else's."""
        def job(db: sqlite3.Connection) -> bool:
            kept = db.execute("SELECT name, key FROM ssh_keys WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
            if kept is not None:
                if key is None or not hmac.compare_digest(kept[1], key):
                    return False
                db.execute("UPDATE players SET token_hash = ? WHERE name = ?", (token_hash(token), kept[0]))
                return True
            taken = db.execute("SELECT 1 FROM players WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
            if taken or db.execute("SELECT COUNT(*) FROM players").fetchone()[0] >= MAX_PLAYERS:
                return False
            db.execute("INSERT INTO players VALUES (?, ?, ?)", (name, token_hash(token), _now()))
            if key is not None:
                db.execute("INSERT INTO ssh_keys VALUES (?, ?, ?)", (name, key, _now()))
            return True
        return await self.writer.submit(job)

    async def forget_guest(self, name: str) -> None:
        """A front's guest whose session ended: its name goes unless it played (its games keep it)."""
        def job(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM players WHERE name = ? AND name LIKE 'guest-%' AND NOT EXISTS "
                       "(SELECT 1 FROM games WHERE p1 = ? OR p2 = ?)", (name, name, name))
        await self.writer.submit(job)

    def name_of(self, token: str) -> str | None:
        """The name `token` was given to, compared in constant time (None: no such token)."""
        row = self.db.execute("SELECT name, token_hash FROM players WHERE token_hash = ?",
                              (token_hash(token),)).fetchone()
        if row is None or not hmac.compare_digest(row[1], token_hash(token)):
            return None
        return row[0]

    # ------------------------------------------------------------------ games and moves

    async def new_game(self, game: str, seed: int, clock: str, rated: bool, p1: str, p2: str) -> GameRow:
        def job(db: sqlite3.Connection) -> int:
            return db.execute("INSERT INTO games (game, seed, clock, rated, p1, p2, started) VALUES (?,?,?,?,?,?,?)",
                              (game, seed, clock, int(rated), p1, p2, _now())).lastrowid
        return GameRow(await self.writer.submit(job), game, seed, clock, rated, p1, p2)

    async def add_move(self, game_id: int, ply: int, text: str, left: tuple[float, float]) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (game_id, ply, text, left[0], left[1]))
        await self.writer.submit(job)

    def moves(self, game_id: int) -> list[MoveRow]:
        rows = self.db.execute("SELECT text, left1, left2 FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [MoveRow(t, (a, b)) for t, a, b in rows]

    def live_games(self) -> list[GameRow]:
        return [self._game(r) for r in self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE ended IS NULL "
                                                        "ORDER BY id")]

    def game(self, game_id: int) -> GameRow | None:
        row = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else self._game(row)

    def finished(self, name: str | None, limit: int) -> list[GameRow]:
        """The last finished games (aborted ones too), of `name` when given, newest first."""
        where, args = "ended IS NOT NULL", ()
        if name is not None:
            where, args = where + " AND (p1 = ? OR p2 = ?)", (name, name)
        rows = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id DESC LIMIT ?",
                               (*args, limit))
        return [self._game(r) for r in rows]

    @staticmethod
    def _game(r: tuple) -> GameRow:
        return GameRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7], r[8])

    async def finish(self, row: GameRow, result: str, reason: str) -> None:
        """End a game; a rated one moves both players' ratings, in the same transaction."""
        await self.writer.submit(lambda db: _finish(db, row, result, reason))

    # ------------------------------------------------------------------ ratings

    def rating(self, game: str, name: str) -> RatingRow:
        return _rating(self.db, game, name)

    def ratings(self, game: str, limit: int) -> list[RatingRow]:
        rows = self.db.execute("SELECT name, mu, sigma, wins + draws + losses FROM ratings WHERE game = ? "
                               "ORDER BY mu - 3 * sigma DESC LIMIT ?", (game, limit))
        return [RatingRow(game, n, mu, s, g) for n, mu, s, g in rows]


def _rating(db: sqlite3.Connection, game: str, name: str) -> RatingRow:
    row = db.execute("SELECT mu, sigma, wins + draws + losses FROM ratings WHERE game = ? AND name = ?",
                     (game, name)).fetchone()
    if row is None:
        fresh = MODEL.rating()
        return RatingRow(game, name, fresh.mu, fresh.sigma, 0)
    return RatingRow(game, name, row[0], row[1], row[2])


def _finish(db: sqlite3.Connection, row: GameRow, result: str, reason: str) -> None:
    """(In the writer's transaction: the ratings read are the ones the update replaces.)"""
    ended = db.execute("UPDATE games SET result = ?, reason = ?, ended = ? WHERE id = ? AND ended IS NULL",
                       (result, reason, _now(), row.id))
    if not ended.rowcount or not row.rated or result not in ("1-0", "0-1", "1/2-1/2"):
        return
    a, b = _rating(db, row.game, row.p1), _rating(db, row.game, row.p2)
    ranks = {"1-0": [0, 1], "0-1": [1, 0]}.get(result, [0, 0])
    [[ra], [rb]] = MODEL.rate([[MODEL.rating(mu=a.mu, sigma=a.sigma)],
                               [MODEL.rating(mu=b.mu, sigma=b.sigma)]], ranks=ranks)
    for name, new, rank, other in ((row.p1, ra, ranks[0], ranks[1]), (row.p2, rb, ranks[1], ranks[0])):
        col = "draws" if rank == other else "wins" if rank < other else "losses"
        db.execute(f"INSERT INTO ratings (game, name, mu, sigma, {col}) VALUES (?, ?, ?, ?, 1) "
                   f"ON CONFLICT (game, name) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                   f"{col} = {col} + 1", (row.game, name, new.mu, new.sigma))


_GAME_COLUMNS = "id, game, seed, clock, rated, p1, p2, result, reason"
