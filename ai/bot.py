"""The built-in AI as a CodinGame bot: reads the game's input protocol, answers one line per turn."""
from __future__ import annotations

import os
import sys
import time
from typing import BinaryIO, Callable, TextIO

from engines import get_game
from engines.base import Game

# Chooses a move for the position; `deadline` is a time.monotonic() value it must answer before.
Chooser = Callable[[Game, float], object]


def process_age_s() -> float:
    """Seconds since this process started (Linux /proc; 0 where unknown).

    A referee may start its clock when it spawns the bot and sends the first input at once, so on
    the first turn Python's own start-up (imports: a few hundred ms on a busy machine) counts too."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def run_bot(game_id: str, choose: Chooser, *, stdin: BinaryIO | None = None, stdout: TextIO | None = None,
            margin: float | None = 0.6) -> int:
    """Play until the referee closes stdin; returns the exit status.

    Each turn's deadline is `margin` of the game's CodinGame time limit for that turn, so the answer
    arrives in time even with Python's start-up and pipe latency; `margin=None` gives no deadline
    (the player's own budget rules, e.g. an explicit --think-ms)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    cls = get_game(game_id)
    reader = cls.input_reader()
    first = True
    turn_start: list[float] = []  # when the turn's first line arrived: the referee's clock starts then

    def readline() -> str:
        raw = stdin.readline()
        if not raw:
            raise EOFError
        if not turn_start:
            turn_start.append(time.monotonic())
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    while True:
        turn_start.clear()
        try:
            state = reader.read_turn(readline)
        except EOFError:
            return 0
        start = turn_start[0] if turn_start else time.monotonic()
        if first:
            start = min(start, time.monotonic() - process_age_s())
        deadline = None if margin is None else start + cls.limits.for_turn(first) / 1000 * margin
        first = False
        move = choose(state, deadline)
        try:
            stdout.write(state.move_to_str(move) + "\n")
            stdout.flush()
        except BrokenPipeError:
            return 0
        reader.played(move)


def main(argv: list[str] | None = None, prog: str = "python -m ai.bot") -> int:
    """`python -m ai.bot GAME [--level N] [--think-ms MS] [--seed S]`: the bot without the CLI's imports,
    which the referee uses for `ai:N` seats so that start-up eats less of the first turn's time."""
    import argparse

    from ai.levels import MAX_LEVEL, MIN_LEVEL, make_player
    from engines import UnknownGame, resolve_game_id

    ap = argparse.ArgumentParser(prog=prog, description="The built-in AI as a CodinGame bot on stdin/stdout.")
    ap.add_argument("game")
    ap.add_argument("--level", type=int, default=3, choices=range(MIN_LEVEL, MAX_LEVEL + 1))
    ap.add_argument("--think-ms", type=int, default=None)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    try:
        gid = resolve_game_id(args.game)
    except UnknownGame as e:
        ap.error(str(e))
    player = make_player(gid, args.level, think_ms=args.think_ms, seed=args.seed)
    return run_bot(gid, player.choose, margin=None if args.think_ms else 0.6)


if __name__ == "__main__":
    sys.exit(main())
