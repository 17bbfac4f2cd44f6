"""``raspis compare``: variant against variant, every statistic's difference from the baseline with
an interval and a verdict, in the terminal, as CSV/JSON/Markdown, or as a report folder."""

from __future__ import annotations

import click
from raspis.analysis import open_runs
from raspis.analysis.compare import compare, display_table, write_comparison

from .analysis import _warn_incomplete, emit_tables, format_option
from .common import friendly_errors, level_option

TITLES = {
    "compare": "Each variant against the baseline: the difference and its interval, in words",
    "values": "Each variant's value of every statistic, with its interval",
}


@click.command("compare")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--baseline",
    default=None,
    help="the variant the others are compared against (its name or label) [the first]",
)
@level_option
@format_option
@click.option(
    "--table",
    "table_names",
    multiple=True,
    type=click.Choice(list(TITLES)),
    help="show only this table (repeat for several) [compare]",
)
@click.option(
    "--out",
    "-o",
    "out_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="also write compare.html, compare.md, figures/ and tables/ into this folder",
)
@friendly_errors
def compare_command(
    run_dirs: tuple[str, ...],
    baseline: str | None,
    level: float,
    output_format: str,
    table_names: tuple[str, ...],
    out_dir: str | None,
) -> None:
    """Compare variants: two or more run directories, or the variants of one run made with
    --variant repeated.

    For every ranking and balance statistic: each variant's value and its difference from the
    baseline (the first) with an interval, paired over deal sets when the variants played the
    same deals (same seeds and deck), Welch otherwise; and a verdict in plain words.

    \b
    raspis compare results/study                       # the variants of one run
    raspis compare results/classic results/joker --format markdown
    raspis compare results/study -o reports/study      # HTML + Markdown + figures
    """
    runs = open_runs(list(run_dirs))
    _warn_incomplete(runs)
    comparison = compare(runs, level=level, baseline=baseline)
    for note in comparison.notes:
        click.echo(note, err=True)
    tables = {"compare": display_table(comparison), "values": comparison.values}
    if output_format in ("csv", "json"):
        tables["compare"] = comparison.table
    wanted = table_names or ("compare",)
    emit_tables({name: tables[name] for name in wanted}, output_format, TITLES)
    if out_dir:
        try:
            written = write_comparison(comparison, out_dir, level=level)
        except OSError as error:  # an output folder that cannot be made or written
            raise click.UsageError(f"cannot write the comparison into {out_dir!r}: "
                                   f"{error.filename or out_dir}: {error.strerror or error}"
                                   ) from None
        click.echo(f"wrote {written}", err=True)
