"""A bot as a child process that speaks a CodinGame protocol: lines in on stdin, one line out per turn.

The only place in `engines/` that starts processes.  Each bot runs under a guard (guard.py) in a
session of its own: the guard is a child subreaper that ends the bot and everything it started when
termarena closes the bot or ends in any way (SIGKILL included: the guard watches a lifeline pipe that
only this process holds open).  The bot's stdout is read from the raw file descriptor with `select`,
so a deadline is a real deadline whatever the bot does (prints nothing, half a line, a flood); its
stderr is drained by a thread into a bounded buffer, so a chatty bot never blocks.  That thread reads
under a lock which `take_turn_stderr` also takes to read what is left in the pipe, so a recorded game
gives each stderr line to the turn during which it arrived (engines/record.py).
"""
from __future__ import annotations

import collections
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Callable, Sequence

from engines.base import shorten
from engines.record import TURN_STDERR_LINES
from engines.visible import visible

# A line longer than this is not an answer but a flood; CodinGame bots print a few dozen bytes.
MAX_LINE_BYTES = 1 << 20
STDERR_KEEP_LINES = 500
STDERR_LINE_CHARS = 2000  # a kept stderr line is cut there (a bot may print megabytes in one line)
STDERR_BACKLOG = 1000  # lines waiting for a slow display; older ones are dropped (and counted)
STDERR_CHUNK = 65536
STDERR_LONG_LINE = 8192  # bytes without a newline passed on as a line of their own
# A wait for an answer looks up this often whether the bot was closed meanwhile: closing removes its
# output from the wait's descriptor set, and a wait without a timeout would then never end.
CLOSED_CHECK_S = 0.25
# a turn's stderr kept: its start, a marker, its end (last words): as many lines as a record keeps
TURN_HEAD_LINES = 60
TURN_TAIL_LINES = TURN_STDERR_LINES - TURN_HEAD_LINES - 1


class BotError(Exception):
    """The bot did not give an answer; `reason` is `timeout`, `crash` or `invalid` (flood)."""

    reason = "crash"


class BotTimeout(BotError):
    reason = "timeout"


class BotCrashed(BotError):
    reason = "crash"


class BotFlooded(BotError):
    reason = "invalid"


@dataclass(frozen=True)
class Answer:
    line: str  # without the newline; a trailing CR is kept, as the CodinGame runner keeps it
    elapsed_ms: float


GUARD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "guard.py")
# (pid that made it, read end, write end) of the pipe every guard watches: never written, never closed
_lifeline: tuple[int, int, int] | None = None
_lifeline_lock = threading.Lock()
_live: "weakref.WeakSet[BotProcess]" = weakref.WeakSet()


def _lifeline_fd() -> int:
    """The read end of this process's lifeline (made once): it reaches end of file only when this
    process has ended, however it ended.  Both ends are close-on-exec, so no other child holds them."""
    global _lifeline
    with _lifeline_lock:
        if _lifeline is None or _lifeline[0] != os.getpid():  # a forked child makes its own
            _lifeline = (os.getpid(), *os.pipe())
        return _lifeline[1]


_ending = threading.Event()


def end_all_bots() -> None:
    """termarena is ending: every live bot's guard is told to end its bot now (bots being waited for in
    other threads then fail at once) and no new bot starts.  Safe from a signal handler."""
    _ending.set()
    for _ in range(10):  # another thread may be adding a bot right now
        try:
            bots = list(_live)
            break
        except RuntimeError:
            continue
    else:
        return
    for bot in bots:
        bot.terminate()


def start_guarded(argv: Sequence[str], **popen_options) -> subprocess.Popen:
    """Start `argv` under the guard, in a session of its own: it and everything it starts end when the
    guard is told to end (SIGTERM) or when this process ends, by any signal.  The one way termarena
    starts a process that is not a short-lived tool: bots, and the Ray instance of `--cluster local`."""
    lifeline = _lifeline_fd()
    return subprocess.Popen([sys.executable, "-I", "-S", GUARD, str(lifeline), *argv],
                            start_new_session=True, pass_fds=(lifeline,), **popen_options)


def _resolve(argv: list[str], cwd: str | None) -> list[str]:
    """argv with its program found as the bot's own exec would find it, or a BotCrashed now: a missing
    program is reported when the bot is started, not as a crash on its first turn."""
    program = argv[0]
    if os.sep in program:
        path = program if os.path.isabs(program) or cwd is None else os.path.join(cwd, program)
        if not os.path.isfile(path):
            raise BotCrashed(f"cannot start {' '.join(argv)!r}: No such file or directory")
        if not os.access(path, os.X_OK):
            raise BotCrashed(f"cannot start {' '.join(argv)!r}: Permission denied")
        return argv
    if shutil.which(program) is None:
        raise BotCrashed(f"cannot start {' '.join(argv)!r}: No such file or directory")
    return argv


class _StderrRelay:
    """Hands a bot's stderr lines to a display callback on a thread of its own.

    The drain thread only appends here and never waits, so a slow display (a terminal printing
    `referee -v`) cannot fill the bot's stderr pipe and stall the bot mid-turn; when the display falls
    more than STDERR_BACKLOG lines behind, the oldest are dropped and the display is told how many."""

    def __init__(self, callback: Callable[[str], None], name: str) -> None:
        self._callback = callback
        self._lines: collections.deque[str] = collections.deque()
        self._skipped = 0
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=f"{name}-stderr-display", daemon=True)
        self._thread.start()

    def put(self, line: str) -> None:
        with self._cond:
            if len(self._lines) >= STDERR_BACKLOG:
                self._lines.popleft()
                self._skipped += 1
            self._lines.append(line)
            self._cond.notify()

    def close(self) -> None:
        """No more lines will come: the thread shows what is waiting, then ends."""
        with self._cond:
            self._closed = True
            self._cond.notify()

    def join(self, timeout_s: float) -> None:
        self._thread.join(timeout_s)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._lines or self._closed)
                if not self._lines:
                    return
                skipped, self._skipped = self._skipped, 0
                line = self._lines.popleft()
            try:
                if skipped:
                    self._callback(f"… {skipped} lines of stderr skipped (the display could not keep up)")
                self._callback(line)
            except Exception:  # a display callback must never take the bot down
                pass


class TurnLines:
    """The stderr lines of one turn, bounded: the first TURN_HEAD_LINES and the last TURN_TAIL_LINES,
    with one line counting those skipped between (a crash's last words are at the end)."""

    def __init__(self) -> None:
        self.head: list[str] = []
        self.tail: collections.deque[str] = collections.deque(maxlen=TURN_TAIL_LINES)
        self.skipped = 0

    def add(self, line: str) -> None:
        if len(self.head) < TURN_HEAD_LINES:
            self.head.append(line)
            return
        if len(self.tail) == self.tail.maxlen:
            self.skipped += 1
        self.tail.append(line)

    def lines(self) -> list[str]:
        marker = [f"… {self.skipped} lines of stderr not kept"] if self.skipped else []
        return self.head + marker + list(self.tail)


def split_command(command: str | Sequence[str]) -> list[str]:
    """A bot command as argv: a string is split the way a POSIX shell splits words."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise BotCrashed(f"cannot read the bot command {command!r}: {e}") from None
    else:
        argv = list(command)
    if not argv:
        raise BotCrashed("the bot command is empty")
    return argv


class BotProcess:
    """One running bot.  Use as a context manager, or call `close()`; closing kills its process group."""

    def __init__(self, command: str | Sequence[str], *, cwd: str | None = None,
                 env: dict[str, str] | None = None,
                 on_stderr: Callable[[str], None] | None = None, name: str = "bot"):
        self.argv = split_command(command)
        self.name = name
        self._relay = _StderrRelay(on_stderr, name) if on_stderr is not None else None
        self.stderr_lines: collections.deque[str] = collections.deque(maxlen=STDERR_KEEP_LINES)
        self._buf = b""
        self._eof = False
        self._closing = False
        # stderr: read by the drain thread and by take_turn_stderr, one at a time
        self._err_lock = threading.Lock()
        self._err_pending = b""
        self._err_closed = False
        self._turn_lines = TurnLines()  # what take_turn_stderr gives next
        if _ending.is_set():
            raise BotCrashed("termarena is ending: no new bot is started")
        _resolve(self.argv, cwd)
        try:
            self.proc = start_guarded(self.argv, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        except OSError as e:
            raise BotCrashed(f"cannot start {' '.join(self.argv)!r}: {e.strerror or e}") from None
        _live.add(self)
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stderr.fileno(), False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, name=f"{name}-stderr", daemon=True)
        self._stderr_thread.start()

    # ------------------------------------------------------------------ talking

    def send(self, lines: Sequence[str]) -> None:
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise BotCrashed(self._death_note("its input was closed")) from None

    def read_line(self, timeout_s: float | None) -> Answer:
        """The next line the bot prints, waiting at most `timeout_s` seconds (None: no limit)."""
        start = time.monotonic()
        deadline = None if timeout_s is None else start + timeout_s
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                raw, self._buf = self._buf[:nl], self._buf[nl + 1:]
                return Answer(raw.decode("utf-8", "replace"), (time.monotonic() - start) * 1000)
            if len(self._buf) > MAX_LINE_BYTES:
                raise BotFlooded(f"printed more than {MAX_LINE_BYTES} bytes without a newline")
            if self._eof:
                raise BotCrashed(self._death_note("it closed its output"))
            if self._closing:
                raise BotCrashed("it was ended by termarena")
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise BotTimeout(f"no answer within {timeout_s * 1000:.0f} ms")
            try:
                ready = self._sel.select(CLOSED_CHECK_S if remaining is None else min(remaining, CLOSED_CHECK_S))
            except (OSError, ValueError):  # closed by another thread
                continue
            if not ready:
                continue
            try:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                self._buf += chunk
            else:
                self._eof = True

    def ask(self, lines: Sequence[str], timeout_s: float | None) -> Answer:
        """Send one turn's input and wait for the answer line; the clock starts when the input is sent."""
        self.send(lines)
        return self.read_line(timeout_s)

    # ------------------------------------------------------------------ stderr

    def _drain_stderr(self) -> None:
        with selectors.DefaultSelector() as sel:
            # Under the lock: a bot closed before this thread first runs (a signal ending termarena just
            # after it started the bot) has a closed pipe, whose descriptor must not be asked for.
            with self._err_lock:
                fd = None if self._err_closed else self.proc.stderr.fileno()
                if fd is not None:
                    sel.register(fd, selectors.EVENT_READ)
            while fd is not None:
                try:
                    sel.select(0.5)  # a timeout, so that a closed bot is noticed even without an end of file
                except (OSError, ValueError):
                    pass
                with self._err_lock:
                    if self._err_closed or not self._read_stderr(fd):
                        break
        with self._err_lock:
            if self._err_pending:
                self._stderr_line(self._err_pending.decode("utf-8", "replace"))
                self._err_pending = b""
        if self._relay is not None:
            self._relay.close()

    def _read_stderr(self, fd: int, limit: int = 1 << 20) -> bool:
        """Read what the pipe holds now (at most about `limit` bytes, so that a flood does not keep the
        lock) and pass its lines on; False at its end.  Called holding self._err_lock: the descriptor
        is not closed meanwhile."""
        done = 0
        while done < limit:
            try:
                chunk = os.read(fd, STDERR_CHUNK)
            except BlockingIOError:
                return True
            except OSError:
                chunk = b""
            if not chunk:
                return False
            done += len(chunk)
            pending = self._err_pending + chunk
            *lines, pending = pending.split(b"\n")
            if len(pending) > STDERR_LONG_LINE:  # a very long line: keep it readable, pass it on in pieces
                lines.append(pending)
                pending = b""
            self._err_pending = pending
            for raw in lines:
                self._stderr_line(raw.decode("utf-8", "replace").rstrip("\r"))
        return True

    def take_turn_stderr(self) -> list[str]:
        """The stderr lines that arrived since the last call (the first call: since the start), the
        pipe read now so that nothing printed before this moment is left for the next turn; bounded
        (TurnLines).  A line not ended yet belongs to the turn in which it ends."""
        with self._err_lock:
            if not self._err_closed:
                self._read_stderr(self.proc.stderr.fileno())
            kept, self._turn_lines = self._turn_lines.lines(), TurnLines()
        return kept

    def _stderr_line(self, line: str) -> None:
        line = shorten(line, STDERR_LINE_CHARS)
        self.stderr_lines.append(line)
        self._turn_lines.add(line)
        if self._relay is not None:
            self._relay.put(line)

    def stderr_tail(self, n: int = 5) -> list[str]:
        return list(self.stderr_lines)[-n:]

    # ------------------------------------------------------------------ ending

    def _death_note(self, what: str) -> str:
        code = self.proc.poll()
        if code is None:
            try:
                code = self.proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            note = what
        elif code < 0:
            try:
                note = f"it was killed by {signal.Signals(-code).name}"
            except ValueError:
                note = f"it was killed by signal {-code}"
        else:
            note = f"it exited with status {code}"
        time.sleep(0.02)  # let the stderr thread catch the last words
        tail = self.stderr_tail(3)
        if tail:
            # the message reaches terminals and save files: the bot's words with their controls escaped
            note += "; its last stderr: " + " | ".join(visible(t, 200) for t in tail)
        return note

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def terminate(self) -> None:
        """Tell the guard to end the bot and all it started (it does so at once); safe from any thread."""
        if self.proc.returncode is None:
            try:
                os.kill(self.proc.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self, grace_s: float = 0.1) -> None:
        """End the bot and everything it started; safe to call twice, and from another thread than one
        waiting for its answer (that wait ends with BotCrashed)."""
        self._closing = True
        _live.discard(self)
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        # Bots need no clean shutdown: the guard kills the bot's whole tree, wherever it went.
        self.terminate()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        # A guard that did not end (stopped, say): SIGKILL its group, which the bot shares.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass
        try:
            self._sel.close()
        except Exception:
            pass
        with self._err_lock:  # the drain thread reads no closed (or reused) descriptor
            if not self._err_closed:  # the last words, printed just before the end, are not lost
                self._read_stderr(self.proc.stderr.fileno())
            self._err_closed = True
            for stream in (self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()
                except Exception:
                    pass

    def stderr_shown(self, timeout_s: float = 1.0) -> None:
        """After `close`: wait until the display callback has had every stderr line (at most `timeout_s`),
        so that `referee -v` shows a bot's last words before the result, not never."""
        if self._relay is None:
            return
        deadline = time.monotonic() + timeout_s
        self._stderr_thread.join(timeout_s)
        self._relay.join(max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
