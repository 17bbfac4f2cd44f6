"""Strategies you do not trust, in a process of their own: ``isolated+SPEC``.

A strategy runs in the same process as the game by default, and in-process strategies are trusted
code: Python lets such code read every hand (``gc.get_objects()``, ``sys._getframe()``) or change
the game's own objects. Prefix a spec with ``isolated+`` (``isolated+./bot.py:Bot``, or the CLI's
``--isolate`` for every seat) and the strategy is loaded in a child process instead. The child
gets only what the seat may know: the variant and its seat at the start of each game, then each
of its observations (pickled, so nothing in it is the game's own object); it answers actions over
a pipe, and the parent checks them like any other. It cannot see the game, and whatever it does
to its copies changes nothing.

A child that raises, answers nothing in time or dies (``os._exit``, a signal) faults its game as
an in-process strategy would; the next game starts a fresh child. The cost is a pipe round trip
per decision (``benchmarks`` in ``docs/benchmarks.md``), and about a second to start each child.
Isolated seats play on the scalar engine.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any

from raspis.engine import Action, Observation, Variant
from raspis.engine.errors import exception_text

from .base import Strategy

PREFIX = "isolated+"


def split_isolation(spec: str) -> tuple[bool, str]:
    """(isolated, the spec without the prefix): ``isolated+./bot.py:Bot`` -> (True, ...)."""
    text = spec.strip()
    if text.startswith(PREFIX):
        return True, text[len(PREFIX):].strip()
    return False, text


def isolate_specs(specs: list[str] | tuple[str, ...]) -> list[str]:
    """Every spec with ``isolated+`` in front (after its alias, which keeps naming the seat)."""
    from .registry import split_alias

    isolated = []
    for spec in specs:
        alias, bare = split_alias(spec)
        if not split_isolation(bare)[0]:
            bare = PREFIX + bare
        isolated.append(f"{alias}={bare}" if alias else bare)
    return isolated


def _serve(receiver: Connection, connection: Connection, spec: str) -> None:
    """The child: load the strategy, then answer the parent's messages until it closes."""
    from raspis.engine import Variant as VariantModel
    from raspis.strategies.registry import load_strategy

    strategy = load_strategy(spec)
    variants: dict[str, Variant] = {}
    variant: Variant | None = None
    while True:
        try:
            message = receiver.recv()
        except EOFError:
            return
        kind = message[0]
        try:
            if kind == "start":
                _, key, data, seat, players, state = message
                variant = variants.get(key)
                if variant is None:
                    variant = variants[key] = VariantModel.model_validate(data)
                generator = random.Random()
                generator.setstate(state)
                strategy.start_game(variant, seat, players, generator)
                connection.send(("ok", None))
            elif kind == "act":
                connection.send(("ok", strategy.act(message[1]._replace(variant=variant))))
            else:
                return
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which faults
            connection.send(("error", exception_text(error)))


class IsolatedStrategy(Strategy):
    """A strategy (by spec) that runs in a child process and sees only its observations."""

    name = "isolated"
    description = "a strategy in a process of its own, fed only its observations"

    def __init__(self, spec: str) -> None:
        super().__init__()
        self.inner_spec = spec
        self._process: Any = None
        self._connection: Any = None
        self._sender: Any = None

    def spec(self) -> str:
        """The spec with its ``isolated+`` prefix."""
        return PREFIX + self.inner_spec

    def _start_child(self) -> None:
        # A fresh interpreter (``python -m raspis.strategies.isolate``), talking over two pipes:
        # nothing of this process is inherited, and no main module is imported again.
        to_child_read, to_child_write = os.pipe()
        from_child_read, from_child_write = os.pipe()
        command = [sys.executable, "-m", "raspis.strategies.isolate", str(to_child_read),
                   str(from_child_write), self.inner_spec]
        self._process = subprocess.Popen(command, pass_fds=(to_child_read, from_child_write),
                                         stdin=subprocess.DEVNULL)
        os.close(to_child_read)
        os.close(from_child_write)
        self._sender = Connection(to_child_write, readable=False)
        self._connection = Connection(from_child_read, writable=False)

    def close(self) -> None:
        """Stop the child (a later game starts another)."""
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait(timeout=5)
        for connection in (self._connection, getattr(self, "_sender", None)):
            if connection is not None:
                connection.close()
        self._process = self._connection = self._sender = None

    def _ask(self, message: tuple[Any, ...]) -> Any:
        if self._process is None or self._process.poll() is not None:
            self.close()
            self._start_child()
        try:
            self._sender.send(message)
            status, value = self._connection.recv()
        except (EOFError, OSError):
            code = self._process.wait(timeout=5)
            self.close()
            raise RuntimeError(f"the isolated strategy's process ended (exit code {code})"
                               ) from None
        except BaseException:  # a timeout in the middle of a decision: the child is still busy
            self.close()
            raise
        if status == "error":
            raise RuntimeError(f"in its isolated process: {value}")
        return value

    def start_game(self, variant: Variant, seat: int, players: int, rng: random.Random) -> None:
        """Send the child the variant (as data), the seat and the generator's state."""
        super().start_game(variant, seat, players, rng)
        data = variant.model_dump(mode="json")
        self._ask(("start", variant.content_hash, data, seat, players, rng.getstate()))

    def act(self, observation: Observation) -> Action:
        """The child's answer to a copy of the observation (the variant is the child's own)."""
        return self._ask(("act", observation._replace(variant=None)))

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


if __name__ == "__main__":  # the child: python -m raspis.strategies.isolate IN OUT SPEC
    _serve(Connection(int(sys.argv[1]), writable=False),
           Connection(int(sys.argv[2]), readable=False), sys.argv[3])
