"""Load a `termarena server` with simulated players, over loopback, and measure it.

    python -m tui.tools.load_server --games 1000 [--watchers 50] [--seconds 30] [--game GAME]

N games' worth of players (2N connections) log in, pair up and play real games through the protocol
(each pair: one SEEKs, the other ACCEPTs that seek, both play random legal moves as fast as the server
answers, then they seek again), while watchers LIST the games in progress and WATCH them to their end.
It prints the games finished a second, the latency of a move (MOVE sent -> the server's MOVE of the
same number back, which it sends only once the move is on disk) at p50 and p99, and the server's
memory (RSS) a game.  By default it starts its own server (`termarena server` in a temporary folder,
removed after) so that the RSS is the server's alone; `--port P --pid PID` loads a running one.

A tool for whoever runs a server, not a command of the app: it opens thousands of connections.  It
lives under tui/ because it speaks the server's protocol (tui.core.server); ai/ may not import tui.

Every simulated player connects from its own loopback address (127.1.x.y: Linux answers on all of
127/8), because the server allows 16 connections and a few new names from one address.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import random
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engines import get_game, resolve_game_id
from engines.registry import game_ids
from tui.core.net.protocol import Message, decode, encode
from tui.core.python_module import module_argv
from tui.core.server.protocol import VERBS
from tui.core.server.run import raise_file_limit
from tui.core.server.tls import client_context

LOGINS_AT_ONCE = 64  # the server lets 256 connections wait for their HELLO
FIRST_ADDRESS = int(ipaddress.IPv4Address("127.1.0.1"))
DEFAULT_GAME = sorted(game_ids())[0]  # the registry's first by name (Connect 4): short games, cheap moves


@dataclass
class Report:
    games: int  # pairs playing at once
    finished: int = 0  # games over, counted once each
    moves: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, one a move
    watched: int = 0  # games a watcher followed to their end
    errors: list[str] = field(default_factory=list)  # REFUSED, NO, BYE, closed: none expected
    seconds: float = 0.0  # of the measured part
    rss: int | None = None  # the server's, bytes, under load
    idle_rss: int | None = None  # before anyone logged in
    server_cpu: float | None = None  # seconds of CPU the server used while measured
    own_cpu: float = 0.0  # and this process

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")

    def lines(self) -> list[str]:
        out = [f"{self.games} games at once: {self.finished} finished in {self.seconds:.1f} s = "
               f"{self.finished / self.seconds if self.seconds else 0:.1f} games a second, {self.moves} moves",
               f"move latency (MOVE sent -> stored and acknowledged): p50 {self.percentile(50) * 1000:.1f} ms, "
               f"p99 {self.percentile(99) * 1000:.1f} ms",
               f"watchers followed {self.watched} games to their end"]
        if self.rss is not None:
            line = f"server RSS {self.rss / 2**20:.0f} MiB = {self.rss / self.games / 1024:.0f} KiB a game"
            if self.idle_rss is not None:
                line += (f" ({self.idle_rss / 2**20:.0f} MiB idle; "
                         f"{(self.rss - self.idle_rss) / self.games / 1024:.0f} KiB a game above that)")
            out.append(line)
        if self.server_cpu is not None and self.seconds:
            out.append(f"CPU while measured: server {self.server_cpu / self.seconds:.0%} of a core, "
                       f"this load generator {self.own_cpu / self.seconds:.0%}")
        out.append(f"errors: {len(self.errors)}" + (f" (first: {self.errors[0]})" if self.errors else ""))
        return out


class Player:
    """One simulated client: a TLS connection speaking the protocol, reading into a queue."""

    def __init__(self, index: int, report: Report, watcher: bool = False) -> None:
        self.name = f"load{index}"
        self.watcher = watcher  # a watcher may be told NO: the game it chose ended meanwhile
        self.address = str(ipaddress.IPv4Address(FIRST_ADDRESS + index))
        self.report = report
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def login(self, port: int, context: ssl.SSLContext) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=context, local_addr=(self.address, 0), limit=1 << 16)
        self.send("HELLO", "termarena", 1, "lobby", self.name)
        await self.expect("LOBBY")

    def send(self, verb: str, *words: object, text: str = "") -> None:
        self.writer.write(encode(verb, *words, text=text))

    async def read(self) -> Message:
        line = await self.reader.readline()
        if not line:
            raise ConnectionError(f"{self.name}: the server closed the connection")
        msg = decode(line, VERBS)
        if msg.verb in ("REFUSED", "BYE") or (msg.verb == "NO" and not self.watcher):
            self.report.errors.append(f"{self.name}: {msg.verb} {msg.text}")
            if msg.verb == "BYE":
                raise ConnectionError(f"{self.name}: BYE {msg.text}")
        return msg

    async def expect(self, verb: str) -> Message:
        while (msg := await self.read()).verb != verb:
            pass
        return msg

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def play(player: Player, rng: random.Random, report: Report, count: bool) -> None:
    """One game from its START to its OVER: random legal moves on our turns, each one timed."""
    game, seat, sent_at, sent = None, None, 0.0, 0
    moves = 0
    while True:
        msg = await player.read()
        if msg.verb == "WELCOME":
            seat = int(msg.words[2]) - 1
            game = get_game(msg.words[3]).new(int(msg.words[4]))
        elif msg.verb == "MOVE":
            game.play(msg.text)
            moves += 1
            if sent_at and int(msg.words[0]) == sent:
                report.latencies.append(time.perf_counter() - sent_at)
                report.moves += 1
                sent_at = 0.0
        elif msg.verb == "OVER":
            if count:
                report.finished += 1
            return
        else:
            continue
        if not game.is_over() and game.current_player() == seat and not sent_at:
            sent = moves + 1
            player.send("MOVE", sent, text=game.move_to_str(rng.choice(game.legal_moves())))
            sent_at = time.perf_counter()


async def pair(seeker: Player, acceptor: Player, game: str, clock: str, rounds: int | None,
               stop: asyncio.Event, report: Report, seed: int) -> None:
    """Two players play game after game: the seeker's own OFFER gives the acceptor the seek's id."""
    rng = random.Random(seed)
    played = 0
    while not stop.is_set() and (rounds is None or played < rounds):
        seeker.send("SEEK", game, clock, "casual")
        offer = await seeker.expect("OFFER")
        while offer.words[1] != seeker.name:  # the lobby's news of others' seeks
            offer = await seeker.expect("OFFER")
        acceptor.send("ACCEPT", offer.words[0])
        await asyncio.gather(seeker.expect("START"), acceptor.expect("START"))
        await asyncio.gather(play(seeker, rng, report, True), play(acceptor, rng, report, False))
        played += 1


async def watch(watcher: Player, stop: asyncio.Event, report: Report) -> None:
    """LIST the games in progress, WATCH one to its end, again."""
    rng = random.Random(watcher.name)
    while not stop.is_set():
        watcher.send("LIST", "games", "-")
        rows = []
        while (msg := await watcher.read()).verb != "LISTED":
            if msg.verb == "GAME":
                rows.append(msg.words[0])
        if not rows:
            await asyncio.sleep(0.05)
            continue
        watcher.send("WATCH", rng.choice(rows))
        while (msg := await watcher.read()).verb not in ("START", "NO"):
            pass
        if msg.verb == "NO":  # it ended meanwhile
            continue
        while (msg := await watcher.read()).verb != "OVER":
            pass
        report.watched += 1


async def run_load(port: int, games: int, *, watchers: int = 0, game: str | None = None, clock: str = "5+3",
                   rounds: int | None = None, seconds: float | None = None,
                   pid: int | None = None) -> Report:
    """Play `rounds` games a pair (bounded by counts: the tests), or for `seconds` once every pair has
    started (the measure); the server's memory and CPU are read when its process id is given."""
    game = resolve_game_id(game) if game else DEFAULT_GAME
    report = Report(games)
    report.idle_rss = rss_of(pid) if pid else None
    context = client_context()
    players = [Player(i, report, watcher=i >= 2 * games) for i in range(2 * games + watchers)]
    gate = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def login(p: Player) -> None:
        async with gate:
            await p.login(port, context)

    stop = asyncio.Event()
    try:
        await asyncio.gather(*(login(p) for p in players))
        tasks = [asyncio.create_task(pair(players[2 * i], players[2 * i + 1], game, clock, rounds, stop, report, i))
                 for i in range(games)]
        tasks += [asyncio.create_task(watch(p, stop, report)) for p in players[2 * games:]]
        pairs = asyncio.gather(*tasks[:games], return_exceptions=True)
        start = time.perf_counter()
        if seconds is not None:
            # the measure starts once the games are all going, from counts zeroed then
            await asyncio.sleep(min(2.0, seconds / 4))
            report.finished, report.moves, report.latencies, report.watched = 0, 0, [], 0
            start, cpu0, own0 = time.perf_counter(), cpu_of(pid) if pid else None, time.process_time()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(pairs), seconds)
            report.rss = rss_of(pid) if pid else None
            report.own_cpu = time.process_time() - own0
            if cpu0 is not None and (cpu1 := cpu_of(pid)) is not None:
                report.server_cpu = cpu1 - cpu0
            stop.set()
        else:
            await pairs
            stop.set()
        report.seconds = time.perf_counter() - start
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        report.errors += [str(r) for r in results if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
    finally:
        for p in players:
            p.close()
    return report


# ---------------------------------------------------------------------- a server of its own, measured


def rss_of(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def cpu_of(pid: int) -> float | None:
    """Seconds of CPU (user and system) the process used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def own_server(connections: int):
    """`termarena server` on a fresh temporary folder, its port; stopped and removed after."""
    data = Path(tempfile.mkdtemp(prefix="termarena-load-"))
    proc = subprocess.Popen(module_argv("tui", "server", "--data", str(data), "--port", "0",
                                        "--max-connections", str(connections)),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stderr:
            if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                break
        else:
            raise SystemExit("load_server: the server did not start")
        # its log (a line a game) is read, not kept, so that the server never waits on a full pipe
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        yield proc.pid, int(found.group(1))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(data, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.tools.load_server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games played at once (2 players each)")
    parser.add_argument("--watchers", type=int, default=0, help="clients watching games")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure, once all games go")
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"the game played (default: {DEFAULT_GAME})")
    parser.add_argument("--clock", default="5+3")
    parser.add_argument("--port", type=int, help="load the server on this loopback port instead of starting one")
    parser.add_argument("--pid", type=int, help="that server's process id (for its memory)")
    args = parser.parse_args(argv)
    clients = 2 * args.games + args.watchers
    raise_file_limit(clients + 256)

    async def measure(port: int, pid: int | None) -> Report:
        return await run_load(port, args.games, watchers=args.watchers, game=args.game, clock=args.clock,
                              seconds=args.seconds, pid=pid)

    if args.port is not None:
        report = asyncio.run(measure(args.port, args.pid))
    else:
        with own_server(clients + 64) as (pid, port):
            report = asyncio.run(measure(port, pid))
    print("\n".join(report.lines()))
    print("load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg())
          + f" on {os.cpu_count()} cores")
    return 1 if report.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
