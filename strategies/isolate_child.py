"""The child's side of an isolated strategy (``strategies.isolate``): the process that alone
imports the strategy. It ties its life to the parent's, limits itself, moves into its own
folder, loads the strategy under the load budget, greets the parent, then answers each
observation in the bounded JSON frames of the protocol until the parent closes the pipe.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import tempfile
from multiprocessing.connection import Connection
from typing import Any

from raspis.engine import Variant
from raspis.engine.errors import cut_message

from .isolate import (
    FRAME,
    TEXT_LIMIT,
    die_with_parent,
    encode_action,
    limit_resources,
    short_scalar,
)


def child_main() -> None:
    """The child: ``python -c CODE IN OUT PARENT FOLDER TARGET SPEC``. Ties its life to the
    parent's, limits itself, moves into its folder, then loads ``TARGET`` (``SPEC`` as written)
    and answers the parent until it closes the pipe."""
    inbound, outbound, parent, folder, target, spec = sys.argv[1:7]
    die_with_parent(int(parent))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the file size limit: EFBIG, not death
    if sys.path and sys.path[0] == "":  # ``-c`` puts the working folder first: keep the parent's
        sys.path[0] = os.getcwd()
    limit_resources()
    os.chdir(folder)
    tempfile.tempdir = folder
    try:
        _serve(Connection(int(inbound), writable=False), int(outbound), target, spec)
    except OSError:  # the parent went away, or the strategy closed the pipes
        pass


def _write(out: int, message: dict[str, Any]) -> None:
    """One frame of the protocol to the parent."""
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    view = memoryview(FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(out, view):]


def _serve(receiver: Connection, out: int, target: str, spec: str) -> None:
    """Load the strategy, greet the parent, then answer its messages until it closes."""
    from raspis.engine import Variant as VariantModel
    from raspis.strategies.play import check_action, describe_error
    from raspis.strategies.registry import class_display_name, load_guarded, resolve_class

    strategy, problem = load_guarded(target)
    if problem is not None:
        kind, text = problem
        prefix = "StrategySpecError: "
        error = (text[len(prefix):] if text.startswith(prefix)
                 else f"its import or __init__ {kind}: {text}")
        _write(out, {"kind": "hello", "error": cut_message(error)})
        return
    try:
        cls, parameters = resolve_class(target)  # imported already: nothing runs again
        options = {str(key)[:TEXT_LIMIT]: value
                   for key, value in dict(getattr(strategy, "options", {})).items()
                   if short_scalar(value)}
        hello = {"kind": "hello", "name": class_display_name(cls, parameters, spec),
                 "strategy": str(cls.name), "description": cut_message(str(cls.description)),
                 "class": f"{cls.__module__}:{cls.__qualname__}", "options": options}
    except BaseException as error:  # noqa: BLE001 - a hostile name or options
        hello = {"kind": "hello", "error": f"its name cannot be read: {describe_error(error)}"}
    _write(out, hello)
    if "error" in hello:
        return
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
                reply: dict[str, Any] = {"kind": "started"}
            elif kind == "act":
                observation = message[1]._replace(variant=variant)
                reply = _answer(strategy.act(observation), observation.legal_actions,
                                check_action)
            else:
                return
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which faults
            reply = {"kind": "error", "error": describe_error(error)}
        _write(out, reply)


def _answer(action: object, legal: Any, check: Any) -> dict[str, Any]:
    """The reply to a decision: the index of the legal action ``action`` is (judged as
    ``play_game`` judges it), else the illegal action as data, else why it is no action."""
    chosen, why = check(action, legal)
    if chosen is not None:
        for index, candidate in enumerate(legal):
            if candidate is chosen:
                return {"kind": "action", "index": index}
    encoded = encode_action(action)
    if encoded is not None:
        return {"kind": "illegal", "action": encoded}
    return {"kind": "illegal", "why": cut_message(str(why))}
