"""``raspis report``: a self-contained HTML (and Markdown) report of one or more runs."""

from __future__ import annotations

import time

import click
from raspis.analysis.report import build_report

from .common import (
    alpha_option,
    cannot_write,
    friendly_errors,
    level_option,
)
from .terminal import summing_bar


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--out",
    "-o",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="folder for report.html, report.md, figures/ and tables/",
)
@level_option
@alpha_option
@click.option("--title", default="raspis report", show_default=True)
@friendly_errors
def report_command(
    run_dirs: tuple[str, ...],
    out_dir: str,
    level: float,
    alpha: float,
    title: str,
) -> None:
    """Write a report of one or more runs: tables, figures (PNG and SVG), and where every number
    comes from.

    \b
    raspis report results/classic results/joker -o reports/classic-vs-joker
    """
    started = time.monotonic()

    def progress(stage: str) -> None:  # on stderr, so stdout keeps only the result
        click.echo(f"report: {stage}... (elapsed {time.monotonic() - started:.0f} s)", err=True)

    try:
        with summing_bar():
            report = build_report(list(run_dirs), out_dir, level=level, alpha=alpha,
                                  title=title, progress=progress)
    except OSError as error:  # an output folder that cannot be made or written
        raise cannot_write("the report", out_dir, error) from None
    click.echo(f"wrote {report.html}")
    click.echo(f"      {report.markdown}")
    click.echo(f"      {len(report.figures)} figures in {report.folder / 'figures'} (PNG and SVG)")
    click.echo(f"      {len(report.tables)} tables in {report.folder / 'tables'} (CSV)")
