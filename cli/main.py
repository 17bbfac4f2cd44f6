"""The ``raspis`` command line: a thin layer over the library (each command calls one function).

Commands are imported when they run (``LazyGroup``), so ``raspis --version`` and the light commands
do not load polars, scipy or matplotlib.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click
from raspis import __version__

#: command name -> (module, attribute), in the order ``--help`` lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "variants": ("raspis.cli.variants", "variants_group"),
    "play": ("raspis.cli.play", "play_command"),
    "strategies": ("raspis.cli.strategies", "strategies_group"),
    "tournament": ("raspis.cli.tournament", "tournament_command"),
    "verify": ("raspis.cli.verify", "verify_command"),
    "stats": ("raspis.cli.analysis", "stats_command"),
    "balance": ("raspis.cli.analysis", "balance_command"),
    "report": ("raspis.cli.report", "report_command"),
    "compare": ("raspis.cli.compare", "compare_command"),
    "settle": ("raspis.cli.settle", "settle_command"),
    "banker": ("raspis.cli.analysis", "banker_command"),
}

#: one-line help per command, shown by ``raspis --help`` without importing the commands
SHORT_HELP: dict[str, str] = {
    "variants": "The rule variants: list, show, validate.",
    "play": "Play one game (or a match) and print its score sheet.",
    "strategies": "The strategies that can play.",
    "tournament": "Play many games between strategies into a Parquet dataset.",
    "verify": "Check a run's dataset: every shard readable, schemas, counts.",
    "stats": "Rank the strategies of a run.",
    "balance": "Variant balance: seats, dealer offsets, deals.",
    "report": "An HTML and Markdown report with figures.",
    "compare": "Variant against variant, with verdicts.",
    "settle": "Play until a rules question is decided, with the fewest games.",
    "banker": "The banker's guessing game, exact odds.",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, in the listed order."""
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, imported now (None for an unknown name)."""
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attribute = target
        command: click.Command = getattr(importlib.import_module(module), attribute)
        return command

    def format_commands(self, ctx: click.Context, formatter: Any) -> None:
        """List the commands with their short help, without importing them."""
        rows = [(name, SHORT_HELP.get(name, "")) for name in COMMANDS]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="raspis")
def cli() -> None:
    """raspis: tournaments and rules analysis for Расписной покер (Odessa, Georgian, Joker).

    \b
    raspis variants list                     the built-in rule sets
    raspis variants show joker -p 4          every option, the deal schedule
    raspis play --variant odessa -p 3        one game, printed as the score sheet
    raspis strategies list                   who can play
    raspis tournament -n 1000 -o results/r1  many games into a Parquet dataset
    raspis verify results/r1                 check a dataset's files
    raspis stats results/r1                  rank the strategies of a run
    raspis balance results/r1 results/r2     variant balance, side by side
    raspis report results/r1 -o report/      HTML + Markdown report with figures
    raspis compare results/r1 results/r2     variant against variant, with verdicts
    raspis banker --simulate 100000          the banker's guessing game, exact odds
    """


def standard_streams() -> None:
    """Give a closed stdin, stdout or stderr (``raspis ... <&- >&-``) /dev/null in its place, so
    that nothing raspis opens later (a worker's pipes, a Parquet file) takes descriptor 0, 1 or 2
    and no print fails on a missing stream."""
    import io
    import os

    for number, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(number)
        except OSError:
            os.open(os.devnull, os.O_RDONLY if number == 0 else os.O_WRONLY)  # takes `number`
            stream = io.TextIOWrapper(io.FileIO(number, mode, closefd=False),
                                      write_through=True)
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", stream)


def main() -> None:
    """Console-script entry point."""
    standard_streams()
    cli()


if __name__ == "__main__":
    main()
