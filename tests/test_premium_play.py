"""The premium in the built-in strategies' objective: «The Georgian Joker premium in
every built-in strategy's objective: heuristic, ev, pimc, ismcts ... play for the premium when the
variant has one». 002: «Если игрок взял объявленное число взяток во всех раздачах, то ему
начисляются премиальные очки».

The strategies follow the span from what a seat sees
(``strategies.players.heuristic.PremiumTracker``); these tests check what they follow against the
game's own results, and that the stake changes the bids the way the premium asks."""

from __future__ import annotations

import random

import pytest
from raspis.engine import Game, load_variant, variant_from_dict
from raspis.engine.core.plan import rule_plan
from raspis.strategies.players.ev import ExpectedValueStrategy
from raspis.strategies.players.heuristic import HeuristicStrategy, PremiumOutlook
from raspis.strategies.players.ismcts import IsmctsStrategy
from raspis.strategies.players.tactics import best_bid, premium_stake, rules_for, staked_table


def _truth(game: Game, number: int) -> tuple[list[bool], list[int | None]]:
    """From the game's results: per seat, whether it made every bid of the span before deal
    ``number``, and its best deal of those deals."""
    plan = rule_plan(game.variant, game.players)
    schedule = plan.schedule
    start = number
    while start > 0 and not plan.premium_window(start, schedule[start].block)[0]:
        start -= 1
    live = [True] * game.players
    best: list[int | None] = [None] * game.players
    for result in game.results[start:number]:
        for seat in range(game.players):
            bid = result.bids[seat]
            live[seat] = live[seat] and (bid is None or bid == result.taken[seat])
            points = result.points[seat]
            best[seat] = points if best[seat] is None else max(best[seat], points)
    return live, best


@pytest.mark.parametrize(("preset", "players", "seed"), [
    ("joker-pagat", 4, 1), ("joker-pagat", 3, 2), ("joker", 4, 3),
])
def test_the_tracker_follows_the_span_as_the_game_scores_it(preset: str, players: int,
                                                           seed: int) -> None:
    """At every decision, each heuristic seat's view of who has made every bid of the span so
    far (and their best deal) is what the game's results say."""
    variant = load_variant(preset).for_player_count(players)
    game = Game(variant, players, seed=seed)
    seats = [HeuristicStrategy(premium=True) for _ in range(players)]
    for seat, strategy in enumerate(seats):
        strategy.start_game(variant, seat, players, random.Random(seat))
    checked = 0
    while not game.is_over():
        seat = game.to_move
        number = game.view.deal_index
        action = seats[seat].act(game.observation(seat))
        tracker = seats[seat]._tracker
        assert tracker is not None
        live, best = _truth(game, number)
        assert tracker.live == live, (number, seat)
        assert [best[s] if live[s] else None for s in range(players)] == [
            tracker.best[s] if live[s] else None for s in range(players)], (number, seat)
        checked += any(live) and number > 0
        game.apply(action)
    assert checked > 0


def test_a_lead_fine_does_not_hide_a_made_bid() -> None:
    """Joker-52 fines a Joker lead (002: -10); a seat that led the Joker and made its bid still
    keeps the premium in reach."""
    variant = variant_from_dict({"extends": "joker-52", "scoring": {
        "premium": "best_deal", "premium_scope": "block"}}).for_player_count(3)
    for seed in range(3):
        game = Game(variant, 3, seed=seed)
        seats = [HeuristicStrategy(premium=True) for _ in range(3)]
        for seat, strategy in enumerate(seats):
            strategy.start_game(variant, seat, 3, random.Random(seat))
        while not game.is_over():
            seat = game.to_move
            number = game.view.deal_index
            action = seats[seat].act(game.observation(seat))
            assert seats[seat]._tracker.live == _truth(game, number)[0]  # type: ignore[union-attr]
            game.apply(action)


def test_the_stake_is_the_best_deal_kept_in_reach() -> None:
    """002's premium as the preset reads it, «the player's best deal score once more»: on the last
    deal of a span, making the bid is worth the best deal of the span (this one included) more;
    earlier, that times the chance of making the later bids."""
    rules = rules_for(load_variant("joker-pagat"))
    assert premium_stake(rules, 300, 150, 0, 0.6) == 300
    assert premium_stake(rules, 100, 150, 0, 0.6) == 150
    assert premium_stake(rules, None, 200, 2, 0.5) == pytest.approx(50)
    fixed = rules_for(variant_from_dict({"extends": "joker", "scoring": {
        "premium": "fixed", "premium_points": 500}}))
    assert premium_stake(fixed, 900, 150, 1, 0.5) == pytest.approx(250)
    assert premium_stake(rules_for(load_variant("classic")), 100, 50, 0, 0.6) == 0


def test_with_the_premium_in_reach_the_last_deal_of_a_set_is_bid_safely() -> None:
    """Georgian Joker, last deal of a set, the seat has made every bid so far with a best deal
    of 450; its four cards take 1, 2 or 3 tricks with chances 0.1, 0.5, 0.4. For the deal's
    points alone the bid of 3 is best (0.4 x 200 + 0.5 x 20 + 0.1 x 10 = 91 against 88 for 2);
    with 450 more for a made bid, the likelier bid of 2 is (88 + 0.5 x 450 against 91 + 0.4 x
    450)."""
    rules = rules_for(load_variant("joker-pagat"))
    table = rules.points("normal", 4)
    distribution = [0.0, 0.1, 0.5, 0.4, 0.0]
    assert best_bid(distribution, [0, 1, 2, 3, 4], table)[0] == 3
    outlook = PremiumOutlook([True] * 4, [450] * 4, 0, 0.6)
    staked = outlook.table(rules, "normal", 4, 0)
    assert staked == staked_table(table, [450.0] * 5)
    assert best_bid(distribution, [0, 1, 2, 3, 4], staked)[0] == 2
    # a seat that already missed a bid of the span plays for the deal's points only
    missed = PremiumOutlook([False, True, True, True], [450] * 4, 0, 0.6)
    assert best_bid(distribution, [0, 1, 2, 3, 4], missed.table(rules, "normal", 4, 0))[0] == 3


def test_the_heuristic_ev_and_ismcts_play_for_it_by_default() -> None:
    """Every built-in: «heuristic, ev, pimc, ismcts ... play for the premium when the variant has
    one»; ``premium=false`` is the play the games of ``tests/golden`` were recorded with."""
    assert ExpectedValueStrategy().premium and IsmctsStrategy().premium
    assert HeuristicStrategy().premium
    assert not HeuristicStrategy(premium=False).premium


@pytest.mark.parametrize("factory", [
    lambda **o: HeuristicStrategy(**{"premium": True, **o}),
    lambda **o: ExpectedValueStrategy(samples=3, **o),
    lambda **o: IsmctsStrategy(iterations=12, bid_samples=3, **o),
])
def test_premium_false_plays_for_the_deals_points_only(factory) -> None:  # noqa: ANN001
    """``premium`` = false keeps no tracker and plays as the strategy did before the premium
    came into its objective; with it the strategy follows the span (``docs/strength.md``
    measures what that is worth)."""
    variant = load_variant("joker-pagat").for_player_count(4)
    off = factory(premium=False)
    on = factory()
    assert on.premium and not off.premium
    game = Game(variant, 4, seed=5)
    players = [on, off, factory(), factory(premium=False)]
    for seat, strategy in enumerate(players):
        strategy.start_game(variant, seat, 4, random.Random(seat))
    while not game.is_over() and game.view.deal_index < 12:
        seat = game.to_move
        game.apply(players[seat].act(game.observation(seat)))
    assert getattr(off, "_tracker", None) is None
    assert on._tracker is not None
