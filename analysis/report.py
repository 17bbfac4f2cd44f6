"""A self-contained report of one or several runs: HTML (figures embedded) and Markdown.

``build_report(["results/run1", "results/run2"], "report/")`` computes every table of
``tables.stats_tables`` and ``tables.balance_tables``, draws the figures of ``figures``, and writes

    report/report.html       one file, the PNG figures embedded as base64
    report/report.md         the same text and tables, linking the PNG figures
    report/figures/*.png|svg every figure in both formats
    report/tables/*.csv      every table with its raw columns

The templates are ``templates/report.html.j2`` and ``templates/report.md.j2`` (jinja2). The report
answers first: key findings written from the numbers (``key_findings``: each sentence carries its
estimate, interval, run and variant; an effect whose interval includes 0 is said to be not
measurable at this size, with the deal sets a test would need), then a table of contents, then the
sections. Each section names its runs and variants once (the tables drop the repeated ``run`` and
``variant_hash`` columns), wide tables are split into parts that fit the page with their label
columns repeated, and a statistic that needs per-deal rows the run lacks is left out with one line
saying how to get it. The CSV files keep every raw column.
"""

from __future__ import annotations

import base64
import datetime as dt
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
from jinja2 import Environment, FileSystemLoader, select_autoescape
from raspis import __version__

from . import balance, figures, luck, outcomes
from .dataset import SETTLE_LOG, Run, open_runs, settle_runs
from .formats import format_number, interval_text, percent
from .intervals import LEVEL
from .question import ROLES, Topic, role

if TYPE_CHECKING:
    from .compare import Comparison
from .tables import (
    TEMPLATES,
    TITLES,
    balance_tables,
    display_frame,
    stack_runs,
    stats_tables,
    to_markdown,
)

REGULAR = ~pl.col("special")
#: Columns only per-deal rows can fill (``outcomes.special_contribution``).
DEAL_ROW_COLUMNS = ("mean_per_game", "variance_share", "winner_changed_share")
#: Settings of a table's computation (the match-winning chance the lengths are for), said in a
#: note instead of a column when every row has the same.
SETTING_COLUMNS = ("target",)
#: Raw columns not shown in the report's tables (provenance, said once per section).
PROVENANCE_COLUMNS = ("run", "variant_hash", "intervals")


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
                _cache={"variant_names": run.variant_names(), "totals": run.totals()},
            )
            return compute(regular_run)

        return wrapped

    return {
        "histogram": stack_runs(runs, lambda r: outcomes.score_histogram(r, by_strategy=True)),
        "joker_by_hand": stack_runs(
            runs, regular(lambda r: balance.joker_value(r, ("hand_size",), level))
        ),
        "bidding_by_hand": stack_runs(
            runs, regular(lambda r: balance.bidding_outcomes(r, ("strategy", "hand_size"), level))
        ),
        "hook_by_hand": stack_runs(
            runs, regular(lambda r: balance.hook_cost(r, ("hand_size",), level))
        ),
        "curve": stack_runs(runs, lambda r: luck.luck_skill_curve(r, level=level)),
    }


def build_report(
    sources: Sequence[str | Path | Run],
    out_dir: str | Path,
    level: float = LEVEL,
    alpha: float = balance.ALPHA,
    title: str = "raspis report",
    progress: Callable[[str], None] | None = None,
) -> Report:
    """Analyse the runs and write the report into ``out_dir`` (see the module doc);
    ``progress`` is told each stage as it starts."""
    say = progress or (lambda stage: None)
    say("reading the runs")
    runs = [s for s in sources if isinstance(s, Run)]
    paths = [s for s in sources if not isinstance(s, Run)]
    runs += open_runs(list(paths))
    settles = [Path(path) for path in paths if settle_runs(path) is not None]
    if not runs:
        raise ValueError("give at least one run")
    final = Path(out_dir)
    if final.exists() and not final.is_dir():
        raise ValueError(f"{final} exists and is not a folder")
    final.parent.mkdir(parents=True, exist_ok=True)
    # written into a hidden folder beside it, then put in place (``_publish``): a report stopped
    # half-way leaves the old one whole, never old and new files mixed
    folder = Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent))
    try:
        report = _write_report(runs, folder, level, alpha, title, say, settles)
        _publish(folder, final)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return Report(
        folder=final,
        html=final / report.html.name,
        markdown=final / report.markdown.name,
        figures=[final / path.relative_to(folder) for path in report.figures],
        tables=report.tables,
    )


#: what a report folder holds (``_publish`` replaces these and leaves anything else alone)
REPORT_ENTRIES = ("report.html", "report.md", "figures", "tables")


def _publish(folder: Path, final: Path) -> None:
    """Put the finished report ``folder`` in place of ``final``: by renaming the folder where
    ``final`` is new or holds a report only, else entry by entry (``REPORT_ENTRIES``), each old
    entry moved aside first and removed after."""
    if not final.exists():
        folder.rename(final)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".old", dir=final.parent))
    try:
        if {entry.name for entry in final.iterdir()} <= set(REPORT_ENTRIES):
            final.rename(aside / final.name)
            folder.rename(final)
            return
        for name in REPORT_ENTRIES:
            if (final / name).exists():
                (final / name).rename(aside / name)
            (folder / name).rename(final / name)
        folder.rmdir()
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def _write_report(runs: Sequence[Run], folder: Path, level: float, alpha: float,
                  title: str,
                  say: Callable[[str], None], settles: Sequence[Path] = ()) -> Report:
    """Every file of the report into the empty ``folder`` (``settles``: the ``raspis settle``
    folders among the sources, whose decisions open it)."""
    figure_folder = folder / "figures"
    table_folder = folder / "tables"
    table_folder.mkdir(parents=True, exist_ok=True)
    say("rankings and ratings")
    tables = dict(stats_tables(runs, level))
    say("balance statistics")
    tables.update(balance_tables(runs, level, alpha))
    extra = _figure_tables(runs, level)
    say("figures")
    rendered, written = _draw(tables, extra, figure_folder, level)
    say("writing the report")
    for name, frame in {**tables, **extra}.items():
        frame.write_csv(table_folder / f"{name}.csv")
    context = {
        "title": title,
        "version": __version__,
        "level": level,
        "alpha": alpha,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "runs": [run.describe() for run in runs],
        "sections": _sections(tables, rendered, runs),
    }
    context["answer"], context["comparison"], topic, comparison = _comparison_findings(runs,
                                                                                     level)
    context.update(_profile_context(comparison, tables, figure_folder))
    context["settles"] = [_settle_context(path, figure_folder) for path in settles]
    written += [figure_folder / "profile.png", figure_folder / "profile.svg"]
    findings = key_findings(runs, tables, level, topic)
    findings.write_csv(table_folder / "key_findings.csv")
    headers, cells = display_frame(findings)
    context["findings"] = {"headers": headers, "rows": cells, "markdown": to_markdown(findings)}
    from .ranking import ranking_verdicts

    context["ranking"] = ranking_verdicts(tables.get("ranking", pl.DataFrame()),
                                          tables.get("pairs", pl.DataFrame()), level)
    html_path, markdown_path = _render(context, folder)
    return Report(
        folder=folder,
        html=html_path,
        markdown=markdown_path,
        figures=written,
        tables={**tables, **extra},
    )


def _draw(tables: dict[str, pl.DataFrame], extra: dict[str, pl.DataFrame], figure_folder: Path,
          level: float) -> tuple[dict[str, _Figure], list[Path]]:
    """The report's figures, saved (PNG and SVG) and embedded: name -> figure, and the files."""
    drawn = {
        "ratings": (
            figures.strategy_ratings(tables["ranking"], tables["ratings"], level),
            "Strategy ratings",
            "Mean final score per strategy with its interval (left) "
            "and the Plackett-Luce rating with its interval per lineup slot (right).",
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
            "Share of bids made, over and under by hand size (regular deals), per strategy.",
        ),
        "luck_skill": (
            figures.luck_skill_curve(extra["curve"]),
            "Luck against skill",
            "Probability that the better strategy of each pair wins a match of n games "
            "(the one ahead in more games wins), against n; the dashed line is 95%. The score "
            "and duplicate models are in the match-length table.",
        ),
        "score_distribution": (
            figures.score_distributions(extra["histogram"]),
            "Final scores",
            "Distribution of final scores per variant, one line per strategy.",
        ),
    }
    rendered: dict[str, _Figure] = {}
    written: list[Path] = []
    for name, (figure, figure_title, caption) in drawn.items():
        png = figures.save_figure(figure, figure_folder, name)
        written += [figure_folder / f"{name}.png", figure_folder / f"{name}.svg"]
        rendered[name] = _Figure(name, figure_title, caption, base64.b64encode(png).decode("ascii"))
    return rendered, written


def _sections(tables: dict[str, pl.DataFrame], rendered: dict[str, _Figure],
              runs: Sequence[Run]) -> list[dict[str, Any]]:
    """The report's sections (``SECTION_PLAN``): heading, text, provenance, tables, figures."""
    sections = []
    for index, (heading, text, table_names, figure_names) in enumerate(SECTION_PLAN, start=1):
        sections.append(
            {
                "id": f"s{index}",
                "heading": heading,
                "text": text,
                "provenance": _provenance([tables[name] for name in table_names], runs),
                "tables": [_section_table(name, tables[name], runs) for name in table_names],
                "figures": [rendered[name] for name in figure_names],
            }
        )
    return sections


def _render(context: dict[str, Any], folder: Path) -> tuple[Path, Path]:
    """report.html (autoescaped) and report.md from the templates."""
    paths = []
    for name, escape in (("report.html", select_autoescape(["html", "j2"])), ("report.md", False)):
        environment = Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=escape,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        path = folder / name
        path.write_text(environment.get_template(f"{name}.j2").render(context), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _provenance(frames: Sequence[pl.DataFrame], runs: Sequence[Run]) -> str:
    """Where a section's numbers come from, said once: the runs, the variants with their hashes,
    and what the deal-level intervals count."""
    pairs: dict[tuple[str, str], str] = {}
    intervals: set[str] = set()
    for frame in frames:
        if frame.height == 0 or "variant" not in frame.columns:
            continue
        run_column = frame["run"] if "run" in frame.columns else pl.Series([""] * frame.height)
        hashes = frame["variant_hash"] if "variant_hash" in frame.columns else run_column
        for run, variant, variant_hash in zip(run_column, frame["variant"], hashes, strict=True):
            pairs[(str(run), str(variant))] = str(variant_hash)
        if "intervals" in frame.columns:
            intervals |= set(frame["intervals"].drop_nulls().to_list())
    by_run: dict[str, list[str]] = {}
    for (run, variant), variant_hash in pairs.items():
        by_run.setdefault(run, []).append(f"{variant} ({variant_hash})")
    text = "; ".join(f"run {run}: {', '.join(variants)}" for run, variants in by_run.items())
    if intervals:
        unit = " and ".join(sorted(intervals))
        text += f". Deal-level intervals over {unit}"
        if "blocks of deal sets" in intervals:
            text += (" (a run without per-deal rows: its deal_stats sums are kept per block of "
                     "consecutive deal sets, 64 blocks or one a deal set in a smaller run; "
                     "--deal-rows clusters over deal sets)")
        if "seat-deals" in intervals:
            text += (" (a run written before blocks of deal sets, without per-deal rows: "
                     "seat-deals are treated as independent, too narrow when deal sets differ "
                     "in luck; play it again, or with --deal-rows)")
    return text + "." if text else ""


def _section_table(name: str, frame: pl.DataFrame, runs: Sequence[Run]) -> dict[str, object]:
    """A table for the report: provenance columns dropped (said once per section; the run kept
    when there are several), columns only
    per-deal rows fill left out with a note when empty, and split into parts that fit the page,
    the label columns repeated; text left, numbers right."""
    # the run stays a column when the table holds several (the same variant under two lineups
    # would otherwise read as two unlabelled rows)
    several_runs = "run" in frame.columns and frame["run"].n_unique() > 1
    shown = frame.drop([c for c in PROVENANCE_COLUMNS if c in frame.columns
                        and not (c == "run" and several_runs)])
    if "variant" in shown.columns and shown["variant"].n_unique() <= 1 and shown.width > 1:
        shown = shown.drop("variant")
    notes = []
    empty = [
        c
        for c in shown.columns
        if shown.height and shown[c].null_count() == shown.height and not c.endswith(("_low",
                                                                                  "_high"))
    ]
    if empty:
        drop = [*empty, *[f"{c}_{s}" for c in empty for s in ("low", "high")]]
        shown = shown.drop([c for c in drop if c in shown.columns])
    else:
        empty = []
    needs_rows = [c for c in empty if c in DEAL_ROW_COLUMNS]
    if "mean_per_game_low" in shown.columns and shown.height and (
        shown["mean_per_game_low"].null_count() == shown.height
    ):
        shown = shown.drop("mean_per_game_low", "mean_per_game_high")
        needs_rows.append("the interval of mean_per_game")
    if needs_rows and not all(run.has_deals for run in runs):
        notes.append(
            f"Left out: {', '.join(needs_rows)}, which need per-deal rows this run did not write; "
            "run the tournament with --deal-rows to get them."
        )
    for column in SETTING_COLUMNS:  # a setting the same on every row: said once, not a column
        if column in shown.columns and shown.height and shown[column].n_unique() == 1:
            notes.append(f"{column} = {format_number(shown[column][0], column)} on every row.")
            shown = shown.drop(column)
    headers, rows = display_frame(shown)
    text_columns = {c for c, dtype in shown.schema.items() if dtype == pl.String()}
    numeric = [h not in text_columns for h in headers]
    # one table per statistic, never split: a page too narrow for it scrolls it inside its box
    parts = [{"headers": headers, "numeric": numeric, "rows": rows}]
    markdown = to_markdown(shown)
    return {
        "name": name,
        "title": TITLES[name],
        "parts": parts,
        "rows": rows,
        "notes": notes,
        "markdown": markdown,
        "csv": f"tables/{name}.csv",
    }


def _interval(estimate: object, low: object, high: object) -> str:
    """Points and their interval, the same decimals for all three (``formats.interval_text``)."""
    return interval_text(estimate, low, high, "")


def _measured(low: float | None, high: float | None) -> bool:
    return low is not None and high is not None and (low > 0 or high < 0)


def _cell(estimate: float | None, low: float | None, high: float | None) -> str:
    """A points finding's cell: the estimate and its interval, ✓ where it excludes 0."""
    if estimate is None or low is None or high is None or low != low:
        return "" if estimate is None else _interval(estimate, None, None)
    return _interval(estimate, low, high) + (" ✓" if _measured(low, high) else "")


#: The key findings in points, one row each (``key_findings``): the statistic each is about in
#: ``compare``'s names (its relevance to the changed rules' topic, ``question.role``) and its words.
FINDING_ROWS = (
    ("mean_score[", "the best strategy's lead over the runner-up (points a game)"),
    ("seat_advantage[", "the largest seat advantage (points a game) and whether the seats are "
     "equal (Hotelling's T²)"),
    ("dealer_cost", "the dealer's deal points minus the other seats' (points a deal)"),
    ("hook_forced_share", "the share of the dealer's bids the hook restricted"),
    ("joker_value", "holding the (first) Joker alone against none (points a deal)"),
    ("match_length", "the games the best needs to win a match 95% of the time (counting games "
     "won; a duplicate match in deal sets)"),
    ("strategy_share", "the share of the variance of final scores the strategies explain"),
)


def key_findings(
    runs: Sequence[Run], tables: dict[str, pl.DataFrame], level: float = LEVEL,
    topic: Topic | None = None,
) -> pl.DataFrame:
    """The report's key findings in points, as one table: a row per finding (``FINDING_ROWS``:
    the gap between the two best strategies, the seats, the dealer and the hook, the Joker, how
    long a match must be, how much of the score the strategies explain), a column per run and
    variant, each cell the estimate with its interval (✓ where it excludes 0). Every number is in
    its own variant's points: the balance profile (``profile``) is the comparison in chances.

    With ``topic`` (what the variants' changed rules are about, ``question.topic_of``), the rows
    are ranked by relevance to its question (``question.role``: the question's statistic first,
    those it bears on next)."""
    ranking = tables.get("ranking", pl.DataFrame())
    rows = {kind: {} for kind, _ in FINDING_ROWS}
    columns: list[str] = []
    several_runs = len({str(run.label) for run in runs}) > 1
    if ranking.height:
        for (run_label, variant), part in ranking.group_by(["run", "variant"],
                                                           maintain_order=True):
            column = f"{run_label}: {variant}" if several_runs else str(variant)
            columns.append(column)
            run = next((r for r in runs if r.label == run_label), None)
            for kind, cell in _findings_of(run, str(run_label), str(variant), part, tables,
                                           level):
                rows[kind][column] = cell
    order = list(FINDING_ROWS)
    if topic is not None:
        ranks = {kind: ROLES.index(role(kind, topic, None, in_points=True))
                 for kind, _ in FINDING_ROWS}
        order.sort(key=lambda item: ranks[item[0]])
    frame: dict[str, list[str]] = {"finding": []}
    for column in columns:
        frame[column] = []
    for kind, words in order:
        if not any(rows[kind].values()):
            continue
        frame["finding"].append(words)
        for column in columns:
            frame[column].append(rows[kind].get(column, ""))
    return pl.DataFrame(frame, schema={name: pl.String() for name in frame})


def _count(value: float, noun: str) -> str:
    """"1 game", "5 games"."""
    return f"{value:,.0f} {noun}{'' if value == 1 else 's'}"


def _findings_of(run: Run | None, run_label: str, variant: str, part: pl.DataFrame,
                 tables: dict[str, pl.DataFrame], level: float) -> list[tuple[str, str]]:
    """(kind, cell) of every key finding of one run's variant."""

    def rows(name: str) -> list[dict]:
        frame = tables.get(name, pl.DataFrame())
        if frame.height == 0 or "variant" not in frame.columns:
            return []
        return frame.filter((pl.col("run") == run_label)
                            & (pl.col("variant") == variant)).to_dicts()

    found: list[tuple[str, str]] = []
    ordered = part.sort("mean_score", descending=True)
    best = ordered["strategy"].to_list()[:2]
    if len(best) == 2:
        pair = [r for r in rows("pairs") if {r["strategy_a"], r["strategy_b"]} == set(best)]
        if pair:
            r = pair[0]
            found.append(("mean_score[", f"{r['strategy_a']} over {r['strategy_b']}: " + _cell(
                r["mean_difference"], r["mean_difference_low"], r["mean_difference_high"])))
        match = [r for r in rows("match_length")
                 if {r["strategy_a"], r["strategy_b"]} == set(best)]
        if match and match[0]["games_model"] not in (None, float("inf")):
            r = match[0]
            duplicate = r.get("duplicate_deal_sets")
            extra = (f"; {_count(duplicate, 'deal set')}" if duplicate is not None
                     and duplicate == duplicate and duplicate != float("inf") else "")
            found.append(("match_length", f"{r['strategy_a']} over {r['strategy_b']}: "
                          f"{_count(r['games_model'], 'game')}{extra}"))
    tests = [r for r in rows("seat_test") if r["measure"] == "score"]
    seats = rows("seats")
    if tests and seats:
        top = max(seats, key=lambda r: abs(r["score_advantage"] or 0.0))
        p_value = format_number(tests[0]["p_value"], "p_value")
        p_text = f"p {p_value}" if p_value.startswith("<") else f"p = {p_value}"
        verdict = "unequal" if tests[0]["unequal"] else "not measurably unequal"
        found.append(("seat_advantage[", f"position {top['position']}: " + _cell(
            top["score_advantage"], top["score_advantage_low"], top["score_advantage_high"])
            + f"; the seats {verdict} ({p_text})"))
    if run is not None:
        cost = balance.hook_cost(run, by=(), level=level).filter(pl.col("variant") == variant)
        if cost.height:
            r = cost.row(0, named=True)
            found.append(("dealer_cost", _cell(r["dealer_minus_others"],
                                               r["dealer_minus_others_low"],
                                               r["dealer_minus_others_high"])))
            found.append(("hook_forced_share", percent(r["forced_share"] or 0.0)))
        joker = balance.joker_value(run, by=(), level=level).filter(
            (pl.col("variant") == variant) & (pl.col("joker") == "joker1"))
        if joker.height:
            r = joker.row(0, named=True)
            found.append(("joker_value", _cell(r["value"], r["value_low"], r["value_high"])))
    variance = rows("variance")
    if variance and variance[0]["strategy_share"] is not None:
        r = variance[0]
        free = r.get("strategy_share_luck_free")
        more = f" ({percent(free)} once card luck is removed)" if free else ""
        found.append(("strategy_share", percent(r["strategy_share"]) + more))
    return found


def _comparison_findings(runs: Sequence[Run], level: float
                         ) -> tuple[list[str], list[str], Topic | None, Comparison | None]:
    """With two or more variants, the comparison's answer (``compare.answer``: the question the
    changed rules ask, under each lineup), its clearest other differences from the first (at
    most six sentences, a count of the rest and the multiplicity note), the topic and the
    comparison; nothing with a single variant."""
    from .compare import answer, compare, findings

    if sum(run.variant_names().height for run in runs) < 2:
        return [], [], None, None
    comparison = compare(list(runs), level=level)
    topics = [q["topic"] for q in comparison.questions if q["topic"] is not None]
    return (answer(comparison), findings(comparison, limit=6), topics[0] if topics else None,
            comparison)


def _settle_context(path: Path, figure_folder: Path) -> dict[str, object]:
    """How a ``raspis settle`` among the sources was decided: its verdict (from its log) and
    its figure (the sequences against the deal sets, or a sweep's race), copied and embedded."""
    import json

    log = json.loads((path / SETTLE_LOG).read_text(encoding="utf-8"))
    name = "sweep" if (path / "figures" / "sweep.png").is_file() else "settle"
    figure = path / "figures" / f"{name}.png"
    png = None
    if figure.is_file():
        figure_folder.mkdir(parents=True, exist_ok=True)
        target = figure_folder / f"{name}-{path.name}.png"
        shutil.copyfile(figure, target)
        png = base64.b64encode(figure.read_bytes()).decode("ascii")
    return {"folder": str(path), "name": path.name, "verdict": log.get("verdict") or [],
            "rounds": len(log.get("rounds") or []), "figure": png,
            "figure_file": f"figures/{name}-{path.name}.png" if png else None}


def _profile_context(comparison: Comparison | None, tables: dict[str, pl.DataFrame],
                     folder: Path) -> dict[str, object]:
    """The balance profile at the report's top: its figure (each variant minus the baseline
    with a comparison, else each value against a balanced game's) written into ``folder`` and
    embedded, and one table per question of the profile."""
    from .profile import (
        comparison_figure_rows,
        comparison_tables,
        run_figure_rows,
        run_tables,
    )
    from .tables import template_tables

    if comparison is not None:
        rows, difference = comparison_figure_rows(comparison), True
        groups = comparison_tables(comparison)
    else:
        single = tables.get("profile", pl.DataFrame())
        if single.height == 0:
            return {"profile_figure": None, "profile_tables": [], "profile_difference": False}
        rows, difference = run_figure_rows(single), False
        groups = run_tables(single)
    png = figures.save_figure(figures.profile(rows, difference), folder, "profile")
    return {"profile_figure": base64.b64encode(png).decode("ascii"),
            "profile_tables": template_tables(groups), "profile_difference": difference}
