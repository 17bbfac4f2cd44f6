"""Luck against skill: how often the better strategy wins one game, how long a match must be for
it to win with 95% probability, and how much of the score variance the strategies explain.

Head to head (``head_to_head``): for strategies A and B of a variant and each finished game g,
D_g = (mean score of A's seats in g) - (mean score of B's seats in g), and A wins the game against B
when D_g > 0 (half a win when D_g = 0). Reported: p = P(A ahead of B in one game) clustered over
deal sets, mu = E[D_g], sigma_game = sd of D_g over games, and for duplicate runs sigma_duplicate =
sd over deal sets of D_s, the mean of D_g over the deal set's seatings (card luck removed).

Two match models (``match_win_probability``), both with independent games:

- ``games``: the match of n games goes to whoever is ahead in more games; a drawn match is split
  by a coin. P(n) = P(X > n/2) + P(X = n/2)/2 with X ~ Binomial(n, p). (P(2k) = P(2k-1), so the
  shortest match reaching a target is odd.)
- ``score``: the match goes to the higher total score over n games; by the central limit theorem
  P(n) = Φ(√n·mu/sigma). With sigma_duplicate, n counts deal sets of a duplicate match.

``games_to_win`` is the smallest n with P(n) >= 0.95 (``target``); its interval comes from the
interval of p (``games``) or of mu (``score``), inf when that interval reaches a fair game.

Variance explained (``variance_explained``): the share of the variance of final scores (over
seat-games) explained by the strategy sitting in the seat, SS_strategy / SS_total. In a duplicate
run the cards of a seat in a deal set are the same under every seating, so the *cell* (deal set,
seat) carries all the card luck: SS_cards = Σ n_cell·(cell mean - mean)² is the share of card luck,
and the strategy's share of the luck-free variance is computed on scores minus their cell mean.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl
from scipy import stats

from .blocks import by_pair
from .dataset import Run
from .intervals import (
    LEVEL,
    cluster_ratio,
    clustered_wilson,
    normal_cdf,
    normal_ppf,
    oriented_pair,
    ratio_interval,
    t_quantile,
)

TARGET = 0.95
MAX_MATCH = 10**9
CURVE_LENGTHS = (1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000)


def head_to_head(run: Run, level: float = LEVEL) -> pl.DataFrame:
    """Per variant and pair of strategies (A the better): games, deal sets, p = P(A ahead of B in
    a game) with a clustered Wilson interval, mu = mean score difference per game with its interval,
    sigma_game and (duplicate runs) sigma_duplicate; see the module doc."""
    per_set = by_pair(run).rename({"difference": "d_set", "difference_sq": "d_set_sq",
                                   "deal_sets": "sets"}) if run.totals().strategies else \
        pl.DataFrame()
    schema = {
        "variant": pl.String(),
        "variant_hash": pl.String(),
        "strategy_a": pl.String(),
        "strategy_b": pl.String(),
        "games": pl.Int64(),
        "deal_sets": pl.Int64(),
        "games_per_deal_set": pl.Float64(),
        "p_ahead": pl.Float64(),
        "p_ahead_low": pl.Float64(),
        "p_ahead_high": pl.Float64(),
        "mu": pl.Float64(),
        "mu_low": pl.Float64(),
        "mu_high": pl.Float64(),
        "sigma_game": pl.Float64(),
        "sigma_duplicate": pl.Float64(),
        "mu_duplicate_low": pl.Float64(),
        "mu_duplicate_high": pl.Float64(),
    }
    if per_set.height == 0:
        return pl.DataFrame(schema=schema)
    per_set = per_set.filter(pl.col("games") > 0)  # blocks (the clusters) where both played
    if per_set.height == 0:
        return pl.DataFrame(schema=schema)
    keys = ["variant_hash", "strategy_a", "strategy_b"]
    # orient each pair so that A is the better (mean difference >= 0): p -> 1 - p, D -> -D
    flips = per_set.group_by(keys).agg((pl.col("d_sum").sum() < 0).alias("flip"))
    flip = pl.col("flip")
    per_set = per_set.join(flips, on=keys).with_columns(
        *oriented_pair(flip),
        pl.when(flip)
        .then(pl.col("games") - pl.col("ahead"))
        .otherwise(pl.col("ahead"))
        .alias("ahead"),
        pl.when(flip).then(-pl.col("d_sum")).otherwise(pl.col("d_sum")).alias("d_sum"),
        pl.when(flip).then(-pl.col("d_set")).otherwise(pl.col("d_set")).alias("d_set"),
    )
    ahead = clustered_wilson(
        per_set.group_by(keys).agg(cluster_ratio(keys, "ahead", "games")), "p_ahead", level
    ).drop("n")
    mu = ratio_interval(
        per_set.group_by(keys).agg(cluster_ratio(keys, "d_sum", "games")), "mu", level
    ).drop("n", "clusters")
    sets = pl.col("sets").sum()
    mean_set = pl.col("d_set").sum() / sets
    summary = per_set.group_by(keys).agg(
        pl.col("games").sum(),
        pl.col("d_sum").sum().alias("total"),
        pl.col("d_sq").sum(),
        (pl.col("games").sum() / sets).alias("games_per_deal_set"),
        pl.when(sets > 1).then(((pl.col("d_set_sq").sum() - sets * mean_set**2)
                                .clip(lower_bound=0.0) / (sets - 1)).sqrt()).alias("sd_set"),
        mean_set.alias("mean_set"),
        sets.alias("sets"),
    )
    table = ahead.drop("clusters").join(mu, on=keys).join(summary, on=keys).with_columns(
        pl.col("sets").alias("deal_sets"))
    games = table["games"].cast(pl.Float64).to_numpy()
    total = table["total"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        sigma_game = np.sqrt(
            np.maximum(table["d_sq"].to_numpy() - total * total / games, 0.0) / (games - 1)
        )
    n = table["sets"].cast(pl.Float64).to_numpy()
    sd = table["sd_set"].fill_null(float("nan")).to_numpy()
    half = t_quantile(n - 1, level) * sd / np.sqrt(n)
    is_duplicate = table["games_per_deal_set"].to_numpy() > 1
    mean_set = table["mean_set"].to_numpy()
    table = table.with_columns(
        pl.Series("sigma_game", sigma_game),
        pl.Series("sigma_duplicate", np.where(is_duplicate, sd, np.nan)),
        pl.Series("mu_duplicate_low", np.where(is_duplicate, mean_set - half, np.nan)),
        pl.Series("mu_duplicate_high", np.where(is_duplicate, mean_set + half, np.nan)),
    ).with_columns(
        pl.col("sigma_game").fill_nan(None),
        pl.col("sigma_duplicate").fill_nan(None),
        pl.col("mu_duplicate_low").fill_nan(None),
        pl.col("mu_duplicate_high").fill_nan(None),
        pl.col("games").cast(pl.Int64),
        pl.col("deal_sets").cast(pl.Int64),
    )
    table = table.join(run.variant_names(), on="variant_hash", how="left")
    return table.select(list(schema)).sort("variant", "p_ahead", descending=[False, True])


def match_win_probability(
    lengths: Sequence[int] | np.ndarray,
    *,
    p: float | None = None,
    mu: float | None = None,
    sigma: float | None = None,
) -> np.ndarray:
    """P(the better side wins a match of n games) for each n in ``lengths``: the ``games`` model
    when ``p`` is given, the ``score`` model when ``mu`` and ``sigma`` are (module doc)."""
    n = np.asarray(lengths, dtype=float)
    if p is not None:
        integer = np.asarray(lengths, dtype=np.int64)
        more = stats.binom.sf(np.floor(integer / 2), integer, p)  # X > n/2
        half = np.where(integer % 2 == 0, stats.binom.pmf(integer // 2, integer, p), 0.0)
        return np.asarray(more + 0.5 * half, dtype=float)
    if mu is None or sigma is None:
        raise ValueError("give p (games model) or mu and sigma (score model)")
    if sigma == 0:
        return np.where(n > 0, float(np.sign(mu) * 0.5 + 0.5), 0.5)
    return np.asarray(normal_cdf(np.sqrt(n) * mu / sigma), dtype=float)


def games_to_win(
    target: float = TARGET,
    *,
    p: float | None = None,
    mu: float | None = None,
    sigma: float | None = None,
) -> float:
    """The shortest match (games, or deal sets for a duplicate sigma) the better side wins with
    probability >= ``target``; ``inf`` when no length does (p <= 1/2 or mu <= 0)."""
    if p is not None:
        if not math.isfinite(p) or p <= 0.5:
            return math.inf
        if p >= 1:
            return 1.0

        # P over odd n is increasing: binary search on n = 2k + 1
        def reaches(k: int) -> bool:
            return bool(match_win_probability([2 * k + 1], p=p)[0] >= target)

        if reaches(0):
            return 1.0
        low, high = 0, 1
        while not reaches(high):
            low, high = high, high * 2
            if 2 * high + 1 > MAX_MATCH:
                return math.inf
        while high - low > 1:
            middle = (low + high) // 2
            if reaches(middle):
                high = middle
            else:
                low = middle
        return float(2 * high + 1)
    if mu is None or sigma is None or not math.isfinite(mu) or mu <= 0:
        return math.inf
    if sigma == 0:
        return 1.0
    return float(max(1, math.ceil((normal_ppf(target) * sigma / mu) ** 2 - 1e-9)))


def match_lengths(run: Run, level: float = LEVEL, target: float = TARGET) -> pl.DataFrame:
    """Per variant and pair: the games needed to win a match with probability ``target`` under the
    ``games`` model and the ``score`` model (with the interval from p's or mu's interval), and for
    duplicate runs the deal sets needed in a duplicate match."""
    table = head_to_head(run, level)
    rows = []
    for row in table.iter_rows(named=True):
        sigma = row["sigma_game"]
        entry = {
            "games_model": games_to_win(target, p=row["p_ahead"]),
            "games_model_low": games_to_win(target, p=row["p_ahead_high"]),
            "games_model_high": games_to_win(target, p=row["p_ahead_low"]),
            "score_model": games_to_win(target, mu=row["mu"], sigma=sigma),
            "score_model_low": games_to_win(target, mu=row["mu_high"], sigma=sigma),
            "score_model_high": games_to_win(target, mu=row["mu_low"], sigma=sigma),
            "duplicate_deal_sets": math.nan,
            "duplicate_deal_sets_low": math.nan,
            "duplicate_deal_sets_high": math.nan,
        }
        if row["sigma_duplicate"] is not None:
            sd = row["sigma_duplicate"]
            entry["duplicate_deal_sets"] = games_to_win(target, mu=row["mu"], sigma=sd)
            entry["duplicate_deal_sets_low"] = games_to_win(
                target, mu=row["mu_duplicate_high"], sigma=sd
            )
            entry["duplicate_deal_sets_high"] = games_to_win(
                target, mu=row["mu_duplicate_low"], sigma=sd
            )
        rows.append(entry)
    schema = {
        name: pl.Float64()
        for name in (
            "games_model",
            "games_model_low",
            "games_model_high",
            "score_model",
            "score_model_low",
            "score_model_high",
            "duplicate_deal_sets",
            "duplicate_deal_sets_low",
            "duplicate_deal_sets_high",
        )
    }
    extra = pl.DataFrame(rows, schema=schema)
    base = table.select(
        "variant",
        "variant_hash",
        "strategy_a",
        "strategy_b",
        "games",
        "p_ahead",
        "mu",
        "sigma_game",
        "sigma_duplicate",
    )
    return pl.concat([base, extra], how="horizontal").with_columns(pl.lit(target).alias("target"))


def luck_skill_curve(
    run: Run, lengths: Sequence[int] = CURVE_LENGTHS, level: float = LEVEL
) -> pl.DataFrame:
    """Long table for the luck/skill figure: per variant, pair, model (``games``, ``score``, and
    ``duplicate`` where it applies) and match length n, the probability that the better strategy
    wins the match."""
    table = head_to_head(run, level)
    frames = []
    for row in table.iter_rows(named=True):
        models = [
            ("games", match_win_probability(lengths, p=row["p_ahead"])),
            ("score", match_win_probability(lengths, mu=row["mu"], sigma=row["sigma_game"])),
        ]
        if row["sigma_duplicate"] is not None:
            models.append(
                (
                    "duplicate",
                    match_win_probability(lengths, mu=row["mu"], sigma=row["sigma_duplicate"]),
                )
            )
        for model, probability in models:
            frames.append(
                pl.DataFrame(
                    {
                        "variant": row["variant"],
                        "variant_hash": row["variant_hash"],
                        "strategy_a": row["strategy_a"],
                        "strategy_b": row["strategy_b"],
                        "model": model,
                        "length": np.asarray(lengths, dtype=np.int64),
                        "probability": probability,
                    }
                )
            )
    if not frames:
        return pl.DataFrame(
            schema={
                "variant": pl.String(),
                "variant_hash": pl.String(),
                "strategy_a": pl.String(),
                "strategy_b": pl.String(),
                "model": pl.String(),
                "length": pl.Int64(),
                "probability": pl.Float64(),
            }
        )
    return pl.concat(frames)


def variance_explained(run: Run) -> pl.DataFrame:
    """Per variant: seat-games, strategies, ``strategy_share`` = SS_strategy/SS_total of final
    scores, and for duplicate runs ``cards_share`` (the (deal set, seat) cells' share) and
    ``strategy_share_luck_free`` (the strategy's share once the cell means are removed); see the
    module doc. From the totals: every sum of squares is one of sums."""
    totals = run.totals()
    count = len(totals.strategies)
    frame = totals.games.fill_null(0).group_by("variant_hash").agg(
        pl.exclude("deal_block").sum())
    n, s = pl.col("seat_games").cast(pl.Float64), pl.col("score_sum").cast(pl.Float64)
    grand = s * s / n

    def over_strategies(term: Callable[[int], pl.Expr]) -> pl.Expr:
        return pl.sum_horizontal([pl.when(pl.col(f"n_k{k}") > 0).then(term(k)).otherwise(0.0)
                                  for k in range(count)]) if count else pl.lit(0.0)

    ss_strategy = over_strategies(
        lambda k: pl.col(f"s_k{k}").cast(pl.Float64) ** 2 / pl.col(f"n_k{k}")) - grand
    ss_total = pl.col("score_sq") - grand
    ss_cards = pl.col("cell_score_ss") - grand
    ss_luck_free = pl.col("score_sq") - pl.col("cell_score_ss")
    ss_strategy_free = over_strategies(
        lambda k: (pl.col(f"s_k{k}") - pl.col(f"cm_k{k}")) ** 2 / pl.col(f"n_k{k}"))
    duplicate = pl.col("cell_single") == 0
    strategies = pl.sum_horizontal([(pl.col(f"n_k{k}") > 0).cast(pl.Int64)
                                    for k in range(count)]) if count else pl.lit(0)
    table = frame.select(
        "variant_hash",
        pl.col("seat_games").cast(pl.Int64),
        strategies.cast(pl.Int64).alias("strategies"),
        pl.when(duplicate).then(pl.lit("duplicate")).otherwise(pl.lit("plain")).alias("design"),
        (ss_strategy / ss_total).alias("strategy_share"),
        pl.when(duplicate).then(ss_cards / ss_total).alias("cards_share"),
        pl.when(duplicate & (ss_luck_free > 0)).then(ss_strategy_free / ss_luck_free)
        .alias("strategy_share_luck_free"),
    )
    return (
        table.join(run.variant_names(), on="variant_hash", how="left")
        .select("variant", *table.columns)
        .sort("variant")
    )
