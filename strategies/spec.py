"""Strategy spec strings, read without importing any strategy: the built-in names, the plug-in
entry points, an alias in front (``mine=./bot.py:Bot``) and the ``isolated+`` prefix. The registry
(``strategies.registry``) resolves a spec to a class; an isolated one is resolved only in its own
process (``strategies.isolate``). Both read specs here, so neither imports the other to do it.
"""

from __future__ import annotations

import os
import re
from importlib.metadata import entry_points
from typing import Any

from raspis.engine.errors import RaspisError

from .catalogue import CATALOGUE

ENTRY_POINT_GROUP = "raspis.strategies"

#: Built-in strategies: name -> "module:Class" of the scalar strategy, imported when first used
#: (read from ``catalogue``, where each built-in has its record)
BUILTINS: dict[str, str] = {entry.name: entry.player for entry in CATALOGUE}


class StrategySpecError(RaspisError):
    """A strategy spec that names nothing loadable, or bad parameters."""


def plugin_strategies() -> dict[str, Any]:
    """Entry points of installed plug-ins, by name."""
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


_ALIAS = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*=\s*(\S.*)$")


def looks_like_spec(text: str) -> bool:
    """Whether ``text`` names a strategy (a built-in or plug-in name, a file, or module:Class),
    as opposed to a parameter value such as ``0.7``."""
    text = text.strip().removeprefix("isolated+")
    head = text.partition(":")[0]
    return ":" in text or "/" in text or text.endswith(".py") or head in BUILTINS or (
        head in plugin_strategies()
    )


def split_alias(spec: str) -> tuple[str | None, str]:
    """(alias or None, the spec without it): ``mine=./bot.py:Bot`` -> ("mine", "./bot.py:Bot")."""
    match = _ALIAS.match(spec)
    if match and looks_like_spec(match.group(2)):
        return match.group(1), match.group(2).strip()
    return None, spec.strip()


#: the prefix of a spec whose strategy runs in a process of its own
PREFIX = "isolated+"


def split_isolation(spec: str) -> tuple[bool, str]:
    """(isolated, the spec without the prefix): ``isolated+./bot.py:Bot`` -> (True, ...)."""
    text = spec.strip()
    if text.startswith(PREFIX):
        return True, text[len(PREFIX):].strip()
    return False, text


def spec_parts(spec: str) -> tuple[bool, str, str]:
    """(isolated, the strategy's name, the text of its parameters) of a seat's spec, its alias
    and isolation prefix taken off: ``me=isolated+mc:samples=9`` -> (True, "mc", "samples=9")."""
    isolated, bare = split_isolation(split_alias(spec)[1])
    name, _, parameters = bare.partition(":")
    return isolated, name.strip(), parameters


def raw_parameters(text: str, spec: str) -> dict[str, str]:
    """The ``key=value`` items of a spec's parameter text, as text (the strategy's class converts
    them: ``registry.parse_parameters``)."""
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        if "=" not in item:
            raise StrategySpecError(f"strategy {spec!r}: parameter {item!r} must be key=value")
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def isolate_specs(specs: list[str] | tuple[str, ...]) -> list[str]:
    """Every spec with ``isolated+`` in front (after its alias, which keeps naming the seat)."""
    isolated = []
    for spec in specs:
        alias, bare = split_alias(spec)
        if not split_isolation(bare)[0]:
            bare = PREFIX + bare
        isolated.append(f"{alias}={bare}" if alias else bare)
    return isolated


def absolute_spec(spec: str) -> str:
    """``spec`` with a file's path made absolute (``./bot.py:Bot`` -> ``/cwd/bot.py:Bot``), read
    as the registry reads it but without importing anything: the child works in a folder of its
    own."""
    if ".py:" not in spec:
        return spec
    path_text, rest = spec.split(".py:", 1)
    return f"{os.path.abspath(os.path.expanduser(path_text + '.py'))}:{rest}"
