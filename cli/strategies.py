"""``raspis strategies``: the strategies that can be named in a spec."""

from __future__ import annotations

import click
from raspis.strategies.registry import BUILTINS, available_strategies


@click.group("strategies")
def strategies_group() -> None:
    """Built-in and plug-in strategies."""


@strategies_group.command("list")
def list_strategies() -> None:
    """List strategies with a one-line description and their parameters."""
    for name, cls in sorted(available_strategies().items()):
        origin = "built-in" if name in BUILTINS else f"plug-in ({cls.__module__})"
        click.echo(f"{name:<10} {origin:<9} {cls.description}")
        for key, parameter in cls.parameters.items():
            kind = parameter.type.__name__
            click.echo(f"{'':<10}   {key}={parameter.default!r} ({kind}): {parameter.help}")
    click.echo("\nAlso: module.path:ClassName[:k=v,...] or ./file.py:ClassName[:k=v,...]")
