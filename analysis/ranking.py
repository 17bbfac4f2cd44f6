"""Ranking the strategies of a run: scores, win rates, places, paired differences and ratings.

Every table is per variant (``variant_hash``): a run may hold several. Games a strategy failed in
(``errored``) are left out. Seat-games of one deal set are one cluster (they share the cards, and in
a duplicate run every seating replays them), so intervals are cluster-robust over deal sets
(``intervals.cluster_ratio``).

``paired_differences`` is the duplicate comparison. Design: for strategies A and B and each deal
set s, d_s = (mean score of A's seat-games in s) - (mean score of B's seat-games in s). In a
duplicate run the deal set's seatings put every lineup slot in every seat on the same cards, so d_s
is free of card luck (and of seat luck, with rotations or permutations); in a run without
duplicates a deal set is a single game and d_s compares the two at the same table. The estimate is
the mean of d_s over deal sets, with a t interval (deal sets - 1 degrees of freedom) and a paired
t-test p-value.

``plackett_luce_ratings`` rates each lineup slot (a strategy sitting in two slots is rated twice,
once per slot) by the maximum-likelihood Plackett-Luce fit to the counts of each finishing order,
one fit per variant, on every finished game (``ratings``: the model, the Elo scale, the interval
clustered over blocks of deal sets).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .dataset import Run
from .intervals import (
    LEVEL,
    cluster_ratio,
    clustered_wilson,
    oriented_pair,
    ratio_interval,
    t_quantile,
    t_two_sided_p,
)


def _per_deal_set(run: Run, key: str = "strategy") -> pl.LazyFrame:
    games = run.finished_games()
    return games.group_by("variant_hash", "deal_set", key).agg(
        pl.len().alias("seat_games"),
        pl.col("game_id").n_unique().alias("games"),
        pl.col("score").sum().alias("score_sum"),
        pl.col("winner").cast(pl.Int64).sum().alias("wins"),
        pl.col("place").sum().alias("place_sum"),
    )


def strategy_ranking(run: Run, level: float = LEVEL) -> pl.DataFrame:
    """Per variant and strategy: seat-games, games, deal sets, mean score per game, win rate (share
    of seat-games with place 1; ties count for each tied player) and mean place, each with a
    ``level`` interval clustered over deal sets (t for means, Wilson for the win rate). Sorted by
    mean score, best first."""
    per_set = run.cached("per_deal_set_strategy", lambda: run.collect(_per_deal_set(run)))
    keys = ["variant_hash", "strategy"]
    base = per_set.group_by(keys).agg(
        pl.col("seat_games").sum().cast(pl.Int64),
        pl.col("games").sum().cast(pl.Int64),
        pl.len().cast(pl.Int64).alias("deal_sets"),
    )
    parts = []
    for total, prefix in (
        ("score_sum", "mean_score"),
        ("wins", "win_rate"),
        ("place_sum", "mean_place"),
    ):
        frame = per_set.group_by(keys).agg(cluster_ratio(keys, total, "seat_games"))
        frame = (clustered_wilson if prefix == "win_rate" else ratio_interval)(frame, prefix, level)
        parts.append(frame.drop("clusters", "n"))
    table = base
    for part in parts:
        table = table.join(part, on=keys, how="left")
    errored = run.collect(
        run.games.filter(pl.col("errored"))
        .group_by(keys)
        .agg(pl.col("game_id").n_unique().cast(pl.Int64).alias("errored_games"))
    )
    table = table.join(errored, on=keys, how="left").with_columns(
        pl.col("errored_games").fill_null(0)
    )
    table = table.join(run.variant_names(), on="variant_hash", how="left")
    return table.select(
        "variant",
        "variant_hash",
        "strategy",
        "games",
        "seat_games",
        "deal_sets",
        "mean_score",
        "mean_score_low",
        "mean_score_high",
        "win_rate",
        "win_rate_low",
        "win_rate_high",
        "mean_place",
        "mean_place_low",
        "mean_place_high",
        "errored_games",
    ).sort(["variant", "mean_score"], descending=[False, True])


def paired_differences(run: Run, level: float = LEVEL) -> pl.DataFrame:
    """Every pair of distinct strategies per variant: the mean over deal sets of A's mean score
    minus B's in that deal set (A the better of the two), its ``level`` t interval over deal sets,
    the standard deviation of the per-deal-set difference, a paired t-test p-value, and the design
    (``duplicate`` when deal sets were replayed under several seatings, else ``same game``)."""
    per_set = run.cached("per_deal_set_strategy", lambda: run.collect(_per_deal_set(run)))
    means = per_set.select(
        "variant_hash",
        "deal_set",
        "strategy",
        "games",
        (pl.col("score_sum") / pl.col("seat_games")).alias("mean"),
    )
    columns = {
        "variant": pl.String(),
        "variant_hash": pl.String(),
        "strategy_a": pl.String(),
        "strategy_b": pl.String(),
        "design": pl.String(),
        "deal_sets": pl.Int64(),
        "games_per_deal_set": pl.Float64(),
        "mean_difference": pl.Float64(),
        "mean_difference_low": pl.Float64(),
        "mean_difference_high": pl.Float64(),
        "difference_sd": pl.Float64(),
        "p_value": pl.Float64(),
    }
    left = means.rename({"strategy": "strategy_a", "mean": "mean_a", "games": "games_a"})
    right = means.rename({"strategy": "strategy_b", "mean": "mean_b"}).drop("games")
    pairs = left.join(right, on=["variant_hash", "deal_set"]).filter(
        pl.col("strategy_a") < pl.col("strategy_b")
    )
    if pairs.height == 0:
        return pl.DataFrame(schema=columns)
    summary = (
        pairs.group_by("variant_hash", "strategy_a", "strategy_b")
        .agg(
            pl.len().cast(pl.Int64).alias("deal_sets"),
            pl.col("games_a").mean().alias("games_per_deal_set"),
            (pl.col("mean_a") - pl.col("mean_b")).mean().alias("mean_difference"),
            (pl.col("mean_a") - pl.col("mean_b")).std().alias("difference_sd"),
        )
        .sort("variant_hash", "strategy_a", "strategy_b")
    )
    # orient: A is the better one
    flip = summary["mean_difference"] < 0
    summary = summary.with_columns(
        *oriented_pair(flip),
        pl.col("mean_difference").abs(),
    )
    n = summary["deal_sets"].cast(pl.Float64).to_numpy()
    mean = summary["mean_difference"].to_numpy()
    sd = summary["difference_sd"].fill_null(float("nan")).to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        se = sd / np.sqrt(n)
        half = t_quantile(n - 1, level) * se
        t = np.where(se > 0, mean / se, np.where(mean == 0, 0.0, np.inf))
        p = t_two_sided_p(t, np.where(n > 1, n - 1, np.nan))
    summary = summary.with_columns(
        pl.Series("mean_difference_low", mean - half),
        pl.Series("mean_difference_high", mean + half),
        pl.Series("p_value", p),
        pl.when(pl.col("games_per_deal_set") > 1)
        .then(pl.lit("duplicate"))
        .otherwise(pl.lit("same game"))
        .alias("design"),
    )
    summary = summary.join(run.variant_names(), on="variant_hash", how="left")
    return summary.select(list(columns)).sort(
        "variant", "mean_difference", descending=[False, True]
    )


def _slot_labels(run: Run) -> dict[int, str]:
    strategies = run.strategies
    counts = {spec: strategies.count(spec) for spec in strategies}
    return {
        slot: spec if counts[spec] == 1 else f"{spec} #{slot}"
        for slot, spec in enumerate(strategies)
    }


def total_deal_sets(run: Run) -> int:
    """The run's deal sets (its manifest's, else one more than the highest deal set seen): what
    ``schema.deal_block`` divides the deal sets of the run by."""
    planned = (run.manifest.get("seeds") or {}).get("deal_sets")
    if planned:
        return int(planned)
    highest = run.collect(run.games.select(pl.col("deal_set").max()))["deal_set"][0]
    return 1 if highest is None else int(highest) + 1


def plackett_luce_ratings(run: Run, level: float = LEVEL) -> pl.DataFrame:
    """Plackett-Luce ratings per variant and lineup slot by maximum likelihood on every finished
    game (``ratings``): ``rating`` on the Elo scale (mean 0 in each variant: 400 points more are
    odds of 10 to 1 of finishing ahead), ``rating_se``, ``rating_low``/``rating_high`` (a
    ``level`` interval clustered over blocks of deal sets) and the games rated."""
    from .ratings import order_counts, rate

    labels = _slot_labels(run)
    deal_sets = total_deal_sets(run)
    parts = []
    for variant_hash in run.variant_names()["variant_hash"].to_list():
        games = run.finished_games().filter(pl.col("variant_hash") == variant_hash)
        counts = run.collect(order_counts(games, deal_sets))
        table = rate(counts, level)
        parts.append(table.with_columns(pl.lit(variant_hash).alias("variant_hash")))
    schema = {
        "variant_hash": pl.String(),
        "lineup_slot": pl.Int32(),
        "strategy": pl.String(),
        "label": pl.String(),
        "games_rated": pl.Int64(),
        "rating": pl.Float64(),
        "rating_se": pl.Float64(),
        "rating_low": pl.Float64(),
        "rating_high": pl.Float64(),
    }
    names = {slot: run.strategies[slot] if slot < len(run.strategies) else str(slot)
             for slot in range(max(len(run.strategies), 1))}
    table = pl.concat(parts) if parts else pl.DataFrame(schema=schema)
    table = table.with_columns(
        pl.col("lineup_slot").replace_strict(names, default=pl.col("lineup_slot").cast(pl.String),
                                             return_dtype=pl.String).alias("strategy"),
        pl.col("lineup_slot").replace_strict(labels, default=pl.col("lineup_slot").cast(pl.String),
                                             return_dtype=pl.String).alias("label"),
    ).select(list(schema))
    table = table.join(run.variant_names(), on="variant_hash", how="left")
    return table.select("variant", *schema).sort(["variant", "rating"], descending=[False, True])


def adjust_pairs(pairs: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """``pairs`` (``paired_differences``, stacked with a ``run`` column or not) adjusted for
    multiplicity: the pairs of a run's variant are one family of tests, Benjamini-Hochberg at
    ``level`` (``question.adjust``). ``mean_difference_low``/``high`` become the matching
    false-coverage-rate interval, the one every table and sentence shows, so "measurable" always
    follows it; ``p_adjusted``, ``interval_level`` and ``measurable`` are added."""
    from .question import adjust

    if "p_adjusted" in pairs.columns or pairs.height == 0:
        return pairs
    runs = pl.col("run") if "run" in pairs.columns else pl.lit("")
    family = pairs.with_columns(
        pl.col("mean_difference").alias("difference"),
        pl.col("mean_difference_low").alias("difference_low"),
        pl.col("mean_difference_high").alias("difference_high"),
        (pl.col("deal_sets") - 1).cast(pl.Float64).alias("df"),
        pl.concat_str([runs, pl.col("variant")], separator="/").alias("family"),
    )
    adjusted = adjust(family, level)
    return adjusted.with_columns(
        pl.col("shown_low").alias("mean_difference_low"),
        pl.col("shown_high").alias("mean_difference_high"),
    ).select(*pairs.columns, "p_adjusted", "interval_level", "measurable")


def ranking_verdicts(ranking: pl.DataFrame, pairs: pl.DataFrame,
                     level: float = LEVEL) -> list[str]:
    """The ranking in words, per run and variant: the strategies by mean score, each against the
    next one down with the paired difference, its interval and whether it is measurable (with
    the games a test would need when it is not). The pairs of a variant are one family of tests:
    Benjamini-Hochberg, and the intervals shown are the matching false-coverage-rate ones
    (``question.adjust``), so "cannot be told apart" always follows the interval shown."""
    from .formats import column_decimals, interval_text
    from .intervals import needed_deal_sets

    if ranking.height == 0 or pairs.height == 0:
        return []
    adjusted = adjust_pairs(pairs, level)  # as stats_tables gives them: adjusted once
    decimals = column_decimals(  # the decimals the pairs table shows its intervals with
        adjusted["mean_difference"].to_list(), "mean_difference",
        adjusted["mean_difference_low"].to_list(), adjusted["mean_difference_high"].to_list())
    lines = []
    for (run, variant), part in ranking.group_by(["run", "variant"], maintain_order=True):
        order = part.sort("mean_score", descending=True)["strategy"].to_list()
        rows = adjusted.filter((pl.col("run") == run) & (pl.col("variant") == variant))
        chain, sentences = [order[0]], []
        for better, worse in zip(order, order[1:], strict=False):
            found = [r for r in rows.iter_rows(named=True)
                     if {r["strategy_a"], r["strategy_b"]} == {better, worse}]
            if not found:
                chain.append(f"? {worse}")
                continue
            r = found[0]
            sign = 1.0 if r["strategy_a"] == better else -1.0
            estimate = sign * r["mean_difference"]
            low, high = sorted((sign * r["mean_difference_low"], sign * r["mean_difference_high"]))
            interval = f"{interval_text(estimate, low, high, '', decimals)} points a game"
            if r["measurable"]:
                chain.append(f"> {worse}")
                sentences.append(f"{better} beats {worse} by {interval}")
            else:
                chain.append(f"≈ {worse}")
                se = r["difference_sd"] / np.sqrt(r["deal_sets"])
                needed = needed_deal_sets(r["deal_sets"], se, estimate, level)
                size = ("no difference at all was observed" if not np.isfinite(needed) else
                        f"about {needed * r['games_per_deal_set']:,.0f} games "
                        f"({needed:,.0f} deal sets) would tell them apart")
                sentences.append(f"{better} and {worse} cannot be told apart at this size "
                                 f"({interval}); {size}")
        lines.append(f"{variant} (run {run}): {' '.join(chain)}. " + "; ".join(sentences)
                     + ".")
    if lines:
        lines.append("Intervals of the paired differences are adjusted for the pairs compared "
                     "in each variant (Benjamini-Hochberg).")
    return lines
