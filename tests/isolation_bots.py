"""Hostile strategies for ``tests/test_isolate.py``, loaded isolated by file spec
(``isolated+./tests/isolation_bots.py:RawBot``): each attacks the process that plays the game
through the only channel an isolated strategy has, its answers, or reports what its process may
do. Paths they write to come from environment variables the child inherits."""

from __future__ import annotations

import json
import mmap
import os
import pickle
import resource
import sys
import tempfile

from raspis.engine.actions import Bid
from raspis.strategies import Parameter, RandomStrategy, Strategy

#: the file a process creates when it unpickles a ``Booby`` outside the bot's own process
MARKER = "RASPIS_TEST_MARKER"
#: the file ``SpinBot`` writes its process id to
PID_FILE = "RASPIS_TEST_PID_FILE"


class Booby:
    """An object whose unpickling runs code: it creates the file named by ``$RASPIS_TEST_MARKER``
    in any process but the one that made it."""

    def __init__(self) -> None:
        self.path = os.environ[MARKER]
        self.pid = os.getpid()

    def __reduce__(self):  # noqa: ANN204
        code = (f"import os\nif os.getpid() != {self.pid}:\n"
                f"    open({self.path!r}, 'w').write(str(os.getpid()))")
        return exec, (code,)


class BoobyBot(Strategy):
    """Answers its first decision with a ``Booby`` (no action; unpickled, it runs code)."""

    name = "boobybot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        return Booby()


def _out() -> int:
    """The child's end of its answer pipe (``python -c CODE IN OUT ...``)."""
    return int(sys.argv[2])


#: what ``RawBot`` writes into its answer pipe, by name
PAYLOADS = {
    "pickle": lambda: pickle.dumps(("ok", Booby())),  # the old protocol's answer, no frame
    "framed-pickle": lambda: _frame(pickle.dumps(Booby())),
    "garbage": lambda: b"\x00\x00\x00\x05\xff\xfe\x00garbage",
    "huge": lambda: (2**31).to_bytes(4, "big"),  # a 2 GB frame announced, never sent
    "truncated": lambda: (40).to_bytes(4, "big") + b'{"kind":',  # then the child exits
    "kind": lambda: _frame(b'{"kind": "surprise"}'),
    "index": lambda: _frame(b'{"kind": "action", "index": 9999}'),
    "deep": lambda: _frame(b"[" * 60000),
}


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload


class RawBot(Strategy):
    """Writes raw bytes (``payload``, a key of ``PAYLOADS``) into its answer pipe at its first
    decision, then answers as usual (or exits, for ``truncated``)."""

    name = "rawbot"
    parameters = {"payload": Parameter(str, "garbage", "what to write: " + ", ".join(PAYLOADS))}

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        os.write(_out(), PAYLOADS[self.payload]())
        if self.payload == "truncated":
            os._exit(0)
        return observation.legal_actions[0]


#: the malformed index answers ``IndexBot`` writes, by name: each maps the number of legal
#: actions to the answer (a JSON object) that names none of them
INDEX_ANSWERS = {
    "negative": lambda count: {"kind": "action", "index": -1},
    "most-negative": lambda count: {"kind": "action", "index": -count},
    "one-past": lambda count: {"kind": "action", "index": count},
    "far-past": lambda count: {"kind": "action", "index": 2**70},
    "float": lambda count: {"kind": "action", "index": 0.0},
    "true": lambda count: {"kind": "action", "index": True},
    "text": lambda count: {"kind": "action", "index": "0"},
    "null": lambda count: {"kind": "action", "index": None},
    "list": lambda count: {"kind": "action", "index": [0]},
    "missing": lambda count: {"kind": "action"},
}


class IndexBot(Strategy):
    """Answers its first decision with a well-framed ``action`` answer whose index names no legal
    action (``answer``, a key of ``INDEX_ANSWERS``), and ends its process: a parent that took the
    answer would fault the game at the seat's next decision instead, with another message."""

    name = "indexbot"
    parameters = {"answer": Parameter(str, "negative",
                                      "which index: " + ", ".join(INDEX_ANSWERS))}

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        answer = INDEX_ANSWERS[self.answer](len(observation.legal_actions))
        os.write(_out(), _frame(json.dumps(answer).encode()))
        os._exit(0)


class SpinBot(Strategy):
    """Writes its process id to ``$RASPIS_TEST_PID_FILE``, then spins in ``act`` forever."""

    name = "spinbot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        with open(os.environ[PID_FILE], "w") as stream:
            stream.write(str(os.getpid()))
        while True:
            pass


class IllegalBot(Strategy):
    """Bids 99 (an engine action, not a legal one)."""

    name = "illegalbot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        return Bid(99)


class FloatBot(Strategy):
    """Bids ``Bid(1.0)``: an engine action with a float in it."""

    name = "floatbot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        return Bid(1.0)  # type: ignore[arg-type]


class LimitsBot(RandomStrategy):
    """Reports, through its options (sent in its process's greeting), the limits and the folder
    its process has: each rlimit's soft and hard values, the working folder, ``TMPDIR``, and
    whether a 5 GiB map and a write past 64 MiB are refused."""

    name = "limitsbot"

    def __init__(self) -> None:
        super().__init__()
        report: dict[str, object] = {"cwd": os.getcwd(), "tmpdir": tempfile.gettempdir()}
        for name in ("RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_CORE"):
            soft, hard = resource.getrlimit(getattr(resource, name))
            report[name] = f"{soft} {hard}"
        try:
            mmap.mmap(-1, 5 << 30).close()
            report["map_5gib"] = "allowed"
        except (OSError, MemoryError):
            report["map_5gib"] = "refused"
        try:
            with open("big", "wb") as stream:
                stream.seek(64 << 20)
                stream.write(b"x")
            report["write_past_64mib"] = "allowed"
        except OSError as error:
            report["write_past_64mib"] = f"refused: {error.strerror}"
        self.options = report
