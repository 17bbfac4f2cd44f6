"""A statistic as a function of per-cluster totals, and its estimate with a standard error.

Every statistic that ``compare`` and the balance profile (``profile``) report is a smooth function
f of a few *totals*: sums over the games (or deals) of one cluster, the deal set or a block of
deal sets. The estimate of a unit (one variant of one run) is f of the mean totals per cluster,
and its uncertainty comes from each cluster's *influence* ψ_s: var(f) = Σψ_s² / (C(C-1)) over C
clusters, t interval on C-1 degrees of freedom. Two units that play the same deals are paired on
the difference of their influences (``compare``).

- *Delta method* (the default): ψ_s = ∇f(T̄)·(t_s - T̄), the gradient by central differences.
- *Jackknife* (``Statistic.curved``): ψ_s = (C-1)·(f̄₍.₎ - f(T̄₍₋ₛ₎)), T̄₍₋ₛ₎ the mean without
  cluster s. The same for a linear f; for a statistic whose gradient vanishes where it matters (a
  share of variance near 0, the largest of several edges, a ratio of squares) the delta method
  says the spread is 0 and the jackknife does not.

The totals are sums, so they add up: the totals of more deal sets are the rows of more clusters,
and an estimate updated round by round reads only the new rows (``raspis settle``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from .intervals import t_quantile, t_two_sided_p

#: What a unit's clusters are (``Estimate.design``; the deal-level designs of ``balance``).
DEAL_SETS = "deal sets"
BLOCKS = "blocks of deal sets"
SEAT_DEALS = "seat-deals"


@dataclass(frozen=True)
class Statistic:
    """A statistic as a function of per-deal-set totals: ``columns`` name the totals, ``function``
    maps their means (a vector in that order; a matrix of such rows for a ``curved`` one, one
    value a row) to the value.

    The balance profile's measures (``profile``) also say which question they answer
    (``group``: fair, skill, luck, drama, bidding), the value a balanced game would have
    (``reference``: 1/n for a seat's chance, 0.5 for one player finishing ahead of another), and
    which way is "more" of the group's quality (``toward``: +1 when a higher value means more of
    it: fairer, more skill, more luck, more drama; -1 when lower does; 0 for "closer to the
    reference")."""

    name: str
    label: str
    unit: str
    columns: tuple[str, ...]
    function: Callable[[np.ndarray], float]
    source: str = "games"  # "games" or "deals"
    #: the balance profile's group (``profile.GROUPS``), None for a statistic outside it
    group: str | None = None
    #: the value a balanced game would have (None: no such value)
    reference: float | None = None
    #: +1: higher is more of the group's quality; -1: lower is; 0: closer to ``reference`` is
    toward: int = 1
    #: the influence by the jackknife instead of the delta method (see the module doc)
    curved: bool = False
    #: in the variant's points (changes meaning when the scoring table changes)
    in_points: bool = False


def ratio(i: int, j: int) -> Callable[[np.ndarray], float]:
    """t[i] / t[j]: a share or a mean per observation."""
    return lambda t: t[..., i] / t[..., j]


def difference_of_ratios(a: int, b: int, c: int, d: int) -> Callable[[np.ndarray], float]:
    """t[a]/t[b] - t[c]/t[d]: one group's mean minus another's."""
    return lambda t: t[..., a] / t[..., b] - t[..., c] / t[..., d]


def gradient(function: Callable[[np.ndarray], float], point: np.ndarray) -> np.ndarray:
    """∇f at ``point`` by central differences (steps relative to each coordinate)."""
    values = np.zeros(len(point))
    for index, value in enumerate(point):
        step = 1e-6 * max(abs(value), 1e-3)
        up, down = point.copy(), point.copy()
        up[index] += step
        down[index] -= step
        with np.errstate(all="ignore"):
            values[index] = (function(up) - function(down)) / (2 * step)
    return values


@dataclass
class Estimate:
    """A statistic's value for one unit, with what the differences need."""

    value: float
    se: float
    clusters: int
    design: str  # DEAL_SETS, BLOCKS or SEAT_DEALS: what the clusters are
    influence: tuple[np.ndarray, np.ndarray] | None = None  # the clusters' ids and their psi
    deal_sets: int = 0  # the deal sets behind the estimate (clusters when 0)

    @property
    def deal_set_count(self) -> int:
        """The deal sets behind the estimate."""
        return self.deal_sets or self.clusters


class Clusters:
    """A frame of per-cluster totals (one row a cluster, ``cluster`` and float columns) as numpy
    columns, taken out of polars once: every statistic reads a few of them."""

    def __init__(self, ids: np.ndarray, columns: dict[str, np.ndarray]) -> None:
        self.ids = ids
        self.columns = columns

    @classmethod
    def of(cls, frame: pl.DataFrame) -> Clusters:
        """The columns of ``frame``."""
        columns = {name: frame.get_column(name).to_numpy() for name in frame.columns}
        return cls(columns.pop("cluster"), columns)

    def only(self, ids: np.ndarray) -> Clusters:
        """The rows of the clusters in ``ids``."""
        keep = np.isin(self.ids, ids)
        return Clusters(self.ids[keep],
                        {name: column[keep] for name, column in self.columns.items()})

    def has(self, statistic: Statistic) -> bool:
        """Whether every total the statistic reads is here."""
        return all(name in self.columns for name in statistic.columns)


def _leave_one_out(function: Callable[[np.ndarray], float], matrix: np.ndarray,
                   mean: np.ndarray) -> np.ndarray:
    """f of the mean totals without each cluster in turn (one value a cluster)."""
    clusters = len(matrix)
    rows = (mean * clusters - matrix) / (clusters - 1)
    with np.errstate(all="ignore"):
        values = np.asarray(function(rows), dtype=float)
        if values.shape != (clusters,):  # a function of one vector only
            values = np.array([function(row) for row in rows], dtype=float)
    return values


def cluster_estimate(table: Clusters, statistic: Statistic, design: str = DEAL_SETS,
                     deal_sets: int = 0) -> Estimate:
    """The statistic's value over the clusters of ``table`` with its standard error and each
    cluster's influence (see the module doc)."""
    clusters = len(table.ids)
    if clusters == 0 or not table.has(statistic):
        return Estimate(math.nan, math.nan, clusters, design, deal_sets=deal_sets)
    matrix = np.column_stack([table.columns[name] for name in statistic.columns]).astype(float)
    if np.isnan(matrix).any():  # a total a run did not record (an older run's missing column)
        return Estimate(math.nan, math.nan, clusters, design, deal_sets=deal_sets)
    mean = matrix.mean(axis=0)
    with np.errstate(all="ignore"):
        value = float(statistic.function(mean))
    if not math.isfinite(value):
        return Estimate(math.nan, math.nan, clusters, design, deal_sets=deal_sets)
    if statistic.curved and clusters > 2:
        left_out = _leave_one_out(statistic.function, matrix, mean)
        finite = left_out[np.isfinite(left_out)]
        centre = float(finite.mean()) if len(finite) else value
        psi = np.nan_to_num((clusters - 1) * (centre - left_out))
    else:
        psi = (matrix - mean) @ np.nan_to_num(gradient(statistic.function, mean))
    se = float(np.sqrt((psi**2).sum() / (clusters * (clusters - 1)))) if clusters > 1 else math.nan
    return Estimate(value, se, clusters, design, (table.ids, psi), deal_sets)


def moment_estimate(moments: dict, statistic: Statistic, deal_sets: int) -> Estimate:
    """A deal-level statistic of a run written before blocks of deal sets, from its sums and
    second moments over seat-deals (each one observation, the variance times the games per deal
    set: ``compare``'s module doc)."""
    n, deff = moments["n"], moments["deff"]
    if n < 2 or not all(column in moments["sum"] for column in statistic.columns):
        return Estimate(math.nan, math.nan, int(n), SEAT_DEALS, deal_sets=deal_sets)
    sums = np.array([moments["sum"][c] for c in statistic.columns])
    mean = sums / n
    with np.errstate(all="ignore"):
        value = float(statistic.function(mean))
    if not math.isfinite(value):
        return Estimate(math.nan, math.nan, int(n), SEAT_DEALS, deal_sets=deal_sets)
    size = len(statistic.columns)
    second = np.array(
        [
            [moments["cross"].get((a, b), 0.0) for b in statistic.columns]
            for a in statistic.columns
        ]
    ) / n
    covariance = (second - np.outer(mean, mean)) * n / (n - 1)
    slope = np.nan_to_num(gradient(statistic.function, mean))
    variance = float(slope @ covariance @ slope) / n * deff if size else math.nan
    return Estimate(value, math.sqrt(max(variance, 0.0)), int(n / deff), SEAT_DEALS,
                    deal_sets=deal_sets)


def interval(difference: float, se: float, df: float, level: float) -> tuple[float, float, float]:
    """(low, high, two-sided p-value) of a t interval at ``level``; an exact difference (se 0)
    is its own interval."""
    if se == 0 and math.isfinite(difference):  # no spread at all: the difference is exact
        return difference, difference, (1.0 if difference == 0 else 0.0)
    if not math.isfinite(se) or not math.isfinite(df) or df < 1:
        return math.nan, math.nan, math.nan
    half = float(t_quantile(df, level)) * se
    p_value = float(t_two_sided_p(difference / se, df))
    return difference - half, difference + half, p_value
