"""Strategy ranking on synthetic data with planted strategy effects: the paired difference is
recovered (and pairing removes the card luck), ratings are deterministic and order the strategies,
and luck-against-skill statistics match their models."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from raspis.analysis import (
    games_to_win,
    head_to_head,
    match_lengths,
    match_win_probability,
    paired_differences,
    plackett_luce_ratings,
    run_from_frames,
    strategy_ranking,
    variance_explained,
)
from raspis.analysis.synthetic import deal_stats_from_deals, synthetic_deal_stats, synthetic_games
from scipy import stats

EFFECTS = {"a": 30.0, "b": 10.0, "c": -10.0, "d": -30.0}
DEAL_STATS = deal_stats_from_deals(synthetic_deal_stats(2, hand_sizes=(1,))[1])


def _run(games: pl.DataFrame):  # noqa: ANN202
    return run_from_frames(games, DEAL_STATS)


def test_ranking_orders_the_planted_strategies_and_counts_games() -> None:
    games = synthetic_games(300, strategy_effect=EFFECTS, noise_sd=60.0, seed=3)
    table = strategy_ranking(_run(games))
    assert table["strategy"].to_list() == ["a", "b", "c", "d"]
    assert table["games"].to_list() == [300] * 4 and table["seat_games"].to_list() == [300] * 4
    assert (table["mean_place"].diff().drop_nulls() > 0).all()


def test_errored_games_are_left_out_and_counted() -> None:
    games = synthetic_games(50, seed=4)
    games = games.with_columns(errored=pl.col("game_id") < 5)
    table = strategy_ranking(_run(games))
    assert table["games"].to_list() == [45] * 4
    assert table["errored_games"].to_list() == [5] * 4


def test_paired_difference_is_recovered_and_pairing_removes_card_luck() -> None:
    games = synthetic_games(
        200, strategy_effect=EFFECTS, duplicate=True, card_sd=150.0, noise_sd=30.0, seed=5
    )
    table = paired_differences(_run(games))
    assert table.height == 6 and set(table["design"]) == {"duplicate"}
    for row in table.iter_rows(named=True):
        truth = EFFECTS[row["strategy_a"]] - EFFECTS[row["strategy_b"]]
        assert truth > 0  # oriented: A is the better
        assert row["mean_difference_low"] <= truth <= row["mean_difference_high"]
        # the card luck (sd 150) cancels: the spread is that of the game noise alone
        assert row["difference_sd"] < 2 * 30.0
    a_b = table.filter(strategy_a="a", strategy_b="b")
    assert a_b["p_value"][0] < 1e-6


def test_paired_difference_interval_covers_by_simulation() -> None:
    repeats, covered = 120, 0
    for seed in range(repeats):
        games = synthetic_games(
            25,
            strategy_effect=EFFECTS,
            duplicate=True,
            card_sd=100.0,
            noise_sd=40.0,
            seed=100 + seed,
        )
        row = paired_differences(_run(games)).filter(strategy_a="b", strategy_b="c")
        covered += row["mean_difference_low"][0] <= 20.0 <= row["mean_difference_high"][0]
    assert 0.90 <= covered / repeats <= 0.995


def test_same_game_design_without_duplicates() -> None:
    games = synthetic_games(200, strategy_effect=EFFECTS, noise_sd=30.0, seed=6)
    table = paired_differences(_run(games))
    assert set(table["design"]) == {"same game"}
    row = table.filter(strategy_a="a", strategy_b="d")
    assert row["mean_difference_low"][0] <= 60.0 <= row["mean_difference_high"][0]


def test_ratings_are_ordered_with_intervals_around_them() -> None:
    games = synthetic_games(150, strategy_effect=EFFECTS, noise_sd=40.0, seed=7)
    first = plackett_luce_ratings(_run(games))
    assert first["strategy"].to_list() == ["a", "b", "c", "d"]
    assert (first["rating_low"] < first["rating"]).all()
    assert (first["rating"] < first["rating_high"]).all()
    assert first["games_rated"].to_list() == [150] * 4


def test_repeated_strategy_gets_one_rating_per_lineup_slot() -> None:
    games = synthetic_games(40, strategies=("x", "x", "y"), seed=9)
    table = plackett_luce_ratings(_run(games))
    assert sorted(table["label"].to_list()) == ["x #0", "x #1", "y"]


def test_head_to_head_matches_the_normal_model() -> None:
    mu, sigma_each = 20.0, 50.0
    games = synthetic_games(
        3000,
        strategies=("strong", "weak"),
        strategy_effect={"strong": mu / 2, "weak": -mu / 2},
        noise_sd=sigma_each,
        seed=10,
    )
    row = head_to_head(_run(games)).row(0, named=True)
    sigma = sigma_each * math.sqrt(2)  # the difference of two independent seats' noise
    assert row["strategy_a"] == "strong"
    assert row["p_ahead_low"] <= stats.norm.cdf(mu / sigma) <= row["p_ahead_high"]
    assert row["mu_low"] <= mu <= row["mu_high"]
    assert row["sigma_game"] == pytest.approx(sigma, rel=0.05)
    assert row["sigma_duplicate"] is None


def test_match_models_and_games_to_win() -> None:
    # games model: binomial by hand, and the shortest match is odd
    p = 0.6
    for n in (1, 2, 3, 4, 7):
        by_hand = sum(
            math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if 2 * k > n
        )
        if n % 2 == 0:
            by_hand += 0.5 * math.comb(n, n // 2) * (p * (1 - p)) ** (n // 2)
        assert match_win_probability([n], p=p)[0] == pytest.approx(by_hand)
    n95 = games_to_win(0.95, p=p)
    lengths = np.arange(1, 200)
    probabilities = match_win_probability(lengths, p=p)
    assert n95 == lengths[np.argmax(probabilities >= 0.95)] and n95 % 2 == 1
    assert games_to_win(0.95, p=0.5) == math.inf and games_to_win(0.95, p=0.4) == math.inf
    # score model: n = ceil((z sigma / mu)^2)
    assert games_to_win(0.95, mu=10.0, sigma=100.0) == math.ceil((stats.norm.ppf(0.95) * 10) ** 2)
    assert games_to_win(0.95, mu=-1.0, sigma=10.0) == math.inf


def test_match_length_is_right_by_simulating_matches() -> None:
    mu, sigma_each = 15.0, 50.0
    games = synthetic_games(
        4000,
        strategies=("strong", "weak"),
        strategy_effect={"strong": mu / 2, "weak": -mu / 2},
        noise_sd=sigma_each,
        seed=11,
    )
    row = match_lengths(_run(games)).row(0, named=True)
    generator = np.random.default_rng(12)
    for column, model in (("games_model", "games"), ("score_model", "score")):
        n = int(row[column])
        differences = generator.normal(mu, sigma_each * math.sqrt(2), (4000, n))
        if model == "games":
            ahead = (differences > 0).sum(axis=1)
            wins = (ahead > n / 2) + 0.5 * (ahead == n / 2)
        else:
            wins = differences.sum(axis=1) > 0
        assert 0.925 <= wins.mean() <= 0.975, (model, n, wins.mean())
        assert row[f"{column}_low"] <= n <= row[f"{column}_high"]


def test_duplicate_match_needs_fewer_deal_sets_when_cards_dominate() -> None:
    games = synthetic_games(
        300,
        strategies=("strong", "weak"),
        strategy_effect={"strong": 10.0, "weak": -10.0},
        duplicate=True,
        card_sd=200.0,
        noise_sd=20.0,
        seed=13,
    )
    row = match_lengths(_run(games)).row(0, named=True)
    assert row["duplicate_deal_sets"] * 2 < row["score_model"]


def test_variance_explained_recovers_planted_shares() -> None:
    card_sd, noise_sd, players = 40.0, 50.0, 4
    games = synthetic_games(
        3000, strategy_effect=EFFECTS, duplicate=True, card_sd=card_sd, noise_sd=noise_sd, seed=14
    )
    row = variance_explained(_run(games)).row(0, named=True)
    strategy_variance = float(np.var(list(EFFECTS.values())))  # 500, population variance
    total = strategy_variance + card_sd**2 + noise_sd**2
    assert row["design"] == "duplicate"
    assert row["strategy_share"] == pytest.approx(strategy_variance / total, abs=0.01)
    assert row["cards_share"] == pytest.approx(
        (card_sd**2 + noise_sd**2 / players) / total, abs=0.02
    )
    luck_free = strategy_variance / (strategy_variance + noise_sd**2 * (1 - 1 / players))
    assert row["strategy_share_luck_free"] == pytest.approx(luck_free, abs=0.015)
    plain = variance_explained(_run(synthetic_games(500, strategy_effect=EFFECTS, seed=15)))
    assert plain["design"][0] == "plain" and plain["strategy_share_luck_free"][0] is None


def test_stats_ranks_in_words_with_pairwise_verdicts() -> None:
    """a, b, c, d planted 20 points a game apart (duplicate): a > b > c > d, each measured; two
    strategies planted equal cannot be told apart, and the sentence says how many games would."""
    from raspis.analysis import run_from_frames, stats_tables
    from raspis.analysis.ranking import ranking_verdicts
    from raspis.analysis.synthetic import synthetic_deal_stats, synthetic_games

    apart = run_from_frames(
        synthetic_games(200, duplicate=True, noise_sd=20.0, seed=3,
                        strategy_effect={"a": 30.0, "b": 10.0, "c": -10.0, "d": -30.0}),
        synthetic_deal_stats(4, seed=1)[0])
    tables = stats_tables([apart], ratings=False)
    lines = ranking_verdicts(tables["ranking"], tables["pairs"])
    assert lines[0].startswith("synthetic (run frames): a > b > c > d. a beats b by ")
    estimate = float(lines[0].split("a beats b by ")[1].split(" ")[0])
    assert 15.0 < estimate < 25.0
    assert "Benjamini-Hochberg" in lines[-1]
    equal = run_from_frames(
        synthetic_games(40, duplicate=True, noise_sd=40.0, seed=4,
                        strategy_effect={"a": 30.0, "b": 0.0, "c": 0.0, "d": -30.0}),
        synthetic_deal_stats(4, seed=1)[0])
    tables = stats_tables([equal], ratings=False)
    line = ranking_verdicts(tables["ranking"], tables["pairs"])[0]
    assert " ≈ " in line and "cannot be told apart at this size" in line
    assert "would tell them apart" in line or "no difference at all" in line


def test_the_pairs_table_shows_the_interval_the_verdict_states() -> None:
    """stats' sentence gave a pair's Benjamini-Hochberg interval and its table the
    unadjusted one (27.52 [-28.96, 84.01] against [-21.48, 76.53]). The table's intervals are the
    adjusted ones: each contains the unadjusted interval, p_adjusted is Benjamini-Hochberg worked
    by hand, measurable follows the interval, and the sentence's interval is the table's."""
    from raspis.analysis import run_from_frames, stats_tables
    from raspis.analysis.ranking import paired_differences, ranking_verdicts
    from raspis.analysis.synthetic import synthetic_deal_stats, synthetic_games
    from raspis.analysis.tables import display_frame

    run = run_from_frames(
        synthetic_games(40, duplicate=True, noise_sd=40.0, seed=4,
                        strategy_effect={"a": 30.0, "b": 0.0, "c": 0.0, "d": -30.0}),
        synthetic_deal_stats(4, seed=1)[0])
    pairs = stats_tables([run], ratings=False)["pairs"]
    raw = paired_differences(run)
    assert pairs.height == raw.height == 6
    joined = pairs.join(raw, on=["strategy_a", "strategy_b"], suffix="_raw")
    for row in joined.iter_rows(named=True):
        assert row["mean_difference_low"] <= row["mean_difference_low_raw"]
        assert row["mean_difference_high"] >= row["mean_difference_high_raw"]
        assert row["measurable"] == (row["mean_difference_low"] > 0
                                     or row["mean_difference_high"] < 0)
    p = np.array(raw["p_value"].to_list())
    order = np.argsort(p)
    by_hand = np.minimum.accumulate((p[order] * len(p) / np.arange(1, len(p) + 1))[::-1])[::-1]
    expected = dict(zip(zip(raw["strategy_a"].to_list(), raw["strategy_b"].to_list(),
                            strict=True),
                        np.empty(len(p)), strict=True))
    for rank, index in enumerate(order):
        expected[(raw["strategy_a"][int(index)], raw["strategy_b"][int(index)])] = min(
            by_hand[rank], 1.0)
    for row in pairs.iter_rows(named=True):
        assert row["p_adjusted"] == pytest.approx(expected[(row["strategy_a"], row["strategy_b"])])
    line = ranking_verdicts(stats_tables([run], ratings=False)["ranking"], pairs)[0]
    headers, rows = display_frame(pairs)
    cells = [row[headers.index("mean_difference [CI]")] for row in rows]
    stated = [cell for cell in cells if cell.split(" ", 1)[1] in line]
    assert len(stated) >= 2, (line, cells)
