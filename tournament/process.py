"""The worker process of a supervised pool (``tournament.workers`` is the supervisor): the frames
on its pipes, its main loop, and ``run_shard_on_engine``, which plays a shard on the engine its
task names (the scalar ``shard.run_shard`` or the batch ``batch_shard.run_shard_batch``).
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
from typing import Any

from raspis.strategies.play import HEARTBEAT, HEARTBEAT_SIZE

from .shard import run_shard
from .task import ShardResult, ShardTask

__all__ = ["HEARTBEAT", "HEARTBEAT_SIZE", "read_frame", "run_shard_on_engine", "worker_main",
           "write_frame"]


def run_shard_on_engine(task: ShardTask) -> ShardResult:
    """Run a shard on the engine the task names (the function every executor maps)."""
    if task.engine == "batch":  # the batch engine imported only where it plays
        from .batch_shard import run_shard_batch

        return run_shard_batch(task)
    return run_shard(task)


#: Frames on the worker's pipes: an 8-byte little-endian length, then a pickle.
FRAME = struct.Struct("<Q")


def read_frame(stream: Any) -> Any:
    """The next pickled message on ``stream``, or None at the end of the stream."""
    header = _read_exactly(stream, FRAME.size)
    if header is None:
        return None
    payload = _read_exactly(stream, FRAME.unpack(header)[0])
    return None if payload is None else pickle.loads(payload)


def write_frame(stream: Any, message: Any) -> None:
    """Write one pickled message to ``stream`` and flush it."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(FRAME.pack(len(data)) + data)
    stream.flush()


def _read_exactly(stream: Any, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _die_with_parent() -> None:
    try:  # Linux: the kernel kills this worker when its parent dies (kill -9 included)
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def worker_main() -> None:
    """A supervised worker: publishes its decisions into the heartbeat file whose descriptor is
    ``argv[1]``, reads ``ShardTask`` frames on descriptor ``argv[2]`` and answers ``("result",
    ShardResult)`` or ``("error", text)`` frames on ``argv[3]`` (never stdin and stdout: a
    strategy's prints go to the run's stderr). Ctrl-C, SIGTERM and SIGHUP are the parent's to
    handle: the parent kills its workers when it stops."""
    import mmap
    import sys
    import traceback

    from raspis.strategies.play import describe_error, watch_decisions

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    _die_with_parent()
    watch_decisions(mmap.mmap(int(sys.argv[1]), HEARTBEAT_SIZE))
    requests = os.fdopen(int(sys.argv[2]), "rb")
    answers = os.fdopen(int(sys.argv[3]), "wb")
    while True:
        task = read_frame(requests)
        if task is None:
            return
        try:
            message: tuple[str, Any] = ("result", run_shard_on_engine(task))
        except BaseException as error:  # noqa: BLE001 - whatever ended the shard, report it
            lines = traceback.format_exception(error)
            message = ("error", f"{describe_error(error)}\n{''.join(lines[-6:])}")
        try:
            write_frame(answers, message)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            write_frame(answers, ("error", f"the shard's result cannot be sent: {error}"))
