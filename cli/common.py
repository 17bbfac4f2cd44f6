"""Helpers shared by the CLI commands: error reporting and common options."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
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


def cannot_write(what: str, out_dir: str, error: OSError) -> click.UsageError:
    """The usage error for an output folder that cannot be made or written: ``what`` (the
    report, the comparison), the folder, and the file and reason the system gave."""
    return click.UsageError(f"cannot write {what} into {out_dir!r}: {error.filename or out_dir}: "
                            f"{error.strerror or error}")


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of strategy specs, keeping parameters together.

    ``ev,ismcts:iterations=200,c=0.7,random`` ->
    ``["ev", "ismcts:iterations=200,c=0.7", "random"]``: an item holding ``=`` but no ``:``
    continues the previous spec's parameters, unless it is an alias (``mine=random``: a name,
    ``=``, a strategy).
    """
    from raspis.strategies.spec import split_alias

    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and specs and split_alias(item)[0] is None:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def table_option(names: Sequence[str], after: str, metavar: str | None = None) -> Callable[[F], F]:
    """``--table`` (into ``table_names``, repeatable): show only these of a command's ``names``;
    ``after`` ends the help's "(repeat for several" (the default, or a note)."""
    return click.option("--table", "table_names", multiple=True, type=click.Choice(list(names)),
                        metavar=metavar, help="show only this table (repeat for several" + after)


#: A seed option's type: seeds are 64-bit unsigned (0 to 2^64-1); anything else is a usage error.
SEED = click.IntRange(0, 2**64 - 1)

#: ``--level``: the confidence level of every interval (stats, balance, report).
level_option = click.option(
    "--level",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="confidence level of the intervals",
)

#: ``--alpha``: the level of the tests (balance, report).
alpha_option = click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="level of the tests (all seats equal, dealer offsets equal)",
)

