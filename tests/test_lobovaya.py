"""Lobovaya ("лобовая") read as three of the four texts describe it: one card of each hand shown.

Seed 000 (second article, l.98): «Лобовая. Каждому игроку раздаются карты и выбирается козырь.
Сразу в карты смотреть запрещено. Покеристы наугад выбирают одну карту и клеят ее себе на лоб. Не
зная ее, но при этом видя карты других игроков, они заказывают взятки.» Seed 002 (l.47): «Каждому
игроку сдаются карты, показывается козырь. Не глядя в свои карты, игрок показывает ее остальным
участникам игры ... Не видя своей карты, но зная карты других, игроки заказывают взятки.» Seed 003
(l.51): «Не глядя в свой набор, нужно продемонстрировать противникам карту из него.»

``KindOptions.view = "forehead_card"``; the built-in ``lobovaya`` keeps 000's fifth article's
whole-hand reading (``"forehead"``) because the golden corpus plays it; the ``classic-lobovaya``
preset plays the one-card reading.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import (
    Bid,
    Game,
    Phase,
    VariantError,
    load_variant,
    parse_card,
    parse_cards,
    variant_from_dict,
)
from raspis.engine import rng as chance
from raspis.engine.batch import play_batch
from raspis.engine.determinize import Determinizer, HandSampler, resample
from raspis.engine.events import CardsShown
from raspis.strategies import load_strategy, play_game
from raspis.strategies.batch import ScalarAdapter, load_batch_strategy
from raspis.strategies.players.heuristic import bid_distribution
from raspis.strategies.players.tactics import rules_for

SHORT = variant_from_dict({"name": "lobovaya-short", "extends": "classic-lobovaya",
                           "schedule": {"deals": ["2", "max lobovaya", "3 lobovaya", "1"]}})
#: the same schedule under 000's fifth article's reading (every card shown while bidding)
WHOLE = variant_from_dict({"name": "lobovaya-whole", "extends": "classic-lobovaya",
                           "schedule": {"deals": ["2", "max lobovaya", "3 lobovaya", "1"]},
                           "kinds": {"lobovaya": {"view": "forehead"}}})


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def to_lobovaya_bid(variant=SHORT, players: int = 4, seed: int = 5) -> Game:  # noqa: ANN001
    """A game at the first bid of its first lobovaya deal (the first legal action before it)."""
    game = Game(variant, players, seed)
    while not (game.deal.kind == "lobovaya" and game.phase == Phase.BID):
        game.apply(game.legal_actions()[0])
    return game


def test_the_preset_and_the_built_in_kind_take_their_readings() -> None:
    """The built-in ``lobovaya`` keeps the whole-hand reading of 000's fifth article («показывает
    остальным свои карты»): the golden corpus's option mixes play it. ``classic-lobovaya`` plays
    the one card of 000's second article, 002 and 003, at the end of the game (000 «в конце игры
    для разряжения атмосферы», 002 «обычно в конце затяжной игры»)."""
    assert load_variant("classic").kinds["lobovaya"].view == "forehead"
    preset = load_variant("classic-lobovaya")
    assert preset.kinds["lobovaya"].view == "forehead_card"
    schedule = preset.deal_schedule(4)
    kinds = [spec.kind for spec in schedule]
    assert kinds[-4:] == ["lobovaya"] * 4 and "lobovaya" not in kinds[:-4]
    assert [spec.kind for spec in load_variant("classic").deal_schedule(4)] == kinds[:-4]


def test_the_own_hand_is_hidden_while_bidding_and_the_trump_is_seen() -> None:
    """000: «Сразу в карты смотреть запрещено ... Не зная ее ... они заказывают взятки»; 002:
    «показывается козырь. Не глядя в свои карты»: while bidding, no card of the own hand is seen,
    the trump is."""
    game = to_lobovaya_bid()
    while game.phase == Phase.BID:
        seen = game.observation(game.to_move)
        assert seen.hand == 0 and seen.hand_hidden
        assert seen.trump == game.view.trump and not seen.trump_hidden
        game.apply(game.legal_actions()[0])
    assert game.phase == Phase.PLAY
    for seat in range(4):  # after bidding the hand is seen as usual
        seen = game.observation(seat)
        assert seen.hand == game.view.hands[seat] and not seen.hand_hidden


def test_each_seat_sees_one_card_of_every_other_hand_and_none_of_its_own() -> None:
    """000: «наугад выбирают одну карту и клеят ее себе на лоб. Не зная ее, но при этом видя карты
    других игроков»; 002: «Не видя своей карты, но зная карты других»; 003: «продемонстрировать
    противникам карту из него»: one card each, really in the holder's hand, the same card for
    every onlooker, never seen by its holder."""
    for seed in range(6):
        game = to_lobovaya_bid(seed=seed)
        views = [game.observation(seat).other_hands for seat in range(4)]
        for seat in range(4):
            assert views[seat][seat] is None, "a seat saw its own forehead card"
            for other in range(4):
                if other == seat:
                    continue
                card = views[seat][other]
                assert card is not None and popcount(card) == 1
                assert card & game.view.hands[other] == card, "the shown card is not in its hand"
                assert card == game.view.shown[other]
        assert all(popcount(cards) == 1 for cards in game.view.shown)


def test_the_shown_card_is_drawn_at_random_from_the_deal_own_key() -> None:
    """«наугад» (000): the card is drawn at random, from the game's seeded chance: the first of
    the holder's cards in the order of ``engine.rng.shuffled`` with the deal's own key
    (``rng.forehead_key``); the same seed shows the same cards, and the draw changes no other draw
    of the game (the same choices deal the same hands and trumps as the whole-hand reading)."""
    lowest = 0
    for seed in range(12):
        game = to_lobovaya_bid(seed=seed)
        key = chance.forehead_key(seed, game.deal.number)
        for seat in range(4):
            cards = [card for card in range(54) if game.view.hands[seat] >> card & 1]
            assert game.view.shown[seat] == 1 << chance.shuffled(cards, key)[0]
            lowest += game.view.shown[seat] == 1 << cards[0]
        assert to_lobovaya_bid(seed=seed).view.shown == game.view.shown
    assert lowest < 48, "the shown card is always the lowest card: not drawn at random"
    shown = [event for event in game.log if isinstance(event, CardsShown)]
    assert shown[-1].shown == tuple(game.view.shown)  # the log says what each seat showed
    assert len(shown) == 1 and "shown -- 0: " in str(shown[0])  # the normal deal before: none
    for seed in (3, 4):
        one, whole = Game(SHORT, 4, seed), Game(WHOLE, 4, seed)
        while not one.is_over():
            action = one.legal_actions()[-1]
            one.apply(action)
            whole.apply(action)
        events = [event for event in one.log if not isinstance(event, CardsShown)]
        assert events == whole.log and one.scores == whole.scores


def test_the_shown_cards_stay_known_after_bidding_until_played() -> None:
    """Everyone saw the cards (000 «видя карты других игроков»): after the bids they are still
    known to the others, as long as their holders keep them; a played one is gone (0)."""
    played_one = False
    for seed in range(4):
        game = to_lobovaya_bid(seed=seed)
        shown = list(game.view.shown)
        number = game.deal.number
        while game.deal.number == number and not game.is_over():
            if game.phase == Phase.PLAY:
                for seat in range(4):
                    others = game.observation(seat).other_hands
                    assert others[seat] is None
                    for other in range(4):
                        if other != seat:
                            assert others[other] == shown[other] & game.view.hands[other]
                            played_one |= others[other] == 0
            game.apply(game.legal_actions()[0])
    assert played_one
    game = Game(SHORT, 4, 0)
    while game.deal.kind != "lobovaya":
        assert game.observation(0).other_hands == (None,) * 4  # a normal deal shows nothing
        game.apply(game.legal_actions()[0])


def test_single_deal_and_the_search_games_carry_the_shown_cards() -> None:
    """A deal set up by hand draws the shown cards as any deal does, or takes them; a search game
    built from an observation keeps the cards the seat saw in their holders' hands, in every
    guess, while bidding and in play."""
    hands = [parse_cards("As Kd 9h"), parse_cards("Ac 7h 6d"), parse_cards("Qs Js 8c")]
    deal = Game.single_deal(SHORT, hands, trump=0, kind="lobovaya")
    assert all(popcount(shown) == 1 and shown & hand == shown
               for shown, hand in zip(deal.view.shown, hands, strict=True))
    chosen = [1 << parse_card("Kd"), 1 << parse_card("Ac"), 1 << parse_card("8c")]
    deal = Game.single_deal(SHORT, hands, trump=0, kind="lobovaya", shown=chosen)
    assert deal.observation(0).other_hands == (None, chosen[1], chosen[2])
    with pytest.raises(Exception, match="within the seat's hand"):
        Game.single_deal(SHORT, hands, trump=0, kind="lobovaya", shown=[chosen[1]] * 3)
    rng = random.Random(1)
    game = to_lobovaya_bid(seed=2)
    for _ in range(2):  # while bidding, then in play after the first trick
        seat = game.to_move
        seen = game.observation(seat)
        sampler = HandSampler(seen)
        determinizer = Determinizer(seen)
        for _ in range(20):
            guess = sampler.sample(rng)
            for other, cards in enumerate(seen.other_hands):
                if cards is not None:
                    assert guess[other] & cards == cards
            search = determinizer.game(guess)
            assert search.observation(seat).other_hands == seen.other_hands
        assert resample(seen, rng).observation(seat).other_hands == seen.other_hands
        while game.phase == Phase.BID or len(game.trick) or not sum(game.view.taken):
            game.apply(game.legal_actions()[0])


@pytest.mark.parametrize("spec", ["heuristic", "ev:samples=4", "pimc:samples=3,bid_samples=2",
                                  "ismcts:iterations=30", "strong", "random"])
def test_the_strategies_play_the_lobovaya_deals_legally(spec: str) -> None:
    """Every strategy bids with its hand hidden and the others' cards shown, and plays on."""
    record = play_game(SHORT, 3, 11, [load_strategy(spec) for _ in range(3)])
    assert record.fault is None, record.fault


def test_the_heuristic_bids_from_the_cards_the_others_show() -> None:
    """The others showing the top trumps leave fewer tricks to a hidden hand than the others
    showing low cards of plain suits (the heuristic's expected tricks, ``bid_distribution``)."""
    rules = rules_for(SHORT.for_player_count(3))
    def expected(shown: str) -> float:
        cards = [1 << card for card in [parse_card(text) for text in shown.split()]]
        others = (None, *cards)
        chances = bid_distribution(rules, 0, None, others, 0, 6, (0, 1, 2), 2, 0)
        return sum(count * chance for count, chance in enumerate(chances))
    assert expected("As Ks") < expected("6h 6d")


def test_the_lockstep_batch_refuses_and_the_compiled_batch_plays_the_reference_games() -> None:
    """The numpy lockstep engine has no shown cards in its observations, so it refuses the
    option; the compiled batch runs the rules core's machine and plays the very games of the
    reference engine (fastheuristic, strong and their scalar twins)."""
    seeds = [3, 8, 2**40 + 1]
    # classic-lobovaya's Joker as any card (000 l.307) is refused there too: the shown cards
    # are checked on the same deals with that option off
    plain_joker = variant_from_dict({"name": "lobovaya-short-plain", "extends": "classic-lobovaya",
                                     "schedule": SHORT.schedule.model_dump(),
                                     "joker": {"as_card": False}})
    with pytest.raises(VariantError, match="forehead_card.*lockstep"):
        play_batch(plain_joker, 4, seeds, [ScalarAdapter("random")])  # a seat not compiled
    with pytest.raises(VariantError, match="as_card"):
        play_batch(SHORT, 4, seeds, [ScalarAdapter("random")])
    for name, twin in (("fastheuristic", "fastheuristic"), ("strong", "strong")):
        result = play_batch(SHORT, 4, np.array(seeds, dtype=np.uint64),
                            [load_batch_strategy(name)])
        assert not result.errored.any()
        for index, seed in enumerate(seeds):
            game = play_game(SHORT, 4, seed, [load_strategy(twin) for _ in range(4)]).game
            for deal in game.results:
                bids = [-1 if bid is None else bid for bid in deal.bids]
                assert result.bid[index, deal.number].tolist() == bids
                assert result.points[index, deal.number].tolist() == list(deal.points)
            assert result.scores[index].tolist() == game.scores


def test_forehead_card_needs_bids_after_the_deal() -> None:
    """The card is shown after the deal and before the bids: a dark deal (bids before the deal)
    or a deal without bids has no such moment."""
    with pytest.raises(VariantError, match="forehead_card"):
        variant_from_dict({"name": "bad", "extends": "classic",
                           "kinds": {"dark": {"view": "forehead_card"}}})


def test_variants_show_lists_the_new_value() -> None:
    result = CliRunner().invoke(cli, ["variants", "show", "classic-lobovaya", "--players", "4"])
    assert result.exit_code == 0, result.output
    assert "kinds.lobovaya.view = 'forehead_card'" in result.output
    assert "forehead_card: at the deal each player" in result.output
    game = Game(load_variant("classic-lobovaya"), 4, 1)
    while game.deal.kind != "lobovaya":
        game.apply(game.legal_actions()[0])
    assert game.phase == Phase.BID and isinstance(game.legal_actions()[0], Bid)
