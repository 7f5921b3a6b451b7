"""`--cluster ADDRESS`: games played as Ray tasks instead of on this machine's threads.

Ray (the `[cluster]` extra) does the scheduling, the placement on nodes and the retries of games whose
node was lost; termarena only hands it pure jobs (a game, its players, seed, opening and
limits) and gets back results.  Each game is one task reserving one CPU: a game's two bots take turns,
so one core plays one game, and its answer times are measured on the node that plays it, against the
limits of the game, exactly as on this machine.

ADDRESS: `local` starts a Ray instance on this machine with `jobs` CPUs and stops it at the end (under
termarena's guard, so its processes end with termarena, SIGKILL included); `auto` joins the
instance that `ray start` runs on this machine; `ray://HOST:PORT` joins a remote cluster through Ray
Client.  Every node needs termarena installed (the same version) and any `cmd:` bot at the same path.

The local instance has a token of its own (Ray's token authentication, which new Ray releases turn on
by default and refuse to run without a token): its ports listen on the machine's address, and a Ray
port without a token runs whatever code reaches it.  `auto` and `ray://` use whatever token Ray itself
finds (README).  Its folder (tui/core/ray_folder.py) holds Ray's files and the token.
"""
from __future__ import annotations

import contextlib
import functools
import logging
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from tui.core import ray_folder
from tui.core.python_module import module_argv

T = TypeVar("T")
R = TypeVar("R")

_REMOTE = re.compile(r"ray://[A-Za-z0-9.\-]{1,253}:[0-9]{1,5}")
CONNECT_TIMEOUT_S = 5
START_TIMEOUT_S = 180  # a local start takes 5-20 s on a loaded 2-core machine


class ClusterError(Exception):
    """The cluster cannot be used: Ray is not installed, the address is wrong or does not answer."""


def check_address(text: str) -> str:
    if text in ("local", "auto") or _REMOTE.fullmatch(text):
        return text
    raise ClusterError(f"cluster address {text!r}: give local, auto or ray://HOST:PORT")


def ray_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def _ray():
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster needs Ray: pip install 'termarena[cluster]'") from None
    return ray


class RayCluster:
    """A connection to a Ray cluster for the length of a `with` block (a local one is started and
    stopped with it)."""

    def __init__(self, address: str, jobs: int) -> None:
        self.address = check_address(address)
        self.jobs = max(1, jobs)
        self.ray = _ray()
        self.head: subprocess.Popen | None = None
        self.temp_dir: str | None = None
        self._outer_env: dict[str, str | None] | None = None

    def __enter__(self) -> "RayCluster":
        ray = self.ray
        if self.address == "local":
            try:
                address = self._start_local_head()
            except BaseException:  # a signal during the start: the head, its folder and token go now
                self._stop_head()
                raise
        else:
            address = self.address
            _check_reachable(self.address)
        on_sigterm = _main_thread_handler(signal.SIGTERM)
        _without_stack_dumps()
        try:
            with warnings.catch_warnings():  # Ray's tips for its own API (FutureWarning...) are not the user's
                warnings.simplefilter("ignore")
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
        except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError...: all mean the same
            self._stop_head()
            raise ClusterError(f"cannot use the Ray cluster at {self.address}: {_first_line(e)}") from None
        except BaseException as e:  # a signal while Ray connects: __exit__ will not run
            self._stop_head()
            if isinstance(e, SystemExit) and e.code == signal.SIGTERM:  # Ray's own handler: sys.exit(15)
                raise SystemExit(128 + signal.SIGTERM) from None
            raise
        finally:
            # ray.init puts its own SIGTERM handler in (sys.exit(15)): termarena's own ends the command
            # as without a cluster, status 143, `finally` blocks run
            if on_sigterm is not None:
                signal.signal(signal.SIGTERM, on_sigterm)
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.ray.shutdown()
        finally:
            self._stop_head()

    def _start_local_head(self) -> str:
        """`ray start --head --block` under termarena's guard: Ray's own processes (several, some of
        them leaving their parent) then end with termarena whatever ends it, SIGKILL included, which
        `ray.init()`'s own start does not promise.  Its files go to a folder of its own, so the address
        file of the user's own `ray start` (which `auto` reads) is left alone."""
        from engines.referee.process import start_guarded

        port = _free_port()
        ray_folder.sweep()  # folders left by local instances killed (SIGKILL) before they could remove them
        folder = ray_folder.make()
        self.temp_dir = str(folder)
        self._use_token(ray_folder.write_token(folder))
        argv = module_argv("ray.scripts.scripts", "start", "--head", "--block", f"--port={port}",
                           f"--num-cpus={self.jobs}", "--include-dashboard=false", "--disable-usage-stats",
                           # a fixed size (nothing for the autoscaler's monitor to do) and no logs read
                           # (`log_to_driver=False`): two Python processes less, ~2 s of CPU a start;
                           # --no-monitor is hidden in `ray start --help` but kept through Ray 2.60
                           "--no-monitor", "--include-log-monitor=false",
                           f"--temp-dir={self.temp_dir}")
        self.head = start_guarded(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, errors="replace")
        ray_folder.add_owner(folder, self.head.pid)  # the folder is in use until the guard has ended Ray
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_forward_lines, args=(self.head.stdout, lines), daemon=True).start()
        last = ""
        deadline = time.monotonic() + START_TIMEOUT_S
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:  # it ended without starting
                self._stop_head()
                raise ClusterError(f"could not start a local Ray instance: {last or 'no output'}")
            if line.strip():
                last = line.strip()[:300]
            if "Ray runtime started" in line:
                return f"127.0.0.1:{port}"
        self._stop_head()
        raise ClusterError(f"a local Ray instance did not start in {START_TIMEOUT_S} s")

    def _stop_head(self) -> None:
        head, self.head = self.head, None
        if head is not None:
            head.terminate()  # the guard ends every process of the instance
            try:
                head.wait(timeout=30)
            except subprocess.TimeoutExpired:
                head.kill()
        if self.temp_dir is not None:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
            self.temp_dir = None
        if self._outer_env is not None:
            _set_env(self._outer_env)
            self._outer_env = None
            _reload_ray_auth()

    def _use_token(self, path: Path) -> None:
        """The instance's token for the head (which inherits this environment) and for this driver, in
        the variables Ray documents for it: RAY_AUTH_MODE=token, and RAY_AUTH_TOKEN_PATH naming the file
        (the token itself stays out of every environment).  A RAY_AUTH_TOKEN of the user's, meant for
        their own cluster, would take precedence over the file: it is set aside while the instance runs.
        The user's ~/.ray is never read nor written.  A Ray without token authentication (before 2.52)
        ignores all three."""
        mine = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(path), "RAY_AUTH_TOKEN": None}
        self._outer_env = {name: os.environ.get(name) for name in mine}
        _set_env(mine)
        _reload_ray_auth()

    def play(self, play: Callable[[T], R], items: Iterable[T], jobs: int,
             on_result: Callable[[R], object]) -> None:
        """`play(item)` for every item as Ray tasks, at most `jobs` in flight; `on_result` gets each result
        here as it finishes, and stops the lot by returning True.  The same contract as
        ai.tournament.runners.in_threads, so either can run a match or a league."""
        ray = self.ray
        task = ray.remote(num_cpus=1, max_retries=1)(_call)  # Ray takes functions, and `play` may be an object
        player = ray.put(play)  # sent once, not with every task
        todo = iter(items)
        running: list = []
        limit = max(1, jobs)  # tasks handed to Ray at once (--jobs is bounded), so an SPRT stop calls off few
        with _signal_status_kept():
            try:
                while True:
                    for item in todo:
                        running.append(task.remote(player, item))
                        if len(running) >= limit:
                            break
                    if not running:
                        return
                    done, running = ray.wait(running, num_returns=1)
                    if on_result(ray.get(done[0])):
                        return
            finally:
                for ref in running:  # a stop, an error or a signal: games not finished are called off
                    try:
                        ray.cancel(ref, force=True)
                    except Exception:
                        pass


def _call(play: Callable[[T], R], item: T) -> R:
    return play(item)


def open_cluster(stack, address: str, jobs: int, console) -> RayCluster:
    """The cluster for a command's run, entered on `stack` (an ExitStack) while the console says so:
    a local start takes seconds."""
    with console.status(f"connecting to Ray ({address})…"):
        return stack.enter_context(RayCluster(address, jobs))


def _set_env(values: dict[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _reload_ray_auth() -> None:
    """Ray reads its authentication mode and token once and keeps them: it reads them again here, after
    the variables changed (a test runs several instances in one process)."""
    try:
        from ray._raylet import AuthenticationTokenLoader, Config
    except ImportError:
        return  # a Ray without token authentication
    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


@contextlib.contextmanager
def _signal_status_kept():
    """Ray's blocking calls (ray.wait, ray.get) run Python's signal handlers from inside its C++ core, and
    turn the SystemExit(128+N) that termarena's handler raises for SIGTERM or SIGHUP into a SystemExit(1)
    of their own: the signal is noted as it arrives, and its status given back when Ray's exit comes out."""
    noted: list[int] = []
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            handler = signal.getsignal(sig)
            if callable(handler):  # SIG_DFL ends the process without Python's help: nothing to keep
                previous[sig] = handler
                signal.signal(sig, functools.partial(_noted, noted, handler))
    try:
        yield
    except (SystemExit, KeyboardInterrupt):
        if noted:
            raise SystemExit(128 + noted[0]) from None
        raise
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _noted(noted: list[int], handler, signum, frame) -> None:
    noted.append(signum)
    handler(signum, frame)


def _without_stack_dumps() -> None:
    """Ray's core worker in this process (the driver) would install a C++ failure-signal handler that
    prints a stack dump for SIGTERM too, before any Python handler runs: it is turned off, by the switch
    Ray reads when it creates the core worker (RAY_DISABLE_FAILURE_SIGNAL_HANDLER, read at import, so too
    late to set in the environment).  A real crash still shows Python's faulthandler trace."""
    try:
        from ray._private import ray_constants
    except ImportError:
        return
    ray_constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = True


def _main_thread_handler(sig: int):
    """The handler of `sig`, to put back after Ray has replaced it; None off the main thread, where
    Ray leaves handlers alone (and Python allows no change)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.getsignal(sig)


def _forward_lines(stream, lines: "queue.Queue[str | None]") -> None:
    """Every line of `stream` into `lines`, then None; reading on also keeps a full pipe from stopping
    the process that writes it."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _check_reachable(address: str) -> None:
    """A cluster address whose port does not answer is refused in seconds: Ray itself waits minutes
    (and `auto` may name an instance that ended long ago, in Ray's address file)."""
    if address == "auto":
        try:
            from ray._private.services import get_ray_address_from_environment

            address = get_ray_address_from_environment("auto", None)
        except Exception as e:  # no instance found: Ray's own words
            raise ClusterError(f"no Ray instance on this machine (start one with `ray start --head`): "
                               f"{_first_line(e)}") from None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # Ray's own format (it may say "auto" again): Ray checks it
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as e:
        raise ClusterError(f"no Ray cluster answers at {host}:{port} ({e.strerror or e}); "
                           f"start one with `ray start --head`") from None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _first_line(e: Exception) -> str:
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:300]

