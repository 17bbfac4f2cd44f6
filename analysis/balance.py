"""Variant balance: seats, the dealer and the hook, the Joker's value, and the bids.

Every function takes a ``Run`` and returns a small polars DataFrame per variant (``variant_hash``).
Game-level statistics read ``games`` and treat a deal set as one cluster (see ``dataset``);
deal-level statistics take their estimates from ``deal_stats`` (per-shard sums, present for any
run size). Their intervals:

- with per-deal rows (``deals/``, written by default for runs of at most 20,000 games, else with
  ``--deal-rows``) they are clustered over deal sets, like every game-level interval: the seats of
  a deal, the deals of a game and the seatings that replay a deal set are not independent, so the
  sums are taken per deal set and the cluster-robust variance (``intervals.cluster_ratio``, and
  its linearisation for a difference of two means) treats the deal set as the unit;
- without them they are clustered over *blocks of deal sets*: ``deal_stats`` keeps its sums per
  ``deal_block`` (min(D, 64) blocks of consecutive deal sets, ``tournament.schema``), every
  seat-deal of a deal set (all its seats, deals and seatings) falls in one block, and blocks are
  independent because deal sets are; the same estimators then run with the block as the cluster.
  With 64 blocks the t quantile has 63 degrees of freedom, so these intervals are a little wider
  than the per-deal-set ones and cover as often; they include the deals of errored games, which
  the per-deal rows leave out;
- a run written before ``deal_block`` existed has neither: each seat-deal is one observation, with
  the counts divided by the seatings of a deal set (``design_effects``; see ``intervals``). That
  ignores the dependence inside a deal and a game and is too narrow when deal sets differ in luck.

The tables say which they used (``intervals`` column: ``deal sets``, ``blocks of deal sets`` or
``seat-deals``; ``deal_clustering``).

Seat effects (``seat_effects``, ``seat_equality_test``) use the ``position`` relative to the first
dealer (0 = first dealer, 1 = on the dealer's left, who bids and leads first). The *advantage* of a
position in a deal set is its mean score (or win share) in that deal set minus the mean over all
positions in the deal set; the table gives its mean over deal sets with a t interval. The test of
"all positions equal" is Hotelling's T² on those advantage vectors (``intervals.hotelling_test``),
at level ``alpha`` (default 0.05), separately for the score and for the win share.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats

from .dataset import Run, per_run
from .estimates import BLOCKS, DEAL_SETS, SEAT_DEALS
from .intervals import (
    LEVEL,
    cluster_ratio,
    clustered_wilson,
    hotelling_test,
    mean_interval_from_moments,
    moment_aggregations,
    moments_to_mean_covariance,
    ratio_interval,
    t_quantile,
    welch_difference,
    wilson_interval,
)

ALPHA = 0.05
SUM_COLUMNS = [
    "count",
    "points_sum",
    "points_sq_sum",
    "bids",
    "bid_sum",
    "tricks_sum",
    "made",
    "over",
    "under",
    "passes",
    "passes_made",
    "hook_forced",
]


#: What the deal-level intervals of a table are clustered over (its ``intervals`` column):
#: ``estimates.DEAL_SETS``, ``BLOCKS`` or ``SEAT_DEALS``.


def has_deal_blocks(run: Run) -> bool:
    """Whether every ``deal_stats`` row of the run names its block of deal sets (runs written
    before ``deal_block`` existed read back with it null)."""
    return run.cached(
        "has_deal_blocks",
        lambda: not bool(
            run.collect(run.deal_stats.select(pl.col("deal_block").is_null().any())).item()
        ),
    )


def deal_clustering(run: Run) -> str:
    """What the run's deal-level intervals are clustered over: ``DEAL_SETS`` (per-deal rows),
    ``BLOCKS`` (``deal_stats`` kept per block of deal sets) or ``SEAT_DEALS`` (neither: a run
    written before blocks, seat-deals treated as independent)."""
    if run.deals is not None:
        return DEAL_SETS
    return BLOCKS if has_deal_blocks(run) else SEAT_DEALS


def _deal_cells(
    run: Run, by: Sequence[str], aggregations: list[pl.Expr], where: pl.Expr | None = None
) -> tuple[pl.DataFrame | None, str]:
    """Per variant, ``by`` and cluster: the ``aggregations`` and the clustering (see
    ``deal_clustering``). The aggregations and ``where`` are written over ``deal_stats`` columns
    (``count``, ``points_sum``, ``bids``, ``made``, ``hook_forced``, the keys). With per-deal rows
    the cluster is the deal set and the rows of the run's finished games stand in for
    ``deal_stats`` rows (``count`` 1, ``points_sum`` the points, ``bids`` and ``made`` 0 or 1);
    without them it is the ``deal_block`` of the ``deal_stats`` sums (which hold the deals of
    errored games too). Cells are None when the run has neither."""
    clustering = deal_clustering(run)
    if clustering == DEAL_SETS:
        assert run.deals is not None
        finished = run.finished_games().select("variant_hash", "game_id").unique()
        frame = run.deals.join(finished, on=["variant_hash", "game_id"]).with_columns(
            pl.lit(1, dtype=pl.Int64).alias("count"),
            pl.col("points").alias("points_sum"),
            pl.col("bid").is_not_null().cast(pl.Int64).alias("bids"),
            (pl.col("bid") == pl.col("tricks")).fill_null(False).cast(pl.Int64).alias("made"),
            pl.col("hook_forced").cast(pl.Int64),
            pl.col("deal_set").alias("cluster"),
        )
    elif clustering == BLOCKS:
        frame = run.deal_stats.with_columns(pl.col("deal_block").alias("cluster"))
    else:
        return None, clustering
    if where is not None:
        frame = frame.filter(where)
    cells = run.collect(frame.group_by("variant_hash", *by, "cluster").agg(aggregations))
    return cells, clustering


def _clustered_ratio(
    cells: pl.DataFrame,
    keys: Sequence[str],
    total: str,
    weight: str,
    prefix: str,
    level: float,
    share: bool = False,
) -> pl.DataFrame:
    """``keys`` and the ratio Σtotal/Σweight over the deal sets of ``cells`` with its clustered
    interval (t for a mean, Wilson at the effective size for a ``share``)."""
    grouped = cells.group_by(list(keys)).agg(cluster_ratio(list(keys), total, weight))
    grouped = grouped.filter(pl.col("n") > 0)
    interval = clustered_wilson if share else ratio_interval
    return interval(grouped, prefix, level).drop("clusters", "n")


def _clustered_difference(
    cells: pl.DataFrame,
    keys: Sequence[str],
    first: tuple[str, str],
    second: tuple[str, str],
    prefix: str,
    level: float,
) -> pl.DataFrame:
    """``keys`` and r1 - r2, r = Σtotal/Σweight of the ``first`` and ``second`` (total, weight)
    columns, with a t interval from the linearised cluster-robust variance over deal sets:
    z_s = (y1_s - r1·m1_s)/m̄1 - (y2_s - r2·m2_s)/m̄2, var = Σz²/(C(C-1)), C-1 degrees of
    freedom."""
    keys = list(keys)
    (y1, m1), (y2, m2) = first, second
    frame = cells.with_columns(
        (pl.col(y1).sum() / pl.col(m1).sum()).over(keys).alias("_r1"),
        (pl.col(y2).sum() / pl.col(m2).sum()).over(keys).alias("_r2"),
        pl.col(m1).cast(pl.Float64).mean().over(keys).alias("_m1"),
        pl.col(m2).cast(pl.Float64).mean().over(keys).alias("_m2"),
    )
    z = (pl.col(y1) - pl.col("_r1") * pl.col(m1)) / pl.col("_m1") - (
        pl.col(y2) - pl.col("_r2") * pl.col(m2)
    ) / pl.col("_m2")
    grouped = frame.group_by(keys).agg(
        pl.len().alias("clusters"),
        (pl.col("_r1").first() - pl.col("_r2").first()).alias("estimate"),
        (z**2).sum().alias("ss"),
    )
    clusters = grouped["clusters"].cast(pl.Float64).to_numpy()
    estimate = grouped["estimate"].cast(pl.Float64).to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(grouped["ss"].cast(pl.Float64).to_numpy() / (clusters * (clusters - 1)))
    half = t_quantile(clusters - 1, level) * se
    return grouped.select(keys).with_columns(
        pl.Series(prefix, estimate),
        pl.Series(f"{prefix}_low", estimate - half),
        pl.Series(f"{prefix}_high", estimate + half),
    )


def _replace_intervals(
    table: pl.DataFrame, clustered: pl.DataFrame, keys: Sequence[str], prefix: str
) -> pl.DataFrame:
    """``table`` with the ``{prefix}_low``/``_high`` columns taken from ``clustered`` (rows
    without a clustered interval get none)."""
    bounds = [f"{prefix}_low", f"{prefix}_high"]
    joined = table.drop(bounds).join(
        clustered.select(*keys, *bounds), on=list(keys), how="left", coalesce=True
    )
    return joined.select(table.columns)


def _position_cells(run: Run, by: str) -> pl.DataFrame:
    """Per variant, deal set and position (or seat): games, score sum, wins, and the advantages."""

    def compute() -> pl.DataFrame:
        games = run.finished_games()
        cells = games.group_by("variant_hash", "deal_set", by).agg(
            pl.len().alias("games"),
            pl.col("score").sum().alias("score_sum"),
            pl.col("winner").cast(pl.Int64).sum().alias("wins"),
            pl.col("players").first().alias("players"),
        )
        per_set = pl.col("score_sum").sum().over("variant_hash", "deal_set") / pl.col(
            "games"
        ).sum().over("variant_hash", "deal_set")
        wins_set = pl.col("wins").sum().over("variant_hash", "deal_set") / pl.col(
            "games"
        ).sum().over("variant_hash", "deal_set")
        cells = cells.with_columns(
            (pl.col("score_sum") / pl.col("games") - per_set).alias("score_advantage"),
            (pl.col("wins") / pl.col("games") - wins_set).alias("win_advantage"),
        )
        return run.collect(cells)

    return run.cached(f"position_cells_{by}", compute)


def _position_blocks(run: Run) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per variant, block of deal sets and position, from the totals: games, score sum, wins (the
    clusters of the means); and per variant and position the advantages' sums over deal sets
    (``deal_sets_with``, ``sa_sum``, ``sa_sq``, ``wa_sum``, ``wa_sq``)."""
    totals = run.totals().games
    players = run.players
    cells = pl.concat([totals.select(
        "variant_hash", pl.lit(position, dtype=pl.Int32).alias("position"),
        pl.col("deal_block").alias("cluster"),
        pl.col(f"n_p{position}").fill_null(0).alias("games"),
        pl.col(f"s_p{position}").fill_null(0).alias("score_sum"),
        pl.col(f"w_p{position}").fill_null(0).alias("wins"))
        for position in range(players)]).filter(pl.col("games") > 0)
    sums = pl.concat([totals.group_by("variant_hash").agg(
        pl.lit(position, dtype=pl.Int32).alias("position"),
        pl.col("deal_sets").fill_null(0).sum().alias("deal_sets_with"),
        pl.col(f"sa_p{position}").fill_null(0).sum().alias("sa_sum"),
        pl.col(f"sa2_p{position}_{position}").fill_null(0).sum().alias("sa_sq"),
        pl.col(f"wa_p{position}").fill_null(0).sum().alias("wa_sum"),
        pl.col(f"wa2_p{position}_{position}").fill_null(0).sum().alias("wa_sq"))
        for position in range(players)])
    return cells, sums


def seat_effects(run: Run, by: str = "position", level: float = LEVEL) -> pl.DataFrame:
    """Per variant and position (``by="position"``, relative to the first dealer, from the
    totals) or absolute ``seat`` (from the rows): mean score and win rate with clustered
    intervals, and the score and win advantage over the mean of all positions with t intervals
    over deal sets."""
    if by not in ("position", "seat"):
        raise ValueError("by must be 'position' or 'seat'")
    keys = ["variant_hash", by]
    if by == "position":
        cells, advantage = _position_blocks(run)
    else:
        cells = _position_cells(run, by)
        advantage = cells.group_by(keys).agg(
            pl.len().alias("deal_sets_with"),
            pl.col("score_advantage").sum().alias("sa_sum"),
            (pl.col("score_advantage") ** 2).sum().alias("sa_sq"),
            pl.col("win_advantage").sum().alias("wa_sum"),
            (pl.col("win_advantage") ** 2).sum().alias("wa_sq"),
        )
    score = ratio_interval(
        cells.group_by(keys).agg(cluster_ratio(keys, "score_sum", "games")), "mean_score", level
    )
    wins = clustered_wilson(
        cells.group_by(keys).agg(cluster_ratio(keys, "wins", "games")), "win_rate", level
    ).drop("clusters", "n")
    columns = {}
    for prefix, total, squares in (
        ("score_advantage", "sa_sum", "sa_sq"),
        ("win_advantage", "wa_sum", "wa_sq"),
    ):
        moments = mean_interval_from_moments(
            advantage["deal_sets_with"], advantage[total], advantage[squares], level
        )
        columns[prefix] = moments["mean"]
        columns[f"{prefix}_low"] = moments["low"]
        columns[f"{prefix}_high"] = moments["high"]
    deal_sets = advantage.select(*keys, pl.col("deal_sets_with").alias("deal_sets"))
    advantage = advantage.select(keys).with_columns(
        [pl.Series(name, values) for name, values in columns.items()]
    ).join(deal_sets, on=keys)
    table = (
        score.drop("clusters").rename({"n": "games"})
        .join(wins, on=keys)
        .join(advantage, on=keys)
    )
    table = table.with_columns(pl.col("games").cast(pl.Int64), pl.col("deal_sets").cast(pl.Int64))
    table = table.join(run.variant_names(), on="variant_hash", how="left")
    return table.select(
        "variant",
        "variant_hash",
        by,
        "games",
        "deal_sets",
        "mean_score",
        "mean_score_low",
        "mean_score_high",
        "score_advantage",
        "score_advantage_low",
        "score_advantage_high",
        "win_rate",
        "win_rate_low",
        "win_rate_high",
        "win_advantage",
        "win_advantage_low",
        "win_advantage_high",
    ).sort("variant", by)


SEAT_TEST_SCHEMA = {
    "variant_hash": pl.String(),
    "measure": pl.String(),
    "deal_sets": pl.Int64(),
    "positions": pl.Int64(),
    "t2": pl.Float64(),
    "f": pl.Float64(),
    "df1": pl.Float64(),
    "df2": pl.Float64(),
    "p_value": pl.Float64(),
    "alpha": pl.Float64(),
    "unequal": pl.Boolean(),
}


def _seat_test_from_totals(run: Run, alpha: float) -> pl.DataFrame:
    """``seat_equality_test`` by position from the totals' sums of each position's advantage
    and their products over deal sets."""
    totals = run.totals().games
    players = run.players
    rows = []
    for variant_hash in sorted(set(totals["variant_hash"].to_list())):
        part = totals.filter(pl.col("variant_hash") == variant_hash).fill_null(0)
        for measure, kind in (("score", "sa"), ("win", "wa")):
            size = players - 1  # the last advantage is minus the sum of the rest
            moments: dict[str, float] = {"n": float(part["deal_sets"].sum())}
            for i in range(size):
                moments[f"s_{i}"] = float(part[f"{kind}_p{i}"].sum())
                for j in range(i, size):
                    moments[f"q_{i}_{j}"] = float(part[f"{kind}2_p{i}_{j}"].sum())
            n, mean, covariance = moments_to_mean_covariance(moments, size)
            result = hotelling_test(n, mean, covariance)
            rows.append({"variant_hash": variant_hash, "measure": measure, "deal_sets": n,
                         "positions": players, **result, "alpha": alpha,
                         "unequal": bool(result["p_value"] < alpha)})
    table = pl.DataFrame(rows, schema=SEAT_TEST_SCHEMA).join(
        run.variant_names(), on="variant_hash", how="left")
    return table.select("variant", *SEAT_TEST_SCHEMA).sort("variant", "measure")


def seat_equality_test(run: Run, by: str = "position", alpha: float = ALPHA) -> pl.DataFrame:
    """Per variant and measure (``score``, ``win``): Hotelling's T² test that every position has
    the same mean (see the module doc); columns ``t2``, ``f``, ``df1``, ``df2``, ``p_value``,
    ``alpha`` and ``unequal`` (p < alpha)."""
    if by == "position":
        return _seat_test_from_totals(run, alpha)
    cells = _position_cells(run, by)
    rows = []
    for variant_hash in cells["variant_hash"].unique().sort().to_list():
        subset = cells.filter(pl.col("variant_hash") == variant_hash)
        players = int(subset["players"].max())
        for measure in ("score", "win"):
            column = f"{measure}_advantage"
            wide = (
                subset.group_by("deal_set")
                .agg(
                    [
                        pl.col(column).filter(pl.col(by) == k).first().alias(f"a{k}")
                        for k in range(players)
                    ]
                )
                .drop_nulls()
            )
            names = [f"a{k}" for k in range(players - 1)]  # the last is minus the sum of the rest
            moments = wide.select(moment_aggregations(names)).row(0, named=True)
            n, mean, covariance = moments_to_mean_covariance(moments, len(names))
            result = hotelling_test(n, mean, covariance)
            rows.append(
                {
                    "variant_hash": variant_hash,
                    "measure": measure,
                    "deal_sets": n,
                    "positions": players,
                    **result,
                    "alpha": alpha,
                    "unequal": bool(result["p_value"] < alpha),
                }
            )
    table = pl.DataFrame(rows, schema=SEAT_TEST_SCHEMA).join(
        run.variant_names(), on="variant_hash", how="left"
    )
    return table.select("variant", *SEAT_TEST_SCHEMA).sort("variant", "measure")


def design_effects(run: Run) -> pl.DataFrame:
    """Per variant, the design effect of deal-level tables: games per deal set (the seatings that
    replay a deal set's cards in a duplicate run; 1 without duplicates). See ``intervals``."""
    return run.cached("design_effects", lambda: run.totals().games.group_by("variant_hash").agg(
        ((pl.col("games").fill_null(0).sum() + pl.col("errored_games").fill_null(0).sum())
         / pl.col("deal_sets").fill_null(0).sum()).alias("design_effect")))


def _deal_sums(run: Run, by: Sequence[str], where: pl.Expr | None = None) -> pl.DataFrame:
    frame = run.deal_stats if where is None else run.deal_stats.filter(where)
    keys = ["variant_hash", *by]
    sums = run.collect(frame.group_by(keys).agg(pl.col(SUM_COLUMNS).sum()).sort(keys))
    return sums.join(design_effects(run), on="variant_hash", how="left").with_columns(
        pl.col("design_effect").fill_null(1.0)
    )


@per_run
def dealer_offset_effects(run: Run, level: float = LEVEL, alpha: float = ALPHA) -> pl.DataFrame:
    """Per variant and ``dealer_offset`` (0 = dealer, 1 = bids first, ...): seat-deals, mean deal
    points with a t interval, made share of bids with a Wilson interval, and per variant a one-way
    ANOVA across offsets (``anova_p``: Hotelling's T² over the clusters, or over seat-deals for a
    run without clusters; see the module doc)."""
    sums = _deal_sums(run, ["dealer_offset"])
    deff = sums["design_effect"]
    moments = mean_interval_from_moments(
        sums["count"], sums["points_sum"], sums["points_sq_sum"], level, deff
    )
    made_low, made_high = wilson_interval(sums["made"] / deff, sums["bids"] / deff, level)
    table = sums.select(
        "variant_hash", "dealer_offset", pl.col("count").alias("seat_deals")
    ).with_columns(
        pl.Series("mean_points", moments["mean"]),
        pl.Series("mean_points_low", moments["low"]),
        pl.Series("mean_points_high", moments["high"]),
        (sums["made"] / sums["bids"]).alias("made_share"),
        pl.Series("made_share_low", made_low),
        pl.Series("made_share_high", made_high),
    )
    anova = []
    for variant_hash in sums["variant_hash"].unique().sort().to_list():
        part = sums.filter(pl.col("variant_hash") == variant_hash)
        n = part["count"].cast(pl.Float64).to_numpy()
        total = part["points_sum"].cast(pl.Float64).to_numpy()
        squares = part["points_sq_sum"].cast(pl.Float64).to_numpy()
        deff = float(part["design_effect"][0])
        groups = len(n)
        grand = total.sum() / n.sum()
        between = float(np.sum(n * (total / n - grand) ** 2))
        within = float(np.sum(squares - total * total / n))
        df1, df2 = groups - 1, n.sum() - groups
        if df1 >= 1 and df2 >= 1 and within > 0:
            f = (between / df1) / (within / df2) / deff
            p = float(stats.f.sf(f, df1, df2))
        else:
            f, p = float("nan"), float("nan")
        anova.append({"variant_hash": variant_hash, "anova_f": f, "anova_p": p})
    table = table.join(
        pl.DataFrame(
            anova,
            schema={"variant_hash": pl.String(), "anova_f": pl.Float64(), "anova_p": pl.Float64()},
        ),
        on="variant_hash",
    )
    cells, clustering = _deal_cells(
        run,
        ["dealer_offset"],
        [
            pl.col("count").sum().alias("n"),
            pl.col("points_sum").sum().alias("points"),
            pl.col("bids").sum().alias("bids"),
            pl.col("made").sum().alias("made"),
        ],
    )
    if cells is not None:
        keys = ["variant_hash", "dealer_offset"]
        table = _replace_intervals(
            table, _clustered_ratio(cells, keys, "points", "n", "mean_points", level), keys,
            "mean_points",
        )
        table = _replace_intervals(
            table,
            _clustered_ratio(cells, keys, "made", "bids", "made_share", level, share=True),
            keys,
            "made_share",
        )
        tests = _offset_tests(cells)
        table = table.drop("anova_f", "anova_p").join(tests, on="variant_hash", how="left")
    table = table.with_columns(
        (pl.col("anova_p") < alpha).alias("unequal"),
        pl.lit(clustering).alias("intervals"),
    )
    return (
        table.join(run.variant_names(), on="variant_hash", how="left")
        .select("variant", *table.columns)
        .sort("variant", "dealer_offset")
    )


def _offset_tests(cells: pl.DataFrame) -> pl.DataFrame:
    """Per variant, Hotelling's T² over clusters (deal sets, or blocks of them) that every dealer
    offset has the same mean deal points (the per-cluster offset means minus their mean, one
    dropped), as ``anova_f`` (the F statistic) and ``anova_p``."""
    rows = []
    for variant_hash in cells["variant_hash"].unique().sort().to_list():
        part = cells.filter(pl.col("variant_hash") == variant_hash)
        offsets = sorted(part["dealer_offset"].unique().to_list())
        wide = (
            part.group_by("cluster")
            .agg(
                [
                    (pl.col("points").filter(pl.col("dealer_offset") == k).sum()
                     / pl.col("n").filter(pl.col("dealer_offset") == k).sum()).alias(f"m{k}")
                    for k in offsets
                ]
            )
            .drop_nulls()
            .fill_nan(None)
            .drop_nulls()
        )
        mean = pl.mean_horizontal([f"m{k}" for k in offsets])
        wide = wide.with_columns([(pl.col(f"m{k}") - mean).alias(f"d{k}") for k in offsets])
        names = [f"d{k}" for k in offsets[:-1]]
        result = {"f": float("nan"), "p_value": float("nan")}
        if names and wide.height > len(names):
            moments = wide.select(moment_aggregations(names)).row(0, named=True)
            n, vector, covariance = moments_to_mean_covariance(moments, len(names))
            result = hotelling_test(n, vector, covariance)
        rows.append({"variant_hash": variant_hash, "anova_f": result["f"],
                     "anova_p": result["p_value"]})
    return pl.DataFrame(
        rows,
        schema={"variant_hash": pl.String(), "anova_f": pl.Float64(), "anova_p": pl.Float64()},
    )


@per_run
def hook_cost(
    run: Run, by: Sequence[str] = ("kind", "hand_size"), level: float = LEVEL
) -> pl.DataFrame:
    """The dealer's cost per deal, in deals with bidding: the dealer's mean deal points minus the
    other seats' (Welch interval), and how often the hook took a bid away from the dealer
    (``forced_share`` = hook_forced / dealer seat-deals, Wilson interval). Per variant and ``by``.
    The difference holds every effect of dealing (bidding last under the hook, playing last to the
    first trick), so it is the dealer's net cost; ``forced_share`` says how often the hook bound."""
    frame = run.deal_stats.filter(pl.col("bids") > 0)
    keys = ["variant_hash", *by]
    dealer = pl.col("dealer_offset") == 0
    sums = run.collect(
        frame.group_by(keys)
        .agg(
            pl.col("count").filter(dealer).sum().alias("dealer_deals"),
            pl.col("points_sum").filter(dealer).sum().alias("dealer_sum"),
            pl.col("points_sq_sum").filter(dealer).sum().alias("dealer_sq"),
            pl.col("count").filter(~dealer).sum().alias("other_deals"),
            pl.col("points_sum").filter(~dealer).sum().alias("other_sum"),
            pl.col("points_sq_sum").filter(~dealer).sum().alias("other_sq"),
            pl.col("hook_forced").filter(dealer).sum().alias("hook_forced"),
        )
        .filter((pl.col("dealer_deals") > 1) & (pl.col("other_deals") > 1))
        .sort(keys)
    )
    sums = sums.join(design_effects(run), on="variant_hash", how="left").with_columns(
        pl.col("design_effect").fill_null(1.0)
    )
    deff = sums["design_effect"]
    d = mean_interval_from_moments(
        sums["dealer_deals"], sums["dealer_sum"], sums["dealer_sq"], level
    )
    o = mean_interval_from_moments(sums["other_deals"], sums["other_sum"], sums["other_sq"], level)
    difference = welch_difference(
        sums["dealer_deals"] / deff,
        d["mean"],
        d["sd"] ** 2,
        sums["other_deals"] / deff,
        o["mean"],
        o["sd"] ** 2,
        level,
    )
    forced_low, forced_high = wilson_interval(
        sums["hook_forced"] / deff, sums["dealer_deals"] / deff, level
    )
    table = sums.select(*keys, "dealer_deals", "other_deals", "hook_forced").with_columns(
        pl.Series("dealer_mean", d["mean"]),
        pl.Series("others_mean", o["mean"]),
        pl.Series("dealer_minus_others", difference["difference"]),
        pl.Series("dealer_minus_others_low", difference["low"]),
        pl.Series("dealer_minus_others_high", difference["high"]),
        (pl.col("hook_forced") / pl.col("dealer_deals")).alias("forced_share"),
        pl.Series("forced_share_low", forced_low),
        pl.Series("forced_share_high", forced_high),
    )
    dealer_row = pl.col("dealer_offset") == 0
    cells, clustering = _deal_cells(
        run,
        list(by),
        [
            pl.col("count").filter(dealer_row).sum().alias("dealer_n"),
            pl.col("points_sum").filter(dealer_row).sum().alias("dealer_s"),
            pl.col("count").filter(~dealer_row).sum().alias("other_n"),
            pl.col("points_sum").filter(~dealer_row).sum().alias("other_s"),
            pl.col("hook_forced").filter(dealer_row).sum().alias("forced"),
        ],
        pl.col("bids") > 0,
    )
    if cells is not None:
        table = _replace_intervals(
            table,
            _clustered_difference(
                cells, keys, ("dealer_s", "dealer_n"), ("other_s", "other_n"),
                "dealer_minus_others", level,
            ),
            keys,
            "dealer_minus_others",
        )
        table = _replace_intervals(
            table,
            _clustered_ratio(cells, keys, "forced", "dealer_n", "forced_share", level, share=True),
            keys,
            "forced_share",
        )
    table = table.with_columns(pl.lit(clustering).alias("intervals"))
    return (
        table.join(run.variant_names(), on="variant_hash", how="left")
        .select("variant", *table.columns)
        .sort("variant", *by)
    )


@per_run
def joker_value(
    run: Run, by: Sequence[str] = ("kind", "hand_size"), level: float = LEVEL
) -> pl.DataFrame:
    """Points a deal gains by holding a Joker, per variant and ``by``: for ``joker1`` (held_joker1
    alone), ``joker2`` (held_joker2 alone) and ``both``, the mean deal points of those seat-deals
    minus the mean of seat-deals holding no Joker, with a Welch interval. The cards are dealt at
    random, so holding a Joker is independent of seat and strategy and the difference is its value
    (in a variant with one Joker only ``joker1`` appears)."""
    keys = ["variant_hash", *by]
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    groups = {"joker1": held1 & ~held2, "joker2": ~held1 & held2, "both": held1 & held2}
    none = ~held1 & ~held2
    aggregations = [
        pl.col("count").filter(none).sum().alias("none_n"),
        pl.col("points_sum").filter(none).sum().alias("none_s"),
        pl.col("points_sq_sum").filter(none).sum().alias("none_q"),
    ]
    for name, condition in groups.items():
        aggregations += [
            pl.col("count").filter(condition).sum().alias(f"{name}_n"),
            pl.col("points_sum").filter(condition).sum().alias(f"{name}_s"),
            pl.col("points_sq_sum").filter(condition).sum().alias(f"{name}_q"),
        ]
    sums = run.collect(run.deal_stats.group_by(keys).agg(aggregations).sort(keys))
    sums = sums.join(design_effects(run), on="variant_hash", how="left").with_columns(
        pl.col("design_effect").fill_null(1.0)
    )
    deff = sums["design_effect"]
    without = mean_interval_from_moments(sums["none_n"], sums["none_s"], sums["none_q"], level)
    parts = []
    for name in groups:
        held = mean_interval_from_moments(
            sums[f"{name}_n"], sums[f"{name}_s"], sums[f"{name}_q"], level
        )
        difference = welch_difference(
            sums[f"{name}_n"] / deff,
            held["mean"],
            held["sd"] ** 2,
            sums["none_n"] / deff,
            without["mean"],
            without["sd"] ** 2,
            level,
        )
        parts.append(
            sums.select(keys)
            .with_columns(
                pl.lit(name).alias("joker"),
                sums[f"{name}_n"].alias("holder_deals"),
                sums["none_n"].alias("without_deals"),
                pl.Series("holder_mean", held["mean"]),
                pl.Series("without_mean", without["mean"]),
                pl.Series("value", difference["difference"]),
                pl.Series("value_low", difference["low"]),
                pl.Series("value_high", difference["high"]),
            )
            .filter((pl.col("holder_deals") > 1) & (pl.col("without_deals") > 1))
        )
    table = pl.concat(parts).sort([*keys, "joker"])
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    states = {"none": ~held1 & ~held2, **groups}
    aggregations = []
    for name, condition in states.items():
        aggregations += [
            pl.col("count").filter(condition).sum().alias(f"{name}_n"),
            pl.col("points_sum").filter(condition).sum().alias(f"{name}_s"),
        ]
    cells, clustering = _deal_cells(run, list(by), aggregations)
    if cells is not None:
        clustered = pl.concat(
            [
                _clustered_difference(
                    cells, keys, (f"{name}_s", f"{name}_n"), ("none_s", "none_n"), "value", level
                ).with_columns(pl.lit(name).alias("joker"))
                for name in groups
            ]
        )
        table = _replace_intervals(table, clustered, [*keys, "joker"], "value")
    table = table.with_columns(pl.lit(clustering).alias("intervals"))
    return (
        table.join(run.variant_names(), on="variant_hash", how="left")
        .select("variant", *table.columns)
        .sort("variant", *by, "joker")
    )


@per_run
def bidding_outcomes(
    run: Run, by: Sequence[str] = ("kind", "hand_size"), level: float = LEVEL
) -> pl.DataFrame:
    """Bids per variant and ``by`` (deals with bidding only): shares of bids made, over (more
    tricks than bid) and under, with Wilson intervals for ``made``; passes (bid 0) as a share of
    bids and the share of passes made; the mean bid; the mean total bid of a deal minus the hand
    size (``overbid``: > 0 when the table bids more tricks than there are); and the share of
    dealer bids the hook restricted (``hook_forced_share``)."""
    sums = _deal_sums(run, by, pl.col("bids") > 0)
    dealer = _deal_sums(run, by, (pl.col("bids") > 0) & (pl.col("dealer_offset") == 0)).select(
        "variant_hash", *by, pl.col("bids").alias("dealer_bids")
    )
    players = run.totals().games.group_by("variant_hash").agg(
        (pl.col("players").fill_null(0).sum() // pl.col("deal_sets").fill_null(0).sum()
         .clip(lower_bound=1)).alias("players"))
    sums = sums.join(dealer, on=["variant_hash", *by], how="left").join(players, on="variant_hash")
    deff = sums["design_effect"]
    made_low, made_high = wilson_interval(sums["made"] / deff, sums["bids"] / deff, level)
    table = sums.select(
        "variant_hash",
        *by,
        "bids",
        (pl.col("made") / pl.col("bids")).alias("made_share"),
        (pl.col("over") / pl.col("bids")).alias("over_share"),
        (pl.col("under") / pl.col("bids")).alias("under_share"),
        (pl.col("passes") / pl.col("bids")).alias("pass_share"),
        (pl.col("passes_made") / pl.col("passes")).alias("pass_made_share"),
        (pl.col("bid_sum") / pl.col("bids")).alias("mean_bid"),
        (
            pl.col("bid_sum") / pl.col("bids") * pl.col("players")
            - (pl.col("hand_size") if "hand_size" in by else pl.lit(None))
        ).alias("overbid"),
        (pl.col("hook_forced") / pl.col("dealer_bids")).alias("hook_forced_share"),
    ).with_columns(pl.Series("made_share_low", made_low), pl.Series("made_share_high", made_high))
    table = table.select(
        "variant_hash",
        *by,
        "bids",
        "made_share",
        "made_share_low",
        "made_share_high",
        "over_share",
        "under_share",
        "pass_share",
        "pass_made_share",
        "mean_bid",
        "overbid",
        "hook_forced_share",
    )
    cells, clustering = _deal_cells(
        run,
        list(by),
        [pl.col("bids").sum().alias("bids"), pl.col("made").sum().alias("made")],
        pl.col("bids") > 0,
    )
    if cells is not None:
        keys = ["variant_hash", *by]
        table = _replace_intervals(
            table,
            _clustered_ratio(cells, keys, "made", "bids", "made_share", level, share=True),
            keys,
            "made_share",
        )
    table = table.with_columns(pl.lit(clustering).alias("intervals"))
    return (
        table.join(run.variant_names(), on="variant_hash", how="left")
        .select("variant", *table.columns)
        .sort("variant", *by)
    )
