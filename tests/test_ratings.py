"""The Plackett-Luce ratings (``analysis.ratings``): the maximum-likelihood fit checked against an
independent implementation (choix), its intervals by vectorised simulation, ties, separation,
and the counts that feed it."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from raspis.analysis.dataset import run_from_frames
from raspis.analysis.ranking import plackett_luce_ratings
from raspis.analysis.ratings import Orders, fit, rate
from raspis.analysis.synthetic import synthetic_games
from raspis.tournament.schema import empty_frame
from raspis.tournament.totals import order_counts

THETA = np.array([0.6, 0.2, 0.0, -0.8])


def _simulated_orders(theta: np.ndarray, deal_sets: int, rng: np.random.Generator,
                      seat_sd: float = 0.0) -> Orders:
    """A duplicate run drawn from Plackett-Luce (Gumbel-max: sorting theta plus Gumbel noise
    draws a Plackett-Luce order): each deal set played in every rotation of the slots, a seat's
    luck ``seat_sd`` shared by the deal set's games; 64 blocks of deal sets."""
    players = theta.size
    rotation = (np.arange(players)[None, :] + np.arange(players)[:, None]) % players
    seat_luck = rng.normal(0.0, seat_sd, (deal_sets, 1, players))  # per deal set and seat
    slot_at_seat = np.broadcast_to(rotation, (deal_sets, players, players))
    utility = theta[slot_at_seat] + seat_luck + rng.gumbel(size=(deal_sets, players, players))
    order = np.take_along_axis(slot_at_seat, np.argsort(-utility, axis=-1), axis=-1)
    blocks = np.repeat(np.arange(deal_sets) * 64 // deal_sets, players)
    codes = (order.reshape(-1, players) * players ** np.arange(players)).sum(axis=1)
    keys, counts = np.unique(np.stack([blocks, codes]), axis=1, return_counts=True)
    slots = (keys[1][:, None] // players ** np.arange(players)) % players
    return Orders(np.arange(players), slots, counts.astype(float), keys[0])


def _centred(theta: np.ndarray) -> np.ndarray:
    return theta - theta.mean()


def test_the_fit_agrees_with_choix_on_single_games() -> None:
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(1)
    utility = THETA + rng.gumbel(size=(400, THETA.size))
    rankings = np.argsort(-utility, axis=1)
    expected = _centred(choix.opt_rankings(THETA.size, list(rankings), alpha=0.0))
    orders = Orders(np.arange(THETA.size), rankings, np.ones(len(rankings)),
                    np.arange(len(rankings)) % 64)
    theta, _ = fit(orders, prior_sd=math.inf)
    assert np.allclose(theta, expected, atol=1e-5)


def test_intervals_cover_the_planted_strengths() -> None:
    rng = np.random.default_rng(2)
    z, covered, total = 1.959964, 0, 0
    for _ in range(250):
        theta, covariance = fit(_simulated_orders(THETA, 160, rng))
        se = np.sqrt(np.diag(covariance))
        covered += int((np.abs(theta - _centred(THETA)) <= z * se).sum())
        total += THETA.size
    assert 0.92 <= covered / total <= 0.98


def test_clustered_errors_follow_the_spread_of_the_estimates_when_games_share_cards() -> None:
    # seat luck shared by a deal set's rotations: the games of a deal set are not independent, so
    # the model's standard error (inverse information) is wrong and the clustered one is not
    rng = np.random.default_rng(3)
    estimates, clustered, naive = [], [], []
    for _ in range(200):
        orders = _simulated_orders(THETA, 160, rng, seat_sd=2.0)
        theta, covariance = fit(orders)
        estimates.append(theta)
        clustered.append(np.sqrt(np.diag(covariance)))
        model = Orders(orders.items, orders.slots, orders.weights, np.zeros_like(orders.clusters))
        naive.append(np.sqrt(np.diag(fit(model)[1])))
    spread = np.std(estimates, axis=0, ddof=1)
    assert np.all(np.abs(np.mean(clustered, axis=0) / spread - 1.0) < 0.15)
    assert np.all(np.mean(naive, axis=0) / spread > 1.3)  # the test can tell the two apart


def test_shared_places_count_every_order_of_the_tied_slots() -> None:
    counts = pl.DataFrame({"deal_block": [0, 0], "order": ["0,1,2", "1,0,2"],
                           "places": ["1,1,3", "1,1,3"], "games": [30, 10]})
    orders = Orders.from_counts(counts)
    assert orders.weights.sum() == 40
    assert sorted(orders.weights.tolist()) == [5.0, 5.0, 15.0, 15.0]
    table = rate(counts)
    ratings = dict(zip(table["lineup_slot"].to_list(), table["rating"].to_list(), strict=True))
    assert ratings[0] == pytest.approx(ratings[1], abs=1e-6) and ratings[0] > ratings[2]


def test_a_slot_first_in_every_game_has_no_bounded_interval() -> None:
    # no game tells how much stronger slot 0 is: the MLE does not exist (Hunter 2004), the prior
    # keeps the rating finite and the interval says that nothing bounds it
    counts = pl.DataFrame({"deal_block": [0, 1, 2, 3], "order": ["0,1,2", "0,2,1"] * 2,
                           "places": ["1,2,3"] * 4, "games": [50, 50, 50, 50]})
    table = rate(counts).sort("lineup_slot")
    assert table["rating"].is_finite().all()
    assert table["rating"][0] > table["rating"][1] + 400
    assert table["rating_low"].is_infinite().all() and table["rating_high"].is_infinite().all()
    # one game that slot 0 lost connects the slots both ways: every interval is bounded again
    lost = pl.concat([counts, pl.DataFrame({"deal_block": [4], "order": ["1,0,2"],
                                            "places": ["1,2,3"], "games": [1]})])
    assert rate(lost)["rating_se"].is_finite().all()


def test_elo_scale_reads_as_the_odds_of_finishing_ahead() -> None:
    # two slots, a 3:1 order: exp(theta_0 - theta_1) = 3, so 400·log10(3) points apart
    counts = pl.DataFrame({"deal_block": [0, 1], "order": ["0,1", "1,0"],
                           "places": ["1,2", "1,2"], "games": [300, 100]})
    table = rate(counts, prior_sd=math.inf).sort("lineup_slot")
    assert table["rating"][0] - table["rating"][1] == pytest.approx(400 * math.log10(3), 1e-6)


def test_order_counts_count_each_game_once_by_its_finishing_order() -> None:
    games = pl.DataFrame({"variant_hash": ["v"] * 9, "errored": [False] * 9,
                          "game_id": [0, 0, 0, 1, 1, 1, 2, 2, 2],
                          "deal_set": [0, 0, 0, 0, 0, 0, 40, 40, 40],
                          "lineup_slot": [0, 1, 2, 0, 1, 2, 0, 1, 2],
                          "place": [2, 1, 3, 2, 1, 3, 1, 1, 3]})
    counts = order_counts(games.lazy(), total_deal_sets=64).collect().sort("deal_block")
    assert counts.drop("variant_hash").rows() == [(0, "1,0,2", "1,2,3", 2),
                                                  (40, "0,1,2", "1,1,3", 1)]


def test_run_ratings_use_every_game_whatever_the_row_order() -> None:
    games = synthetic_games(300, strategy_effect={"a": 60.0, "b": 20.0, "c": 0.0, "d": -80.0},
                            duplicate=True, noise_sd=40.0, seed=7)
    first = plackett_luce_ratings(run_from_frames(games, empty_frame("deal_stats")))
    shuffled = games.sample(fraction=1.0, shuffle=True, seed=1)
    second = plackett_luce_ratings(run_from_frames(shuffled, empty_frame("deal_stats")))
    assert first.equals(second)
    assert first["strategy"].to_list() == ["a", "b", "c", "d"]
    assert first["games_rated"].to_list() == [1200] * 4
    assert abs(sum(first["rating"].to_list())) < 1e-6
