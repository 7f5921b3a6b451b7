"""The guard between termarena and one bot: whatever ends termarena, everything the bot started ends too.

Run as `python -I -S guard.py LIFELINE_FD ARGV...` (standard library only, no package import, so it
starts in a few milliseconds).  It makes itself a child subreaper, so every process the bot starts
stays its descendant even after `setsid` or a double fork (orphans are reparented to it, not to
init), starts the bot with the inherited stdin/stdout/stderr, and waits for the first of:
- the bot exits: the guard exits with the bot's status (or dies by the bot's signal), so termarena
  reads the bot's fate from the guard's;
- SIGTERM, SIGHUP or SIGINT to the guard (termarena closing the bot);
- end of file on the lifeline, a pipe whose write end only termarena holds: termarena has ended,
  by any signal, SIGKILL included.
In every case it kills all its descendants before it exits.

PR_SET_PDEATHSIG would not do: it fires when the parent *thread* ends, and bots are started from
worker threads; nor would process groups or sessions alone, which a bot can leave.
"""
import ctypes
import os
import select
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
POLL_S = 0.5  # how often orphans that ended are reaped while nothing else happens


def _note(signum, frame):
    pass  # the signal itself wakes the main loop through the wakeup pipe


def descendants(pid: int) -> list[int]:
    """Every live descendant of `pid` (children listed by the kernel, walked down)."""
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except (OSError, ValueError):
                continue
            out += kids
            todo += kids
    return out


def reap() -> list[tuple[int, int]]:
    """Collect every child that has ended: (pid, wait status) pairs."""
    ended = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended.append((pid, status))


def kill_everything() -> list[tuple[int, int]]:
    me, ended = os.getpid(), []
    for _ in range(100):  # a fork bomb racing the kills gets a bounded number of rounds
        pids = descendants(me)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            pid, status = os.waitpid(-1, 0)
            ended.append((pid, status))
        except ChildProcessError:
            break
        ended += reap()
    return ended + reap()


def main() -> None:
    lifeline = int(sys.argv[1])
    argv = sys.argv[2:]
    os.set_inheritable(lifeline, False)  # the bot must not hold it: only the guard watches it
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the process group kill in termarena still applies
    stops = {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    for sig in stops:
        signal.signal(sig, _note)
    bot = os.fork()
    if bot == 0:
        for sig in stops:
            signal.signal(sig, signal.SIG_DFL)
        signal.set_wakeup_fd(-1)
        try:
            os.execvp(argv[0], argv)
        except OSError as e:
            os.write(2, f"cannot start {argv[0]!r}: {e.strerror}\n".encode(errors="replace"))
        os._exit(127)
    # The guard keeps no copy of the bot's stdin and stdout, so a bot that closes its output is seen
    # at once; stderr stays for the guard's own last words.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    bot_status = None
    watch = [lifeline, wake_r]
    try:
        watch.append(os.pidfd_open(bot))
    except (AttributeError, OSError):
        pass
    while bot_status is None:
        ready, _, _ = select.select(watch, [], [], POLL_S)
        if wake_r in ready:
            break  # told to stop
        if lifeline in ready and not os.read(lifeline, 64):
            break  # termarena has ended
        for pid, status in reap():
            if pid == bot:
                bot_status = status
    for pid, status in kill_everything():
        if pid == bot and bot_status is None:
            bot_status = status
    if bot_status is not None and os.WIFSIGNALED(bot_status):
        sig = os.WTERMSIG(bot_status)
        signal.signal(sig, signal.SIG_DFL)
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # mirror the signal, not its core dump
        except (ImportError, ValueError, OSError):
            pass
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(bot_status) if bot_status is not None else 143)


if __name__ == "__main__":
    main()
