"""Finding strategies by spec string.

Every command takes strategies as spec strings:

- a built-in name, with optional parameters: ``heuristic``, ``ismcts:iterations=2000,c=0.7``;
- a module path and class: ``mypkg.bots:Greedy`` (parameters after a second colon);
- a Python file and class: ``./my_bot.py:Greedy`` or ``/abs/path/bot.py:Greedy:depth=3``;
- a plug-in installed by another package under the entry-point group ``raspis.strategies``;
- any of these behind an alias, ``mine=./my_bot.py:Greedy``, which names the seat in every table.

A strategy's *display name* (``display_name``), the name tables and figures use, is its alias when
it has one, the spec for a built-in or a plug-in, and otherwise its class's ``name`` (with the
spec's parameters); ``display_names`` makes sure two different specs of one run never share one.

An isolated spec (``isolated+SPEC``, ``strategies.isolate``) is never imported here: its class, its
name and any error loading it come from its own process's greeting.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from .base import Strategy
from .spec import (
    BUILTINS,
    ENTRY_POINT_GROUP,
    StrategySpecError,
    looks_like_spec,
    plugin_strategies,
    raw_parameters,
    split_alias,
    split_isolation,
)

__all__ = ["BUILTINS", "ENTRY_POINT_GROUP", "StrategySpecError", "available_strategies",
           "display_name", "display_names", "load_guarded", "load_strategy", "looks_like_spec",
           "plugin_strategies", "resolve_class", "split_alias"]


def _import_class(module_name: str, class_name: str, spec: str) -> type[Strategy]:
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise StrategySpecError(
            f"strategy {spec!r}: cannot import module {module_name!r}: {error}") from None
    return _class_from(module, class_name, spec)


def _class_from(module: Any, class_name: str, spec: str) -> type[Strategy]:
    found = getattr(module, class_name, None)
    if found is None:
        names = [n for n, v in vars(module).items()
                 if isinstance(v, type) and issubclass(v, Strategy)]
        raise StrategySpecError(
            f"strategy {spec!r}: {module.__name__} has no {class_name!r}; strategies there: "
            f"{', '.join(names) or 'none'}"
        )
    if not (isinstance(found, type) and issubclass(found, Strategy)):
        raise StrategySpecError(
            f"strategy {spec!r}: {class_name} is not a subclass of raspis.strategies.Strategy"
        )
    return found


def _import_file(path_text: str, class_name: str, spec: str) -> type[Strategy]:
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise StrategySpecError(f"strategy {spec!r}: no such file {path_text!r}")
    module_name = f"raspis_user_{abs(hash(str(path.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise StrategySpecError(f"strategy {spec!r}: cannot load {path_text!r} as Python")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[module_name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as error:  # the user's file failed to import: say so, no traceback
            del sys.modules[module_name]
            raise StrategySpecError(
                f"strategy {spec!r}: {path_text} failed to load: {type(error).__name__}: {error}"
            ) from None
    return _class_from(module, class_name, spec)


def available_strategies() -> dict[str, type[Strategy]]:
    """Built-in and plug-in strategy classes by name (plug-ins that fail to load are skipped)."""
    found: dict[str, type[Strategy]] = {}
    for name, target in BUILTINS.items():
        module_name, class_name = target.split(":")
        try:
            found[name] = _import_class(module_name, class_name, name)
        except StrategySpecError:
            continue
    for name, point in plugin_strategies().items():
        try:
            loaded = point.load()
        except Exception:  # a broken plug-in must not break listing
            continue
        if isinstance(loaded, type) and issubclass(loaded, Strategy):
            found.setdefault(name, loaded)
    return found


def _convert(cls: type[Strategy], key: str, text: str, spec: str) -> Any:
    parameter = cls.parameters.get(key)
    if parameter is None:
        known = ", ".join(sorted(cls.parameters)) or "none"
        raise StrategySpecError(
            f"strategy {spec!r}: unknown parameter {key!r}; parameters: {known}")
    try:
        if parameter.type is bool:
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            return text.lower() in ("true", "1", "yes")
        return parameter.type(text)
    except ValueError:
        raise StrategySpecError(
            f"strategy {spec!r}: parameter {key}={text!r} is not a {parameter.type.__name__}"
        ) from None


def parse_parameters(cls: type[Strategy], text: str, spec: str) -> dict[str, Any]:
    return {key: _convert(cls, key, value, spec)
            for key, value in raw_parameters(text, spec).items()}


def display_name(spec: str) -> str:
    """The name a seat's strategy goes by in tables and figures (see the module docstring); an
    isolated spec's name is the one its own process computes (``isolate.greeting``)."""
    from .isolate import greeting

    alias, bare = split_alias(spec)
    if alias:
        return alias
    isolated, bare = split_isolation(bare)
    if _named_by_spec(bare):
        return bare
    if isolated:
        return greeting(bare).name
    cls, parameters = resolve_class(bare)
    return class_display_name(cls, parameters, bare)


def _named_by_spec(bare: str) -> bool:
    """Whether a spec (no alias, no ``isolated+``) is its own display name: a built-in or a
    plug-in, found without importing anything."""
    head = bare.partition(":")[0]
    return head in BUILTINS or head in plugin_strategies()


def class_display_name(cls: type[Strategy], parameters: str, bare: str) -> str:
    """The display name of ``bare`` (a spec without alias or ``isolated+``) whose class is ``cls``
    and parameter text ``parameters``: ``bare`` itself for a built-in or a plug-in, else the
    class's own ``name`` with the parameters (``bare`` when it has none)."""
    if _named_by_spec(bare):
        return bare
    own = cls.__dict__.get("name") or next(
        (klass.__dict__["name"] for klass in cls.__mro__ if "name" in klass.__dict__
         and klass is not Strategy), None
    )
    if not own:
        return bare
    return f"{own}:{parameters}" if parameters else str(own)


def display_names(specs: list[str] | tuple[str, ...]) -> list[str]:
    """Every slot's display name; the same spec keeps one name, and two different specs that would
    share one raise a ``StrategySpecError`` asking for an alias."""
    names = [display_name(spec) for spec in specs]
    owners: dict[str, str] = {}
    for spec, name in zip(specs, names, strict=True):
        bare = split_alias(spec)[1]
        if owners.setdefault(name, bare) != bare:
            raise StrategySpecError(
                f"two different strategies would both be named {name!r} ({owners[name]} and "
                f"{bare}); give one an alias, e.g. {name}2={bare}"
            )
    return names


def resolve_class(spec: str) -> tuple[type[Strategy], str]:
    """(class, parameter text) for a spec string, importing its module into this process (an
    alias and an ``isolated+`` in front are ignored: the class is the one that plays). The loader
    never calls it for an isolated spec outside that spec's own process."""
    spec = split_isolation(split_alias(spec)[1])[1]
    if ".py:" in spec:
        path_text, rest = spec.split(".py:", 1)
        class_name, _, parameters = rest.partition(":")
        return _import_file(path_text + ".py", class_name, spec), parameters
    head, _, rest = spec.partition(":")
    if "." in head:
        class_name, _, parameters = rest.partition(":")
        if not class_name:
            raise StrategySpecError(f"strategy {spec!r}: write module.path:ClassName")
        return _import_class(head, class_name, spec), parameters
    if head in BUILTINS:
        module_name, class_name = BUILTINS[head].split(":")
        return _import_class(module_name, class_name, spec), rest
    plugins = plugin_strategies()
    if head in plugins:
        try:
            loaded = plugins[head].load()
        except Exception as error:
            raise StrategySpecError(f"strategy plug-in {head!r} failed to load: {error}") from None
        if not (isinstance(loaded, type) and issubclass(loaded, Strategy)):
            raise StrategySpecError(f"strategy plug-in {head!r} is not a Strategy subclass")
        return loaded, rest
    known = ", ".join(sorted(set(available_strategies()) | set(plugins)))
    raise StrategySpecError(
        f"unknown strategy {spec!r}: known strategies are {known}; or give "
        "module.path:ClassName or ./file.py:ClassName"
    )


def load_strategy(spec: str) -> Strategy:
    """A new strategy instance for a spec string (see the module docstring); ``isolated+SPEC``
    runs it in a process of its own (``strategies.isolate``), never importing it here, and raises
    ``StrategySpecError`` with that process's message when it cannot be loaded there."""
    from .isolate import load_isolated

    isolated, inner = split_isolation(split_alias(spec)[1])
    if isolated:  # loaded in its own process, which reports what went wrong
        return load_isolated(inner)
    cls, parameters = resolve_class(spec)
    options = parse_parameters(cls, parameters, spec)
    try:
        return cls(**options)
    except ValueError as error:
        raise StrategySpecError(f"strategy {spec!r}: {error}") from None


def load_guarded(spec: str,
                 budget: float | None = None) -> tuple[Any, tuple[str, str] | None]:
    """``guarded(load_strategy, spec)`` under the load budget (``LOAD_SECONDS`` by default): a
    strategy whose import or ``__init__`` runs past ``budget`` seconds (a sleep, a loop at
    import) is a ``("timeout", ...)`` problem, not a hang."""
    from .play import LOAD_SECONDS, guarded, timed

    budget = LOAD_SECONDS if budget is None else budget
    made, problem = guarded(timed, budget, load_strategy, spec)
    if problem is not None and problem[0] == "timeout":
        problem = ("timeout", f"ran past its load budget ({budget:g} s for its import and "
                              "__init__)")
    return made, problem
