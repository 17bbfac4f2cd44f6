"""``raspis stats``, ``raspis balance`` and ``raspis banker``: analysis tables in the terminal or
as CSV, JSON or Markdown for scripts. Each command calls the library (``raspis.analysis``) and only
formats what it returns."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence

import click
import polars as pl
from raspis.analysis import balance_tables, open_runs, stats_tables
from raspis.analysis.banker import banker_summary, first_hit_table, standard_game
from raspis.analysis.compare import NUMBER_TEXT
from raspis.analysis.dataset import Run
from raspis.analysis.tables import (
    SECTIONS,
    TITLES,
    column_groups,
    display_frame,
    label_columns,
    to_markdown,
)

from .common import (
    SEED,
    alpha_option,
    friendly_errors,
    level_option,
    table_option,
)
from .terminal import summing_bar

FORMATS = ["table", "csv", "json", "markdown"]
#: every table of ``raspis balance``, section by section
BALANCE_TABLES = [name for names in SECTIONS.values() for name in names]

format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="table: for people (intervals as 'estimate [low, high]'); csv/json/markdown: for scripts "
    "and documents (csv and json keep the raw _low/_high columns)",
)


def _clean(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


#: Width of piped (non-terminal) output when ``COLUMNS`` is not set.
PIPED_WIDTH = 100  # as every command's (cli.terminal)
#: Longest a wrapped text column (a verdict) may be before it wraps.
TEXT_WIDTH = 48


def console_width() -> int:
    """The width tables are fitted to: ``COLUMNS`` when set, else the terminal's, else
    ``PIPED_WIDTH``."""
    import os
    import shutil

    text = os.environ.get("COLUMNS", "")
    if text.isdigit() and int(text) > 0:
        return int(text)
    if sys.stdout.isatty():
        return shutil.get_terminal_size((PIPED_WIDTH, 24)).columns
    return PIPED_WIDTH


def _provenance(frame: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """Drop ``variant_hash`` (and ``run`` or ``intervals`` columns with one value) from a table
    for people, and say once what they were."""
    notes = []
    if "run" in frame.columns and frame["run"].n_unique() <= 1:
        if frame.height:
            notes.append(f"run {frame['run'][0]}")
        frame = frame.drop("run")
    if "intervals" in frame.columns and frame["intervals"].n_unique() <= 1:
        if frame.height and frame["intervals"][0] is not None:
            notes.append(f"intervals over {frame['intervals'][0]}")
        frame = frame.drop("intervals")
    if "variant_hash" in frame.columns and "variant" in frame.columns:
        pairs = frame.select("variant", "variant_hash").unique().sort("variant")
        if pairs["variant"].n_unique() == pairs.height:
            notes += [f"{v} = {h}" for v, h in pairs.iter_rows()]
            frame = frame.drop("variant_hash")
    return frame, ", ".join(notes)


def _rich_tables(name: str, frame: pl.DataFrame, title: str, width: int) -> list[object]:
    from rich.markup import escape
    from rich.table import Table

    shown, note = _provenance(frame)
    headers, rows = display_frame(shown)
    text_columns = {c for c, dtype in shown.schema.items() if dtype == pl.String()}
    folded = {f"{c} [CI]" for c in shown.columns}
    is_text = [h in text_columns and h not in folded and h not in NUMBER_TEXT for h in headers]
    keys = label_columns(headers, is_text)
    widths = []
    for index, header in enumerate(headers):
        longest = max([len(header), *(len(row[index]) for row in rows)])
        widths.append(min(longest, TEXT_WIDTH) if is_text[index] and index >= keys else longest)
    groups = column_groups(widths, keys, width)
    tables: list[object] = []
    for part, group in enumerate(groups, start=1):
        heading = title if len(groups) == 1 else f"{title} ({part}/{len(groups)})"
        table = Table(title=escape(heading), title_justify="left",
                      caption=escape(note) if note else None,
                      caption_justify="left")
        for index in group:
            # text may wrap (label columns too, when they and one number are wider than the
            # page); a number never wraps and is never made narrower than it is, so nothing is cut
            wraps = is_text[index] and index >= keys
            table.add_column(
                escape(headers[index]),
                justify="left" if is_text[index] else "right",
                overflow="fold",
                no_wrap=not is_text[index],
                min_width=None if is_text[index] else widths[index],
                max_width=TEXT_WIDTH if wraps else None,
            )
        for row in rows:
            table.add_row(*[escape(row[index]) for index in group])
        tables.append(table)
    del name
    return tables


def emit_tables(
    tables: dict[str, pl.DataFrame], output_format: str, titles: dict[str, str] | None = None
) -> None:
    """Print named tables in one of ``FORMATS``: JSON is always an object keyed by table name;
    CSV is one table (a ``click.UsageError`` names the tables when there are several); the
    terminal tables fit ``console_width()`` (wide ones are split, their label columns
    repeated)."""
    titles = titles or TITLES
    if output_format == "json":
        data = {
            name: [{key: _clean(value) for key, value in row.items()} for row in frame.to_dicts()]
            for name, frame in tables.items()
        }
        click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))
        return
    if output_format == "csv":
        if len(tables) != 1:
            raise click.UsageError(
                f"--format csv writes one table; choose it with --table "
                f"(one of {', '.join(tables)})"
            )
        click.echo(next(iter(tables.values())).write_csv(), nl=False)
        return
    if output_format == "markdown":
        for name, frame in tables.items():
            click.echo(f"## {titles.get(name, name)}\n\n{to_markdown(frame)}")
        return
    from rich.console import Console

    width = console_width()
    console = Console(width=width, force_terminal=None if sys.stdout.isatty() else False)
    for name, frame in tables.items():
        title = titles.get(name, name)
        if frame.height == 0:
            console.print(f"[bold]{title}[/bold]\n  (nothing to show)\n")
            continue
        for table in _rich_tables(name, frame, title, width):
            console.print(table)
            console.print()


def _pick(tables: dict[str, pl.DataFrame], wanted: Sequence[str]) -> dict[str, pl.DataFrame]:
    if not wanted:
        return tables
    unknown = [name for name in wanted if name not in tables]
    if unknown:
        raise click.BadParameter(
            f"unknown table {', '.join(unknown)}; choose from {', '.join(tables)}",
            param_hint="--table",
        )
    return {name: tables[name] for name in wanted}


def warn_incomplete(runs: Sequence[Run]) -> None:
    for run in runs:
        status = run.manifest.get("status")
        if status not in (None, "complete"):
            click.echo(
                f"warning: {run.label} is {status}; analysing the shards finished so far", err=True
            )


@click.command("stats")
@click.argument("run_dir", type=click.Path())
@level_option
@format_option
@table_option(["ranking", "pairs", "ratings", "profile"], ") [all]")
@click.option(
    "--no-ratings",
    is_flag=True,
    help="skip the Plackett-Luce ratings",
)
@friendly_errors
def stats_command(
    run_dir: str,
    level: float,
    output_format: str,
    table_names: tuple[str, ...],
    no_ratings: bool,
) -> None:
    """Rank the strategies of a tournament run, and show its balance profile.

    Mean score per game and mean place (t intervals clustered over deal sets), win rate (Wilson),
    the duplicate-paired difference between every two strategies, Plackett-Luce ratings by
    maximum likelihood on every game (Elo scale, with intervals), and the balance profile (each
    variant's fairness, skill, luck, drama and bidding in chances and shares, against a balanced
    game's). Per variant when the run holds several.

    \b
    raspis stats results/run1
    raspis stats results/run1 --table ranking --format csv > ranking.csv
    """
    with summing_bar():
        runs = open_runs([run_dir])
    warn_incomplete(runs)
    wanted = table_names or ("ranking", "pairs", "ratings", "profile")
    ratings = "ratings" in wanted and not no_ratings
    tables = stats_tables(runs, level, ratings=ratings,
                          balance_profile="profile" in wanted)
    if output_format in ("table", "markdown") and "ranking" in tables and "pairs" in tables:
        import textwrap

        from raspis.analysis.ranking import ranking_verdicts

        width = min(console_width(), 100)
        for line in ranking_verdicts(tables["ranking"], tables["pairs"], level):
            click.echo(textwrap.fill(line, width, break_on_hyphens=False))
        click.echo()
    chosen = {name: tables[name] for name in wanted if name in tables}
    emit_tables(*profile_by_group(chosen, output_format))


def profile_by_group(tables: dict[str, pl.DataFrame], output_format: str
                     ) -> tuple[dict[str, pl.DataFrame], str, dict[str, str]]:
    """``emit_tables``' arguments: for people (a table or Markdown) the ``profile`` table of
    single runs becomes one table per question of the profile (``profile.run_tables``); scripts
    (CSV, JSON) get its records."""
    titles = dict(TITLES)
    if "profile" not in tables or output_format in ("csv", "json"):
        return tables, output_format, titles
    from raspis.analysis.measures import GROUP_QUESTIONS
    from raspis.analysis.profile import run_tables

    shown: dict[str, pl.DataFrame] = {}
    for name, frame in tables.items():
        if name != "profile":
            shown[name] = frame
            continue
        for group, part in run_tables(frame).items():
            shown[f"profile {group}"] = part
            titles[f"profile {group}"] = (f"{group.capitalize()}: {GROUP_QUESTIONS[group]} "
                                          "(✓: away from a balanced game)")
    return shown, output_format, titles


@click.command("balance")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@level_option
@alpha_option
@click.option(
    "--section",
    "sections",
    multiple=True,
    type=click.Choice(list(SECTIONS)),
    help="show only this section (repeat for several) [all]",
)
@table_option(BALANCE_TABLES, "): " + ", ".join(BALANCE_TABLES), metavar="TABLE")
@format_option
@friendly_errors
def balance_command(
    run_dirs: tuple[str, ...],
    level: float,
    alpha: float,
    sections: tuple[str, ...],
    table_names: tuple[str, ...],
    output_format: str,
) -> None:
    """Variant balance of one or more runs, side by side (each variant of each run).

    First the balance profile: fairness, skill, luck, drama and bidding in chances and shares,
    each against the value of a balanced game. Then seat effects and a test that all seats are
    equal; deal points by dealer offset; the dealer's cost and the hook per hand size; the
    value of holding each Joker; bids made/over/under; special deals; luck against skill (head
    to head, match length, variance explained); and the shape of final scores.

    \b
    raspis balance results/classic results/joker
    raspis balance results/run1 --section seats --format markdown
    """
    with summing_bar():
        runs = open_runs(list(run_dirs))
    warn_incomplete(runs)
    chosen = list(sections)
    for name in table_names:
        chosen += [section for section, names in SECTIONS.items() if name in names]
    tables = balance_tables(runs, level, alpha, sections=list(dict.fromkeys(chosen)) or None)
    emit_tables(*profile_by_group(_pick(tables, table_names), output_format))


@click.command("banker")
@click.option(
    "--simulate",
    "rounds",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="also deal this many shuffled decks and show the simulated numbers",
)
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="seed of the simulation, 0 .. 2**64-1")
@click.option(
    "--jokers",
    type=click.IntRange(0, 4),
    default=2,
    show_default=True,
    help="Jokers in the deck (the first call)",
)
@click.option(
    "--single-joker-stake", is_flag=True, help="a Joker hit wins a single stake, not double"
)
@click.option("--by-call", is_flag=True, help="also show where the round ends, call by call")
@table_option(["banker", "by_call"], "; by_call implies --by-call)")
@level_option
@format_option
@friendly_errors
def banker_command(
    rounds: int,
    seed: int,
    jokers: int,
    single_joker_stake: bool,
    by_call: bool,
    table_names: tuple[str, ...],
    level: float,
    output_format: str,
) -> None:
    """The banker's guessing game of seed 002 (RULES §9), exactly.

    52 cards + 2 Jokers; the banker turns 14 cards calling Joker, A, K, ..., 2; the first card that
    matches its call wins every stake (the Joker on the first call: double); no match in 14 calls:
    the banker pays every stake. Exact fractions by inclusion-exclusion; --simulate N checks them.

    \b
    raspis banker
    raspis banker --simulate 1000000 --seed 7
    """
    game = standard_game(jokers, double_joker=not single_joker_stake)
    tables = {"banker": banker_summary(game, rounds, seed, level)}
    if by_call or "by_call" in table_names:
        tables["by_call"] = first_hit_table(game)
    titles = {
        "banker": "The banker's game: exact"
        + (
            f" and {rounds:,} simulated rounds (seed {seed}, {level:.0%} intervals)"
            if rounds
            else ""
        ),
        "by_call": "Where the round ends, call by call (exact)",
    }
    if not rounds:
        tables["banker"] = tables["banker"].drop(
            "simulated", "simulated_low", "simulated_high", "rounds_simulated"
        )
    if output_format == "table":
        # the exact fraction after the decimal, so that it is not a label column repeated in
        # every part of a split table: the parts then fit the width with room to spare, and a
        # long interval is never cut (at 100 columns the label columns left it 30 characters)
        frame = tables["banker"]
        rest = [name for name in frame.columns if name not in ("quantity", "exact_fraction")]
        tables["banker"] = frame.select("quantity", rest[0], "exact_fraction", *rest[1:])
    emit_tables(_pick(tables, table_names), output_format, titles)
