"""Strategies you do not trust, in a process of their own: ``isolated+SPEC``.

A strategy runs in the same process as the game by default, and in-process strategies are trusted
code: Python lets such code read every hand (``gc.get_objects()``, ``sys._getframe()``) or change
the game's own objects. Prefix a spec with ``isolated+`` (``isolated+./bot.py:Bot``, or the CLI's
``--isolate`` for every seat) and the strategy is loaded in a child process instead, and only there:
the process that plays the game never imports the strategy's module.

- **Loading.** The child (a fresh interpreter) loads the strategy under the load budget
  (``play.LOAD_SECONDS``) and greets the parent with its display name, class, description and
  options, or with the error that stopped it; the parent names the seat and reports a bad spec
  (``StrategySpecError``) from that greeting, kept per spec for the process (``greeting``): a
  run's naming starts no child of its own.
- **Seeing.** The child gets only what the seat may know: the variant and its seat at the start of
  each game, then each of its observations, pickled (nothing in them is the game's own object).
- **Answering.** The child answers in a fixed, bounded format, never pickle: frames of a 4-byte
  big-endian length and at most ``FRAME_LIMIT`` bytes of UTF-8 JSON; a legal action is its index
  in the observation's legal actions, so the parent applies the engine's own object. The parent
  reads with those limits; an answer that breaks them (a bad length, bytes that are not JSON, an
  unknown kind, an index other than 0 to n-1 for n legal actions: ``index_problem``) stops the
  child and faults the game.
- **Limits.** Before the strategy is imported the child drops to ``ADDRESS_SPACE`` bytes of
  address space, ``FILE_SIZE`` bytes a file, no core dumps and ``PROCESS_MARGIN`` more processes
  than its user runs (``RLIMIT_NPROC`` counts every process and thread of the user, and the kernel
  does not enforce it for root), and works in a temporary folder of its own, removed when it ends.
- **Ending.** The kernel kills the child when the process that started it dies (Linux
  ``PR_SET_PDEATHSIG``, a SIGKILL or SIGTERM of raspis included); ``close``, garbage collection
  and the interpreter's exit kill it too, with anything it started in its own process group.

A child that raises, answers nothing in time, breaks the protocol or dies (``os._exit``, a signal)
faults its game as an in-process strategy would; the next game starts a fresh child. The cost is a
pipe round trip per decision (``benchmarks`` in ``docs/benchmarks.md``) and under a second to start
each child. Isolated seats play on the scalar engine.

Isolation keeps the strategy away from the game, not from the machine: the child runs as the same
user, so it can read that user's files and use the network. It is not a sandbox (docs/strategies.md,
"Trust").
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import random
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import weakref
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from raspis.engine import Action, Observation, Variant
from raspis.engine.actions import Bid, Keep, NameTrump, Play
from raspis.engine.errors import cut_message

from .base import Strategy
from .spec import PREFIX, StrategySpecError, absolute_spec, isolate_specs, split_isolation

__all__ = ["PREFIX", "Greeting", "IsolatedStrategy", "absolute_spec", "decode_action",
           "die_with_parent", "encode_action", "greeting", "isolate_specs", "limit_resources",
           "load_isolated", "split_isolation"]


#: a frame of the child's answers: this header (the length), then that many bytes of UTF-8 JSON
FRAME = struct.Struct(">I")
#: the longest frame the parent reads; a longer one stops the child
FRAME_LIMIT = 64 * 1024

#: the child's address space: generous for a Python strategy (a child playing ``strong``, numba
#: and LLVM loaded, peaks under 0.5 GiB), small enough that a runaway allocation fails in the child
ADDRESS_SPACE = 4 << 30
#: the largest file the child may write (a write past it fails with ``EFBIG``)
FILE_SIZE = 64 << 20
#: processes and threads the child may start beyond those its user already runs
PROCESS_MARGIN = 64
#: seconds, on top of the load budget, for the child's interpreter to start and import raspis
STARTUP_SECONDS = 30.0
#: the longest display name, class, option key or value a child may report
TEXT_LIMIT = 200

#: temporary folders of children: ``raspis-isolated-<pid of the parent>-<random>``
FOLDER_PREFIX = "raspis-isolated-"

#: the child's program: ``python -c CODE IN OUT PARENT FOLDER TARGET SPEC``
_CHILD_CODE = "from raspis.strategies.isolate_child import child_main; child_main()"

_ACTIONS: dict[str, type] = {kind.__name__: kind for kind in (Bid, NameTrump, Play, Keep)}
_SCALARS = (int, float, bool, str, type(None))


@dataclass(frozen=True)
class Greeting:
    """What an isolated strategy's process says once it has loaded the strategy: its display name
    (as ``registry.display_name`` computes it there), its class and the class's ``name`` and
    ``description``, its options; or the error that stopped it."""

    name: str = ""
    strategy: str = ""
    description: str = ""
    target: str = ""  # module:Class, as the child reports it
    options: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


#: greetings by (the spec the child loads, the spec as written): one child per spec and process
_GREETINGS: dict[tuple[str, str], Greeting] = {}


def greeting(spec: str) -> Greeting:
    """The greeting of the isolated strategy ``spec`` (no ``isolated+``), from a child started
    for it unless this process has one already; ``StrategySpecError`` when it cannot be loaded."""
    key = (absolute_spec(spec), spec)
    found = _GREETINGS.get(key)
    if found is None:
        probe = IsolatedStrategy(spec)
        try:
            found = probe.open()
        finally:
            probe.close()
    return _loaded(found, spec)


def load_isolated(spec: str) -> IsolatedStrategy:
    """A new ``IsolatedStrategy`` for ``spec`` (no ``isolated+``), its child started and loaded
    now, under the load budget of whoever calls (``registry.load_guarded``), not in the first
    game's; ``StrategySpecError`` when the child cannot load the strategy (at once, without a
    child, when this process was told so already)."""
    known = _GREETINGS.get((absolute_spec(spec), spec))
    if known is not None:
        _loaded(known, spec)
    strategy = IsolatedStrategy(spec)
    found = strategy.open()
    _loaded(found, spec)  # the child is stopped already when it failed
    strategy.options = dict(found.options)
    return strategy


def _loaded(found: Greeting, spec: str) -> Greeting:
    """``found``, or ``StrategySpecError`` with its error."""
    if found.error is None:
        return found
    raise StrategySpecError(
        cut_message(f"isolated strategy {spec!r} cannot be loaded in its process: {found.error}"))


# -- the parent's side ---------------------------------------------------------------------------

class _Ended(Exception):
    """The child's end of the pipe closed, or the child exited."""


class _Silent(Exception):
    """No answer before the deadline."""


class _Broken(Exception):
    """An answer outside the protocol; the message says how."""


#: every instance with a child, closed at the interpreter's exit
_LIVE: weakref.WeakSet[IsolatedStrategy] = weakref.WeakSet()


class IsolatedStrategy(Strategy):
    """A strategy (by spec) that runs in a child process and sees only its observations."""

    name = "isolated"
    description = "a strategy in a process of its own, fed only its observations"

    def __init__(self, spec: str) -> None:
        super().__init__()
        self.inner_spec = spec
        self.target = absolute_spec(spec)
        self.key = (self.target, spec)
        self.greeting: Greeting | None = _GREETINGS.get(self.key)
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0
        self._sender: Connection | None = None
        self._reader = -1
        self._buffer = bytearray()
        self._poller: Any = None
        self._folder: str | None = None

    def spec(self) -> str:
        """The spec with its ``isolated+`` prefix."""
        return PREFIX + self.inner_spec

    # -- the child's life --------------------------------------------------------------------

    def _exited(self) -> bool:
        """Whether the child is gone or has exited; an exited child is left unreaped (``close``
        reaps it), so that its pid, its process group's id, stays this process's to signal."""
        process = self._process
        if process is None or process.returncode is not None:
            return True
        try:
            flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
            return os.waitid(os.P_PID, process.pid, flags) is not None
        except ChildProcessError:
            return True

    def open(self) -> Greeting:
        """Start a fresh child and read its greeting (kept per spec for this process: see
        ``greeting``); a child that cannot load the strategy is stopped, its error returned."""
        self.close()
        self._start_child()
        seconds = STARTUP_SECONDS + _load_seconds()
        deadline = time.monotonic() + seconds
        try:
            found = _greeting_from(self._read(deadline))
        except _Ended:
            found = Greeting(error=f"its process ended ({self._ended()}) while loading")
        except _Silent:
            found = Greeting(error=f"it did not load within {seconds:g} s")
        except _Broken as why:
            found = Greeting(error=f"its process broke the protocol while loading: {why}")
        except BaseException:  # a time budget of the caller, a real Ctrl-C: no child left
            self.close()
            raise
        if found.error is not None:
            self.close()
        _GREETINGS[self.key] = self.greeting = found
        return found

    def _start_child(self) -> None:
        # A fresh interpreter, talking over two pipes: nothing of this process is inherited, and no
        # main module is imported again. Its own session: a Ctrl-C at the terminal is the parent's
        # to handle, and ``close`` kills whatever the child started along with it.
        _sweep_folders()
        folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")
        to_child_read, to_child_write = _pipe()
        from_child_read, from_child_write = _pipe()
        command = [sys.executable, "-c", _CHILD_CODE, str(to_child_read), str(from_child_write),
                   str(os.getpid()), folder, self.target, self.inner_spec]
        try:
            self._process = subprocess.Popen(
                command, pass_fds=(to_child_read, from_child_write), stdin=subprocess.DEVNULL,
                stdout=_child_stdout(), start_new_session=True,
                env={**os.environ, "TMPDIR": folder})
        except BaseException:
            for fd in (to_child_write, from_child_read):
                os.close(fd)
            shutil.rmtree(folder, ignore_errors=True)
            raise
        finally:
            os.close(to_child_read)
            os.close(from_child_write)
        self._owner = os.getpid()
        self._folder = folder
        self._sender = Connection(to_child_write, readable=False)
        self._reader = from_child_read
        self._poller = select.poll()
        self._poller.register(from_child_read, select.POLLIN)
        _LIVE.add(self)

    def close(self) -> None:
        """Stop the child, and anything it started, and remove its folder (a later game starts
        another child)."""
        process, self._process = self._process, None
        mine = self._owner == os.getpid()  # not a forked copy of the process that started it
        if process is not None and mine:
            if process.returncode is None:  # not reaped: its pid, its group's id, is still ours
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)  # the child and what it started
                with contextlib.suppress(OSError):
                    process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired, ChildProcessError):
                process.wait(timeout=5)
        if self._sender is not None:
            self._sender.close()
            self._sender = None
        if self._reader >= 0:
            os.close(self._reader)
            self._reader = -1
        self._poller = None
        self._buffer = bytearray()
        folder, self._folder = self._folder, None
        if folder is not None and mine:
            shutil.rmtree(folder, ignore_errors=True)

    def _ended(self) -> str:
        """How the child ended, in words (``exit code 7``), waiting for it briefly without
        reaping it."""
        from .play import describe_exit

        process = self._process
        if process is None or process.returncode is not None:
            return describe_exit(None if process is None else process.returncode)
        deadline = time.monotonic() + 5
        while True:
            try:
                info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return describe_exit(process.returncode)
            if info is not None:
                exited = info.si_code == os.CLD_EXITED
                return describe_exit(info.si_status if exited else -info.si_status)
            if time.monotonic() > deadline:  # it closed its end of the pipe, and runs on
                return describe_exit(None)
            time.sleep(0.01)

    # -- reading the child's answers ---------------------------------------------------------

    def _read(self, deadline: float | None) -> dict[str, Any]:
        """The child's next message: one frame, read within the limits, as a JSON object with a
        ``kind``; ``_Broken`` for anything else, ``_Ended`` when the child is gone."""
        (size,) = FRAME.unpack(self._read_exactly(FRAME.size, deadline))
        if size > FRAME_LIMIT:
            raise _Broken(f"it announced an answer of {size:,} bytes, over the limit of "
                          f"{FRAME_LIMIT:,}")
        payload = self._read_exactly(size, deadline)
        try:
            message = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise _Broken(f"its answer of {size:,} bytes is not UTF-8 JSON") from None
        if not isinstance(message, dict) or type(message.get("kind")) is not str:
            raise _Broken("its answer is not a JSON object with a kind")
        return message

    def _read_exactly(self, size: int, deadline: float | None) -> bytes:
        # Whatever the pipe holds, up to a whole frame, in one read: a header and its answer
        # usually come together. Bytes past this frame wait in the buffer for the next one.
        buffer = self._buffer
        while len(buffer) < size:
            self._wait_readable(deadline)
            chunk = os.read(self._reader, FRAME.size + FRAME_LIMIT)
            if not chunk:
                raise _Ended()
            buffer += chunk
        data = bytes(buffer[:size])
        del buffer[:size]
        return data

    def _wait_readable(self, deadline: float | None) -> None:
        # In ticks of a second, so that a child that died while something it started holds the
        # pipe open is seen as dead. A time budget of the caller (SIGALRM) interrupts the wait.
        while True:
            tick = 1.0 if deadline is None else min(1.0, deadline - time.monotonic())
            if tick <= 0:
                raise _Silent()
            if self._poller.poll(tick * 1000):
                return
            if self._exited():
                raise _Ended()

    def _ask(self, message: tuple[Any, ...]) -> dict[str, Any]:
        """Send the child ``message`` (a fresh child greets first) and read its answer; an
        ``error`` answer, a dead child or a broken answer raise ``RuntimeError``."""
        if self._process is None:  # a child that died since is seen at the pipe, below
            found = self.open()
            if found.error is not None:
                raise RuntimeError(f"in its isolated process: {found.error}")
        assert self._sender is not None
        try:
            self._sender.send(message)
            answer = self._read(None)
        except (_Ended, OSError):
            ended = self._ended()
            self.close()
            raise RuntimeError(f"the isolated strategy's process ended ({ended})") from None
        except _Broken as why:
            self.close()
            raise RuntimeError(f"the isolated strategy's process broke the protocol: {why}; "
                               "it was stopped") from None
        except BaseException:  # a timeout in the middle of a decision: the child is still busy
            self.close()
            raise
        if answer["kind"] == "error":
            text = answer.get("error")
            self._expect(type(text) is str, answer)
            raise RuntimeError(f"in its isolated process: {cut_message(text)}")
        return answer

    def _expect(self, condition: bool, answer: dict[str, Any]) -> None:
        """Stop the child and raise when ``condition`` (on ``answer``) does not hold."""
        if not condition:
            self.close()
            raise RuntimeError(f"the isolated strategy's process broke the protocol: an answer "
                               f"of kind {cut_message(answer['kind'], TEXT_LIMIT)!r} out of "
                               "place or malformed; it was stopped")

    # -- the strategy protocol ---------------------------------------------------------------

    def start_game(self, variant: Variant, seat: int, players: int, rng: random.Random) -> None:
        """Send the child the variant (as data), the seat and the generator's state."""
        super().start_game(variant, seat, players, rng)
        data = variant.model_dump(mode="json")
        answer = self._ask(("start", variant.content_hash, data, seat, players, rng.getstate()))
        self._expect(answer["kind"] == "started", answer)

    def act(self, observation: Observation) -> Action:
        """The child's answer to a copy of the observation (the variant is the child's own): the
        engine's own legal action it names, or the illegal action it returned, rebuilt from its
        fields for ``play_game`` to judge."""
        answer = self._ask(("act", observation._replace(variant=None)))
        legal = observation.legal_actions
        if answer["kind"] == "action":
            problem = index_problem(answer, len(legal))
            if problem is not None:
                self.close()
                raise RuntimeError(f"the isolated strategy's process broke the protocol: {problem};"
                                   " it was stopped")
            return legal[answer["index"]]
        self._expect(answer["kind"] == "illegal", answer)
        if "action" in answer:
            action = decode_action(answer["action"])
            self._expect(action is not None, answer)
            return action  # type: ignore[return-value]
        why = answer.get("why")
        self._expect(type(why) is str, answer)
        raise RuntimeError(f"its answer is not an action: {cut_message(why)}")

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def index_problem(answer: dict[str, Any], count: int) -> str | None:
    """Why an ``action`` answer does not name one of ``count`` legal actions by its index, or
    None when it does: the index must be a JSON integer from 0 to ``count - 1``. A negative one
    is refused too (Python's ``legal[-1]`` would take the last action: legal, but not the answer
    the protocol allows), as are ``true`` and ``1.0``."""
    if "index" not in answer:
        return "its action answer names no index"
    index = answer["index"]
    if type(index) is not int:
        return (f"its action index {cut_message(json.dumps(index), TEXT_LIMIT)} is not an "
                "integer")
    if index < 0:
        return (f"its action index {index} is negative; the {count} legal actions are numbered "
                f"0 to {count - 1}")
    if index >= count:
        return (f"its action index {cut_message(str(index), TEXT_LIMIT)} is past the last legal "
                f"action; the {count} legal actions are numbered 0 to {count - 1}")
    return None


def _close_all() -> None:
    """Stop every child still running (the interpreter's exit)."""
    for strategy in list(_LIVE):
        with contextlib.suppress(Exception):
            strategy.close()


atexit.register(_close_all)


def _greeting_from(message: dict[str, Any]) -> Greeting:
    """The greeting in the child's first message; ``_Broken`` unless it is one, well formed."""
    if message["kind"] != "hello":
        raise _Broken(f"its first answer is of kind {cut_message(message['kind'], TEXT_LIMIT)!r}"
                      ", not hello")
    error = message.get("error")
    if error is not None:
        if type(error) is not str:
            raise _Broken("its error is not text")
        return Greeting(error=cut_message(error))
    texts = {key: message.get(key) for key in ("name", "strategy", "description", "class")}
    if any(type(value) is not str for value in texts.values()):
        raise _Broken("its greeting lacks a name, strategy, description or class as text")
    name = texts["name"]
    if not name or len(name) > TEXT_LIMIT or not name.isprintable():
        raise _Broken(f"its display name {cut_message(name, TEXT_LIMIT)!r} is empty, longer "
                      f"than {TEXT_LIMIT} characters or not printable")
    options = message.get("options")
    if not isinstance(options, dict) or not all(
            type(value) in _SCALARS and len(key) <= TEXT_LIMIT
            and (type(value) is not str or len(value) <= TEXT_LIMIT)
            for key, value in options.items()):
        raise _Broken("its options are not a JSON object of short scalars")
    return Greeting(name=name, strategy=cut_message(texts["strategy"], TEXT_LIMIT),
                    description=cut_message(texts["description"]),
                    target=cut_message(texts["class"], TEXT_LIMIT), options=options)


def encode_action(action: object) -> dict[str, Any] | None:
    """An engine action as JSON data (``{"type": "Play", "fields": {...}}``), or None when it is
    no engine action or a field is not a short scalar (its exact type kept: ``Bid(1.0)`` stays
    a float)."""
    kind = type(action)
    if _ACTIONS.get(kind.__name__) is not kind:
        return None
    fields: dict[str, Any] = {}
    for name in kind.__match_args__:  # the fields, in order (a record's or a dataclass's)
        value = getattr(action, name)
        if not short_scalar(value):
            return None
        fields[name] = value
    return {"type": kind.__name__, "fields": fields}


def decode_action(data: object) -> Action | None:
    """The engine action ``encode_action`` made ``data`` from, or None when ``data`` is not such
    data (the wrong shape, an unknown type, fields missing or extra, a value not a short
    scalar)."""
    if not isinstance(data, dict) or type(data.get("type")) is not str:
        return None
    kind = _ACTIONS.get(data["type"])
    fields = data.get("fields")
    if kind is None or not isinstance(fields, dict):
        return None
    if set(fields) != set(kind.__match_args__):
        return None
    if not all(short_scalar(value) for value in fields.values()):
        return None
    try:
        return kind(**fields)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - a constructor that checks its fields
        return None


def short_scalar(value: object) -> bool:
    if type(value) is int:
        return abs(value) < 1 << 63
    if type(value) is str:
        return len(value) <= TEXT_LIMIT
    return type(value) in _SCALARS


def _load_seconds() -> float:
    from .play import LOAD_SECONDS

    return LOAD_SECONDS


def _pipe() -> tuple[int, int]:
    """A pipe whose ends are not 0, 1 or 2 (those may be closed in this process, and the child's
    standard streams take them)."""
    ends = []
    for fd in os.pipe():
        if fd < 3:
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
            os.close(fd)
            fd = moved
        ends.append(fd)
    return ends[0], ends[1]


def _child_stdout() -> int:
    """Where the child's standard output goes: this process's standard error (a strategy's
    prints must not reach a pipe this process uses for anything else), or nowhere."""
    try:
        os.fstat(2)
    except OSError:
        return subprocess.DEVNULL
    return 2


_SWEPT = False


def _sweep_folders() -> None:
    """Remove, once per process, the folders of children whose parent died without removing
    them (a SIGKILL): ``raspis-isolated-<pid>-*`` of a pid no longer running, owned by this
    user."""
    global _SWEPT
    if _SWEPT:
        return
    _SWEPT = True
    for folder in Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*-*"):
        pid = folder.name[len(FOLDER_PREFIX):].partition("-")[0]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # someone else's process, or the folder went away
            continue


def die_with_parent(parent: int) -> None:
    """Ask the kernel to SIGKILL this process when its parent (process ``parent``) dies (Linux),
    then make sure the parent did not die before that (the request would never fire). The
    request holds for the parent's thread that started this process: start it from a thread
    that lives as long as it."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: close, atexit and __del__ still stop it
        pass
    if os.getppid() != parent:
        os._exit(1)


def limit_resources() -> dict[str, tuple[int, int]]:
    """Lower this process's limits (soft and hard, never above what they are) to those of an
    isolated strategy; returns them by name. ``RLIMIT_NPROC`` counts the user's processes and
    threads, and is not enforced for root."""
    import resource

    wanted = {"RLIMIT_AS": ADDRESS_SPACE, "RLIMIT_FSIZE": FILE_SIZE, "RLIMIT_CORE": 0}
    tasks = _user_tasks()
    if tasks is not None:
        wanted["RLIMIT_NPROC"] = tasks + PROCESS_MARGIN
    limits = {}
    for name, value in wanted.items():
        which = getattr(resource, name)
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(which, (value, value))
        limits[name] = resource.getrlimit(which)
    return limits


def _user_tasks() -> int | None:
    """How many processes and threads this user runs (``/proc``), or None where it cannot tell."""
    uid = os.getuid()
    count = 0
    try:
        entries = os.scandir("/proc")
    except OSError:
        return None
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:  # ended meanwhile
                continue
    return count or None
