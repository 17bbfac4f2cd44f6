"""Confidence intervals and tests used by every statistic, computed from a few sums.

The statistics aggregate in polars down to small frames of sums (counts, sums, sums of squares, or
one row per cluster); the functions here turn those sums into estimates, intervals and p-values with
numpy and scipy. They are vectorised over the rows of a table.

Designs, stated once:

- *Mean from moments* (``mean_interval_from_moments``): n observations with sum S and sum of squares
  Q; mean S/n, sample variance (Q - S²/n)/(n-1), Student-t interval with n-1 degrees of freedom.
- *Clustered ratio mean* (``cluster_ratio`` / ``ratio_interval``): clusters c with total y_c over
  m_c observations (a deal set: every seat-game of one strategy in the games of that deal set). The
  estimate is r = Σy/Σm and its linearisation (cluster-robust) variance
  C/(C-1) · Σ(y_c - r·m_c)² / (Σm)², t interval with C-1 degrees of freedom. With one observation
  per cluster this is the ordinary t interval.
- *Wilson interval* (``wilson_interval``) for a proportion; with clustered data
  (``clustered_wilson``) the count is replaced by the effective sample size n_eff = p(1-p)/var,
  var the cluster-robust variance above (Kish's design effect; n_eff = n when var is 0).
- *Design effect* (deal-level tables of a run written before ``deal_stats`` kept its sums per
  block of deal sets; newer runs are clustered over the blocks, see ``balance``): ``deal_stats``
  then holds sums over all deal sets, so the seat-deals of the seatings of one deal set cannot be
  told apart. In a duplicate run with S seatings a deal is replayed S times on the same cards;
  the deal-level intervals divide every count by S (the design effect of perfectly correlated
  replays: exact when the replays are identical, as with identical strategies, conservative
  otherwise; too narrow when deal sets differ in luck).
- *Welch difference* (``welch_difference``): difference of two independent means,
  Welch-Satterthwaite degrees of freedom.
- *Hotelling T²* (``hotelling_test``): are k means of a k-vector measured on each of n clusters
  equal? Take the k deviations from the cluster's mean, drop one (q = k-1 contrasts, or the rank of
  their covariance), T² = n·d̄ᵀS⁻¹d̄, F = (n-q)/(q(n-1))·T² ~ F(q, n-q). This is repeated-measures
  ANOVA without the sphericity assumption: the positions of one game are scored together and are
  correlated, which a plain one-way ANOVA or chi-square over seat-games would ignore.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
from scipy import special, stats

LEVEL = 0.95
#: the power of a test at which ``needed_deal_sets`` counts the deal sets a difference needs
POWER = 0.8


def _array(values: Any) -> np.ndarray:
    if isinstance(values, pl.Series):
        return values.cast(pl.Float64).to_numpy()
    return np.asarray(values, dtype=float)


# The distributions through ``scipy.special``, the functions ``scipy.stats`` evaluates them with:
# the same numbers, without the 40-100 us a ``stats`` call spends checking its arguments (compare()
# asks for hundreds of them; its coverage tests run compare() hundreds of times).


def t_quantiles(probability: Any, degrees_of_freedom: Any) -> np.ndarray:
    """Student-t quantiles (``stats.t.ppf``: NaN where the degrees of freedom are NaN)."""
    return np.asarray(special.stdtrit(degrees_of_freedom, probability), dtype=float)


def t_two_sided_p(statistic: Any, degrees_of_freedom: Any) -> np.ndarray:
    """The two-sided p-value of a t statistic (``2 * stats.t.sf(|t|, df)``)."""
    return np.asarray(2 * special.stdtr(degrees_of_freedom, -np.abs(statistic)), dtype=float)


def normal_ppf(probability: Any) -> Any:
    """Standard-normal quantiles (``stats.norm.ppf``)."""
    return special.ndtri(probability)


def normal_cdf(value: Any) -> Any:
    """The standard-normal distribution function (``stats.norm.cdf``)."""
    return special.ndtr(value)


def normal_quantile(level: float = LEVEL) -> float:
    """The two-sided standard-normal quantile of ``level`` (1.96 for 0.95)."""
    return float(normal_ppf(0.5 + level / 2))


#: ``t_quantile`` results by (level, shape, the degrees of freedom's bytes): scipy's ``t.ppf``
#: costs about 0.2 ms a call, and an analysis asks for the same few degrees of freedom many times
_T_QUANTILES: dict[tuple[float, tuple[int, ...], bytes], np.ndarray] = {}


def t_quantile(degrees_of_freedom: Any, level: float = LEVEL) -> np.ndarray:
    """Two-sided Student-t quantiles of ``level`` (NaN where the degrees of freedom are < 1)."""
    df = _array(degrees_of_freedom)
    key = (level, df.shape, df.tobytes())
    cached = _T_QUANTILES.get(key)
    if cached is not None:
        return cached.copy()
    with np.errstate(invalid="ignore"):
        quantile = t_quantiles(0.5 + level / 2, np.where(df >= 1, df, np.nan))
    quantile = np.asarray(quantile, dtype=float)
    if df.size <= 64:  # small arrays only (the usual one or few values), at most 4096 of them
        if len(_T_QUANTILES) >= 4096:
            _T_QUANTILES.clear()
        _T_QUANTILES[key] = quantile.copy()
    return quantile


def mean_interval_from_moments(
    count: Any, total: Any, sum_sq: Any, level: float = LEVEL, design_effect: Any = 1.0
) -> dict[str, np.ndarray]:
    """Mean, standard deviation, standard error and t interval from n, Σx and Σx²; the standard
    error and degrees of freedom use n / ``design_effect`` observations."""
    n = _array(count)
    s = _array(total)
    q = _array(sum_sq)
    effective = n / _array(design_effect)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        variance = np.maximum(q - s * s / n, 0.0) / (n - 1)
        sd = np.sqrt(variance)
        se = sd / np.sqrt(effective)
        half = t_quantile(effective - 1, level) * se
    return {"mean": mean, "sd": sd, "se": se, "low": mean - half, "high": mean + half}


def cluster_ratio(keys: list[str], total: str, weight: str) -> list[pl.Expr]:
    """polars aggregations (use in ``group_by(keys).agg``) over cluster rows for a clustered ratio
    mean of ``total``/``weight``: ``clusters``, ``n`` (Σweight), ``estimate`` and ``se``."""
    del keys  # the caller groups; kept in the signature for readability at the call site
    y = pl.col(total).cast(pl.Float64)
    m = pl.col(weight).cast(pl.Float64)
    ratio = y.sum() / m.sum()
    clusters = pl.len().cast(pl.Float64)
    spread = ((y - ratio * m) ** 2).sum()
    se = (clusters / (clusters - 1) * spread).sqrt() / m.sum()
    return [
        pl.len().alias("clusters"),
        m.sum().alias("n"),
        ratio.alias("estimate"),
        pl.when(pl.len() > 1).then(se).otherwise(None).alias("se"),
    ]


def ratio_interval(frame: pl.DataFrame, prefix: str, level: float = LEVEL) -> pl.DataFrame:
    """Replace ``estimate``/``se`` (from ``cluster_ratio``) by ``{prefix}``, ``{prefix}_low``,
    ``{prefix}_high``, using the t quantile with clusters-1 degrees of freedom."""
    estimate = _array(frame["estimate"])
    se = _array(frame["se"].fill_null(float("nan")))
    half = t_quantile(_array(frame["clusters"]) - 1, level) * se
    return frame.drop("estimate", "se").with_columns(
        pl.Series(prefix, estimate),
        pl.Series(f"{prefix}_low", estimate - half),
        pl.Series(f"{prefix}_high", estimate + half),
    )


def wilson_interval(
    successes: Any, trials: Any, level: float = LEVEL
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a proportion (``trials`` may be an effective, fractional n)."""
    k = _array(successes)
    n = _array(trials)
    z = normal_quantile(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(np.maximum(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denominator
    low = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def clustered_wilson(frame: pl.DataFrame, prefix: str, level: float = LEVEL) -> pl.DataFrame:
    """Like ``ratio_interval`` for a proportion: the Wilson interval at the effective sample size
    p(1-p)/se² (the plain count when se is 0 or unknown)."""
    p = _array(frame["estimate"])
    se = _array(frame["se"].fill_null(float("nan")))
    n = _array(frame["n"])
    with np.errstate(invalid="ignore", divide="ignore"):
        effective = np.where((se > 0) & np.isfinite(se), p * (1 - p) / (se * se), n)
    effective = np.where(effective > 0, effective, n)
    low, high = wilson_interval(p * effective, effective, level)
    return frame.drop("estimate", "se").with_columns(
        pl.Series(prefix, p),
        pl.Series(f"{prefix}_low", low),
        pl.Series(f"{prefix}_high", high),
    )


def welch_difference(
    n1: Any, mean1: Any, var1: Any, n2: Any, mean2: Any, var2: Any, level: float = LEVEL
) -> dict[str, np.ndarray]:
    """Difference of means (1 minus 2) with a Welch t interval and two-sided p-value."""
    a, b = _array(var1) / _array(n1), _array(var2) / _array(n2)
    with np.errstate(invalid="ignore", divide="ignore"):
        difference = _array(mean1) - _array(mean2)
        se = np.sqrt(a + b)
        df = (a + b) ** 2 / (a * a / (_array(n1) - 1) + b * b / (_array(n2) - 1))
        half = t_quantile(df, level) * se
        p_value = t_two_sided_p(difference / se, np.where(df >= 1, df, np.nan))
    return {
        "difference": difference,
        "low": difference - half,
        "high": difference + half,
        "se": se,
        "df": df,
        "p_value": p_value,
    }


def hotelling_test(count: int, mean_vector: np.ndarray, covariance: np.ndarray) -> dict[str, float]:
    """One-sample Hotelling T² test that a q-vector of contrasts has mean 0 (see the module doc).

    ``mean_vector`` and ``covariance`` are the sample mean and covariance (ddof 1) of the contrast
    vectors of ``count`` clusters. Returns T², F, the degrees of freedom and the p-value (NaN when
    there are too few clusters)."""
    mean_vector = np.asarray(mean_vector, dtype=float)
    covariance = np.atleast_2d(np.asarray(covariance, dtype=float))
    nan = {"t2": math.nan, "f": math.nan, "df1": math.nan, "df2": math.nan, "p_value": math.nan}
    if count < 2 or not np.all(np.isfinite(covariance)) or not np.all(np.isfinite(mean_vector)):
        return nan
    scale = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    if np.all(scale == 0):
        # every cluster identical: exact equality holds, or an exactly constant difference
        exact = bool(np.allclose(mean_vector, 0.0))
        return {
            "t2": 0.0 if exact else math.inf,
            "f": 0.0 if exact else math.inf,
            "df1": math.nan,
            "df2": math.nan,
            "p_value": 1.0 if exact else 0.0,
        }
    rank = int(np.linalg.matrix_rank(covariance, tol=1e-9 * float(np.max(scale)) ** 2))
    if count - rank < 1:
        return nan
    t2 = float(
        count * mean_vector @ np.linalg.pinv(covariance, rcond=1e-10, hermitian=True) @ mean_vector
    )
    f = (count - rank) / (rank * (count - 1)) * t2
    return {
        "t2": t2,
        "f": f,
        "df1": float(rank),
        "df2": float(count - rank),
        "p_value": float(stats.f.sf(f, rank, count - rank)),
    }


def moment_aggregations(columns: list[str]) -> list[pl.Expr]:
    """polars aggregations of the sums and cross-products of ``columns`` (for a mean vector and a
    covariance matrix without collecting rows): ``n``, ``s_i`` and ``q_i_j`` (i <= j)."""
    expressions = [pl.len().alias("n")]
    for i, name in enumerate(columns):
        expressions.append(pl.col(name).cast(pl.Float64).sum().alias(f"s_{i}"))
        for j in range(i, len(columns)):
            expressions.append(
                (pl.col(name).cast(pl.Float64) * pl.col(columns[j]).cast(pl.Float64))
                .sum()
                .alias(f"q_{i}_{j}")
            )
    return expressions


def moments_to_mean_covariance(
    row: dict[str, Any], size: int
) -> tuple[int, np.ndarray, np.ndarray]:
    """(n, mean vector, covariance with ddof 1) from one row of ``moment_aggregations``."""
    n = int(row["n"])
    sums = np.array([row[f"s_{i}"] or 0.0 for i in range(size)], dtype=float)
    products = np.zeros((size, size))
    for i in range(size):
        for j in range(i, size):
            products[i, j] = products[j, i] = row[f"q_{i}_{j}"] or 0.0
    mean = sums / n if n else np.full(size, np.nan)
    covariance = (
        (products - n * np.outer(mean, mean)) / (n - 1) if n > 1 else np.full((size, size), np.nan)
    )
    return n, mean, covariance


def oriented_pair(flip: pl.Expr | pl.Series) -> list[pl.Expr]:
    """``strategy_a`` and ``strategy_b`` swapped where ``flip`` holds, so that A is the better one
    of each pair (the callers flip their own signed columns)."""
    return [
        pl.when(flip).then(pl.col("strategy_b")).otherwise(pl.col("strategy_a")).alias("strategy_a"),
        pl.when(flip).then(pl.col("strategy_a")).otherwise(pl.col("strategy_b")).alias("strategy_b"),
    ]


def needed_deal_sets(clusters: int, se: float, difference: float, level: float = LEVEL) -> float:
    """Deal sets a two-sided test at 1-``level`` with power ``POWER`` needs to detect a difference
    of the observed size (inf when it is 0)."""
    if not (math.isfinite(se) and math.isfinite(difference)) or difference == 0 or clusters < 1:
        return math.inf
    z = normal_ppf(0.5 + level / 2) + normal_ppf(POWER)
    return float(math.ceil(clusters * (z * se / abs(difference)) ** 2))
