"""Confidence sequences for a difference measured round after round: look at every round, stop
when the answer is clear, and keep the error rate that was promised.

A t interval at 95% excludes 0 by chance 5% of the time *once*; looked at after every round and
stopped at the first exclusion, it does so far more often (optional stopping). A *confidence
sequence* holds at every time at once: P(for all t, d in C_t) >= 1 - alpha, so a test may stop
whenever C_t excludes 0, or lies inside a margin, and its error stays at most alpha.

raspis uses the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and
Ramdas ("Time-uniform central limit theory and asymptotic confidence sequences", arXiv
2103.06476, Annals of Statistics 2024): for the mean of t i.i.d. units with sample mean m_t and
sample sd s_t,

    C_t = m_t ± s_t · sqrt( 2 (t ρ² + 1) / (t² ρ²) · ln( sqrt(t ρ² + 1) / α ) ),

two-sided with total error α (Robbins' normal mixture over N(0, ρ²) and Ville's inequality), the
CLT's anytime analogue. ρ tunes where the sequence is tightest: ρ² = (-2 ln α + ln(-2 ln α + 1)) /
t* for a target t* (the budget). The unit is the deal set, as in ``compare``: the difference of a
statistic between two variants is a smooth function of their per-deal-set totals, and its
per-deal-set influences (``estimates``) are the units whose sd s_t the sequence uses around the
estimate (the delta method's linearisation, as the asymptotic sequence's CLT does).

Many differences at once (every variant and lineup, every measure of a profile group): each
sequence is run at α/K (Bonferroni). A union bound holds at every time, so the family's chance of
any false "different" stays at most α however the rounds go; e-BH (Wang and Ramdas 2022) would
control the false discovery rate, which is weaker than this for the few differences a question
has, and needs e-values the asymptotic sequence does not give.

Decisions, per difference: ``different`` when the sequence excludes 0 (with its direction),
``equivalent`` when it lies inside ±margin (no difference that matters), ``undecided`` at the
budget. A decision, once made, stands (the sequence stays valid, and reporting its later bounds
changes nothing). The estimate at the stop is biased away from 0 (a test stops when it happens to
look large); raspis reports it with the sequence's bounds, which cover the true difference with
the promised probability at the stop as at any time (Fishtest corrects its Elo for this bias with
a model of the stopped test; raspis states the bias instead).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: What a difference was decided to be.
DIFFERENT, EQUIVALENT, UNDECIDED = "different", "equivalent", "undecided"


def mixing_variance(alpha: float, target: int) -> float:
    """ρ² of the normal mixture that makes the sequence tightest near ``target`` units (the
    closed-form approximation of Waudby-Smith et al.)."""
    log = -2.0 * math.log(alpha)
    return (log + math.log(log + 1.0)) / max(1, target)


def half_width(units: np.ndarray | int, sd: np.ndarray | float, alpha: float,
               rho2: float) -> np.ndarray:
    """The half-width of the asymptotic confidence sequence after ``units`` units with sample
    sd ``sd``, at error ``alpha`` (vectorised; inf below 2 units)."""
    t = np.asarray(units, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = 2.0 * (t * rho2 + 1.0) / (t * t * rho2) * np.log(np.sqrt(t * rho2 + 1.0) / alpha)
        width = np.asarray(sd, dtype=float) * np.sqrt(inside)
    return np.where(t >= 2, width, np.inf)


def decide(estimate: np.ndarray, half: np.ndarray, margin: float | None) -> np.ndarray:
    """Each difference's decision from its sequence ``estimate ± half``: ``different`` when it
    excludes 0, ``equivalent`` when it lies inside ±``margin``, "" (still open) otherwise."""
    estimate = np.asarray(estimate, dtype=float)
    half = np.asarray(half, dtype=float)
    out = np.full(estimate.shape, "", dtype=object)
    finite = np.isfinite(estimate) & np.isfinite(half)
    out[finite & (np.abs(estimate) > half)] = DIFFERENT
    if margin is not None and margin > 0:
        inside = finite & (np.abs(estimate) + half < margin)
        out[inside & (out == "")] = EQUIVALENT
    return out


def schedule(budget: int, first: int, step: int, growth: float = 2.0) -> list[int]:
    """The deal sets played by the end of each round: ``first``, then growing by ``growth`` each
    round (each a multiple of ``step``, the shard size, so a round adds whole shards), ending
    at ``budget``."""
    if budget < 1 or step < 1:
        raise ValueError("the budget and the step must be at least 1")
    rounds: list[int] = []
    current = max(step, math.ceil(first / step) * step)
    while current < budget:
        rounds.append(current)
        current = max(current + step, math.ceil(current * growth / step) * step)
    rounds.append(budget)
    return rounds


def more_needed(units: int, estimate: float, sd: float, alpha: float, rho2: float,
                margin: float | None) -> float:
    """About how many units in all a sequence with this estimate and sd would need to decide
    (exclude 0, or fit inside ±margin), if both stayed as they are; inf when it never would."""
    goals = []
    if estimate != 0:
        goals.append(abs(estimate))
    if margin is not None and margin > abs(estimate):
        goals.append(margin - abs(estimate))
    if not goals or not (math.isfinite(sd) and sd > 0):
        return math.inf if sd > 0 else float(units)
    goal = max(goals)
    if units >= 2 and float(half_width(units, sd, alpha, rho2)) < goal:
        return float(units)
    low, high = max(2, units), max(4, units * 2)
    while float(half_width(high, sd, alpha, rho2)) >= goal:
        low, high = high, high * 2
        if high > 10**12:
            return math.inf
    while high - low > 1:
        middle = (low + high) // 2
        if float(half_width(middle, sd, alpha, rho2)) < goal:
            high = middle
        else:
            low = middle
    return float(high)


@dataclass(frozen=True)
class Family:
    """The sequences of a question's K differences: each at ``alpha / K`` (Bonferroni, see the
    module doc), tightest near ``target`` deal sets, with the equivalence ``margin``."""

    alpha: float
    differences: int
    target: int
    margin: float | None = None

    @property
    def each(self) -> float:
        """The error each sequence runs at."""
        return self.alpha / max(1, self.differences)

    @property
    def rho2(self) -> float:
        """The mixture's ρ²."""
        return mixing_variance(self.each, self.target)

    def bounds(self, units: np.ndarray | int, estimate: np.ndarray,
               sd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of each difference's sequence."""
        half = half_width(units, sd, self.each, self.rho2)
        estimate = np.asarray(estimate, dtype=float)
        return estimate - half, estimate + half

    def decisions(self, units: np.ndarray | int, estimate: np.ndarray,
                  sd: np.ndarray) -> np.ndarray:
        """Each difference's decision now ("" while open)."""
        return decide(estimate, half_width(units, sd, self.each, self.rho2), self.margin)


def simulate(differences: np.ndarray, rounds: Sequence[int], family: Family) -> dict:
    """The stopping rule run on simulated sequences: ``differences`` (S, N) holds N per-deal-set
    differences for each of S sequences (a fast model of what settle measures). At the end of
    each round the sequence of each is checked, and a decided one stops (its decision, the deal
    sets it took, its estimate and bounds at the stop); one still open at the last round is
    undecided. Returns arrays of ``decision``, ``units``, ``estimate``, ``low``, ``high``."""
    count = differences.shape[0]
    decision = np.full(count, UNDECIDED, dtype=object)
    units = np.full(count, rounds[-1], dtype=np.int64)
    estimate = np.full(count, np.nan)
    low, high = np.full(count, np.nan), np.full(count, np.nan)
    open_ = np.ones(count, dtype=bool)
    sums = np.cumsum(differences, axis=1)
    squares = np.cumsum(differences**2, axis=1)
    for index, t in enumerate(rounds):
        mean = sums[:, t - 1] / t
        sd = np.sqrt(np.maximum(squares[:, t - 1] - t * mean**2, 0.0) / max(t - 1, 1))
        lo, hi = family.bounds(t, mean, sd)
        said = family.decisions(t, mean, sd)
        stop = open_ & ((said != "") | (index == len(rounds) - 1))
        decision[stop & (said != "")] = said[stop & (said != "")]
        units[stop] = t
        estimate[stop], low[stop], high[stop] = mean[stop], lo[stop], hi[stop]
        open_ &= ~stop
    return {"decision": decision, "units": units, "estimate": estimate, "low": low,
            "high": high}
