"""A self-contained report of one or several runs: HTML (figures embedded) and Markdown.

``build_report(["results/run1", "results/run2"], "report/")`` computes every table of
``tables.stats_tables`` and ``tables.balance_tables``, draws the figures of ``figures``, and writes

    report/report.html       one file, the PNG figures embedded as base64
    report/report.md         the same text and tables, linking the PNG figures
    report/figures/*.png|svg every figure in both formats
    report/tables/*.csv      every table with its raw columns

The templates are ``templates/report.html.j2`` and ``templates/report.md.j2`` (jinja2). Every
table carries ``run``, ``variant`` and ``variant_hash`` and its own counts (games, deal sets or
seat-deals), and the report opens with each run's provenance from its ``manifest.json``.
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from jinja2 import Environment, FileSystemLoader, select_autoescape

from raspis import __version__

from . import balance, figures, luck, outcomes
from .dataset import Run, open_runs
from .intervals import LEVEL
from .tables import TITLES, _stack, balance_tables, display_frame, stats_tables, to_markdown

TEMPLATES = Path(__file__).parent / "templates"
REGULAR = ~pl.col("special")


@dataclass
class Report:
    """Where a report was written, and the tables it holds."""

    folder: Path
    html: Path
    markdown: Path
    figures: list[Path] = field(default_factory=list)
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)


@dataclass
class _Figure:
    name: str
    title: str
    caption: str
    png_base64: str


SECTION_PLAN: list[tuple[str, str, list[str], list[str]]] = [
    (
        "Strategies",
        "Who plays best: mean final score, win rate and mean place per strategy with "
        "intervals clustered over deal sets; the duplicate-paired difference between strategies; "
        "and Plackett-Luce ratings.",
        ["ranking", "pairs", "ratings"],
        ["ratings"],
    ),
    (
        "Seats",
        "Does the seat matter? Position is counted from the first dealer. The advantage is "
        "a position's mean minus the table's mean in the same deal set; the test asks whether all "
        "positions are equal.",
        ["seats", "seat_test", "dealer"],
        ["seat_advantage"],
    ),
    (
        "The dealer and the hook",
        "The dealer bids last and may not make the bids add up to the "
        "tricks. Dealer minus others is the dealer's net cost per deal; the forced share is how "
        "often the hook took a bid away.",
        ["hook"],
        ["dealer_cost"],
    ),
    (
        "The Joker",
        "Deal points of a seat that holds a Joker minus those of a seat holding none, "
        "in the same kind of deal and hand size.",
        ["joker"],
        ["joker_value"],
    ),
    ("Bidding", "How bids end, by kind of deal and hand size.", ["bidding"], ["bid_outcomes"]),
    (
        "Special deals",
        "What each kind of deal adds to a game: mean points per game, and with "
        "per-deal rows its share of the variance of final scores and how often the special deals "
        "changed the winner.",
        ["specials"],
        [],
    ),
    (
        "Luck against skill",
        "How often the better strategy is ahead after one game, how long a "
        "match must be for it to win with 95% probability, and how much of the variance of final "
        "scores the strategies explain.",
        ["head_to_head", "match_length", "variance"],
        ["luck_skill"],
    ),
    (
        "Outcomes",
        "The spread of final scores, negative totals (шахта), shared first places and "
        "lead changes.",
        ["outcomes"],
        ["score_distribution"],
    ),
]


def _top_pair_curve(curve: pl.DataFrame, ranking: pl.DataFrame) -> pl.DataFrame:
    """The luck/skill curve of the two best strategies (by mean score) of each run and variant:
    how long a match must be to tell the best from the runner-up."""
    if curve.height == 0 or ranking.height == 0:
        return curve
    top = (
        ranking.sort(["run", "variant", "mean_score"], descending=[False, False, True])
        .group_by(["run", "variant"], maintain_order=True)
        .agg(pl.col("strategy").head(2).alias("top"))
    )
    top = top.filter(pl.col("top").list.len() == 2).select(
        "run",
        "variant",
        pl.col("top").list.get(0).alias("first"),
        pl.col("top").list.get(1).alias("second"),
    )
    joined = curve.join(top, on=["run", "variant"])
    keep = (
        (pl.col("strategy_a") == pl.col("first")) & (pl.col("strategy_b") == pl.col("second"))
    ) | ((pl.col("strategy_a") == pl.col("second")) & (pl.col("strategy_b") == pl.col("first")))
    return joined.filter(keep).drop("first", "second")


def _figure_tables(runs: Sequence[Run], level: float) -> dict[str, pl.DataFrame]:
    def regular(compute):  # noqa: ANN001, ANN202
        def wrapped(run: Run) -> pl.DataFrame:
            regular_run = Run(
                label=run.label,
                path=run.path,
                manifest=run.manifest,
                games=run.games,
                deal_stats=run.deal_stats.filter(REGULAR),
                deals=run.deals.filter(REGULAR) if run.deals is not None else None,
                _cache={"variant_names": run.variant_names()},
            )
            return compute(regular_run)

        return wrapped

    return {
        "histogram": _stack(runs, outcomes.score_histogram),
        "joker_by_hand": _stack(
            runs, regular(lambda r: balance.joker_value(r, ("hand_size",), level))
        ),
        "bidding_by_hand": _stack(
            runs, regular(lambda r: balance.bidding_outcomes(r, ("hand_size",), level))
        ),
        "hook_by_hand": _stack(
            runs, regular(lambda r: balance.hook_cost(r, ("hand_size",), level))
        ),
        "curve": _stack(runs, lambda r: luck.luck_skill_curve(r, level=level)),
    }


def build_report(
    sources: Sequence[str | Path | Run],
    out_dir: str | Path,
    level: float = LEVEL,
    alpha: float = balance.ALPHA,
    rating_games: int | None = None,
    title: str = "raspis report",
) -> Report:
    """Analyse the runs and write the report into ``out_dir`` (see the module doc)."""
    runs = [s for s in sources if isinstance(s, Run)]
    paths = [s for s in sources if not isinstance(s, Run)]
    runs += open_runs(list(paths))
    if not runs:
        raise ValueError("give at least one run")
    folder = Path(out_dir)
    figure_folder = folder / "figures"
    table_folder = folder / "tables"
    table_folder.mkdir(parents=True, exist_ok=True)
    tables = {**stats_tables(runs, level, rating_games), **balance_tables(runs, level, alpha)}
    extra = _figure_tables(runs, level)
    extra["curve"] = _top_pair_curve(extra["curve"], tables["ranking"])
    drawn = {
        "ratings": (
            figures.strategy_ratings(tables["ranking"], tables["ratings"], level),
            "Strategy ratings",
            "Mean final score per strategy with its interval (left) "
            "and the Plackett-Luce mu ± z·sigma per lineup slot (right).",
        ),
        "seat_advantage": (
            figures.seat_advantage(tables["seats"], level),
            "Seat advantage",
            "Score advantage and win rate by position, per variant.",
        ),
        "dealer_cost": (
            figures.dealer_cost(extra["hook_by_hand"], level),
            "The dealer's cost",
            "Dealer's deal points minus the others', and the share of dealer bids the "
            "hook restricted, by hand size (regular deals).",
        ),
        "joker_value": (
            figures.joker_value(extra["joker_by_hand"], level),
            "Joker value",
            "Deal points gained by holding each Joker, by hand size (regular deals).",
        ),
        "bid_outcomes": (
            figures.bid_outcomes(extra["bidding_by_hand"]),
            "Bid outcomes",
            "Share of bids made, over and under by hand size (regular deals).",
        ),
        "luck_skill": (
            figures.luck_skill_curve(extra["curve"]),
            "Luck against skill",
            "Probability that the better of the two best strategies wins a match of "
            "n games: by games won (solid), by total score (dashed), and a duplicate "
            "match of n deal sets (dotted). Every pair is in the match-length table.",
        ),
        "score_distribution": (
            figures.score_distributions(extra["histogram"]),
            "Final scores",
            "Distribution of final scores per variant.",
        ),
    }
    rendered: dict[str, _Figure] = {}
    written: list[Path] = []
    for name, (figure, figure_title, caption) in drawn.items():
        png = figures.save_figure(figure, figure_folder, name)
        written += [figure_folder / f"{name}.png", figure_folder / f"{name}.svg"]
        rendered[name] = _Figure(name, figure_title, caption, base64.b64encode(png).decode("ascii"))
    for name, frame in {**tables, **extra}.items():
        frame.write_csv(table_folder / f"{name}.csv")
    sections = []
    for heading, text, table_names, figure_names in SECTION_PLAN:
        section_tables = []
        for name in table_names:
            headers, rows = display_frame(tables[name])
            section_tables.append(
                {
                    "name": name,
                    "title": TITLES[name],
                    "headers": headers,
                    "rows": rows,
                    "markdown": to_markdown(tables[name]),
                    "csv": f"tables/{name}.csv",
                }
            )
        sections.append(
            {
                "heading": heading,
                "text": text,
                "tables": section_tables,
                "figures": [rendered[name] for name in figure_names],
            }
        )
    context = {
        "title": title,
        "version": __version__,
        "level": level,
        "alpha": alpha,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "runs": [run.describe() for run in runs],
        "sections": sections,
    }
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    html_path = folder / "report.html"
    html_path.write_text(
        environment.get_template("report.html.j2").render(context), encoding="utf-8"
    )
    markdown_environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    markdown_path = folder / "report.md"
    markdown_path.write_text(
        markdown_environment.get_template("report.md.j2").render(context), encoding="utf-8"
    )
    return Report(
        folder=folder,
        html=html_path,
        markdown=markdown_path,
        figures=written,
        tables={**tables, **extra},
    )
