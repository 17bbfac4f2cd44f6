"""Intervals and tests of raspis.analysis, checked by simulation on synthetic data with known
answers: coverage of the mean-score and Wilson intervals, a planted seat advantage found and
covered, and the rejection rate of the 'all seats equal' test under the null near its level."""

from __future__ import annotations

import math

import numpy as np
import pytest
from raspis.analysis import run_from_frames, seat_effects, seat_equality_test, strategy_ranking
from raspis.analysis.intervals import (
    hotelling_test,
    mean_interval_from_moments,
    t_quantile,
    welch_difference,
    wilson_interval,
)
from raspis.analysis.synthetic import synthetic_deal_stats, synthetic_games
from scipy import stats

_, EMPTY_DEALS = synthetic_deal_stats(2, hand_sizes=(1,))


def _run(games):  # noqa: ANN001, ANN202
    from raspis.analysis.synthetic import deal_stats_from_deals

    return run_from_frames(games, deal_stats_from_deals(EMPTY_DEALS))


def _binomial_band(trials: int, p: float, sigmas: float = 3.0) -> tuple[float, float]:
    sd = math.sqrt(p * (1 - p) / trials)
    return p - sigmas * sd, p + sigmas * sd


def test_wilson_interval_matches_the_textbook_formula() -> None:
    low, high = wilson_interval([7], [20], 0.95)
    z = stats.norm.ppf(0.975)
    p, n = 7 / 20, 20
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert low[0] == pytest.approx(centre - half) and high[0] == pytest.approx(centre + half)
    zero_low, zero_high = wilson_interval([0], [50])
    assert zero_low[0] == 0 and 0 < zero_high[0] < 0.1


def test_wilson_interval_covers_about_95_percent() -> None:
    generator = np.random.default_rng(1)
    trials, p, repeats = 60, 0.3, 4000
    successes = generator.binomial(trials, p, repeats)
    low, high = wilson_interval(successes, np.full(repeats, trials))
    coverage = np.mean((low <= p) & (p <= high))
    lower, upper = _binomial_band(repeats, 0.95)
    assert lower - 0.01 <= coverage <= upper  # Wilson is slightly conservative at n = 60


def test_mean_interval_from_moments_is_the_t_interval() -> None:
    generator = np.random.default_rng(2)
    x = generator.normal(3.0, 2.0, 25)
    result = mean_interval_from_moments([25], [x.sum()], [(x * x).sum()])
    half = t_quantile([24])[0] * x.std(ddof=1) / 5
    assert result["mean"][0] == pytest.approx(x.mean())
    assert result["low"][0] == pytest.approx(x.mean() - half)
    assert result["high"][0] == pytest.approx(x.mean() + half)
    # a design effect of 4 counts 25 observations as 6.25
    inflated = mean_interval_from_moments([25], [x.sum()], [(x * x).sum()], design_effect=4.0)
    assert inflated["se"][0] == pytest.approx(x.std(ddof=1) / math.sqrt(6.25))


def test_welch_difference_matches_scipy() -> None:
    generator = np.random.default_rng(3)
    a, b = generator.normal(1.0, 1.0, 30), generator.normal(0.0, 3.0, 50)
    result = welch_difference([30], [a.mean()], [a.var(ddof=1)], [50], [b.mean()], [b.var(ddof=1)])
    reference = stats.ttest_ind(a, b, equal_var=False)
    assert result["p_value"][0] == pytest.approx(reference.pvalue)
    assert result["difference"][0] == pytest.approx(a.mean() - b.mean())


def test_hotelling_reduces_to_the_paired_t_test_in_one_dimension() -> None:
    generator = np.random.default_rng(4)
    d = generator.normal(0.3, 1.0, 40)
    result = hotelling_test(40, np.array([d.mean()]), np.array([[d.var(ddof=1)]]))
    assert result["p_value"] == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue)


def test_mean_score_interval_covers_the_true_mean() -> None:
    effects = {"a": 25.0, "b": 0.0, "c": -10.0, "d": -15.0}
    repeats, covered = 150, 0
    for seed in range(repeats):
        games = synthetic_games(60, strategy_effect=effects, base=100.0, noise_sd=80.0, seed=seed)
        table = strategy_ranking(_run(games)).filter(strategy="a")
        covered += table["mean_score_low"][0] <= 125.0 <= table["mean_score_high"][0]
    lower, upper = _binomial_band(repeats, 0.95)
    assert lower <= covered / repeats <= upper


def test_mean_score_interval_covers_with_duplicate_card_luck() -> None:
    # every seating of a deal set shares strong card luck: only clustering by deal set covers
    effects = {"a": 25.0, "b": 0.0, "c": -10.0, "d": -15.0}
    repeats, covered = 150, 0
    for seed in range(repeats):
        games = synthetic_games(
            30, strategy_effect=effects, duplicate=True, card_sd=120.0, noise_sd=20.0, seed=seed
        )
        table = strategy_ranking(_run(games)).filter(strategy="a")
        covered += table["mean_score_low"][0] <= 25.0 <= table["mean_score_high"][0]
    lower, upper = _binomial_band(repeats, 0.95)
    assert lower <= covered / repeats <= upper


def test_win_rate_interval_covers_the_true_rate() -> None:
    probabilities = {"a": 0.4, "b": 0.3, "c": 0.2, "d": 0.1}
    repeats, covered = 150, {name: 0 for name in probabilities}
    for seed in range(repeats):
        games = synthetic_games(80, win_probabilities=probabilities, seed=seed)
        table = strategy_ranking(_run(games))
        for row in table.iter_rows(named=True):
            truth = probabilities[row["strategy"]]
            covered[row["strategy"]] += row["win_rate_low"] <= truth <= row["win_rate_high"]
    lower, upper = _binomial_band(repeats, 0.95)
    for name, count in covered.items():
        assert lower <= count / repeats <= upper, name


def test_planted_seat_advantage_is_found_and_covered() -> None:
    planted = [-30.0, 20.0, 5.0, 5.0]  # mean 0: the advantage of each position
    games = synthetic_games(
        400, position_effect=planted, duplicate=True, card_sd=60.0, noise_sd=60.0, seed=11
    )
    run = _run(games)
    table = seat_effects(run).sort("position")
    for row, truth in zip(table.iter_rows(named=True), planted, strict=True):
        assert row["score_advantage_low"] <= truth <= row["score_advantage_high"]
    assert table["score_advantage"][0] < -20  # the first dealer's handicap is clearly seen
    test = seat_equality_test(run).filter(measure="score")
    assert test["unequal"][0] and test["p_value"][0] < 1e-6
    assert seat_equality_test(run).filter(measure="win")["p_value"][0] < 0.05


def test_planted_seat_advantage_by_absolute_seat_is_not_confused() -> None:
    # the first dealer is random, so the absolute seat carries no effect
    games = synthetic_games(400, position_effect=[-30.0, 20.0, 5.0, 5.0], noise_sd=40.0, seed=12)
    table = seat_effects(_run(games), by="seat")
    assert (table["score_advantage"].abs() < 12).all()


@pytest.mark.parametrize("duplicate", [False, True])
def test_equal_seats_are_rejected_at_about_the_level(duplicate: bool) -> None:
    repeats = {"score": 0, "win": 0}
    trials = 200
    for seed in range(trials):
        games = synthetic_games(
            60,
            duplicate=duplicate,
            card_sd=80.0 if duplicate else 0.0,
            noise_sd=50.0,
            strategy_effect={"a": 40.0},
            seed=1000 + seed,
        )
        test = seat_equality_test(_run(games), alpha=0.05)
        for row in test.iter_rows(named=True):
            repeats[row["measure"]] += row["unequal"]
    for measure, count in repeats.items():
        rate = count / trials
        assert 0.015 <= rate <= 0.095, f"{measure}: rejection rate {rate} under the null"
