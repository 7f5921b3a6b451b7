"""One game on the server: refereed by the server's own engine (tui.core.session), with clocks, every
accepted move stored before anyone hears of it, watchers, and a save file when it ends.

Textual-free: `LiveGame` holds the players' names and their connections when they are there.  A move
is played at once (so the next one is judged against it) but told to nobody until the database writer
has committed it; while it is being stored the game takes no other move, its flag waits, and so do a
resignation and an abort (they end the game after that move).  A player whose connection goes is told
to the other as PEER away, and PEER back when they return (their clock runs meanwhile, when it is
their turn); a player who comes to a game whose opponent is away hears it at once.
"""
from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import time
from pathlib import Path
from typing import Callable

from engines.base import InvalidOutput
from engines.savefile import outcome_result
from tui.core.clock import GameClock, parse_clock
from tui.core.net.protocol import VERSION, encode, seat_word
from tui.core.net.wire import Connection
from tui.core.server.protocol import ABORT_BEFORE, ABORTED
from tui.core.server.store import GameRow, Store
from tui.core.session import Session
from tui.core.specs import REMOTE
from tui.core.storage import StorageError, save_game
from tui.core.words import refused_move

MAX_WATCHERS = 32
RESTART_GRACE_S = 120.0  # after a restart, the clock waits this long at most for the player to move
FLAG_SLACK_S = 0.02  # the flag is looked at just after the clock can have fallen


def saves_folder(data: Path) -> Path:
    return data / "games"


def save_path(data: Path, game_id: int) -> Path:
    return saves_folder(data) / f"{game_id}.txt"


class LiveGame:
    def __init__(self, row: GameRow, store: Store, data: Path, on_over: Callable[["LiveGame"], None], *,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.row, self.store, self.data, self.on_over = row, store, data, on_over
        self.names = (row.p1, row.p2)
        self.watchers: set[Connection] = set()
        self.players: list[Connection | None] = [None, None]  # the connections of the seats, when there
        stored = store.moves(row.id)
        spec = parse_clock(row.clock)
        left = stored[-1].left if stored else None
        self.session = Session(row.game, [REMOTE, REMOTE], row.seed, moves=[m.text for m in stored],
                               clock=GameClock(spec, (True, True), left, now=now))
        self._timer: asyncio.TimerHandle | None = None
        self._grace: asyncio.TimerHandle | None = None
        self._storing = False  # a move played and not yet committed: told to nobody
        self._stored = asyncio.Event()  # set while no move is being stored
        self._stored.set()
        self._ending: asyncio.Task | None = None
        self.over = False
        self.aborted = False
        self.left = [False, False]  # the seat's player was here and is not (a game restored: both were)

    # ------------------------------------------------------------------ clocks

    def start(self, restored: bool) -> None:
        """Run the clock (a game restored after a restart waits for its player to move, a while)."""
        if self.session.is_over():  # ended by a move stored just before a crash: finish it now
            self._finish()
            return
        if restored:
            self.left = [True, True]
        if restored and self.players[self.session.to_move()] is None:
            self.session.clock_held = True
            self.session.sync_clock()
            self._grace = asyncio.get_running_loop().call_later(RESTART_GRACE_S, self.release)
        self._arm()

    def release(self) -> None:
        """The clock held after a restart runs again (the player to move is back, or waited long enough)."""
        if self._grace is not None:
            self._grace.cancel()
            self._grace = None
        if self.session.clock_held and not self.over:
            self.session.clock_held = False
            self.session.sync_clock()
            self._send_clocks()
            self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        clock = self.session.clock
        if self.over or clock is None or clock.running is None:
            return
        self._timer = asyncio.get_running_loop().call_later(clock.left(clock.running) + FLAG_SLACK_S, self._flag)

    def _flag(self) -> None:
        self._timer = None
        if self.over or self._storing:  # a move being stored: its end re-arms the clock
            return
        if self.session.check_flag() is not None:
            self._finish()
        else:
            self._arm()

    def stop(self) -> None:
        for handle in (self._timer, self._grace):
            if handle is not None:
                handle.cancel()
        self._timer = self._grace = None

    def close(self) -> None:
        """The server stops: no timer, no ending half done (a restart ends the game again from its moves)."""
        self.stop()
        if self._ending is not None:
            self._ending.cancel()

    # ------------------------------------------------------------------ connections

    def seat_of(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None

    def attach(self, conn: Connection, seat: int | None) -> None:
        """A player (seat) or a watcher (None) is here: START, then the game as a host sends it."""
        role = "watch" if seat is None else "play"
        if seat is None:
            self.watchers.add(conn)
        else:
            old = self.players[seat]
            if old is not None and old is not conn:
                old.bye("replaced by a new connection")
            self.players[seat] = conn
            if self.session.clock_held and seat == self.session.to_move():
                self.release()
        s = self.session
        conn.send("START", self.row.id, role)
        conn.send("WELCOME", VERSION, role, seat_word(seat), s.game_id, s.seed, self.row.clock, s.ply)
        for number, text in enumerate(s.notation, 1):
            conn.send("MOVE", number, text=text)
        conn.last_clock = None
        self._send_clock(conn)
        if seat is not None:
            other = self.players[1 - seat]
            if self.left[seat] and other is not None and not self.over:
                other.send("PEER", "back")
            self.left[seat] = False
            if other is None and self.left[1 - seat] and not self.over:
                conn.send("PEER", "away")

    def detach(self, conn: Connection) -> None:
        self.watchers.discard(conn)
        for seat in (0, 1):
            if self.players[seat] is conn:
                self.players[seat] = None
                self.left[seat] = True
                other = self.players[1 - seat]
                if other is not None and not self.over:
                    other.send("PEER", "away")

    def _all(self) -> list[Connection]:
        return [c for c in self.players if c is not None] + list(self.watchers)

    def _send_clock(self, conn: Connection, before: bytes = b"") -> None:
        """CLOCK when it changed for `conn`, in one write with the lines `before` it (each write is a
        TLS record and a system call: the move and the clocks go together)."""
        clock = self.session.clock
        words = (*clock.left_words(), seat_word(clock.running))
        if words != conn.last_clock:
            conn.last_clock = words
            before += encode("CLOCK", *words)
        if before:
            conn.send_lines(before)

    def _send_clocks(self) -> None:
        for conn in self._all():
            self._send_clock(conn)

    # ------------------------------------------------------------------ moves

    async def move(self, seat: int, number: int, text: str) -> str | None:
        """A player's move: played, stored, then sent to everyone; or the reason it was refused."""
        s = self.session
        if self.over or s.is_over():
            return "the game is over"
        if self._storing:
            return "the previous move is still being stored"
        if number != s.ply + 1:
            return f"move {number} is not the next one ({s.ply + 1})"
        if s.to_move() != seat:
            return "it is not your turn"
        clock = s.clock
        before = ((clock.left(0), clock.left(1)), clock.running)
        try:
            played = s.play(text)
        except InvalidOutput as e:
            if s.forced is not None:  # the time was up when the move came
                self._finish()
                return "the time is up"
            return refused_move(s.cls, text, e)
        self._storing = True
        self._stored.clear()
        try:
            await self.store.add_move(self.row.id, s.ply, played.text, (clock.left(0), clock.left(1)))
        except sqlite3.Error:  # never acknowledge a move that a restart would lose
            s.take_back_to(s.ply - 1)
            clock.set(*before)
            self._arm()
            return "the server cannot store moves now: try again later"
        finally:
            self._storing = False
            self._stored.set()
        line = encode("MOVE", s.ply, text=played.text)
        if s.is_over():
            for conn in self._all():
                conn.send_lines(line)
            self._finish()
        else:
            for conn in self._all():
                self._send_clock(conn, line)
            self._arm()
        return None

    async def resign(self, seat: int) -> str | None:
        """The player of `seat` gives up (at any time): the other wins; or why not."""
        await self._stored.wait()  # a move being stored is played first
        if self.over or self.session.is_over():
            return "the game is over"
        self.session.forfeit(seat, "resign")
        self._finish()
        return None

    async def abort(self, seat: int) -> str | None:
        """The game ends with no result, as if never played (no rating moves), while fewer than
        ABORT_BEFORE moves are played; or why not."""
        await self._stored.wait()
        if self.over or self.session.is_over():
            return "the game is over"
        if self.session.ply >= ABORT_BEFORE:
            return "both sides have moved: the game can be resigned, not aborted"
        self.aborted = True
        self.session.clock_held = True  # no clock runs in a game that ends without a result
        self.session.sync_clock()
        self._finish()
        return None

    # ------------------------------------------------------------------ the end

    def _finish(self) -> None:
        """The game is over: its save file and its end (with the ratings) are stored, then everyone is
        told and the lobby forgets it (on_over)."""
        if self.over:
            return
        self.over = True
        self.stop()
        self._ending = asyncio.get_running_loop().create_task(self._end())

    async def _end(self) -> None:
        try:
            await self._store_end()
        finally:  # whatever happened, the lobby forgets the game: its players can play again
            self.on_over(self)

    async def _store_end(self) -> None:
        s = self.session
        if self.aborted:  # no result, no save: the game is only a line of the history
            result, reason = "*", ABORTED
        else:
            result, reason = outcome_result(s.outcome())
            saved = s.to_saved()
            saved = dataclasses.replace(saved, players=self.names, extra={
                **saved.extra, "server_game": str(self.row.id), "rated": "yes" if self.row.rated else "no"})
            try:
                await asyncio.to_thread(save_game, save_path(self.data, self.row.id), saved, s.game)
            except StorageError:
                pass  # the moves and result stay in the database: the ending is not lost, only the file
        try:
            await self.store.finish(self.row, result, reason)
        except sqlite3.Error:
            pass  # stays in progress in the database: a restart replays the moves and ends it again
        for conn in self._all():
            if s.forced is not None and reason == "timeout":  # (END: the game protocol's only forced ending)
                conn.send("END", result, reason)
            self._send_clock(conn)
            conn.send("OVER", self.row.id, result, reason)
