"""``raspis report``: a self-contained HTML (and Markdown) report of one or more runs."""

from __future__ import annotations

import click
from raspis.analysis.report import build_report

from .common import friendly_errors


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
@click.option(
    "--level",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="confidence level of the intervals",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="level of the tests",
)
@click.option(
    "--rating-games",
    type=click.IntRange(min=1),
    default=1_000_000,
    show_default=True,
    help="rate at most this many games per variant (the lowest deal sets, every seating of each)",
)
@click.option("--title", default="raspis report", show_default=True)
@friendly_errors
def report_command(
    run_dirs: tuple[str, ...],
    out_dir: str,
    level: float,
    alpha: float,
    rating_games: int | None,
    title: str,
) -> None:
    """Write a report of one or more runs: tables, figures (PNG and SVG), and where every number
    comes from.

    \b
    raspis report results/classic results/joker -o reports/classic-vs-joker
    """
    report = build_report(
        list(run_dirs), out_dir, level=level, alpha=alpha, rating_games=rating_games, title=title
    )
    click.echo(f"wrote {report.html}")
    click.echo(f"      {report.markdown}")
    click.echo(f"      {len(report.figures)} figures in {report.folder / 'figures'} (PNG and SVG)")
    click.echo(f"      {len(report.tables)} tables in {report.folder / 'tables'} (CSV)")
