"""The analysis tables of one or several runs, gathered, and turned into text for people.

``stats_tables`` and ``balance_tables`` run every statistic of ``ranking``, ``balance``,
``outcomes`` and ``luck`` over a list of runs and stack the results with a ``run`` column first, so
runs (and the variants inside them) sit side by side. ``display_frame`` turns a table into strings
for a terminal, Markdown or HTML, one column at a time (``formats.column_texts``): an estimate
with ``_low``/``_high`` columns becomes one cell "estimate [low, high]" (more digits where the
bounds would print alike, "(no spread)" where they are equal), p-values below 1e-16 print as
"<1e-16", and the points of a column all print with the same decimals.
``column_groups`` and ``label_columns`` split a wide table into parts that fit a width, the label
columns repeated in each (the terminal and the report use them). CSV and JSON keep the raw
columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from . import balance, luck, outcomes, ranking
from .dataset import Run
from .formats import column_texts
from .intervals import LEVEL
from .measures import GROUP_QUESTIONS
from .profile import run_profile

#: What each table holds, for headings in the terminal and the report.
TITLES: dict[str, str] = {
    "profile": "The balance profile: fairness, skill, luck, drama and bidding in chances and "
    "shares, each against the value of a balanced game (✓: the interval excludes it)",
    "ranking": "Strategy ranking (mean score per game, win rate, mean place; "
    "intervals over deal sets)",
    "pairs": "Paired differences between strategies (mean over deal sets of A's mean score "
    "minus B's; intervals adjusted for the pairs of each variant, Benjamini-Hochberg)",
    "ratings": "Plackett-Luce ratings per lineup slot, maximum likelihood on every game (Elo "
    "scale, mean 0: 400 points more are odds of 10 to 1 of finishing ahead; intervals clustered "
    "over blocks of deal sets)",
    "seats": "Seat effects by position (0 = first dealer, 1 = left of the first dealer)",
    "seat_test": "Test that all positions are equal (Hotelling T² over deal sets)",
    "dealer": "Deal points by dealer offset (0 = dealer, 1 = bids first), one-way ANOVA",
    "hook": "The dealer's cost per deal, and how often the hook bound, by kind and hand size",
    "joker": "Value of holding a Joker: deal points with it minus without, by kind and hand size",
    "bidding": "Bids made / over / under, passes, overbidding and the hook, by kind and hand size",
    "specials": "Deal kinds: mean points per game, share of the variance of final scores",
    "head_to_head": "Head to head: how often the better strategy is ahead after one game",
    "match_length": "Games needed for the better strategy to win a match with 95% probability",
    "variance": "Share of the variance of final scores explained by the strategy",
    "outcomes": "Outcome shape: final scores, negative totals, ties, lead changes",
}

#: the HTML templates of the reports (``report``, ``compare``)
TEMPLATES = Path(__file__).parent / "templates"

SECTIONS: dict[str, tuple[str, ...]] = {
    "profile": ("profile",),
    "seats": ("seats", "seat_test"),
    "dealer": ("dealer", "hook"),
    "joker": ("joker",),
    "bidding": ("bidding",),
    "specials": ("specials",),
    "luck": ("head_to_head", "match_length", "variance"),
    "outcomes": ("outcomes",),
}


def stack_runs(runs: Sequence[Run], compute: Callable[[Run], pl.DataFrame]) -> pl.DataFrame:
    frames = [compute(run).with_columns(pl.lit(run.label).alias("run")) for run in runs]
    frames = [frame.select("run", *[c for c in frame.columns if c != "run"]) for frame in frames]
    nonempty = [frame for frame in frames if frame.height]
    if not nonempty:
        return frames[0] if frames else pl.DataFrame()
    return pl.concat(nonempty, how="diagonal_relaxed")


def stats_tables(
    runs: Sequence[Run], level: float = LEVEL, ratings: bool = True, balance_profile: bool = False,
) -> dict[str, pl.DataFrame]:
    """``ranking``, ``pairs`` (adjusted for multiplicity, ``ranking.adjust_pairs``), (unless
    ``ratings`` is False) ``ratings``, and with ``balance_profile`` the ``profile`` of each
    variant (``profile.run_profile``) for the runs."""
    tables = {
        "ranking": stack_runs(runs, lambda run: ranking.strategy_ranking(run, level)),
        "pairs": ranking.adjust_pairs(
            stack_runs(runs, lambda run: ranking.paired_differences(run, level)), level),
    }
    if ratings:
        tables["ratings"] = stack_runs(
            runs, lambda run: ranking.plackett_luce_ratings(run, level))
    if balance_profile:
        tables["profile"] = run_profile(runs, level)
    return tables


def balance_tables(
    runs: Sequence[Run],
    level: float = LEVEL,
    alpha: float = balance.ALPHA,
    sections: Sequence[str] | None = None,
) -> dict[str, pl.DataFrame]:
    """Every balance table (``SECTIONS``; all unless ``sections`` names some) for the runs."""
    makers: dict[str, Callable[[Run], pl.DataFrame]] = {
        "profile": lambda run: run_profile([run], level),
        "seats": lambda run: balance.seat_effects(run, level=level),
        "seat_test": lambda run: balance.seat_equality_test(run, alpha=alpha),
        "dealer": lambda run: balance.dealer_offset_effects(run, level, alpha),
        "hook": lambda run: balance.hook_cost(run, level=level),
        "joker": lambda run: balance.joker_value(run, level=level),
        "bidding": lambda run: balance.bidding_outcomes(run, level=level),
        "specials": lambda run: outcomes.special_contribution(run, level),
        "head_to_head": lambda run: luck.head_to_head(run, level),
        "match_length": lambda run: luck.match_lengths(run, level),
        "variance": luck.variance_explained,
        "outcomes": lambda run: outcomes.outcome_shape(run, level),
    }
    chosen = sections or list(SECTIONS)
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown sections {unknown}; choose from {', '.join(SECTIONS)}")
    return {name: stack_runs(runs, makers[name])
            for section in chosen for name in SECTIONS[section]}


def display_frame(frame: pl.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Headers and string rows of a table for people (intervals folded into one cell)."""
    columns = frame.columns
    folded = {c for c in columns if f"{c}_low" in columns and f"{c}_high" in columns}
    hidden = {f"{c}_low" for c in folded} | {f"{c}_high" for c in folded}
    headers = [c for c in columns if c not in hidden]
    cells = {
        column: column_texts(
            frame[column].to_list(), column,
            frame[f"{column}_low"].to_list() if column in folded else None,
            frame[f"{column}_high"].to_list() if column in folded else None,
        )
        for column in headers
    }
    rows = [[cells[column][index] for column in headers] for index in range(frame.height)]
    labels = [f"{c} [CI]" if c in folded else c for c in headers]
    return labels, rows


def to_markdown(frame: pl.DataFrame) -> str:
    """A table as GitHub Markdown (intervals folded, see ``display_frame``)."""
    headers, rows = display_frame(frame)
    if not headers:
        return "_(empty)_\n"

    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [
        "| " + " | ".join(escape(h) for h in headers) + " |",
        "| " + " | ".join("---" for _ in headers) + " |",
    ]
    lines += ["| " + " | ".join(escape(cell) for cell in row) + " |" for row in rows]
    if not rows:
        lines.append("| " + " | ".join("" for _ in headers) + " |")
    return "\n".join(lines) + "\n"


def column_groups(widths: Sequence[int], keys: int, width: int) -> list[list[int]]:
    """Split column indexes into groups that each fit ``width`` characters with the first
    ``keys`` (label) columns repeated in every group; a column costs its text + 3."""
    key_cost = sum(w + 3 for w in widths[:keys]) + 1
    groups: list[list[int]] = []
    current: list[int] = []
    used = key_cost
    for index in range(keys, len(widths)):
        cost = widths[index] + 3
        if current and used + cost > width:
            groups.append(current)
            current, used = [], key_cost
        current.append(index)
        used += cost
    if current or not groups:
        groups.append(current)
    return [list(range(keys)) + group for group in groups]


#: Numeric columns that label a row (repeated in every part of a split table).
ID_COLUMNS = frozenset(
    {"position", "seat", "dealer_offset", "hand_size", "lineup_slot", "length", "bin"}
)


def label_columns(headers: Sequence[str], is_text: Sequence[bool]) -> int:
    """How many leading columns label the rows (text, or an id such as ``hand_size``): the
    columns a split table repeats in every part."""
    keys = 0
    while keys < len(headers) - 1 and (is_text[keys] or headers[keys] in ID_COLUMNS):
        keys += 1
    return keys


def template_tables(tables: dict[str, pl.DataFrame]) -> list[dict[str, object]]:
    """The profile's tables (``profile.comparison_tables`` or ``run_tables``) as the reports
    show them: per group its question, headers, rows (the first column the measure) and the
    same table in Markdown."""
    shown = []
    for group, frame in tables.items():
        headers, rows = display_frame(frame)
        shown.append({"group": group, "question": GROUP_QUESTIONS[group], "headers": headers,
                      "rows": rows, "markdown": to_markdown(frame)})
    return shown
