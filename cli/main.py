"""The ``raspis`` command line: a thin layer over the library (each command calls one function)."""

from __future__ import annotations

import click

from raspis import __version__

from .play import play_command
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
    """


cli.add_command(variants_group)
cli.add_command(play_command)
cli.add_command(strategies_group)
cli.add_command(tournament_command)


def main() -> None:
    """Console-script entry point."""
    cli()


if __name__ == "__main__":
    main()
