"""The interval arithmetic of ``raspis.analysis.compare`` and ``raspis.analysis.intervals``,
checked exactly against scipy.

The coverage tests of ``test_compare.py`` accept a coverage of 0.90 to 0.99 over 120-150
repeats, so an interval a few percent too narrow or too wide passes them (dropping the -1 of the
delta method's 1/(C(C-1)) makes it about 11% too narrow at C = 5). This module pins the
arithmetic itself. For a *linear* statistic (a ratio whose denominator is the same in every
cluster: a strategy's mean score or win rate in a duplicate run, where each strategy sits in
every seat of every deal set; the mean deal points of a seat, every cluster holding the same
seat-deals), the delta method is exact, so on a dataset built with ``raspis.analysis.synthetic``
and written with ``write_run``, ``compare``'s intervals must be those of the textbook tests on the
per-cluster values, computed here from the raw rows:

- one variant's estimate (the ``values`` table): standard error ``std(ddof=1)/sqrt(C)`` and the
  t interval on C-1 degrees of freedom (``scipy.stats.ttest_1samp``);
- the paired difference (the table's unadjusted ``difference_low``/``high``): the paired t
  interval on the per-cluster differences (``scipy.stats.ttest_rel``), its p-value and C-1
  degrees of freedom (and the position 0's score advantage, a difference of two such ratios);
- unpaired variants (different deals): Welch's interval (``scipy.stats.ttest_ind``,
  ``equal_var=False``);
- the same over blocks of deal sets, the clusters of a run without per-deal rows
  (``deal_stats``' ``deal_block``), each block holding one deal set or several;

at C = 3, 5 and 30 clusters. The building blocks of ``intervals`` the other statistics use (the
mean from moments, the clustered ratio, Welch's difference, the t quantile) are held to the same
scipy tests at the same sizes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from raspis.analysis.compare import compare
from raspis.analysis.intervals import (
    cluster_ratio,
    clustered_wilson,
    mean_interval_from_moments,
    needed_deal_sets,
    ratio_interval,
    t_quantile,
    welch_difference,
    wilson_interval,
)
from raspis.analysis.synthetic import HASH as BASELINE_HASH
from raspis.analysis.synthetic import (
    DealEffects,
    deal_stats_from_deals,
    synthetic_deal_stats,
    synthetic_games,
    write_run,
)
from raspis.tournament.schema import DEAL_BLOCKS
from scipy import stats

BASELINE_EFFECTS = {"a": 30.0, "b": 10.0, "c": -10.0, "d": -30.0}
OTHER_EFFECTS = {"a": 40.0, "b": 10.0, "c": -10.0, "d": -40.0}
OTHER_HASH = "0" * 16
LEVEL = 0.95
#: relative tolerance: the delta method's gradient is a central difference, exact for a linear
#: statistic up to rounding
TOLERANCE = 1e-7
CLUSTER_COUNTS = (3, 5, 30)


def two_variants(folder: Path, deal_sets: int, *, same_deals: bool = True,
                 deal_sets_per_block: int = 1) -> Path:
    """A run folder with two variants of a duplicate run between four strategies, with card luck
    shared by a deal set's seatings; their deals are the same (paired) or not (Welch). Its
    ``deal_stats`` hold one game of two deals per deal set, summed per block of
    ``deal_sets_per_block`` deal sets, and no per-deal rows."""
    other_seed = 1 if same_deals else 10_001
    first = synthetic_games(deal_sets, strategy_effect=BASELINE_EFFECTS, duplicate=True,
                            card_sd=60.0, noise_sd=40.0, seed=1, noise_seed=1)
    second = synthetic_games(deal_sets, strategy_effect=OTHER_EFFECTS, duplicate=True,
                             card_sd=60.0, noise_sd=40.0, seed=other_seed, noise_seed=2,
                             variant=("other", OTHER_HASH))
    second = second.with_columns(pl.col("game_id") + first["game_id"].max() + 1)
    if not same_deals:
        second = second.with_columns(pl.col("seed") + 1)
    # blocks: deal_block = deal_set * DEAL_BLOCKS // total, so this total puts
    # deal_sets_per_block consecutive deal sets in each block
    total = DEAL_BLOCKS * deal_sets_per_block if deal_sets_per_block > 1 else deal_sets
    stats_frames = []
    for noise_seed, variant_hash, seed in ((1, BASELINE_HASH, 1), (2, OTHER_HASH, other_seed)):
        _, deals = synthetic_deal_stats(deal_sets, hand_sizes=(3, 5),
                                        effects=DealEffects(game_sd=20.0), seed=seed,
                                        noise_seed=noise_seed, variant_hash=variant_hash)
        stats_frames.append(deal_stats_from_deals(deals, total))
    return write_run(folder, pl.concat([first, second]), pl.concat(stats_frames))


#: per deal set, the value of each linear statistic tested, from the raw rows of ``games``
#: (``position``: the seat counted from the first dealer)
PER_DEAL_SET = {
    "mean_score[a]": pl.col("score").filter(pl.col("strategy") == "a").mean(),
    "win_rate[a]": pl.col("winner").filter(pl.col("strategy") == "a").mean(),
    "seat_advantage[0]": (pl.col("score").filter(pl.col("position") == 0).mean()
                          - pl.col("score").mean()),
}


def per_deal_set(folder: Path, variant_hash: str, statistic: str) -> np.ndarray:
    """The value of ``statistic`` (a key of ``PER_DEAL_SET``) in each deal set of one variant, in
    deal-set order, from the raw rows of the run's games."""
    games = pl.read_parquet(folder / "games" / "*.parquet").with_columns(
        pl.col("score").cast(pl.Float64), pl.col("winner").cast(pl.Float64),
        ((pl.col("seat") - pl.col("first_dealer")) % pl.col("players")).alias("position"))
    return (games.filter(pl.col("variant_hash") == variant_hash).group_by("deal_set")
            .agg(PER_DEAL_SET[statistic].alias("value")).sort("deal_set")["value"].to_numpy())


def per_block(folder: Path, variant_hash: str) -> np.ndarray:
    """The mean deal points of a seat in each block of deal sets of one variant, in block order,
    from the run's ``deal_stats`` sums."""
    sums = pl.read_parquet(folder / "deal_stats" / "*.parquet")
    return (sums.filter(pl.col("variant_hash") == variant_hash).group_by("deal_block")
            .agg(pl.col("points_sum").sum() / pl.col("count").sum()).sort("deal_block")
            ["points_sum"].to_numpy())


def table_row(comparison, statistic: str) -> dict:  # noqa: ANN001
    """The comparison table's row of ``statistic`` (the variant against the baseline)."""
    return comparison.table.filter(pl.col("statistic") == statistic).row(0, named=True)


def value_row(comparison, statistic: str, variant: str) -> dict:  # noqa: ANN001
    """The values table's row of ``statistic`` under ``variant``."""
    return comparison.values.filter((pl.col("statistic") == statistic)
                                    & (pl.col("variant") == variant)).row(0, named=True)


def assert_estimate(row: dict, values: np.ndarray) -> None:
    """A values-table row is the mean of ``values`` with the one-sample t interval on C-1."""
    expected = stats.ttest_1samp(values, 0.0).confidence_interval(LEVEL)
    assert row["units"] == len(values)
    assert row["value"] == pytest.approx(values.mean(), rel=TOLERANCE)
    assert (row["value_low"], row["value_high"]) == pytest.approx(
        (expected.low, expected.high), rel=TOLERANCE)
    # the standard error itself: the interval's half width over the t quantile on C-1
    half = (row["value_high"] - row["value_low"]) / 2
    standard_error = values.std(ddof=1) / np.sqrt(len(values))
    quantile = stats.t.ppf(0.5 + LEVEL / 2, len(values) - 1)
    assert half / quantile == pytest.approx(standard_error, rel=TOLERANCE)


def assert_paired(row: dict, baseline: np.ndarray, other: np.ndarray) -> None:
    """A table row is the paired t interval of other - baseline on C-1 degrees of freedom."""
    test = stats.ttest_rel(other, baseline)
    expected = test.confidence_interval(LEVEL)
    differences = other - baseline
    assert row["difference"] == pytest.approx(differences.mean(), rel=TOLERANCE)
    assert row["df"] == len(differences) - 1
    assert (row["difference_low"], row["difference_high"]) == pytest.approx(
        (expected.low, expected.high), rel=TOLERANCE)
    assert row["p_value"] == pytest.approx(test.pvalue, rel=1e-6)
    half = (row["difference_high"] - row["difference_low"]) / 2
    standard_error = differences.std(ddof=1) / np.sqrt(len(differences))
    quantile = stats.t.ppf(0.5 + LEVEL / 2, len(differences) - 1)
    assert half / quantile == pytest.approx(standard_error, rel=TOLERANCE)


@pytest.mark.parametrize("clusters", CLUSTER_COUNTS)
@pytest.mark.parametrize("statistic", list(PER_DEAL_SET))
def test_a_paired_difference_is_the_paired_t_interval(
        tmp_path: Path, clusters: int, statistic: str) -> None:
    """Two variants on the same deals: the difference of a strategy's mean score (or win rate,
    or position 0's score advantage) and its interval are ``ttest_rel``'s on the per-deal-set
    values, and each variant's value and interval ``ttest_1samp``'s."""
    folder = two_variants(tmp_path / "run", clusters)
    comparison = compare([folder])
    baseline = per_deal_set(folder, BASELINE_HASH, statistic)
    other = per_deal_set(folder, OTHER_HASH, statistic)
    row = table_row(comparison, statistic)
    assert row["design"] == "paired" and row["deal_sets"] == clusters
    assert row["games_per_deal_set"] == 4  # the four rotations of a duplicate run
    assert_paired(row, baseline, other)
    assert_estimate(value_row(comparison, statistic, "synthetic"), baseline)
    assert_estimate(value_row(comparison, statistic, "other"), other)


@pytest.mark.parametrize("clusters", CLUSTER_COUNTS)
def test_an_unpaired_difference_is_welchs_interval(tmp_path: Path, clusters: int) -> None:
    """Two variants on different deals: the difference of a strategy's mean score is Welch's
    (``ttest_ind`` with ``equal_var=False``) on the per-deal-set means."""
    folder = two_variants(tmp_path / "run", clusters, same_deals=False)
    row = table_row(compare([folder]), "mean_score[a]")
    baseline = per_deal_set(folder, BASELINE_HASH, "mean_score[a]")
    other = per_deal_set(folder, OTHER_HASH, "mean_score[a]")
    test = stats.ttest_ind(other, baseline, equal_var=False)
    expected = test.confidence_interval(LEVEL)
    assert row["design"] == "welch"
    assert row["df"] == pytest.approx(test.df, rel=TOLERANCE)
    assert (row["difference_low"], row["difference_high"]) == pytest.approx(
        (expected.low, expected.high), rel=TOLERANCE)
    assert row["p_value"] == pytest.approx(test.pvalue, rel=1e-6)


@pytest.mark.parametrize("clusters", CLUSTER_COUNTS)
@pytest.mark.parametrize("deal_sets_per_block", [1, 3])
def test_a_difference_over_blocks_of_deal_sets_is_the_paired_t_interval(
        tmp_path: Path, clusters: int, deal_sets_per_block: int) -> None:
    """Without per-deal rows a deal-level statistic is clustered over blocks of deal sets: the
    mean deal points of a seat, its difference and their intervals are the t intervals on the
    per-block values, C-1 degrees of freedom for C blocks (of one deal set or of three)."""
    folder = two_variants(tmp_path / "run", clusters * deal_sets_per_block,
                          deal_sets_per_block=deal_sets_per_block)
    comparison = compare([folder])
    baseline = per_block(folder, BASELINE_HASH)
    other = per_block(folder, OTHER_HASH)
    assert len(baseline) == len(other) == clusters
    row = table_row(comparison, "points_per_deal")
    assert row["design"] == "paired, blocks of deal sets"
    assert_paired(row, baseline, other)
    assert_estimate(value_row(comparison, "points_per_deal", "synthetic"), baseline)
    assert_estimate(value_row(comparison, "points_per_deal", "other"), other)


def test_two_runs_of_more_than_256_deal_sets_are_paired_block_by_block(tmp_path: Path) -> None:
    """Two runs (two manifests) of the same 300 deal sets, without per-deal rows: their blocks
    hold the same deal sets, so the deal-level difference is paired over the 64 blocks (the
    runs' sizes compared by value: 300 is not an interned integer)."""
    folders = []
    for index, variant_hash in enumerate((BASELINE_HASH, OTHER_HASH)):
        games = synthetic_games(300, seed=1, noise_seed=index + 1,
                                variant=(f"v{index}", variant_hash))
        _, deals = synthetic_deal_stats(300, hand_sizes=(3,), seed=1, noise_seed=index + 1,
                                        variant_hash=variant_hash)
        folders.append(write_run(tmp_path / f"run{index}", games, deal_stats_from_deals(deals)))
    row = table_row(compare(folders), "points_per_deal")
    assert row["design"] == "paired, blocks of deal sets" and row["df"] == DEAL_BLOCKS - 1


@pytest.mark.parametrize("clusters", CLUSTER_COUNTS)
@pytest.mark.parametrize("duplicate", [False, True])
def test_seat_deals_of_a_run_without_blocks_are_the_t_interval_with_the_design_effect(
        tmp_path: Path, clusters: int, duplicate: bool) -> None:
    """A run written before blocks of deal sets (``deal_stats`` without ``deal_block``): each
    seat-deal is an observation, and the mean deal points of a seat has the t interval of the n
    seat-deals' points with n / S observations, S the games of a deal set (the design effect of
    duplicate replays): ``ttest_1samp``'s without duplicates, and
    mean ± t(n/S - 1)·sd·sqrt(S/n) with the four rotations."""
    games = synthetic_games(clusters, duplicate=duplicate, seed=1)
    other = synthetic_games(clusters, duplicate=duplicate, seed=2, variant=("other", OTHER_HASH))
    other = other.with_columns(pl.col("game_id") + games["game_id"].max() + 1)
    frames = [synthetic_deal_stats(clusters, hand_sizes=(3, 5), seed=seed, variant_hash=hash_)[1]
              for seed, hash_ in ((1, BASELINE_HASH), (2, OTHER_HASH))]
    sums = pl.concat([deal_stats_from_deals(frame, blocks=False) for frame in frames])
    folder = write_run(tmp_path / "old", pl.concat([games, other]), sums)
    row = value_row(compare([folder]), "points_per_deal", "synthetic")
    points = frames[0]["points"].cast(pl.Float64).to_numpy()
    replays = 4 if duplicate else 1
    observations = len(points) / replays
    half = (stats.t.ppf(0.975, observations - 1) * points.std(ddof=1)
            * np.sqrt(replays / len(points)))
    assert row["unit_of"] == "seat-deals" and row["units"] == observations
    assert row["value"] == pytest.approx(points.mean(), rel=TOLERANCE)
    assert (row["value_low"], row["value_high"]) == pytest.approx(
        (points.mean() - half, points.mean() + half), rel=TOLERANCE)
    if not duplicate:
        expected = stats.ttest_1samp(points, 0.0).confidence_interval(LEVEL)
        assert (row["value_low"], row["value_high"]) == pytest.approx(
            (expected.low, expected.high), rel=TOLERANCE)


# -- intervals.py: the building blocks ------------------------------------------------------------


def sample(size: int, seed: int) -> np.ndarray:
    """``size`` draws of a skewed distribution (a game's scores are not normal)."""
    return np.random.default_rng([size, seed]).gamma(2.0, 30.0, size) - 40.0


@pytest.mark.parametrize("size", CLUSTER_COUNTS)
def test_t_quantile_is_scipys(size: int) -> None:
    """The two-sided quantile is ``stats.t.ppf`` on the same degrees of freedom (NaN below 1)."""
    assert t_quantile([size - 1])[0] == pytest.approx(stats.t.ppf(0.975, size - 1),
                                                      rel=1e-12)
    assert t_quantile([size - 1], 0.9)[0] == pytest.approx(stats.t.ppf(0.95, size - 1),
                                                           rel=1e-12)
    assert np.isnan(t_quantile([0.5])[0])


@pytest.mark.parametrize("size", CLUSTER_COUNTS)
def test_the_mean_from_moments_is_the_one_sample_t_interval(size: int) -> None:
    """n, the sum and the sum of squares give ``ttest_1samp``'s interval and the standard error
    ``std(ddof=1)/sqrt(n)``."""
    values = sample(size, 1)
    result = mean_interval_from_moments([size], [values.sum()], [(values * values).sum()])
    expected = stats.ttest_1samp(values, 0.0).confidence_interval(LEVEL)
    assert result["se"][0] == pytest.approx(values.std(ddof=1) / np.sqrt(size), rel=TOLERANCE)
    assert (result["low"][0], result["high"][0]) == pytest.approx((expected.low, expected.high),
                                                                  rel=TOLERANCE)


@pytest.mark.parametrize("size", CLUSTER_COUNTS)
def test_a_clustered_ratio_of_equal_clusters_is_the_one_sample_t_interval(size: int) -> None:
    """Clusters of equal weight: the clustered ratio is the mean of the clusters' ratios, its
    interval ``ttest_1samp``'s on them (C-1 degrees of freedom)."""
    weights = np.full(size, 4.0)
    totals = sample(size, 2) * weights
    frame = pl.DataFrame({"cluster": np.arange(size), "y": totals, "m": weights})
    result = ratio_interval(frame.select(cluster_ratio(["cluster"], "y", "m")), "mean")
    ratios = totals / weights
    expected = stats.ttest_1samp(ratios, 0.0).confidence_interval(LEVEL)
    assert result["clusters"][0] == size
    assert result["mean"][0] == pytest.approx(ratios.mean(), rel=TOLERANCE)
    assert (result["mean_low"][0], result["mean_high"][0]) == pytest.approx(
        (expected.low, expected.high), rel=TOLERANCE)


@pytest.mark.parametrize("size", CLUSTER_COUNTS)
def test_a_clustered_ratio_of_unequal_clusters_is_the_linearisation_variance(size: int) -> None:
    """Clusters of unequal weight: the interval is r ± t(C-1)·se with the documented
    linearisation variance se² = C/(C-1)·Σ(y - r·m)²/(Σm)², computed here in numpy."""
    generator = np.random.default_rng([size, 3])
    weights = generator.integers(1, 9, size).astype(float)
    totals = sample(size, 3) * weights
    frame = pl.DataFrame({"cluster": np.arange(size), "y": totals, "m": weights})
    result = ratio_interval(frame.select(cluster_ratio(["cluster"], "y", "m")), "mean")
    ratio = totals.sum() / weights.sum()
    variance = size / (size - 1) * ((totals - ratio * weights) ** 2).sum() / weights.sum() ** 2
    half = stats.t.ppf(0.975, size - 1) * np.sqrt(variance)
    assert (result["mean_low"][0], result["mean_high"][0]) == pytest.approx(
        (ratio - half, ratio + half), rel=TOLERANCE)


@pytest.mark.parametrize("size", CLUSTER_COUNTS)
def test_welchs_difference_is_scipys(size: int) -> None:
    """The difference of two independent means (sizes C and 2C): ``ttest_ind``'s Welch interval,
    degrees of freedom and p-value."""
    first, second = sample(size, 4), sample(2 * size, 5) * 2
    result = welch_difference([size], [first.mean()], [first.var(ddof=1)], [2 * size],
                              [second.mean()], [second.var(ddof=1)])
    test = stats.ttest_ind(first, second, equal_var=False)
    expected = test.confidence_interval(LEVEL)
    assert result["df"][0] == pytest.approx(test.df, rel=TOLERANCE)
    assert (result["low"][0], result["high"][0]) == pytest.approx((expected.low, expected.high),
                                                                  rel=TOLERANCE)
    assert result["p_value"][0] == pytest.approx(test.pvalue, rel=1e-6)


@pytest.mark.parametrize("size", CLUSTER_COUNTS)
def test_a_clustered_proportion_is_wilsons_interval_at_the_effective_size(size: int) -> None:
    """Clusters of unequal size with successes in each: the clustered Wilson interval is the
    Wilson interval at the effective sample size p(1-p)/se², se the documented linearisation
    standard error, computed here in numpy."""
    generator = np.random.default_rng([size, 6])
    trials = generator.integers(2, 12, size).astype(float)
    successes = np.minimum(generator.binomial(trials.astype(int), 0.3), trials - 1)
    successes[0] = 1.0  # a proportion strictly between 0 and 1
    frame = pl.DataFrame({"cluster": np.arange(size), "y": successes, "m": trials})
    result = clustered_wilson(frame.select(cluster_ratio(["cluster"], "y", "m")), "share")
    share = successes.sum() / trials.sum()
    variance = size / (size - 1) * ((successes - share * trials) ** 2).sum() / trials.sum() ** 2
    effective = share * (1 - share) / variance
    low, high = wilson_interval(share * effective, effective)
    assert result["share"][0] == pytest.approx(share, rel=TOLERANCE)
    assert (result["share_low"][0], result["share_high"][0]) == pytest.approx(
        (float(low), float(high)), rel=TOLERANCE)


@pytest.mark.parametrize(("clusters", "standard_error", "difference"),
                         [(3, 2.0, 1.0), (5, 0.5, -3.0), (30, 1.2, 0.4), (30, 3.0, 2.0)])
def test_the_deal_sets_a_difference_needs_follow_the_power_formula(
        clusters: int, standard_error: float, difference: float) -> None:
    """D·((z(0.975) + z(0.8))·se/|d|)², rounded up, with scipy's normal quantiles."""
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    expected = np.ceil(clusters * (z * standard_error / abs(difference)) ** 2)
    assert needed_deal_sets(clusters, standard_error, difference) == expected
