"""Telling the user that the compiled core is being compiled, while it is.

A fresh machine (or a new raspis version) has no compiled cache (``engine.core.cache``): the first
command that plays compiles the core and the compiled players, about half a minute of one core,
and would otherwise sit silent. ``compile_notice`` watches numba's compile events inside its
``with`` block: at the first compile it writes one line to stderr saying what is happening, that it
happens once per machine and version, and about how long it takes; then a progress line (on a
terminal it moves: functions compiled and seconds so far; elsewhere one line at the end). A block
in which nothing compiles (a warm cache) writes nothing.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import IO, Any, TypeVar

import numpy as np
from numba import njit
from numba.core import event

F = TypeVar("F", bound=Callable[..., Any])

#: about how long a cold compile of what one command needs takes on one core, in seconds
#: (``benchmarks/compile_time.py``; ``docs/benchmarks.md``, "The first run"): a tournament's
#: batch engine and compiled players, and the reference engine (``engine.Game``) alone
ESTIMATE_SECONDS = 30
GAME_ESTIMATE_SECONDS = 10


def jit(*, inline: str = "never") -> Callable[[F], F]:
    """How every compiled function of raspis is compiled: ``numba.njit`` cached on disk
    (``engine.core.cache``), without the C-callable wrapper numba makes by default (nothing takes a
    compiled function's address; a Python caller uses the Python wrapper, which stays): 5% less of
    the first run's compile (``docs/benchmarks.md``, "The first run"). ``inline="always"``: inlined
    into every compiled caller, for the small rules of the hot loops. With numba's JIT off
    (``interpreted``) the function runs as Python."""
    from numba.core import config

    if config.DISABLE_JIT:
        return interpreted  # type: ignore[return-value]
    return njit(cache=True, inline=inline, no_cfunc_wrapper=True)  # type: ignore[no-any-return]


def _python_value(value: Any) -> Any:
    """A compiled function's result as numba returns it to Python: numpy integers and booleans
    (``int64`` state words, ``np.bool_`` flags) as ``int`` and ``bool``, tuples item by item."""
    kind = type(value)
    if kind is tuple:
        return tuple([_python_value(item) for item in value])
    if kind is np.int64 or kind is np.int32 or kind is np.uint8:
        return int(value)
    if kind is np.bool_:
        return bool(value)
    return value


def interpreted(function: F) -> F:
    """``function`` run by Python instead of compiled (numba's ``DISABLE_JIT``), returning what
    its compiled form returns to a Python caller (``_python_value``)."""

    @functools.wraps(function)
    def run(*args: Any) -> Any:
        return _python_value(function(*args))

    run.py_func = function  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]


class _Watch(event.Listener):
    """Counts numba's compiles (nested ones too) and starts the notice at the first."""

    def __init__(self, on_first: threading.Event) -> None:
        self.compiled = 0
        self.on_first = on_first

    def on_start(self, started: event.Event) -> None:
        self.on_first.set()

    def on_end(self, ended: event.Event) -> None:
        self.compiled += 1


@contextlib.contextmanager
def compile_notice(what: str = "the rules core and the compiled players",
                   stream: IO[str] | None = None, moving: bool | None = None,
                   estimate: float = ESTIMATE_SECONDS) -> Iterator[None]:
    """Say on ``stream`` (stderr) when numba compiles inside the block, and how far it has got:
    ``what`` names what is compiled, ``estimate`` about how long it takes (seconds of one core).
    ``moving``: a progress line rewritten in place (default: when ``stream`` is a terminal)."""
    out = stream if stream is not None else sys.stderr
    if moving is None:
        moving = bool(getattr(out, "isatty", lambda: False)())
    started = threading.Event()
    finished = threading.Event()
    watch = _Watch(started)
    began = [0.0]

    def write(text: str) -> None:
        with contextlib.suppress(Exception):
            out.write(text)
            out.flush()

    def report() -> None:
        started.wait()
        if finished.is_set() and watch.compiled == 0:
            return
        began[0] = time.monotonic()
        write(f"raspis: compiling {what} (once per machine and raspis version,\n  about "
              f"{estimate:.0f} s of one core; later runs load it in about a second)\n")
        while moving and not finished.wait(0.25):
            write(f"\r  compiled {watch.compiled} functions, {time.monotonic() - began[0]:.0f} s")

    thread = threading.Thread(target=report, daemon=True, name="raspis-compile-notice")
    thread.start()
    with event.install_listener("numba:compile", watch):
        try:
            yield
        finally:
            finished.set()
            started.set()
            thread.join()
            if watch.compiled:
                ending = "\r" if moving else ""
                write(f"{ending}  compiled {watch.compiled} functions in "
                      f"{time.monotonic() - began[0]:.0f} s\n")


def spare_cores(sample: float = 0.1) -> float:
    """About how many of this process's cores stand idle now: the machine's idle share over
    ``sample`` seconds (Linux's ``/proc/stat``, while this process waits) times its cores, at most
    the cores this process may run on; elsewhere those cores less the load average of the last
    minute (``os.getloadavg``, which lags a minute behind); 0 where neither is known.
    ``compile_beside`` wants 1.5: one for this process and most of another for its child."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        before = _cpu_times()
        time.sleep(sample)
        after = _cpu_times()
        busy = sum(after) - sum(before)
        idle = (after[3] + after[4]) - (before[3] + before[4])  # idle and iowait
        if busy > 0:
            return min(cores, idle / busy * (os.cpu_count() or cores))
    except (OSError, ValueError, IndexError):
        pass
    try:
        return cores - os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def _cpu_times() -> list[int]:
    """The machine's CPU time by kind since boot (the ``cpu`` line of ``/proc/stat``)."""
    with open("/proc/stat", encoding="ascii") as stat:
        return [int(field) for field in stat.readline().split()[1:]]


def compile_beside(jobs: list[tuple[Any, tuple[Any, ...]]]) -> Callable[[], None]:
    """Compile ``jobs`` (a compiled function and the numba types of its arguments, each) in a
    forked child process while this one goes on with other work; returns a function that waits for
    the child. The child's code reaches this process through the on-disk cache: a compiled
    function loads it at its first call with those types after the wait (one that is called
    before compiles it itself: the same code, only not side by side). On two cores a cold compile
    of two independent parts takes about the time of the longer. Where there is no ``fork`` (or it
    fails) the jobs are left to the first calls and the wait does nothing; so too on a machine
    without a spare core (``spare_cores``), where the child would only slow this process down and
    repeat the compiles both need."""
    if not hasattr(os, "fork") or spare_cores() < 1.5:
        return lambda: None
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        return lambda: None
    if pid == 0:  # the child: compile, then leave without running any cleanup of the parent's
        code = 0
        try:
            for function, types in jobs:
                function.compile(types)
        except BaseException:  # noqa: BLE001 - the parent compiles what is missing itself
            code = 1
        finally:
            os._exit(code)

    def wait() -> None:
        with contextlib.suppress(ChildProcessError, InterruptedError):
            os.waitpid(pid, 0)

    return wait
