"""The shape of a variant's results: final scores, negative totals, ties, lead changes, and what
the special deals (dark, golden, misère, ...) contribute to the final result.

``outcome_shape`` and ``score_histogram`` read the run's totals (``tournament.totals``: sums per
block of deal sets, and the count of each final score and of each game's lead changes, so their
quantiles are exact on a run of any size). ``special_contribution``
reads ``deal_stats`` for the mean points each deal kind adds to a seat's game; when the run holds
per-deal rows it adds two things only they can give: the kind's share of the variance of final
scores, cov(points from the kind, final score) / var(final score), which add up to 1 over the kinds
and the premiums; and, per special kind, how often its deals changed the winner (the leader of the
final scores less the kind's points is not the final winner; ties for that lead count as a change
when the final winner was not among the tied).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .dataset import Run, per_run
from .intervals import LEVEL, cluster_ratio, clustered_wilson, ratio_interval

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def outcome_shape(run: Run, level: float = LEVEL) -> pl.DataFrame:
    """Per variant: games, mean and standard deviation of final scores with quantiles, the share of
    negative totals ("шахта") and of double losses (clustered Wilson intervals), the share of games
    whose first place is shared, and lead changes per game (mean, median, share with none)."""
    totals = run.totals()
    values = totals.values if totals.values is not None else pl.DataFrame(
        schema={"variant_hash": pl.String(), "kind": pl.String(), "value": pl.Int64(),
                "count": pl.Int64()})
    scores = values.filter(pl.col("kind") == "score")
    leads = values.filter(pl.col("kind") == "lead_changes")
    rows = []
    for variant_hash in sorted(set(scores["variant_hash"].to_list())):
        mine = scores.filter(pl.col("variant_hash") == variant_hash).sort("value")
        value = mine["value"].cast(pl.Float64).to_numpy()
        count = mine["count"].cast(pl.Float64).to_numpy()
        n = count.sum()
        mean = float((value * count).sum() / n)
        sd = float(np.sqrt(((value - mean) ** 2 * count).sum() / (n - 1))) if n > 1 else None
        lead = leads.filter(pl.col("variant_hash") == variant_hash).sort("value")
        lead_value = lead["value"].cast(pl.Float64).to_numpy()
        lead_count = lead["count"].cast(pl.Float64).to_numpy()
        games = lead_count.sum()
        rows.append({
            "variant_hash": variant_hash, "seat_games": int(n), "mean_score": mean,
            "score_sd": sd,
            **{f"score_q{int(q * 100):02d}": _quantile(value, count, q) for q in QUANTILES},
            "score_min": float(value[0]), "score_max": float(value[-1]),
            "games": int(games),
            "lead_changes_mean": float((lead_value * lead_count).sum() / games),
            "lead_changes_median": _quantile(lead_value, lead_count, 0.5),
            "no_lead_change_share": float(lead_count[lead_value == 0].sum() / games),
        })
    summary = pl.DataFrame(rows, schema={
        "variant_hash": pl.String(), "seat_games": pl.Int64(), "mean_score": pl.Float64(),
        "score_sd": pl.Float64(),
        **{f"score_q{int(q * 100):02d}": pl.Float64() for q in QUANTILES},
        "score_min": pl.Float64(), "score_max": pl.Float64(), "games": pl.Int64(),
        "lead_changes_mean": pl.Float64(), "lead_changes_median": pl.Float64(),
        "no_lead_change_share": pl.Float64()})
    blocks = totals.games.fill_null(0)
    game_summary = blocks.group_by("variant_hash").agg(
        (pl.col("ties").sum() / pl.col("games").sum()).alias("tie_share"))
    clusters = blocks.select("variant_hash", pl.col("seat_games").alias("seats"), "negative",
                             "double_losses").filter(pl.col("seats") > 0)
    negative = clustered_wilson(
        clusters.group_by("variant_hash").agg(cluster_ratio([], "negative", "seats")),
        "negative_share",
        level,
    ).drop("clusters", "n")
    double = clustered_wilson(
        clusters.group_by("variant_hash").agg(cluster_ratio([], "double_losses", "seats")),
        "double_loss_share",
        level,
    ).drop("clusters", "n")
    table = (
        summary.join(game_summary, on="variant_hash")
        .join(negative, on="variant_hash")
        .join(double, on="variant_hash")
    )
    table = table.join(run.variant_names(), on="variant_hash", how="left")
    ordered = [
        "variant",
        "variant_hash",
        "games",
        "seat_games",
        "mean_score",
        "score_sd",
        *[f"score_q{int(q * 100):02d}" for q in QUANTILES],
        "score_min",
        "score_max",
        "negative_share",
        "negative_share_low",
        "negative_share_high",
        "double_loss_share",
        "double_loss_share_low",
        "double_loss_share_high",
        "tie_share",
        "lead_changes_mean",
        "lead_changes_median",
        "no_lead_change_share",
    ]
    return table.select(ordered).sort("variant")


def _quantile(value: np.ndarray, count: np.ndarray, q: float) -> float:
    """The ``q`` quantile of sorted ``value`` each seen ``count`` times, interpolated linearly
    between order statistics (polars' and numpy's ``linear``)."""
    n = count.sum()
    position = q * (n - 1)
    below, above = math.floor(position), math.ceil(position)
    ends = np.cumsum(count)  # the last 0-based order statistic of each value is ends - 1
    low = value[np.searchsorted(ends, below, side="right")]
    high = value[np.searchsorted(ends, above, side="right")]
    return float(low + (high - low) * (position - below))


def score_histogram(run: Run, bins: int = 40, by_strategy: bool = False) -> pl.DataFrame:
    """Final scores binned per variant (``bins`` equal bins between the variant's minimum and
    maximum): ``bin_low``, ``bin_high``, ``seat_games`` and ``share`` (of the variant's seat-games,
    or with ``by_strategy`` of the strategy's, one histogram per strategy on the variant's bins);
    computed in polars, so it costs no more than a scan on any run size."""
    totals = run.totals()
    values = totals.values if totals.values is not None else pl.DataFrame(
        schema={"variant_hash": pl.String(), "kind": pl.String(), "value": pl.Int64(),
                "count": pl.Int64()})
    scores = values.filter(pl.col("kind") == "score")
    ranges = scores.group_by("variant_hash").agg(
        pl.col("value").min().alias("low"), pl.col("value").max().alias("high"))
    ranges = ranges.with_columns(
        ((pl.col("high") - pl.col("low")).cast(pl.Float64) / bins)
        .clip(lower_bound=1e-9)
        .alias("width")
    )
    if by_strategy:
        names = pl.DataFrame({"kind": [f"score_k{k}" for k in range(len(totals.strategies))],
                              "strategy": list(totals.strategies)})
        scores = values.join(names, on="kind")
    binned = scores.join(ranges, on="variant_hash").with_columns(
        ((pl.col("value") - pl.col("low")) / pl.col("width"))
        .floor()
        .clip(0, bins - 1)
        .cast(pl.Int64)
        .alias("bin")
    )
    groups = ["variant_hash", "strategy"] if by_strategy else ["variant_hash"]
    counts = binned.group_by(*groups, "bin").agg(
        pl.col("count").sum().alias("seat_games"), pl.col("low").first(),
        pl.col("width").first())
    counts = counts.with_columns(
        (pl.col("low") + pl.col("bin") * pl.col("width")).alias("bin_low"),
        (pl.col("low") + (pl.col("bin") + 1) * pl.col("width")).alias("bin_high"),
        (pl.col("seat_games") / pl.col("seat_games").sum().over(groups)).alias("share"),
    )
    table = counts.select(*groups, "bin", "bin_low", "bin_high", "seat_games", "share")
    return (
        table.join(run.variant_names(), on="variant_hash", how="left")
        .select("variant", *table.columns)
        .sort("variant", *groups[1:], "bin")
    )


@per_run
def special_contribution(run: Run, level: float = LEVEL) -> pl.DataFrame:
    """Per variant and deal kind: whether it is special, seat-deals, mean points per seat-deal and
    per seat-game (with a t interval over deal sets when per-deal rows exist, else none), the
    share of all points, and, with per-deal rows, ``variance_share`` and, per special kind,
    ``winner_changed_share`` (see the module doc)."""
    seat_games = run.totals().games.group_by("variant_hash").agg(
        pl.col("seat_games").fill_null(0).sum().alias("seat_games_total"))
    sums = run.collect(
        run.deal_stats.group_by("variant_hash", "kind").agg(
            pl.col("special").first(),
            pl.col("count").sum().alias("seat_deals"),
            pl.col("points_sum").sum(),
        )
    )
    table = sums.join(seat_games, on="variant_hash").with_columns(
        (pl.col("points_sum") / pl.col("seat_deals")).alias("mean_per_deal"),
        (pl.col("points_sum") / pl.col("seat_games_total")).alias("mean_per_game"),
        (pl.col("seat_deals") / pl.col("seat_games_total")).alias("deals_per_game"),
    )
    extra_schema = {
        "variant_hash": pl.String(),
        "kind": pl.String(),
        "mean_per_game_low": pl.Float64(),
        "mean_per_game_high": pl.Float64(),
        "variance_share": pl.Float64(),
    }
    changed_schema = {"variant_hash": pl.String(), "kind": pl.String(),
                      "winner_changed_share": pl.Float64()}
    extra = pl.DataFrame(schema=extra_schema)
    changed = pl.DataFrame(schema=changed_schema)
    if run.deals is not None:
        extra, changed = _from_deal_rows(run, level)
    table = table.join(extra, on=["variant_hash", "kind"], how="left").join(
        changed, on=["variant_hash", "kind"], how="left"
    )
    table = table.join(run.variant_names(), on="variant_hash", how="left")
    return table.select(
        "variant",
        "variant_hash",
        "kind",
        "special",
        "seat_deals",
        "mean_per_deal",
        "mean_per_game",
        "mean_per_game_low",
        "mean_per_game_high",
        "deals_per_game",
        "variance_share",
        "winner_changed_share",
    ).sort("variant", "special", "kind")


def _from_deal_rows(run: Run, level: float) -> tuple[pl.DataFrame, pl.DataFrame]:
    assert run.deals is not None
    finished = run.finished_games().select("variant_hash", "game_id", "seat", "score", "winner")
    deals = run.deals.join(
        finished.select("variant_hash", "game_id").unique(), on=["variant_hash", "game_id"]
    )
    per_kind = deals.group_by("variant_hash", "game_id", "deal_set", "seat", "kind").agg(
        pl.col("points").sum().alias("kind_points")
    )
    # every seat-game gets a row for every kind of its variant (0 when it played none)
    kinds = per_kind.select("variant_hash", "kind").unique()
    seats = deals.select("variant_hash", "game_id", "deal_set", "seat").unique()
    grid = (
        seats.join(kinds, on="variant_hash")
        .join(per_kind, on=["variant_hash", "game_id", "deal_set", "seat", "kind"], how="left")
        .with_columns(pl.col("kind_points").fill_null(0))
        .join(finished, on=["variant_hash", "game_id", "seat"])
    )
    # read once: the three tables below each scanned and joined the per-deal rows again
    grid = run.collect(grid).lazy()
    covariance = grid.group_by("variant_hash", "kind").agg(
        pl.cov("kind_points", "score").alias("cov"), pl.col("score").var().alias("var")
    )
    cluster = grid.group_by("variant_hash", "kind", "deal_set").agg(
        pl.col("kind_points").sum().alias("points"), pl.len().alias("seat_games")
    )
    means = run.collect(
        cluster.group_by("variant_hash", "kind").agg(cluster_ratio([], "points", "seat_games"))
    )
    means = ratio_interval(means, "mean_per_game", level).select(
        "variant_hash", "kind", "mean_per_game_low", "mean_per_game_high"
    )
    variance = run.collect(
        covariance.select(
            "variant_hash", "kind", (pl.col("cov") / pl.col("var")).alias("variance_share")
        )
    )
    extra = means.join(variance, on=["variant_hash", "kind"], how="left")
    # per special kind: would the winner be another without the kind's points? The leader of
    # the final scores less the kind's points against the final winner (a tie for that lead
    # counts as a change when the final winner was not among the tied)
    special = deals.select("variant_hash", "kind", "special").unique()
    without = (
        grid.join(special, on=["variant_hash", "kind"])
        .filter(pl.col("special"))
        .with_columns((pl.col("score") - pl.col("kind_points")).alias("without"))
        .with_columns(
            (pl.col("without") == pl.col("without").max().over("variant_hash", "game_id", "kind"))
            .alias("leading")
        )
    )
    changed = run.collect(
        without.group_by("variant_hash", "kind", "game_id")
        .agg((pl.col("leading") & pl.col("winner")).any().alias("kept"))
        .group_by("variant_hash", "kind")
        .agg((~pl.col("kept")).mean().alias("winner_changed_share"))
    )
    return extra, changed
