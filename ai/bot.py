"""The built-in AI as a CodinGame bot: reads the game's input protocol, answers one line per turn."""
from __future__ import annotations

import io
import os
import sys
import time
from typing import BinaryIO, Callable, TextIO

from ai.gc_pause import gc_paused
from ai.turn_clock import SHARE, TurnClock, machine_load
from engines import get_game
from engines.base import Game, InputError, shorten
from engines.visible import visible
from engines.numbers import parse_int
from engines.textread import MAX_LINE_BYTES, decode_line

BOT_NAME = "termarena bot"
EXIT_BAD_INPUT = 1  # the referee's input was malformed or impossible (one line on stderr says which)
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug of ours
MAX_THINK_MS = 3_600_000  # an hour a move: beyond that a number is a typo, not a budget
MAX_SEED = 2**64 - 1  # what random.Random and the referees' seeds comfortably take
MARGIN = SHARE  # the share of each turn's CodinGame limit a bot answers within (ai/turn_clock.py)

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
            margin: float | None = MARGIN, stderr: TextIO | None = None) -> int:
    """Play until the referee closes stdin; returns the exit status.

    Each turn's deadline is `margin` of the game's CodinGame time limit for that turn, counted from
    when its input came and brought forward after late answers (`TurnClock`), so the answer arrives
    in time even with Python's start-up, pipe latency and a busy machine; `margin=None` gives no
    deadline (the player's own budget rules, e.g. an explicit --think-ms).  The garbage collector
    stays off meanwhile: the searches make no reference cycles, and a collection over what a bot
    loads (numba's objects: 25 ms at load 4, 100 ms beside other processes) would fall inside turns.

    Raises nothing but KeyboardInterrupt: input no referee sends (malformed, or an impossible
    position) gives one line on stderr naming the input line, and EXIT_BAD_INPUT; an unexpected
    exception gives one line and EXIT_INTERNAL.  A referee logs a bot's stderr, where a traceback
    helps nobody."""
    err = stderr if stderr is not None else sys.stderr
    try:
        with gc_paused():
            return _play(game_id, choose, stdin if stdin is not None else sys.stdin.buffer,
                         stdout if stdout is not None else sys.stdout, margin)
    except InputError as e:
        _say(err, str(e))
        return EXIT_BAD_INPUT
    except Exception as e:
        _say_internal(err, e)
        return EXIT_INTERNAL


def _input_waiting(stdin: BinaryIO) -> bool:
    """Whether input is already there to read (True where it cannot be told: the safe side)."""
    import select

    try:
        return bool(select.select([stdin], [], [], 0)[0])
    except (OSError, ValueError, TypeError, io.UnsupportedOperation):
        return True


def _say(err: TextIO, message: str) -> None:
    """One line on stderr, whatever the message holds (it may quote the referee's input: escaped)."""
    try:
        err.write(f"{BOT_NAME}: {visible(' '.join(message.splitlines()))}\n")
        err.flush()
    except (OSError, ValueError):
        pass  # nobody is listening any more


def _say_internal(err: TextIO, e: BaseException) -> None:
    _say(err, f"internal error: {type(e).__name__}: {shorten(str(e), 120)}")


def _play(game_id: str, choose: Chooser, stdin: BinaryIO, stdout: TextIO, margin: float | None) -> int:
    cls = get_game(game_id)
    reader = cls.input_reader()
    first = True
    turn_start: list[float] = []  # when the turn's first line arrived: the referee's clock starts then

    def readline() -> str:
        # Bounded: a line without end must not fill the memory before decode_line refuses it.
        raw = stdin.readline(MAX_LINE_BYTES + 1)
        if not raw:
            raise EOFError
        if not turn_start:
            turn_start.append(time.monotonic())
        return decode_line(raw)

    clock = None if margin is None else TurnClock(margin)
    answered = 0.0  # when the last answer was written
    # A referee that sent the first input while this process was still starting may have started its
    # clock at the spawn, so start-up counts; one that sends it later (seat 1 waits for seat 0's first
    # turn) starts its clock then, and counting start-up would leave this turn almost no time.  Later,
    # an input already waiting when the bot comes to read it came at some moment since its last answer
    # (the process waited for a core, say): the clock counts from that answer.
    came_earlier = _input_waiting(stdin)
    while True:
        turn_start.clear()
        try:
            state = reader.read_turn(readline)
        except EOFError:
            return 0
        start = turn_start[0] if turn_start else time.monotonic()
        if first and came_earlier:
            start = min(start, time.monotonic() - process_age_s())
        elif came_earlier:
            start = min(start, answered)
        deadline = None if clock is None else clock.deadline(start, cls.limits.for_turn(first) / 1000,
                                                             machine_load())
        move = choose(state, deadline)
        try:
            stdout.write(state.move_to_str(move) + "\n")
            stdout.flush()
        except BrokenPipeError:
            return 0
        answered = time.monotonic()
        if clock is not None and not first:  # a first answer's lateness is the start-up's, paid once
            clock.answered(deadline, answered)
        first = False
        reader.played(move)
        came_earlier = _input_waiting(stdin)


def _bounded_int(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer lo..hi, read strictly (no '1_000', no '١٢')."""

    def convert(text: str) -> int:
        import argparse

        try:
            return parse_int(text, lo, hi)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return convert


def main(argv: list[str] | None = None, prog: str = "python -m ai.bot") -> int:
    """`python -m ai.bot GAME [--level N] [--think-ms MS] [--seed S]`: the bot without the CLI's imports,
    which the referee uses for `ai:N` seats so that start-up eats less of the first turn's time."""
    import argparse

    from ai.levels import MAX_LEVEL, MIN_LEVEL, make_player
    from engines import UnknownGame, resolve_game_id

    ap = argparse.ArgumentParser(prog=prog, description="The built-in AI as a CodinGame bot on stdin/stdout.")
    ap.add_argument("game")
    ap.add_argument("--level", type=_bounded_int(MIN_LEVEL, MAX_LEVEL), default=3, metavar="N",
                    help=f"AI level, {MIN_LEVEL} (weakest) to {MAX_LEVEL} (default: 3)")
    ap.add_argument("--think-ms", type=_bounded_int(1, MAX_THINK_MS), default=None, metavar="MS",
                    help=f"thinking time per move, 1..{MAX_THINK_MS} ms (default: inside the game's time limits)")
    ap.add_argument("--seed", type=_bounded_int(0, MAX_SEED), default=None, metavar="S",
                    help=f"seed of the AI's own randomness, 0..{MAX_SEED}")
    args = ap.parse_args(argv)
    try:
        gid = resolve_game_id(args.game)
    except UnknownGame as e:
        ap.error(str(e))
    try:
        player = make_player(gid, args.level, think_ms=args.think_ms, seed=args.seed)
        margin = None if args.think_ms else MARGIN
        player.get_ready(args.think_ms / 1000 if args.think_ms else get_game(gid).limits.turn_ms / 1000 * margin)
        status = run_bot(gid, player.choose, margin=margin)
    except KeyboardInterrupt:
        status = 130
    except Exception as e:
        _say_internal(sys.stderr, e)
        status = EXIT_INTERNAL
    _quiet_stdout_at_exit()
    return status


def _quiet_stdout_at_exit() -> None:
    """When the referee closed our stdout, Python's own flush at exit would print 'Exception ignored'."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass


if __name__ == "__main__":
    sys.exit(main())
