"""`termarena server`: one asyncio process holding the lobby (players online, open seeks, games in
progress and finished, ratings) for clients that speak tui.core.server.protocol over TLS.

Every peer is hostile until proven otherwise.  Before a byte of the protocol: at most `connections` in
all and `per_address` from one address (an IPv6 /64 counts as one), and the TLS handshake within
`handshake_s`.  Before HELLO: a pending slot (tui.core.net.gate.Pending, the oldest gives way) for at
most `auth_s`; wrong resume tokens and new names are rationed per address (tui.core.net.gate.Gate).
Always: lines of at most MAX_LINE bytes, a rate of messages, a peer that does not read is dropped
(tui.core.net.wire), every word checked.  A bug met while serving one connection cuts that connection
off and is logged; the server and the other games go on.

Seeks live as long as their author's connection; games, moves, names and ratings are in the database
(tui.core.server.store) and survive a restart: a game in progress resumes when its players come back
(their clock waits for them a while, tui.core.server.game.RESTART_GRACE_S).

So that thousands of players cost what hundreds do: nothing waits for the disk on the event loop (the
store's writer thread commits), each lookup by name is a dict, and the lobby is told of seeks in
batches (every BATCH_S, one write a member) and only of the oldest SHOWN_SEEKS open ones, the rows a
client's list shows (LIST seeks); a newer seek is shown when an older one goes, and its author always
hears of it.  Without this every seek was one line to every member: seeks times members.
"""
from __future__ import annotations

import asyncio
import base64
import inspect
import itertools
import secrets
import sqlite3
import ssl
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

from engines import UnknownGame, resolve_game_id
from engines.savefile import outcome_result
from engines.visible import visible
from tui.core.clock import ClockError, parse_clock
from tui.core.net.gate import Gate, GateLimits, Pending, address_key
from tui.core.net.protocol import MAX_LINE, Message, ProtocolError, RateLimit, check_hello, encode
from tui.core.net.wire import Closed, Connection
from tui.core.server.game import MAX_WATCHERS, LiveGame, save_path, saves_folder
from tui.core.server.protocol import (
    ABORTED, DATA_CHARS, GUEST_PREFIX, LIST_KINDS, LOBBY_ROLES, MAX_ROWS, RATED, REVISION, TOKEN_BYTES, VERBS,
    check_name, check_token, is_guest,
)
from tui.core.server.store import GameRow, Store
from tui.core.session import SEED_RANGE
from tui.core.storage import StorageError, read_regular_file

MAX_SAVE_SENT = 256_000  # bytes of a save file FETCH sends (a server game's save is a few KB)
SHOWN_SEEKS = MAX_ROWS  # seeks told to the whole lobby: as many as a list holds
BATCH_S = 0.05  # the lobby's news (OFFER, GONE) go out at most this often, together


class _Rate(RateLimit):
    def refund(self) -> None:
        """A move played in turn costs nothing: a game is paced by the opponent, and a bot (or the load
        generator) may answer at once for a whole game; refused moves and everything else still count."""
        self._tokens = min(float(self.burst), self._tokens + 1)


@dataclass(frozen=True)
class ServerLimits:
    connections: int = 2000
    per_address: int = 16
    handshake_s: float = 10.0
    rate_per_s: float = 10.0  # messages a second a connection may send, after a burst of...
    burst: int = 40
    gate: GateLimits = GateLimits(pending=256, pending_per_address=8)
    # new names per address: a few at once, then rationed like wrong codes
    names: GateLimits = GateLimits(free_failures=5, lock_after=30, window_s=3600.0, lock_s=3600.0)


@dataclass(eq=False)
class Member:
    name: str
    conn: Connection
    game: LiveGame | None = None  # the game this member plays
    watching: LiveGame | None = None
    starting: bool = False  # an accepted seek whose game is being stored

    @property
    def in_lobby(self) -> bool:
        return self.game is None and self.watching is None and not self.starting


@dataclass(frozen=True)
class Seek:
    id: int
    name: str
    game: str
    clock: str
    rated: bool

    def words(self) -> tuple[object, ...]:
        return (self.id, self.name, self.game, self.clock, RATED[0] if self.rated else RATED[1])


@dataclass
class Server:
    data: Path
    limits: ServerLimits = ServerLimits()
    log: Callable[[str], None] = lambda line: None
    now: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
    members: dict[str, Member] = field(default_factory=dict)
    seeks: dict[int, Seek] = field(default_factory=dict)
    games: dict[int, LiveGame] = field(default_factory=dict)
    playing: dict[str, LiveGame] = field(default_factory=dict)  # each player's game in progress

    def __post_init__(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        saves_folder(self.data).mkdir(exist_ok=True)
        self.store = Store(self.data)
        self.tokens = Gate(self.limits.gate, self.now)  # wrong resume tokens per address
        self.claims = Gate(self.limits.names, self.now)  # new names per address
        self._pending: Pending[Connection] = Pending(self.limits.gate.pending, self.limits.gate.pending_per_address)
        self._open: Counter[str] = Counter()  # connections by address key
        self._conns: set[Connection] = set()
        self._next_seek = 1
        self._seek_of: dict[str, Seek] = {}
        self._shown: set[int] = set()  # the seeks the lobby was told of (the oldest open ones)
        self._hidden: dict[int, Seek] = {}  # the newer ones, oldest first: shown when a shown one goes
        self._watchers: dict[int, set[Member]] = {}  # by game id
        self._news: list[bytes] = []
        self._flush: asyncio.TimerHandle | None = None
        self._fronts: list[asyncio.AbstractServer] = []
        self._server: asyncio.AbstractServer | None = None
        self.port = 0

    # ------------------------------------------------------------------ life

    async def start(self, host: str, port: int, context: ssl.SSLContext | None) -> int:
        """Restore the games in progress, then listen; returns the port.  OSError when it cannot listen."""
        for row in self.store.live_games():
            self._restore(row)
        self._server = await asyncio.start_server(
            self._serve, host, port, limit=MAX_LINE, ssl=context,
            ssl_handshake_timeout=self.limits.handshake_s if context is not None else None,
            backlog=512)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def start_front_port(self, context: ssl.SSLContext, sessions: int) -> int:
        """A loopback port for the sessions of a front (the ssh front runs `termarena online` against it
        for each player): the same lobby, but counted apart from other loopback connections and allowed
        `sessions` at once, since they all come from 127.0.0.1 (the front limits its own clients)."""
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._serve(reader, writer, front_sessions=sessions)

        server = await asyncio.start_server(serve, "127.0.0.1", 0, limit=MAX_LINE, ssl=context,
                                            ssl_handshake_timeout=self.limits.handshake_s)
        self._fronts.append(server)
        return server.sockets[0].getsockname()[1]

    def _restore(self, row: GameRow) -> None:
        try:
            game = LiveGame(row, self.store, self.data, self._game_over, now=self.now)
        except Exception as e:  # a game that cannot be replayed must not keep the server from starting
            self.log(f"game {row.id} cannot be restored: {visible(str(e), 200)}")
            return
        self.games[row.id] = game
        for name in game.names:
            self.playing[name] = game
        game.start(restored=True)

    def close(self) -> None:
        for conn in list(self._conns):
            conn.bye("the server is stopping")
        for game in self.games.values():
            game.close()
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        for listener in [self._server, *self._fronts]:
            if listener is not None:
                listener.close()
        self._server, self._fronts = None, []
        self.store.close()

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    # ------------------------------------------------------------------ connections

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     front_sessions: int | None = None) -> None:
        conn = Connection(reader, writer, _Rate(self.limits.rate_per_s, self.limits.burst, self.now), VERBS)
        key = address_key(conn.address) if front_sessions is None else "front"
        if len(self._conns) >= self.limits.connections:
            conn.bye("the server is full: try again later")
            return
        if self._open[key] >= (self.limits.per_address if front_sessions is None else front_sessions):
            conn.bye("too many connections from your address")
            return
        self._open[key] += 1
        self._conns.add(conn)
        member: Member | None = None
        try:
            for older in self._pending.add(conn, key):
                older.bye("too many connections are waiting to log in: try again")
            member = await self._login(conn, key)
            while True:
                await self._handle(member, await conn.read())
        except ProtocolError as e:
            conn.bye(str(e))
        except Closed:
            pass
        except asyncio.CancelledError:  # the server is stopping
            pass
        except Exception as e:  # a bug of ours: this connection goes, the server and its games stay
            self.log(f"internal error with {conn.peer}: {type(e).__name__}: {visible(str(e), 200)}")
            conn.bye("internal error")
        finally:
            self._pending.remove(conn)
            conn.close()
            self._conns.discard(conn)
            self._open[key] -= 1
            if not self._open[key]:
                del self._open[key]
            if member is not None:
                self._gone(member)

    async def _login(self, conn: Connection, key: str) -> Member:
        try:
            hello = await asyncio.wait_for(conn.read(), self.limits.gate.auth_s)
        except asyncio.TimeoutError:
            raise ProtocolError(f"no HELLO within {self.limits.gate.auth_s:g} s") from None
        finally:
            self._pending.remove(conn)
        check_hello(hello, "server")
        if hello.words[2] in ("play", "watch"):
            raise ProtocolError("this is a termarena server: connect with `termarena online`")
        role = hello.choice(2, LOBBY_ROLES)
        if role == "lobby":
            name, token = await self._claim(key, check_name(hello.words[3]))
        else:
            token = check_token(hello.words[3])
            name = await self._resume(conn, key, token)
        old = self.members.get(name)
        if old is not None:
            old.conn.bye("replaced by a new connection with your token")
            self._gone(old)
        member = self.members[name] = Member(name, conn)
        conn.send("LOBBY", REVISION, name, token)
        self._join_own_game(member)
        return member

    async def _claim(self, key: str, name: str) -> tuple[str, str]:
        if is_guest(name):
            raise ProtocolError(f"names starting with {GUEST_PREFIX} are the ssh guests': choose another")
        locked = self.claims.locked_for(key)
        if locked:
            raise ProtocolError(f"too many new names from your address: try again in {int(locked) + 1} s")
        token = secrets.token_hex(TOKEN_BYTES)
        self.claims.failed(key)  # counted like a failure (before the wait: names are rationed per address)
        try:
            claimed = await self.store.claim(name, token)
        except sqlite3.Error:
            raise ProtocolError("the server cannot take new names now: try again later") from None
        if not claimed:
            raise ProtocolError(f"the name {name} is taken: choose another, or come back with its token")
        return name, token

    async def _resume(self, conn: Connection, key: str, token: str) -> str:
        wait = self.tokens.delay(key)
        if wait > 0:
            await self.sleep(wait)
        if conn.closed:
            raise Closed("closed while waiting")
        if self.tokens.locked_for(key):
            raise ProtocolError("too many wrong tokens from your address: try again later")
        name = self.store.name_of(token)
        if name is None:
            self.tokens.failed(key)
            raise ProtocolError("unknown resume token")
        return name

    def _join_own_game(self, member: Member) -> None:
        game = self.playing.get(member.name)
        if game is not None:
            member.game = game
            game.attach(member.conn, game.seat_of(member.name))

    def _gone(self, member: Member) -> None:
        if self.members.get(member.name) is member:
            del self.members[member.name]
            self._drop_seek(member.name)
        self._stop_watching(member)
        if member.game is not None:
            member.game.detach(member.conn)

    # ------------------------------------------------------------------ what a member sends

    async def _handle(self, member: Member, msg: Message) -> None:
        conn, verb = member.conn, msg.verb
        if self.members.get(member.name) is not member:
            raise Closed("replaced")
        if verb == "BYE":
            raise Closed("they left")
        handler = _HANDLERS.get(verb)
        if handler is None:
            raise ProtocolError(f"{verb} is not a message a client sends")
        refusal = handler(self, member, msg)
        if inspect.isawaitable(refusal):  # it waits for the database (ACCEPT, MOVE)
            refusal = await refusal
        if refusal:
            conn.send("NO", text=refusal)

    def _seek(self, member: Member, msg: Message) -> str | None:
        if member.game is not None or member.starting:
            return "finish your game first"
        try:
            game = resolve_game_id(msg.words[0])
            clock = parse_clock(msg.words[1]).text
        except (UnknownGame, ClockError) as e:
            return str(e)
        rated = msg.choice(2, RATED) == RATED[0]
        if rated and is_guest(member.name):
            return "guests play casual games: add `casual` (log in over ssh with a key to be rated)"
        self._drop_seek(member.name)
        seek = Seek(self._next_seek, member.name, game, clock, rated)
        self._next_seek += 1
        self.seeks[seek.id] = seek
        self._seek_of[member.name] = seek
        if len(self._shown) < SHOWN_SEEKS:
            self._shown.add(seek.id)
            self._tell_lobby("OFFER", *seek.words())
        else:
            self._hidden[seek.id] = seek
        if seek.id not in self._shown or not member.in_lobby:
            member.conn.send("OFFER", *seek.words())  # its author always knows it is open, and its id
        return None

    def _cancel(self, member: Member, msg: Message) -> str | None:
        return None if self._drop_seek(member.name) else "you have no open seek"

    def _drop_seek(self, name: str) -> bool:
        seek = self._seek_of.pop(name, None)
        if seek is None:
            return False
        del self.seeks[seek.id]
        author = self.members.get(name)
        if seek.id in self._shown:
            self._shown.discard(seek.id)
            self._tell_lobby("GONE", seek.id)
            if self._hidden:  # the oldest waiting seek takes its place in everyone's list
                newer = self._hidden.pop(next(iter(self._hidden)))
                self._shown.add(newer.id)
                self._tell_lobby("OFFER", *newer.words())
            if author is not None and not author.in_lobby:
                author.conn.send("GONE", seek.id)
        else:
            self._hidden.pop(seek.id, None)
            if author is not None:
                author.conn.send("GONE", seek.id)
        return True

    def _tell_lobby(self, verb: str, *words: object) -> None:
        """News for everyone in the lobby, sent with the others of the next BATCH_S."""
        self._news.append(encode(verb, *words))
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(BATCH_S, self._send_news)

    def _send_news(self) -> None:
        self._flush = None
        data, self._news = b"".join(self._news), []
        for m in self.members.values():
            if m.in_lobby:
                m.conn.send_lines(data)

    async def _accept(self, member: Member, msg: Message) -> str | None:
        seek = self.seeks.get(msg.number(0, what="seek id"))
        if seek is None:
            return "that seek is not open any more"
        if seek.name == member.name:
            return "that is your own seek"
        if seek.rated and is_guest(member.name):
            return "guests play casual games only: that seek is rated"
        if member.game is not None or member.starting:
            return "finish your game first"
        author = self.members.get(seek.name)
        if author is None or author.game is not None or author.starting:
            self._drop_seek(seek.name)
            return "that seek is not open any more"
        self._drop_seek(seek.name)
        self._drop_seek(member.name)
        seats = (author, member) if secrets.randbelow(2) else (member, author)
        for m in seats:
            self._stop_watching(m)
            m.starting = True  # nothing else for them while the game is stored
        try:
            row = await self.store.new_game(seek.game, secrets.randbelow(SEED_RANGE), seek.clock, seek.rated,
                                            seats[0].name, seats[1].name)
        except sqlite3.Error:
            return "the server cannot start games now: try again later"
        finally:
            for m in seats:
                m.starting = False
        game = LiveGame(row, self.store, self.data, self._game_over, now=self.now)
        self.games[row.id] = game
        for seat, m in enumerate(seats):
            self.playing[m.name] = game
            here = self.members.get(m.name)  # may have come back on a new connection meanwhile
            if here is not None:
                here.game = game
                game.attach(here.conn, seat)
        game.start(restored=False)
        self.log(f"game {row.id}: {row.game} {row.clock} {seats[0].name} - {seats[1].name}")
        return None

    def _watch(self, member: Member, msg: Message) -> str | None:
        game = self.games.get(msg.number(0, what="game id"))
        if game is None:
            return "no such game in progress"
        if member.game is not None or member.starting:
            return "finish your game first"
        if len(game.watchers) >= MAX_WATCHERS:
            return f"that game has as many watchers as it takes ({MAX_WATCHERS})"
        self._stop_watching(member)
        member.watching = game
        self._watchers.setdefault(game.row.id, set()).add(member)
        game.attach(member.conn, None)
        return None

    def _leave(self, member: Member, msg: Message) -> str | None:
        return None if self._stop_watching(member) else "you are not watching a game"

    def _stop_watching(self, member: Member) -> bool:
        if member.watching is None:
            return False
        game, member.watching = member.watching, None
        game.detach(member.conn)
        watchers = self._watchers.get(game.row.id)
        if watchers is not None:
            watchers.discard(member)
            if not watchers:
                del self._watchers[game.row.id]
        return True

    async def _move(self, member: Member, msg: Message) -> str | None:
        game = member.game
        if game is None:
            return "you are not playing a game"
        number = msg.number(0, what="move number")
        refusal = await game.move(game.seat_of(member.name), number, msg.text)
        if refusal is not None:
            member.conn.send("REFUSED", number, text=refusal)
        elif isinstance(member.conn.rate, _Rate):
            member.conn.rate.refund()
        return None

    async def _resign(self, member: Member, msg: Message) -> str | None:
        game = member.game
        if game is None:
            return "you are not playing a game"
        return await game.resign(game.seat_of(member.name))

    async def _abort(self, member: Member, msg: Message) -> str | None:
        game = member.game
        if game is None:
            return "you are not playing a game"
        return await game.abort(game.seat_of(member.name))

    def _undo(self, member: Member, msg: Message) -> str | None:
        msg.choice(0, ("ASK", "YES", "NO"))
        if member.game is not None and msg.words[0] == "ASK":
            member.conn.send("UNDO", "NO")  # server games take nothing back (rated games could be gamed)
        return None

    def _game_over(self, game: LiveGame) -> None:
        self.games.pop(game.row.id, None)
        for name in game.names:
            if self.playing.get(name) is game:
                del self.playing[name]
            m = self.members.get(name)
            if m is not None and m.game is game:
                m.game = None
        for m in self._watchers.pop(game.row.id, set()):
            if m.watching is game:
                m.watching = None
        out = game.session.outcome()
        how = "aborted" if game.aborted or out is None else " ".join(outcome_result(out))
        self.log(f"game {game.row.id} over: {how}")

    # ------------------------------------------------------------------ lists and files

    def _list(self, member: Member, msg: Message) -> str | None:
        kind, arg = msg.choice(0, LIST_KINDS), msg.words[1]
        send = member.conn.send
        rows = 0
        if kind == "seeks":
            for seek in itertools.islice(self.seeks.values(), SHOWN_SEEKS):  # what the lobby is told of
                send("OFFER", *seek.words())
                rows += 1
        elif kind == "players":
            for name in sorted(self.members)[:MAX_ROWS]:
                game = self.members[name].game
                send("PLAYER", name, game.row.id if game is not None else "-")
                rows += 1
        elif kind == "games" and arg != "-":  # one game, in progress or not (its players' names: revision 2)
            row = self.store.game(msg.number(1, what="game id"))
            if row is not None:
                send("GAME", *_game_words(row))
                rows += 1
        elif kind == "games":
            for game in itertools.islice(self.games.values(), MAX_ROWS):
                send("GAME", *_game_words(game.row))
                rows += 1
        elif kind == "history":
            name = None if arg == "-" else check_name(arg)
            for row in self.store.finished(name, MAX_ROWS):
                send("GAME", *_game_words(row))
                rows += 1
        else:
            try:
                game_id = resolve_game_id(arg)
            except UnknownGame as e:
                return str(e)
            for r in self.store.ratings(game_id, MAX_ROWS):
                send("RATING", r.game, r.name, f"{r.rating:.2f}", f"{r.mu:.3f}", f"{r.sigma:.3f}", r.games)
                rows += 1
        send("LISTED", kind, rows)
        return None

    def _fetch(self, member: Member, msg: Message) -> str | None:
        game_id = msg.number(0, what="game id")
        row = self.store.game(game_id)
        if row is None or row.live:
            return "no such finished game"
        if row.reason == ABORTED:
            return f"game {game_id} was aborted: it has no save file"
        try:
            data = read_regular_file(save_path(self.data, game_id), MAX_SAVE_SENT)
        except StorageError:
            return "that game's save file is missing on the server"
        text = base64.b64encode(data).decode("ascii")
        member.conn.send("SAVE", game_id, len(data))
        for i in range(0, len(text), DATA_CHARS):
            member.conn.send("DATA", text[i:i + DATA_CHARS])
        return None


def _game_words(row: GameRow) -> tuple[object, ...]:
    return (row.id, row.game, row.clock, RATED[0] if row.rated else RATED[1], row.p1, row.p2, row.result,
            row.reason or "-")


_HANDLERS: dict[str, Callable[[Server, Member, Message], str | None]] = {
    "SEEK": Server._seek, "CANCEL": Server._cancel, "ACCEPT": Server._accept, "WATCH": Server._watch,
    "LEAVE": Server._leave, "LIST": Server._list, "FETCH": Server._fetch, "MOVE": Server._move,
    "UNDO": Server._undo, "RESIGN": Server._resign, "ABORT": Server._abort,
}
