"""``raspis strategies``: the strategies that can be named in a spec."""

from __future__ import annotations

import click
from raspis.strategies.registry import BUILTINS, available_strategies

from .terminal import terminal_width, wrap


@click.group("strategies")
def strategies_group() -> None:
    """Built-in and plug-in strategies."""


@strategies_group.command("list")
def list_strategies() -> None:
    """List strategies with a one-line description and their parameters."""
    strategies = sorted(available_strategies().items())
    columns = terminal_width()
    width = max(len(name) for name, _ in strategies)
    for name, cls in strategies:
        origin = "built-in" if name in BUILTINS else f"plug-in ({cls.__module__})"
        # the description wraps under itself; each parameter on lines of its own, indented
        click.echo(wrap(f"{name:<{width}} {origin:<9} {cls.description}", columns, 0,
                        width + 11))
        for key, parameter in cls.parameters.items():
            kind = parameter.type.__name__
            click.echo(wrap(f"{key}={parameter.default!r} ({kind}): {parameter.help}", columns,
                            4, 8))
    click.echo("\n" + wrap("Also: module.path:ClassName[:k=v,...] or ./file.py:ClassName[:k=v,...]",
                           columns))
