"""Helpers shared by the CLI commands: error reporting and common options."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from raspis.engine.errors import RaspisError

F = TypeVar("F", bound=Callable[..., Any])


def friendly_errors(function: F) -> F:
    """Turn a user's mistake (``RaspisError``) into a clear message and exit status 2."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except RaspisError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of strategy specs, keeping parameters together.

    ``ev,ismcts:iterations=200,c=0.7,random`` -> ``["ev", "ismcts:iterations=200,c=0.7", "random"]``:
    an item holding ``=`` but no ``:`` continues the previous spec's parameters.
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs
