"""The report's figures, drawn with matplotlib's object API on the Agg canvas (no display needed).

Each function takes the tables of ``tables.stats_tables`` / ``tables.balance_tables`` (or the
frames named in its docstring), which carry a ``run`` column, and returns a ``Figure`` with a
title, labelled axes and units. ``save_figure`` writes it as PNG and SVG and returns the PNG's
bytes (for embedding). A series is labelled "run: variant" when several runs are shown, else by
the variant's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

WIDTH = 9.0


def new_figure(rows: int = 1, columns: int = 1, height: float = 4.2) -> tuple[Figure, np.ndarray]:
    """A figure on the Agg canvas with a grid of axes (always returned as a 2-D array)."""
    figure = Figure(figsize=(WIDTH, height * rows), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, columns, squeeze=False)
    return figure, axes


def save_figure(figure: Figure, folder: Path, name: str) -> bytes:
    """Write ``name.png`` and ``name.svg`` into ``folder``; return the PNG bytes."""
    import io

    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    data = buffer.getvalue()
    (folder / f"{name}.png").write_bytes(data)
    # the layout the PNG was drawn with, kept for the SVG (constrained layout costs as much as
    # drawing: a comparison's 24 panels 1.45 -> 1.0 s)
    figure.set_layout_engine("none")
    figure.savefig(folder / f"{name}.svg", format="svg", metadata={"Date": None})
    return data


def _series(frame: pl.DataFrame) -> Iterator[tuple[str, pl.DataFrame]]:
    """Split a table per (run, variant), labelled for a legend."""
    if frame.height == 0:
        return
    several = frame["run"].n_unique() > 1 if "run" in frame.columns else False
    keys = ["run", "variant"] if "run" in frame.columns else ["variant"]
    for key, part in frame.sort(keys, maintain_order=True).group_by(keys, maintain_order=True):
        label = f"{key[0]}: {key[1]}" if several else str(key[-1])
        yield label, part


def _percent_axis(axis: object) -> None:
    """Shares on ``axis``'s y axis as percentages (25%), as every table prints them."""
    axis.yaxis.set_major_formatter(PercentFormatter(1.0))  # type: ignore[attr-defined]


def _empty(axis: object, message: str) -> None:
    axis.text(0.5, 0.5, message, ha="center", va="center", transform=axis.transAxes)  # type: ignore[attr-defined]
    axis.set_xticks([])  # type: ignore[attr-defined]
    axis.set_yticks([])  # type: ignore[attr-defined]


def _errorbar(
    axis: object, x: np.ndarray, frame: pl.DataFrame, column: str, label: str, **style: object
) -> None:
    y = frame[column].cast(pl.Float64).to_numpy()
    low = frame[f"{column}_low"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    high = frame[f"{column}_high"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    # an unbounded side (a rating the games cannot bound, ``ratings``) draws no bar
    error = np.vstack([np.nan_to_num(y - low, posinf=0.0), np.nan_to_num(high - y, posinf=0.0)])
    axis.errorbar(x, y, yerr=error, capsize=3, marker="o", label=label, **style)  # type: ignore[attr-defined]


def seat_advantage(seats: pl.DataFrame, level: float = 0.95) -> Figure:
    """Score advantage (points per game) and win rate by position, with intervals, per variant."""
    figure, axes = new_figure(1, 2)
    left, right = axes[0]
    series = list(_series(seats))
    if not series:
        _empty(left, "no finished games")
        _empty(right, "no finished games")
    width = 0.8 / max(1, len(series))
    for index, (label, part) in enumerate(series):
        part = part.sort("position")
        x = part["position"].to_numpy() + (index - (len(series) - 1) / 2) * width
        _errorbar(left, x, part, "score_advantage", label)
        _errorbar(right, x, part, "win_rate", label)
        players = int(part["position"].max()) + 1
        right.axhline(1 / players, color="grey", linestyle=":", linewidth=1)
    if series:
        ticks = range(int(seats["position"].max()) + 1)
        left.set_xticks(ticks)
        right.set_xticks(ticks)
    left.axhline(0, color="grey", linewidth=1)
    left.set_title("Score advantage by position")
    left.set_xlabel("position (0 = first dealer, 1 = on the dealer's left)")
    left.set_ylabel("mean score minus the table's mean (points per game)")
    right.set_title("Win rate by position (dotted: 1 / players)")
    right.set_xlabel("position (0 = first dealer, 1 = on the dealer's left)")
    right.set_ylabel("share of games won")
    _percent_axis(right)
    for axis in (left, right):
        axis.legend(fontsize="small")
    figure.suptitle(f"Seat advantage per variant, {level:.0%} intervals over deal sets")
    return figure


def score_distributions(histogram: pl.DataFrame) -> Figure:
    """Distribution of final scores, one panel per variant and one line per strategy when the
    histogram has a ``strategy`` column (``outcomes.score_histogram(..., by_strategy=True)`` with
    ``run``), else one line per variant."""
    series = list(_series(histogram))
    per_strategy = "strategy" in histogram.columns
    panels = series if per_strategy else [("", histogram)]
    figure, axes = new_figure(max(1, len(panels)), 1, height=3.2)
    if not series:
        _empty(axes[0, 0], "no finished games")
    for row, (label, panel) in enumerate(panels if series else []):
        axis = axes[row, 0]
        lines = (
            [(str(k[0]), p) for k, p in panel.group_by("strategy", maintain_order=True)]
            if per_strategy
            else series
        )
        for name, part in sorted(lines, key=lambda item: item[0]):
            part = part.sort("bin")
            width = (part["bin_high"] - part["bin_low"]).to_numpy()
            density = part["share"].to_numpy() / width
            edges = np.append(part["bin_low"].to_numpy(), part["bin_high"].to_numpy()[-1])
            axis.stairs(density, edges, label=name, linewidth=1.5)
        axis.axvline(0, color="grey", linewidth=1, linestyle=":")
        title = f"{label}: final scores per strategy" if per_strategy else "Final scores"
        axis.set_title(f"{title} (dotted: zero; left of it, a negative total)")
        axis.set_xlabel("final score (points)")
        axis.set_ylabel("share of seat-games per point")
        axis.legend(fontsize="small")
    return figure


def bid_outcomes(bidding: pl.DataFrame) -> Figure:
    """Shares of bids made, over and under by hand size (regular deals): one row of panels per
    variant, one panel per strategy when the table has a ``strategy`` column
    (``balance.bidding_outcomes(run, by=("strategy", "hand_size"))`` over regular deals, with
    ``run``), else one panel per variant."""
    series = list(_series(bidding))
    strategies = (
        sorted(set(bidding["strategy"].to_list()))
        if "strategy" in bidding.columns and bidding.height
        else [None]
    )
    figure, axes = new_figure(max(1, len(series)), len(strategies), height=3.0)
    if not series:
        _empty(axes[0, 0], "no deals with bidding")
    for row, (label, variant_part) in enumerate(series):
        for column, strategy in enumerate(strategies):
            axis = axes[row, column]
            part = variant_part if strategy is None else variant_part.filter(
                pl.col("strategy") == strategy
            )
            part = part.sort("hand_size")
            x = part["hand_size"].to_numpy()
            bottom = np.zeros(len(x))
            for name, colour in (
                ("made_share", "tab:green"),
                ("over_share", "tab:orange"),
                ("under_share", "tab:red"),
            ):
                values = part[name].fill_null(0).to_numpy()
                axis.bar(x, values, bottom=bottom, color=colour, label=name.replace("_share", ""))
                bottom += values
            axis.set_title(label if strategy is None else f"{label}: {strategy}", fontsize="small")
            axis.set_xlabel("hand size (cards)")
            if column == 0:
                axis.set_ylabel("share of bids")
            _percent_axis(axis)
            axis.set_xticks(x)
            axis.set_ylim(0, 1.15)
            if row == 0 and column == 0:
                axis.legend(fontsize="small", ncols=3, loc="upper center")
    figure.suptitle("Outcome of bids by hand size (regular deals)")
    return figure


def strategy_ratings(ranking: pl.DataFrame, ratings: pl.DataFrame, level: float = 0.95) -> Figure:
    """Mean score per game with its interval per strategy, and the Plackett-Luce rating with its
    interval per lineup slot, per variant."""
    figure, axes = new_figure(1, 2)
    left, right = axes[0]
    for axis, frame, name, column, label_column in (
        (left, ranking, "mean score", "mean_score", "strategy"),
        (right, ratings, "rating", "rating", "label"),
    ):
        series = list(_series(frame))
        if not series:
            _empty(axis, "no ratings" if column == "rating" else "no games")
            continue
        labels: list[str] = []
        for _, part in series:
            for value in part[label_column].to_list():
                if value not in labels:
                    labels.append(value)
        width = 0.8 / len(series)
        for index, (label, part) in enumerate(series):
            x = np.array([labels.index(v) for v in part[label_column].to_list()], dtype=float)
            x += (index - (len(series) - 1) / 2) * width
            _errorbar(axis, x, part, column, label, linestyle="none")
        axis.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
        axis.legend(fontsize="small")
        axis.set_title(f"Strategy {name}")
        axis.set_xlabel("strategy" if column != "rating" else "strategy (lineup slot)")
    left.set_ylabel("mean final score (points per game)")
    right.set_ylabel("Plackett-Luce rating (Elo scale, mean 0)")
    figure.suptitle(f"Strategies, {level:.0%} intervals")
    return figure


def joker_value(joker: pl.DataFrame, level: float = 0.95) -> Figure:
    """Deal points gained by holding each Joker, by hand size (regular deals), with intervals
    (``balance.joker_value(run, by=("hand_size",))`` over regular deals, with ``run``)."""
    figure, axes = new_figure()
    axis = axes[0, 0]
    singles = joker.filter(pl.col("joker") != "both") if joker.height else joker
    series = list(_series(singles))
    if not series:
        _empty(axis, "no Joker in these variants")
    for label, part in series:
        for name, piece in part.group_by("joker", maintain_order=True):
            piece = piece.sort("hand_size")
            _errorbar(
                axis,
                piece["hand_size"].to_numpy().astype(float),
                piece,
                "value",
                f"{label}, {name[0]}",
            )
    axis.axhline(0, color="grey", linewidth=1)
    axis.set_title(f"Value of holding a Joker (regular deals, {level:.0%} intervals)")
    axis.set_xlabel("hand size (cards)")
    axis.set_ylabel("deal points with the Joker minus without (points per deal)")
    if series:
        axis.legend(fontsize="small")
    return figure


def dealer_cost(hook: pl.DataFrame, level: float = 0.95) -> Figure:
    """The dealer's points minus the others' per deal, and how often the hook bound, by hand size
    (``balance.hook_cost(run, by=("hand_size",))`` over regular deals, with ``run``)."""
    figure, axes = new_figure(1, 2)
    left, right = axes[0]
    series = list(_series(hook))
    if not series:
        _empty(left, "no deals with bidding")
        _empty(right, "no deals with bidding")
    for label, part in series:
        part = part.sort("hand_size")
        x = part["hand_size"].to_numpy().astype(float)
        _errorbar(left, x, part, "dealer_minus_others", label)
        _errorbar(right, x, part, "forced_share", label)
    left.axhline(0, color="grey", linewidth=1)
    left.set_title("Dealer's points minus the other seats'")
    left.set_xlabel("hand size (cards)")
    left.set_ylabel("points per deal")
    right.set_title("Dealer bids restricted by the hook")
    right.set_xlabel("hand size (cards)")
    right.set_ylabel("share of the dealer's bids")
    _percent_axis(right)
    for axis in (left, right):
        if series:
            axis.legend(fontsize="small")
    figure.suptitle(f"The dealer and the hook (regular deals, {level:.0%} intervals)")
    return figure


def luck_skill_curve(curve: pl.DataFrame, target: float = 0.95) -> Figure:
    """P(the better strategy wins a match of n games, counting games won) against n, one curve
    per strategy pair, one panel per variant (``luck.luck_skill_curve`` with ``run``, its
    ``games`` model); log axis in games, the 95% line in the legend."""
    series = list(_series(curve))
    figure, axes = new_figure(max(1, len(series)), 1, height=3.4)
    if not series:
        _empty(axes[0, 0], "needs two different strategies in a run")
    for row, (label, part) in enumerate(series):
        axis = axes[row, 0]
        chosen = part.filter(pl.col("model") == "games")
        for key, pair in chosen.group_by(["strategy_a", "strategy_b"], maintain_order=True):
            axis.plot(
                pair["length"].to_numpy(),
                pair["probability"].to_numpy(),
                marker=".",
                label=f"{key[0]} vs {key[1]}",
            )
        axis.axhline(target, color="grey", linewidth=1, linestyle="--", label=f"{target:.0%}")
        axis.set_xscale("log")
        ticks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        axis.set_xticks(ticks, [str(t) for t in ticks])
        axis.set_ylim(0.45, 1.02)
        axis.set_xlabel("match length (games; log scale)")
        axis.set_ylabel("P(the better one wins)")
        _percent_axis(axis)
        axis.set_title(f"{label}: how long a match must be for the better strategy to win")
        axis.legend(fontsize="small", loc="lower right")
    return figure


def differences(table: pl.DataFrame, level: float = 0.95, columns: int = 4) -> Figure:
    """One panel per statistic of ``compare.compare(...).table``, most relevant first (its
    ``role``), titled with the statistic's label: each variant's difference from the baseline (per
    lineup, when there are several) with the interval shown (``shown_low``/``shown_high``: adjusted
    for the number of differences, ``question.adjust``; the raw ``difference_low``/``high`` for a
    table without them), red when measurable; on the panel's own scale, zero marked."""
    import textwrap

    if table.height and "role" in table.columns:
        from .question import by_relevance

        table = by_relevance(table)
    names = list(dict.fromkeys(table["statistic"].to_list())) if table.height else []
    lineups = (list(dict.fromkeys(table["lineup"].to_list()))
               if table.height and "lineup" in table.columns else [""])
    several = len(lineups) > 1

    def row_label(variant: str, lineup: str) -> str:
        return f"{variant}, lineup {lineups.index(lineup) + 1}" if several else variant

    keys = ([row_label(v, lu) for v, lu in zip(table["variant"].to_list(),
                                                table["lineup"].to_list() if several
                                                else [""] * table.height, strict=True)]
            if table.height else [])
    variants = list(dict.fromkeys(keys))
    low_column, high_column = (("shown_low", "shown_high") if "shown_low" in table.columns
                               else ("difference_low", "difference_high"))
    if several:  # longer row labels: fewer, wider panels
        columns = min(columns, 3)
    rows = max(1, -(-len(names) // columns))
    height = 1.3 + 0.25 * len(variants) if table.height else 1.5
    # one column: a phone's figure (about 5 inches wide), panels under each other
    width = WIDTH + 3 if columns > 1 else 5.2
    figure = Figure(figsize=(width, height * rows + 1.2), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, columns, squeeze=False)
    if not names:
        _empty(axes[0, 0], "nothing to compare")
    labelled = table.with_columns(pl.Series("key", keys, dtype=pl.String())) if table.height \
        else table
    for index, axis in enumerate(axes.ravel()):
        if index >= len(names):
            axis.set_visible(False)
            continue
        part = labelled.filter(pl.col("statistic") == names[index])
        y = np.array([variants.index(v) for v in part["key"].to_list()], dtype=float)
        unit = str(part["unit"][0]) if "unit" in part.columns else ""
        scale = 100.0 if unit.startswith("(share") else 1.0  # shares in percentage points
        value = part["difference"].cast(pl.Float64).fill_null(np.nan).to_numpy() * scale
        low = part[low_column].cast(pl.Float64).fill_null(np.nan).to_numpy() * scale
        high = part[high_column].cast(pl.Float64).fill_null(np.nan).to_numpy() * scale
        error = np.vstack([np.nan_to_num(value - low), np.nan_to_num(high - value)])
        measured = (low > 0) | (high < 0)
        colours = ["tab:red" if flag else "tab:grey" for flag in measured]
        for k in range(len(y)):
            axis.errorbar(value[k], y[k], xerr=error[:, k : k + 1], fmt="o", capsize=3,
                          color=colours[k])
        axis.axvline(0, color="black", linewidth=0.8)
        axis.set_yticks(range(len(variants)), variants, fontsize="small")
        axis.set_ylim(len(variants) - 0.4, -0.6)  # the first variant on top
        title = str(part["label"][0]) if "label" in part.columns else names[index]
        if "label" in part.columns and part["label"].n_unique() > 1:
            # one statistic, its words per lineup (the two best strategies of each lineup)
            said = dict.fromkeys(zip(part["label"].to_list(), part["key"].to_list(), strict=True))
            by_label: dict[str, list[str]] = {}
            for label, key in said:
                by_label.setdefault(label, []).append(key.rsplit(", ", 1)[-1] if several
                                                      else key)
            title = "; ".join(f"{label} ({', '.join(dict.fromkeys(keys))})"
                              for label, keys in by_label.items())
        axis.set_title(textwrap.fill(title[0].upper() + title[1:], 34), fontsize="small")
        label = "percentage points" if scale != 1.0 else unit.strip("()")
        axis.set_xlabel(f"difference ({label})", fontsize="small")
        axis.tick_params(axis="x", labelsize="small")
        axis.xaxis.set_major_locator(MaxNLocator(4))
        axis.ticklabel_format(axis="x", style="sci", scilimits=(-3, 4), useOffset=False)
    baseline = table["baseline"][0] if table.height else ""
    adjusted = "intervals adjusted for the number of differences" if low_column == "shown_low" \
        else f"{level:.0%} intervals"
    line = 100 if columns > 1 else 52
    legend = ("\n".join(textwrap.fill(f"lineup {i + 1}: {lineup}", line)
                        for i, lineup in enumerate(lineups)) + "\n" if several else "")
    figure.suptitle(
        legend + textwrap.fill(f"Each variant minus {baseline}, {adjusted} (red: measurable, the "
                               "interval excludes 0); every panel on its own scale", line)
    )
    return figure


#: Short names of the profile's measures for a figure's rows (``profile``).
SHORT_NAMES = {
    "seat_edge": "largest seat edge", "dealer_top": "dealer tops a deal",
    "place_share": "strategies' share of places", "cards_share": "cards' share of places",
    "comeback_share": "won from behind", "decided_share": "decided before the end",
    "tie_share": "shared first place", "made_share": "bids made", "over_share": "bids overshot",
    "under_share": "bids short", "pass_share": "passes",
}


def short_name(statistic: str, label: str) -> str:
    """A profile measure in a few words: ``ahead[a>b]`` -> "a ahead of b"."""
    name, _, subject = statistic.partition("[")
    subject = subject.rstrip("]")
    if name == "ahead":
        better, worse = subject.split(">", 1)
        return f"{better} ahead of {worse}"
    if name == "win_chance":
        return f"position {subject} wins"
    if name == "weakest_wins":
        return f"{label.split(chr(39) + 's chance')[0]} (weakest) wins"
    return SHORT_NAMES.get(name, statistic)


def profile(rows: pl.DataFrame, difference: bool = True) -> Figure:
    """The balance profile in one figure: a panel per group (fair, skill, luck, drama,
    bidding), a row per measure and series (a variant under a lineup, or a run's variant), its
    interval as a bar. ``rows`` has ``group``, ``statistic``, ``label``, ``unit``, ``series``,
    ``value``, ``low``, ``high``, ``measurable`` and ``reference``. With ``difference`` the
    values are each variant minus the baseline, in percentage points, zero marked; without,
    the values in %, the value of a balanced game marked. Only shares are drawn (the counts,
    lead changes and match lengths are in the tables)."""
    import textwrap

    from .measures import GROUP_QUESTIONS, GROUPS

    shares = rows.filter(pl.col("unit").str.starts_with("(share")) if rows.height else rows
    groups = [g for g in GROUPS if shares.height and g in set(shares["group"].to_list())]
    series = list(dict.fromkeys(shares["series"].to_list())) if shares.height else []
    colours = [f"C{index % 10}" for index in range(len(series))]
    heights = []
    for group in groups:
        measures = shares.filter(pl.col("group") == group)["statistic"].n_unique()
        heights.append(0.9 + 0.22 * measures * max(1, len(series)))
    figure = Figure(figsize=(WIDTH, sum(heights) + 1.2 if heights else 2.0), layout="constrained")
    FigureCanvasAgg(figure)
    if not groups:
        _empty(figure.subplots(), "no profile measures")
        return figure
    axes = figure.subplots(len(groups), 1, squeeze=False, height_ratios=heights)[:, 0]
    for axis, group in zip(axes, groups, strict=True):
        part = shares.filter(pl.col("group") == group)
        measures = list(dict.fromkeys(part["statistic"].to_list()))
        names = []
        for index, statistic in enumerate(measures):
            here = part.filter(pl.col("statistic") == statistic)
            names.append(short_name(statistic, str(here["label"][0])))
            for row in here.iter_rows(named=True):
                k = series.index(row["series"])
                y = index + (k - (len(series) - 1) / 2) * 0.8 / max(1, len(series))
                value = np.nan if row["value"] is None else 100 * row["value"]
                low = np.nan if row["low"] is None else 100 * row["low"]
                high = np.nan if row["high"] is None else 100 * row["high"]
                error = [[np.nan_to_num(value - low)], [np.nan_to_num(high - value)]]
                measured = bool(row["measurable"])
                axis.errorbar(value, y, xerr=error, fmt="o", capsize=2, color=colours[k],
                              markerfacecolor=colours[k] if measured else "white",
                              label=row["series"] if index == 0 else None)
                reference = row["reference"]
                if not difference and reference is not None and np.isfinite(reference):
                    axis.plot([100 * reference] * 2, [y - 0.3, y + 0.3], color="black",
                              linewidth=1)
        if difference:
            axis.axvline(0, color="black", linewidth=0.8)
        axis.set_yticks(range(len(measures)), names, fontsize="small")
        axis.set_ylim(len(measures) - 0.5, -0.5)
        axis.set_title(f"{group}: {GROUP_QUESTIONS[group]}", fontsize="small", loc="left")
        axis.tick_params(axis="x", labelsize="small")
        axis.set_xlabel("difference (percentage points)" if difference else "%",
                        fontsize="small")
    axes[0].legend(fontsize="x-small", loc="lower left", bbox_to_anchor=(0, 1.15), ncols=2)
    what = ("each variant minus the baseline, adjusted intervals; filled: measurable"
            if difference else "each value with its interval; the line marks a balanced game; "
            "filled: away from it")
    figure.suptitle(textwrap.fill(f"The balance profile: {what}", 100), fontsize="medium")
    return figure


def settle_bounds(rounds: list[dict], level: float = 0.95) -> Figure:
    """How ``raspis settle`` decided (its log's ``rounds``): a panel per difference, its
    confidence sequence's bounds (shaded) and estimate against the deal sets played, zero
    marked, and the round it was decided at."""
    import textwrap

    keys: list[tuple[str, str, str]] = []
    for entry in rounds:
        for record in entry["differences"]:
            key = (record["variant"], record["lineup"], record["statistic"])
            if key not in keys:
                keys.append(key)
    columns = 2 if len(keys) > 1 else 1
    rows = max(1, -(-len(keys) // columns))
    figure = Figure(figsize=(WIDTH, 2.6 * rows + 0.8), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    if not keys:
        _empty(axes[0], "no differences")
    lineups = list(dict.fromkeys(key[1] for key in keys))
    for axis, key in zip(axes, keys, strict=False):
        points = []
        for entry in rounds:
            for record in entry["differences"]:
                if (record["variant"], record["lineup"], record["statistic"]) == key:
                    points.append(record)
        seen: dict[int, dict] = {}
        for record in points:  # a decided difference keeps its last record: one point per size
            seen[record["deal_sets"]] = record
        ordered = [seen[size] for size in sorted(seen) if size]
        scale = 100.0 if str(ordered[0]["unit"] if ordered else "").startswith("(share") else 1.0
        x = np.array([record["deal_sets"] for record in ordered], dtype=float)

        def column(name: str, chosen: list[dict] = ordered, factor: float = scale
                   ) -> np.ndarray:
            return np.array([np.nan if r[name] is None else r[name] * factor for r in chosen])

        estimate, low, high = column("estimate"), column("low"), column("high")
        axis.fill_between(x, low, high, alpha=0.2, color="C0")
        axis.errorbar(x, estimate, yerr=[np.nan_to_num(estimate - low),
                                         np.nan_to_num(high - estimate)],
                      marker="o", capsize=4, color="C0",
                      label="estimate and its confidence sequence")
        axis.axhline(0, color="black", linewidth=0.8)
        decided = [r for r in ordered if r["decision"] in ("different", "equivalent")]
        if decided:
            axis.axvline(decided[0]["deal_sets"], color="tab:red", linestyle="--", linewidth=1,
                         label=f"decided: {decided[0]['decision']}")
        axis.set_xscale("log")
        axis.set_xlabel("deal sets played (log scale)", fontsize="small")
        unit = "percentage points" if scale != 1.0 else str(
            ordered[0]["unit"] if ordered else "").strip("()")
        axis.set_ylabel(unit, fontsize="small")
        where = f", lineup {lineups.index(key[1]) + 1}" if len(lineups) > 1 else ""
        label = ordered[0]["label"] if ordered else key[2]
        axis.set_title(textwrap.fill(f"{key[0]}{where}: {label}", 48), fontsize="small")
        axis.tick_params(labelsize="small")
        axis.legend(fontsize="x-small")
    for axis in axes[len(keys):]:
        axis.set_visible(False)
    legend = "; ".join(f"lineup {i + 1}: {lineup}" for i, lineup in enumerate(lineups)) \
        if len(lineups) > 1 else (lineups[0] if lineups else "")
    figure.suptitle(textwrap.fill(f"How it was decided: each difference from the baseline "
                                  f"against the deal sets played ({level:.0%} for the family; "
                                  f"{legend})", 100), fontsize="medium")
    return figure


def sweep_race(race: list[dict], option: str, statistic: str, unit: str = "") -> Figure:
    """A ``raspis settle --sweep``'s race: per lineup, each value of the option with its
    statistic's estimate and confidence sequence at its last round, the values still in the
    race filled, those ruled out hollow."""
    lineups = list(dict.fromkeys(arm["lineup"] for arm in race))
    figure, axes = new_figure(max(1, len(lineups)), 1, height=3.6)
    if not race:
        _empty(axes[0, 0], "no race")
        return figure
    scale = 100.0 if unit.startswith("(share") else 1.0
    for axis, lineup in zip(axes[:, 0], lineups, strict=True):
        arms = [arm for arm in race if arm["lineup"] == lineup]
        labels = [arm["variant"] for arm in arms]
        for index, arm in enumerate(arms):
            if arm["value"] is None:
                continue
            value = arm["value"] * scale
            error = [[value - arm["low"] * scale], [arm["high"] * scale - value]]
            axis.errorbar(index, value, yerr=error, fmt="o", capsize=3, color="C0",
                          markerfacecolor="C0" if arm["in_race"] else "white")
        axis.axhline(0, color="black", linewidth=0.8)
        axis.set_xticks(range(len(arms)), labels, rotation=30, ha="right", fontsize="small")
        axis.set_ylabel(("percentage points" if scale != 1.0 else unit.strip("()"))
                        or statistic, fontsize="small")
        axis.set_title(f"{statistic} against {option}, {lineup}\n(filled: still in the race; "
                       "the bars are each value's own sequence, a value is ruled out on its "
                       "paired differences, which are tighter)", fontsize="small")
    return figure
