"""The outcome measures each game and deal records for the balance profile: the swing bound of a
deal (``RulePlan.swing_bounds``), a game's comeback and the deals left when it was decided
(``engine.batch.result.drama_of``), and the deals each seat topped (``deal_stats.top_credit``).

The bound is checked against the classic preset's text (made 10 a trick, undertrick -10 a missing
trick: a deal of h cards spans 20·h) and, as a property, against played games of every kind of
scoring the presets hold (premiums, Joker fines): no deal ever moves the gap between two seats by
more than its bound, and a game called decided is won by the seat that led it then. Comeback and
decided are checked on hand-made totals whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest
from raspis.engine.batch.game import play_batch
from raspis.engine.batch.result import drama_of
from raspis.engine.core.plan import rule_plan
from raspis.engine.variant import load_variant
from raspis.strategies.batch import load_batch_strategy
from raspis.tournament.batch_shard import game_seeds


def _totals(rows: list[list[int]]) -> np.ndarray:
    """One game's running totals after each deal, as ``drama_of`` takes them: (1, D, P)."""
    return np.array(rows, dtype=np.int64)[None]


def test_classic_deals_span_twenty_points_a_card_as_its_score_table_says() -> None:
    """classic.toml: a made bid scores 10 a trick and an undertrick -10 a missing trick, so a
    deal of h cards spans from -10·h (bid h, took none) to 10·h (bid h, made it); the golden deal
    pays 20 a trick (0 .. 20·h) and misère -10 a trick (-10·h .. 0); a kind's multiplier (the
    dark and no-trump deals' factor) multiplies its span; no fines, no premium."""
    variant = load_variant("classic").for_player_count(4)
    plan = rule_plan(variant, 4)
    expected = []
    for spec in plan.schedule:
        per_card = {"golden": 20, "misere": 10}.get(spec.kind, 20)
        expected.append(per_card * spec.hand_size * variant.kinds[spec.kind].multiplier)
    assert plan.swing_bounds.tolist() == expected


@pytest.mark.parametrize("name", ["classic", "joker", "georgian", "odessa", "oh-hell"])
def test_no_deal_moves_a_gap_by_more_than_its_bound_and_decided_games_stay_decided(
        name: str) -> None:
    """Played games (fastheuristic and lowest) of presets with premiums (joker), fines and
    special deals: every deal of the schedule changes the gap between every two seats by at most
    its swing bound, and a game decided with deals left is won by the seat that led it then."""
    players = 4
    variant = load_variant(name).for_player_count(players)
    plan = rule_plan(variant, players)
    strategies = [load_batch_strategy(spec) for spec in
                  ("fastheuristic", "lowest", "fastheuristic", "lowest")]
    result = play_batch(variant, players, game_seeds(5, np.arange(150)), strategies,
                        np.tile(np.arange(players), (150, 1)))
    totals = result.totals_after_each_deal()
    schedule = plan.schedule_length
    gained = np.diff(np.concatenate([np.zeros_like(totals[:, :1]), totals], axis=1), axis=1)
    gaps = np.abs(gained[:, :schedule, :, None] - gained[:, :schedule, None, :]).max(axis=(2, 3))
    assert (gaps <= plan.swing_bounds[None, :]).all()
    comeback, decided_left = drama_of(totals, result.deal_played, result.places,
                                      plan.swing_bounds)
    for game in np.flatnonzero(decided_left > 0):
        at = totals[game, schedule - decided_left[game] - 1]
        assert result.places[game, int(np.argmax(at))] == 1
        assert (at == at.max()).sum() == 1
    assert comeback.dtype == bool and (decided_left >= 0).all()


def test_a_winner_behind_with_a_third_of_the_deals_left_is_a_comeback() -> None:
    """Six deals: a third of them is left after the fourth. Seat 2 trails after it and wins."""
    rows = [[10, 0, 0], [20, 5, 0], [30, 10, 5], [40, 10, 20], [40, 15, 45], [40, 15, 60]]
    played = np.ones((1, 6), dtype=bool)
    places = np.array([[2, 3, 1]])
    comeback, _ = drama_of(_totals(rows), played, places, np.full(6, 100))
    assert comeback.tolist() == [True]


def test_a_winner_leading_or_tied_for_the_lead_then_is_no_comeback() -> None:
    rows = [[10, 0, 0], [20, 5, 0], [30, 10, 5], [40, 10, 40], [40, 15, 45], [40, 15, 60]]
    played = np.ones((1, 6), dtype=bool)
    comeback, _ = drama_of(_totals(rows), played, np.array([[2, 3, 1]]), np.full(6, 100))
    assert comeback.tolist() == [False]  # tied for the lead after deal 4
    led = [[10, 0, 0], [20, 5, 0], [30, 10, 5], [40, 10, 20], [50, 15, 45], [60, 15, 50]]
    comeback, _ = drama_of(_totals(led), played, np.array([[1, 3, 2]]), np.full(6, 100))
    assert comeback.tolist() == [False]


def test_a_game_is_decided_when_the_lead_exceeds_what_the_deals_left_can_swing() -> None:
    """Swing 10 a deal, five deals. After deal 2 the lead is 25 with three deals (30) left: not
    decided; after deal 3 it is 25 with two (20) left: decided with 2 deals left. A lead equal
    to the swing left is not decided (the chaser could tie)."""
    swings = np.full(5, 10)
    played = np.ones((1, 5), dtype=bool)
    rows = [[10, 0], [25, 0], [25, 0], [25, 5], [30, 5]]
    _, left = drama_of(_totals(rows), played, np.array([[1, 2]]), swings)
    assert left.tolist() == [2]
    level = [[10, 0], [20, 0], [20, 0], [20, 10], [30, 10]]  # 20 with 2 left, 10 with 1 left
    _, left = drama_of(_totals(level), played, np.array([[1, 2]]), swings)
    assert left.tolist() == [0]
    early = [[45, 0], [45, 5], [50, 5], [55, 5], [60, 5]]  # 45 > 40 after the first deal
    _, left = drama_of(_totals(early), played, np.array([[1, 2]]), swings)
    assert left.tolist() == [4]


def test_a_game_that_stopped_early_has_no_comeback_and_is_not_decided_by_unplayed_deals() -> None:
    rows = [[0, 100, 0], [0, 100, 0], [0, 100, 0], [0, 100, 0], [0, 100, 0], [0, 100, 0]]
    played = np.array([[True, True, False, False, False, False]])
    comeback, left = drama_of(_totals(rows), played, np.array([[2, 1, 2]]), np.full(6, 10))
    assert comeback.tolist() == [False] and left.tolist() == [5]  # decided after deal 1
    played = np.array([[False] * 6])
    comeback, left = drama_of(_totals(rows), played, np.array([[2, 1, 2]]), np.full(6, 10))
    assert comeback.tolist() == [False] and left.tolist() == [0]
