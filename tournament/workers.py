"""Where shards run: supervised worker processes on this machine (``supervised``), or a Dask
cluster (``shard_results(\"dask\", ...)``), each shard in a worker of its own process that the
supervisor watches (a dead worker, a decision or shard past its budget: retried once, then the
shard is recorded as errored).
"""

from __future__ import annotations

import collections
import contextlib
import mmap
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from raspis.strategies.play import describe_exit

from .config import TournamentError
from .task import ShardResult, ShardTask

# Shards run in supervised worker processes (``_Worker``: a fresh Python running
# ``process.worker_main``, talking pickled frames over two pipes of their own). The supervisor sees
# a worker die (``os._exit``, a signal, the out-of-memory killer) the moment its pipe closes, and
# kills a worker whose decision overruns its budget (the heartbeat it publishes) or whose shard
# overruns ``shard_seconds``. Such a shard is retried once in a fresh worker, then recorded as
# errored.

#: Seconds a decision may overrun its budget before the watchdog kills the worker (the worker's
#: own timer should have stopped it; this is the backstop for a strategy that disarmed it).
WATCHDOG_GRACE = 1.0

_WORKER_CODE = "from raspis.tournament.process import worker_main; worker_main()"


def _stderr_or_null() -> int:
    """Descriptor 2 where it is open (a worker's prints join the run's stderr), else /dev/null."""
    try:
        os.fstat(2)
    except OSError:
        return subprocess.DEVNULL
    return 2


class _Worker:
    """One supervised worker process and the thread that reads its answers."""

    def __init__(self, events: queue.Queue[tuple[_Worker, Any]]) -> None:
        from .process import HEARTBEAT_SIZE

        self.beat_file = tempfile.TemporaryFile()
        self.beat_file.truncate(HEARTBEAT_SIZE)
        self.beat = mmap.mmap(self.beat_file.fileno(), HEARTBEAT_SIZE)
        fd = self.beat_file.fileno()
        # the protocol on descriptors of its own (never 0 and 1, which a strategy may print to
        # or close): tasks in on one pipe, answers out on another; the worker's stdin is
        # /dev/null and its stdout the run's stderr
        tasks_in, tasks_out = os.pipe()
        answers_in, answers_out = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WORKER_CODE, str(fd), str(tasks_in), str(answers_out)],
                stdin=subprocess.DEVNULL, stdout=_stderr_or_null(),
                pass_fds=(fd, tasks_in, answers_out), close_fds=True)
        finally:
            os.close(tasks_in)
            os.close(answers_out)
        self.requests = os.fdopen(tasks_out, "wb")
        self.answers = os.fdopen(answers_in, "rb")
        self.killed_because: str | None = None
        self.task: ShardTask | None = None
        self.started = 0.0
        self.reader = threading.Thread(target=self._read, args=(events,), daemon=True)
        self.reader.start()

    def _read(self, events: queue.Queue[tuple[_Worker, Any]]) -> None:
        from .process import read_frame

        while True:
            try:
                message = read_frame(self.answers)
            except BaseException as error:  # noqa: BLE001 - a garbled frame, or a Ctrl-C that
                # polars let through while it read a frame: the worker counts as broken, and
                # nothing is printed from this thread (the main thread reports an interrupt)
                message = ("broken", f"unreadable answer: {type(error).__name__}: {error}")
            events.put((self, message))
            if message is None or message[0] == "broken":
                return

    def send(self, task: ShardTask) -> None:
        """Hand the worker a shard (a dead worker's end of pipe shows up as its death)."""
        from .process import write_frame

        self.task, self.started = task, time.monotonic()
        self.beat[:] = bytes(len(self.beat))
        try:
            write_frame(self.requests, task)
        except OSError:
            pass

    def decision(self) -> tuple[float, int, int]:
        """(start of the running decision on the monotonic clock or 0, its seat, game index)."""
        from .process import HEARTBEAT

        return HEARTBEAT.unpack_from(self.beat, 0)

    def kill(self, because: str | None = None) -> None:
        """SIGKILL the worker (its pipe's end then reports it)."""
        if because and self.killed_because is None:
            self.killed_because = because
        with contextlib.suppress(OSError):
            self.process.kill()

    def close(self) -> None:
        """Stop the worker and free its files."""
        self.kill()
        with contextlib.suppress(Exception):
            self.process.wait(timeout=10)
        for stream in (self.requests, self.answers):
            with contextlib.suppress(Exception):
                stream.close()
        with contextlib.suppress(Exception):
            self.beat.close()
        with contextlib.suppress(Exception):
            self.beat_file.close()


def _who_moved(task: ShardTask, seat: int, game: int) -> str:
    if not 0 <= game < len(task.games) or not 0 <= seat < task.players:
        return ""
    deal_set, seating = task.games[game]
    spec = task.strategies[task.seatings[seating][seat]]
    return f" while seat {seat} ({spec}) was to move in deal set {deal_set}"


class WorkerPool:
    """Supervised worker processes kept between calls of ``supervised``: a caller that plays many
    small runs one after another (``raspis settle``: every lineup and variant, every round)
    starts its workers once instead of a fresh Python for each run. Use it as a context manager;
    the workers are closed at its end. A worker that died while idle is dropped."""

    def __init__(self) -> None:
        self.events: queue.Queue[tuple[_Worker, Any]] = queue.Queue()
        self.idle: list[_Worker] = []

    def close(self) -> None:
        """Close every idle worker."""
        for worker in self.idle:
            worker.close()
        self.idle.clear()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def supervised(tasks: Iterable[ShardTask], workers: int, *,
               shard_seconds: float | None = None,
               pool: WorkerPool | None = None) -> Iterator[ShardResult]:
    """Run ``tasks`` on ``workers`` supervised worker processes, yielding results as they finish:
    a shard whose worker dies, or is killed by the watchdog, is retried once in a fresh worker,
    then yielded with every game errored and the cause (exit code or signal). ``tasks`` is read
    as the workers need them (a lazy plan stays lazy). With ``pool``, idle workers are taken from
    it and given back at the end (``WorkerPool``)."""
    from .shard import errored_shard

    events: queue.Queue[tuple[_Worker, Any]] = pool.events if pool is not None else queue.Queue()
    source = iter(tasks)
    retries: collections.deque[ShardTask] = collections.deque()

    def next_task() -> ShardTask | None:
        return retries.popleft() if retries else next(source, None)

    waiting = next_task()
    attempts: collections.Counter[str] = collections.Counter()
    causes: dict[str, str] = {}
    idle: list[_Worker] = pool.idle if pool is not None else []
    running: set[_Worker] = set()
    every: list[_Worker] = []
    watched = time.monotonic()
    finished = False
    try:
        while waiting is not None or running:
            while waiting is not None and len(running) < workers:
                worker = idle.pop() if idle else _Worker(events)
                if worker not in every:
                    every.append(worker)
                task, waiting = waiting, next_task()
                attempts[task.shard_id] += 1
                running.add(worker)
                worker.send(task)
            if time.monotonic() - watched > 0.05:  # also when answers keep coming
                _watch(running, shard_seconds)
                watched = time.monotonic()
            try:
                worker, message = events.get(timeout=0.05)
            except queue.Empty:
                continue
            if worker not in running:  # an idle worker died: forget it
                if worker in idle:
                    idle.remove(worker)
                worker.close()
                continue
            task = worker.task
            assert task is not None
            if message is not None and message[0] == "result":
                running.discard(worker)
                worker.task = None
                idle.append(worker)
                yield message[1]
                continue
            running.discard(worker)
            if message is None:
                _, seat, game = worker.decision()
                with contextlib.suppress(Exception):
                    worker.process.wait(timeout=10)
                cause = worker.killed_because or (
                    f"the worker process died ({describe_exit(worker.process.returncode)})"
                    f"{_who_moved(task, seat, game)}")
            else:
                cause = f"the shard failed in its worker: {message[1]}".strip()
            worker.close()
            if attempts[task.shard_id] < 2:
                causes[task.shard_id] = cause
                if waiting is not None:
                    retries.appendleft(waiting)
                waiting = task
                continue
            first = causes.get(task.shard_id)
            again = "" if first is None or first == cause else f" (first try: {first})"
            yield errored_shard(task, f"{cause}; retried once in a fresh worker, failed again"
                                      f"{again}")
        finished = True
    finally:
        for worker in every:
            if pool is not None and finished and worker in idle:
                continue  # kept for the pool's next call
            if worker in idle:
                idle.remove(worker)
            worker.close()


def _watch(running: set[_Worker], shard_seconds: float | None) -> None:
    now = time.monotonic()
    for worker in running:
        task = worker.task
        if task is None or worker.killed_because:
            continue
        started, seat, game = worker.decision()
        budget = task.decision_seconds
        if budget is not None and started > 0 and now - started > budget + WATCHDOG_GRACE:
            worker.kill(f"killed by the watchdog: a decision ran past {now - started:.1f} s "
                        f"(budget {budget} s; the strategy evaded its timer)"
                        f"{_who_moved(task, seat, game)}")
        elif shard_seconds is not None and now - worker.started > shard_seconds:
            worker.kill(f"killed by the watchdog: the shard ran past --shard-seconds "
                        f"{shard_seconds}{_who_moved(task, seat, game)}")


def run_shard_supervised(task: ShardTask, shard_seconds: float | None = None) -> ShardResult:
    """One shard in a supervised worker process of its own (what a Dask worker runs: its threads
    cannot time strategies, and a strategy must not kill the Dask worker)."""
    return next(iter(supervised([task], 1, shard_seconds=shard_seconds)))


#: shards a Dask run keeps submitted ahead of its results, per worker (the plan stays lazy)
DASK_AHEAD = 4


def _dask(tasks: Iterable[ShardTask], scheduler: str | None, workers: int,
          shard_seconds: float | None) -> Iterator[ShardResult]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise TournamentError(
            "the Dask executor needs the optional extra: pip install 'raspis[cluster]'"
        ) from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as error:
            raise TournamentError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        source = iter(tasks)
        ahead = DASK_AHEAD * max(1, workers, len(client.scheduler_info().get("workers", {})))

        def submit() -> Any:
            task = next(source, None)
            return None if task is None else client.submit(
                run_shard_supervised, task, shard_seconds=shard_seconds, pure=False)

        first = [future for future in (submit() for _ in range(ahead)) if future is not None]
        finished = as_completed(first)
        for future in finished:
            following = submit()
            if following is not None:
                finished.add(following)
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def shard_results(name: str, tasks: Iterable[ShardTask], workers: int, scheduler: str | None,
              shard_seconds: float | None, pool: WorkerPool | None = None
              ) -> Iterator[ShardResult]:
    if name == "local":
        return supervised(tasks, max(1, workers), shard_seconds=shard_seconds, pool=pool)
    if name == "dask":
        return _dask(tasks, scheduler, workers, shard_seconds)
    raise TournamentError(f"unknown executor {name!r}: use local or dask")
