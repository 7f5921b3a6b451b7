"""A bot as a child process that speaks a CodinGame protocol: lines in on stdin, one line out per turn.

The only place in `engines/` that starts processes.  Each bot runs in its own process group so that
everything it starts can be killed with it; its stdout is read from the raw file descriptor with
`select`, so a deadline is a real deadline whatever the bot does (prints nothing, half a line, a
flood); its stderr is drained by a thread into a bounded buffer, so a chatty bot never blocks.
"""
from __future__ import annotations

import collections
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Callable, Sequence

# A line longer than this is not an answer but a flood; CodinGame bots print a few dozen bytes.
MAX_LINE_BYTES = 1 << 20
STDERR_KEEP_LINES = 500


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
        self._on_stderr = on_stderr
        self.stderr_lines: collections.deque[str] = collections.deque(maxlen=STDERR_KEEP_LINES)
        self._buf = b""
        self._eof = False
        try:
            self.proc = subprocess.Popen(
                self.argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
        except OSError as e:
            raise BotCrashed(f"cannot start {' '.join(self.argv)!r}: {e.strerror or e}") from None
        os.set_blocking(self.proc.stdout.fileno(), False)
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
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise BotTimeout(f"no answer within {timeout_s * 1000:.0f} ms")
            if not self._sel.select(remaining):
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
        stream = self.proc.stderr
        pending = b""
        while True:
            try:
                chunk = stream.read(4096)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            if len(pending) > 8192:  # a very long line: keep it readable, pass it on in pieces
                lines.append(pending)
                pending = b""
            for raw in lines:
                self._stderr_line(raw.decode("utf-8", "replace").rstrip("\r"))
        if pending:
            self._stderr_line(pending.decode("utf-8", "replace"))

    def _stderr_line(self, line: str) -> None:
        self.stderr_lines.append(line)
        if self._on_stderr is not None:
            try:
                self._on_stderr(line)
            except Exception:  # a display callback must never take the bot down
                pass

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
            note += "; its last stderr: " + " | ".join(t[:200] for t in tail)
        return note

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, grace_s: float = 0.1) -> None:
        """End the bot and everything it started; safe to call twice."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        # Bots need no clean shutdown; SIGKILL the whole group so nothing the bot started lingers.
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
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except Exception:
                pass

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
