"""The ``raspis`` command line: a thin layer over the library (each command calls one function)."""

from __future__ import annotations

import click

from raspis import __version__

from .analysis import balance_command, banker_command, stats_command
from .compare import compare_command
from .play import play_command
from .report import report_command
from .strategies import strategies_group
from .tournament import tournament_command
from .variants import variants_group


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="raspis")
def cli() -> None:
    """raspis: tournaments and rules analysis for Расписной покер (Odessa, Georgian, Joker).

    \b
    raspis variants list                     the built-in rule sets
    raspis variants show joker -p 4          every option, the deal schedule
    raspis play --variant odessa -p 3        one game, printed as the score sheet
    raspis strategies list                   who can play
    raspis tournament -n 1000 -o results/r1  many games into a Parquet dataset
    raspis stats results/r1                  rank the strategies of a run
    raspis balance results/r1 results/r2     variant balance, side by side
    raspis report results/r1 -o report/      HTML + Markdown report with figures
    raspis compare results/r1 results/r2     variant against variant, with verdicts
    raspis banker --simulate 100000          the banker's guessing game, exact odds
    """


cli.add_command(variants_group)
cli.add_command(play_command)
cli.add_command(strategies_group)
cli.add_command(tournament_command)
cli.add_command(stats_command)
cli.add_command(balance_command)
cli.add_command(report_command)
cli.add_command(compare_command)
cli.add_command(banker_command)


def main() -> None:
    """Console-script entry point."""
    cli()


if __name__ == "__main__":
    main()
