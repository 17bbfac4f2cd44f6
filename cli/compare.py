"""``raspis compare``: variant against variant, every statistic's difference from the baseline with
an interval and a verdict, in the terminal, as CSV/JSON/Markdown, or as a report folder."""

from __future__ import annotations

import click
from raspis.analysis import open_runs
from raspis.analysis.compare import answer, compare, display_table, findings, write_comparison
from raspis.analysis.measures import GROUP_QUESTIONS
from raspis.analysis.profile import comparison_tables, profile_records

from .analysis import emit_tables, format_option, warn_incomplete
from .common import cannot_write, friendly_errors, level_option, table_option
from .terminal import summing_bar, terminal_width, wrap

TITLES = {
    "profile": "The balance profile: each variant against the baseline in chances and shares",
    "compare": "Each variant against the baseline: the difference and its interval (adjusted), "
               "most relevant first",
    "values": "Each variant's value of every statistic, with its interval",
}


@click.command("compare")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--baseline",
    default=None,
    help="the variant the others are compared against (its name or label) [the first]",
)
@click.option(
    "--focus",
    default=None,
    metavar="STAT",
    help="the statistic that answers the question (e.g. dealer_cost, joker_value, made_share) "
    "[the one the changed rule options are about]",
)
@level_option
@format_option
@table_option(list(TITLES), ") [profile and compare; csv: profile]")
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
    focus: str | None,
    level: float,
    output_format: str,
    table_names: tuple[str, ...],
    out_dir: str | None,
) -> None:
    """Compare variants: two or more run directories, or the variants of one run made with
    --variant repeated.

    First the answer to the question the changed rule options ask ("Does the scoring table
    matter?"), from the balance profile: which of fairness, skill, luck, drama and bidding
    changed measurably, in chances and shares that a change of the scoring cannot move by
    itself, the clearest change first (the hook's question leads with the dealer's edge, then
    says it in chances). Then one table per question of the profile, and every ranking and
    balance statistic, most relevant first: each variant's value and its difference from the
    baseline (the first) with an interval, paired over deal sets when the variants played the
    same deals (same seeds and deck), Welch otherwise. Intervals and verdicts are adjusted for
    the number of differences tested (Benjamini-Hochberg). Runs of the same variants under
    different lineups are compared lineup by lineup, and each finding says whether it holds
    under every lineup. --format json carries the profile's records (group, measure, variant,
    lineup, value, baseline_value, difference, low, high, measurable) and every statistic;
    --format csv the profile's records (--table compare: every statistic).

    \b
    raspis compare results/study                       # the variants of one run
    raspis compare results/classic results/joker --format markdown
    raspis compare results/study -o reports/study      # HTML + Markdown + figures
    raspis compare results/study --format json > profile.json
    raspis compare results/study results/study-fast    # the same variants, two lineups
    """
    with summing_bar():
        runs = open_runs(list(run_dirs))
    warn_incomplete(runs)
    comparison = compare(runs, level=level, baseline=baseline, focus=focus)
    for note in comparison.notes:
        click.echo(wrap(note, terminal_width()), err=True)
    if output_format in ("table", "markdown"):
        _print_lines(answer(comparison) + [""] + [f"- {line}" for line in findings(comparison)]
                     + [""])
    tables = {"compare": display_table(comparison), "values": comparison.values}
    titles = dict(TITLES)
    if output_format in ("csv", "json"):
        tables["compare"] = comparison.table
        tables["profile"] = profile_records(comparison)
        default: tuple[str, ...] = ("profile",) if output_format == "csv" else (
            "profile", "compare")
    else:  # for people: one table per question of the profile
        groups = comparison_tables(comparison)
        for group, frame in groups.items():
            tables[f"profile {group}"] = frame
            titles[f"profile {group}"] = f"{group.capitalize()}: {GROUP_QUESTIONS[group]}"
        default = (*[f"profile {group}" for group in groups], "compare")
    wanted: tuple[str, ...] = table_names or default
    if output_format not in ("csv", "json") and "profile" in wanted:
        at = wanted.index("profile")
        wanted = (*wanted[:at], *[name for name in tables if name.startswith("profile ")],
                  *wanted[at + 1:])
    emit_tables({name: tables[name] for name in wanted}, output_format, titles)
    if out_dir:
        try:
            written = write_comparison(comparison, out_dir, level=level)
        except OSError as error:  # an output folder that cannot be made or written
            raise cannot_write("the comparison", out_dir, error) from None
        click.echo(f"wrote {written}", err=True)


def _print_lines(lines: list[str]) -> None:
    """Sentences wrapped to the terminal's width (at most 100 columns)."""
    import textwrap

    from .analysis import console_width

    width = min(console_width(), 100)
    for line in lines:
        indent = "  " if line.startswith("- ") else ""
        click.echo(textwrap.fill(line, width, subsequent_indent=indent, break_on_hyphens=False)
                   if line else "")
