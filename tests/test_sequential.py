"""The sequential test of ``raspis settle`` (``raspis.analysis.sequential``), its guarantees
measured by vectorised simulation of the statistic with the actual round schedule and stopping
rule (thousands of sequences in a second or two), not by playing games: an A/A comparison is
declared different in at most 1 - level of the sequences, alone and as a family; the bounds at
the stop cover the true difference in at least level of them; a real difference is found, in
the right direction; and no difference is called equivalent when it exceeds the margin."""

from __future__ import annotations

import math

import numpy as np
import pytest
from raspis.analysis.sequential import (
    DIFFERENT,
    EQUIVALENT,
    Family,
    half_width,
    mixing_variance,
    more_needed,
    schedule,
    simulate,
)

ROUNDS = schedule(2000, 50, 25)
SEQUENCES = 4000


def test_the_half_width_is_the_papers_formula_worked_by_hand() -> None:
    """Waudby-Smith et al.'s asymptotic sequence at alpha = 0.05 tuned for 1,000 units: rho² =
    (-2 ln 0.05 + ln(-2 ln 0.05 + 1)) / 1000 = 0.0079357..., and after 1,000 units with sd 2 the
    half-width is 2·sqrt(2·(1000ρ² + 1)/(1000²ρ²)·ln(sqrt(1000ρ² + 1)/0.05)) = 0.19190..."""
    rho2 = mixing_variance(0.05, 1000)
    assert rho2 == pytest.approx((5.991464547 + math.log(6.991464547)) / 1000, rel=1e-9)
    by_hand = 2 * math.sqrt(2 * (1000 * rho2 + 1) / (1000**2 * rho2)
                            * math.log(math.sqrt(1000 * rho2 + 1) / 0.05))
    assert float(half_width(1000, 2.0, 0.05, rho2)) == pytest.approx(by_hand, rel=1e-12)
    assert by_hand == pytest.approx(0.1919, abs=5e-4)
    # wider than the fixed-size t interval (the price of looking at every round) and shrinking
    assert by_hand > 1.96 * 2 / math.sqrt(1000)
    assert float(half_width(4000, 2.0, 0.05, rho2)) < by_hand
    assert math.isinf(float(half_width(1, 2.0, 0.05, rho2)))


def test_rounds_are_whole_shards_growing_to_the_budget() -> None:
    assert schedule(2000, 50, 25) == [50, 100, 200, 400, 800, 1600, 2000]
    assert schedule(100, 10, 10, growth=1.5) == [10, 20, 30, 50, 80, 100]
    assert schedule(7, 50, 25) == [7]
    for rounds in (schedule(10_000, 40, 125), schedule(333, 1, 7, 1.3)):
        assert rounds == sorted(set(rounds)) and all(r % 125 == 0 or r == rounds[-1]
                                                     for r in rounds if rounds[-1] == 10_000)


@pytest.mark.parametrize("kind", ["normal", "heavy tails", "skewed"])
def test_an_a_a_comparison_is_called_different_at_most_alpha_of_the_time(kind: str) -> None:
    """Per-deal-set differences of mean 0 (normal, Student t with 3 degrees of freedom, and a
    skewed 0/1 share): looked at after every round of the settle schedule, the sequence
    excludes 0 in at most 5% of 4,000 sequences at level 95%; ten repeated 95% t intervals,
    stopped at the first exclusion, do so far more often (the optional stopping the sequence
    prevents)."""
    rng = np.random.default_rng(11)
    if kind == "normal":
        data = rng.normal(0.0, 1.0, (SEQUENCES, ROUNDS[-1]))
    elif kind == "heavy tails":
        data = rng.standard_t(3, (SEQUENCES, ROUNDS[-1]))
    else:
        data = (rng.random((SEQUENCES, ROUNDS[-1])) < 0.1) - 0.1
    result = simulate(data, ROUNDS, Family(0.05, 1, ROUNDS[-1]))
    assert np.mean(result["decision"] == DIFFERENT) <= 0.05
    sums = np.cumsum(data, axis=1)
    squares = np.cumsum(data**2, axis=1)
    naive = np.zeros(SEQUENCES, dtype=bool)
    for t in ROUNDS:
        mean = sums[:, t - 1] / t
        sd = np.sqrt((squares[:, t - 1] - t * mean**2) / (t - 1))
        naive |= np.abs(mean) > 1.96 * sd / np.sqrt(t)
    assert naive.mean() > 0.10  # what peeking at fixed intervals does


def test_a_family_of_null_differences_is_held_to_alpha_as_a_whole() -> None:
    """Six differences of a question, all null, each at alpha/6: the chance that any of them is
    called different stays at most alpha."""
    rng = np.random.default_rng(12)
    family = Family(0.05, 6, ROUNDS[-1])
    any_different = np.zeros(1000, dtype=bool)
    for _ in range(6):
        result = simulate(rng.normal(0.0, 1.0, (1000, ROUNDS[-1])), ROUNDS, family)
        any_different |= result["decision"] == DIFFERENT
    assert any_different.mean() <= 0.05


@pytest.mark.parametrize("effect", [0.05, 0.15, 0.4])
def test_the_bounds_at_the_stop_cover_the_true_difference(effect: float) -> None:
    """With a known difference, the sequence's bounds at the stop (decided or at the budget)
    contain it in at least 95% of the sequences, though the estimate at the stop leans away
    from 0 (a test stops when the estimate happens to look large)."""
    rng = np.random.default_rng(13)
    result = simulate(rng.normal(effect, 1.0, (SEQUENCES, ROUNDS[-1])), ROUNDS,
                      Family(0.05, 1, ROUNDS[-1]))
    covered = (result["low"] <= effect) & (effect <= result["high"])
    assert covered.mean() >= 0.95
    stopped = result["decision"] == DIFFERENT
    if 0.1 < stopped.mean() < 0.99:
        assert np.median(result["estimate"][stopped]) > effect  # biased away from 0


def test_a_real_difference_is_found_in_its_direction_and_sooner_when_larger() -> None:
    rng = np.random.default_rng(14)
    family = Family(0.05, 1, ROUNDS[-1])
    medians = []
    for effect in (-0.2, 0.4):
        result = simulate(rng.normal(effect, 1.0, (2000, ROUNDS[-1])), ROUNDS, family)
        found = result["decision"] == DIFFERENT
        assert found.mean() > 0.95
        assert np.all(np.sign(result["estimate"][found]) == np.sign(effect))
        medians.append(np.median(result["units"]))
    assert medians[1] < medians[0] < ROUNDS[-1]


def test_equivalence_within_the_margin_and_never_beyond_it() -> None:
    """A margin of 0.2: a null difference is mostly called equivalent, never different beyond
    alpha; a difference of 0.3 (beyond the margin) is never called equivalent."""
    rng = np.random.default_rng(15)
    family = Family(0.05, 1, ROUNDS[-1], margin=0.2)
    null = simulate(rng.normal(0.0, 1.0, (2000, ROUNDS[-1])), ROUNDS, family)
    assert np.mean(null["decision"] == EQUIVALENT) > 0.9
    assert np.mean(null["decision"] == DIFFERENT) <= 0.05
    beyond = simulate(rng.normal(0.3, 1.0, (2000, ROUNDS[-1])), ROUNDS, family)
    assert np.mean(beyond["decision"] == EQUIVALENT) <= 0.05


def test_what_more_an_undecided_difference_would_need() -> None:
    """The deal sets at which the half-width would fall below the estimate: more for a smaller
    estimate, none for 0 without a margin, the current count when it already would."""
    rho2 = mixing_variance(0.05, 2000)
    small = more_needed(2000, 0.05, 2.0, 0.05, rho2, None)
    large = more_needed(2000, 0.1, 2.0, 0.05, rho2, None)
    assert small > large > 2000
    assert float(half_width(large, 2.0, 0.05, rho2)) < 0.1 <= float(
        half_width(large - 1, 2.0, 0.05, rho2))
    assert math.isinf(more_needed(2000, 0.0, 2.0, 0.05, rho2, None))
    assert more_needed(2000, 0.5, 2.0, 0.05, rho2, None) == 2000  # already enough
