"""Bidding: order, the dealer's hook and its options, the pass limit, dark deals, the overbid rule.

Hook examples are the seeds' own (000 l.179, 000 l.273, 002 l.31); the pass limit is 003
l.21; the dark rules are 003 l.68 and l.71 (docs/rules.md cites each line by topic).
"""

from __future__ import annotations

from typing import Any

import pytest
from raspis.engine import (
    Bid,
    Game,
    IllegalActionError,
    Phase,
    load_variant,
    variant_from_dict,
)
from raspis.engine.variant import Variant


def hands_for(variant: Variant, players: int, size: int) -> list[int]:
    """``players`` hands of ``size`` cards taken from the variant's deck in a fixed order."""
    cards = sorted(variant.deck_cards)
    assert players * size <= len(cards)
    hands = [0] * players
    for position in range(players * size):
        hands[position % players] |= 1 << cards[position]
    return hands


def legal_bids(game: Game) -> list[int]:
    assert game.phase == Phase.BID
    return [action.tricks for action in game.legal_actions()]


def single(variant: Variant | str, players: int, size: int, **options: Any) -> Game:
    if isinstance(variant, str):
        variant = load_variant(variant)
    return Game.single_deal(variant, hands_for(variant, players, size), trump=0, **options)


# -- order -------------------------------------------------------------------------------------


def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last() -> None:
    # 000-A4 «первым объявляет о своей взятке игрок, который сидит слева от сдающего, таким образом
    # сдающий говорит своё слово последним».
    game = single("classic", 4, 3, dealer=2)
    seen = []
    while game.phase == Phase.BID:
        seen.append(game.to_move)
        game.apply(Bid(0) if game.to_move != 2 else Bid(1))
    assert seen == [3, 0, 1, 2]


def test_every_bid_from_pass_to_the_hand_size() -> None:
    # 002-RP: «от одной до максимального числа карт на руках. Также можно «пасовать»».
    game = single("classic", 4, 6)
    assert legal_bids(game) == [0, 1, 2, 3, 4, 5, 6]


def test_an_illegal_bid_is_refused_with_the_legal_ones_listed() -> None:
    game = single("classic", 3, 9, dealer=0, bids=[5, 3])
    with pytest.raises(IllegalActionError) as error:
        game.apply(Bid(1))
    assert "bid 2" in str(error.value)


# -- the hook ------------------------------------------------------------------------------------


def test_hook_000_a4_three_players_nine_cards_five_plus_three() -> None:
    # 000-A4 l.179 «в игре на 3 человека было сдано по 9 карт, и игроки ... заказали 8 взяток
    # (5 + 3), то сдающий не имеет права заказать 1 взятку».
    game = single("classic", 3, 9, dealer=0)
    assert legal_bids(game) == list(range(10))  # seat 1: free
    game.apply(Bid(5))
    assert legal_bids(game) == list(range(10))  # seat 2: free, even if it reaches 9 with the 5
    game.apply(Bid(3))
    assert game.to_move == 0
    assert legal_bids(game) == [0, 2, 3, 4, 5, 6, 7, 8, 9]


def test_hook_000_a5_six_cards_others_five() -> None:
    # 000-A5 l.273 «на предпоследнем игроке сумма взяток равна 5, а всего карт в раздаче 6.
    # Это значит, что последний игрок не может сказать 1» (pass, 2 and more are open).
    game = single("classic", 4, 6, dealer=3, bids=[2, 2, 1])
    assert game.to_move == 3
    assert legal_bids(game) == [0, 2, 3, 4, 5, 6]


def test_hook_002_rp_four_players_six_cards_two_each() -> None:
    # 002-RP l.31 «при игре вчетвером и раздаче по 6 карт каждый игрок заказал по 2 взятки. В
    # этом случае сдающий уже не имеет права на пас, он обязан заказать хотя бы 1 взятку».
    game = single("classic", 4, 6, dealer=0, bids=[2, 2, 2])
    assert legal_bids(game) == [1, 2, 3, 4, 5, 6]


def test_hook_off_lets_the_dealer_make_the_bids_meet() -> None:
    # «сходимся» (003 l.67, 004 l.30): the dealer may bid anything.
    variant = variant_from_dict({"extends": "classic", "bidding": {"hook": "off"}})
    game = single(variant, 3, 9, dealer=0, bids=[5, 3])
    assert legal_bids(game) == list(range(10))
    game.apply(Bid(1))
    assert sum(game.bids) == 9  # type: ignore[arg-type]


def test_hook_never_binds_when_the_others_already_bid_more_than_the_tricks() -> None:
    game = single("classic", 3, 4, dealer=0, bids=[3, 3])
    assert legal_bids(game) == [0, 1, 2, 3, 4]


def play_on(game: Game) -> None:
    """Finish the current deal: the first legal action each time."""
    deal = game.view.deal_index
    while not game.is_over() and game.view.deal_index == deal:
        game.apply(game.legal_actions()[0])


def test_hook_from_the_fourth_deal() -> None:
    # 003 l.69 «сдающий может делать любую заявку в торговле до третьей раздачи включительно».
    variant = variant_from_dict({"extends": "classic",
                                 "bidding": {"hook": "from_deal", "hook_from_deal": 4}})
    game = Game(variant, players=3, seed=2)
    for deal_number in range(1, 7):
        size = game.deal.hand_size
        assert game.deal.number + 1 == deal_number
        while game.to_move != game.view.order[-1]:
            game.apply(Bid(0))
        expected = list(range(size + 1)) if deal_number <= 3 else list(range(size))
        assert legal_bids(game) == expected, deal_number
        play_on(game)


def test_hook_only_in_special_deals() -> None:
    # 003 l.21 «(Как вариант, принцип «не сходимся» обязателен только в специальных раздачах:
    # «золотая», «тёмная», «безкозырная» и др.)».
    variant = variant_from_dict({"extends": "odessa", "bidding": {"hook": "specials_only"}})
    normal = single(variant, 3, 4, dealer=0, bids=[1, 1])
    assert legal_bids(normal) == [0, 1, 2, 3, 4]
    for kind in ("dark", "no_trump"):
        special = single(variant, 3, 4, dealer=0, kind=kind, bids=[1, 1])
        assert legal_bids(special) == [0, 1, 3, 4], kind


def test_classic_dark_deal_lets_the_bids_meet() -> None:
    # 000-A4 «В тёмную ... Общая сумма взяток может быть равна количеству возможных взяток».
    game = single("classic", 4, 9, dealer=0, kind="dark", bids=[2, 2, 2])
    assert legal_bids(game) == list(range(10))
    normal = single("classic", 4, 9, dealer=0, bids=[2, 2, 2])
    assert 3 not in legal_bids(normal)


def test_a_deal_kind_can_force_the_hook_when_the_variant_has_none() -> None:
    variant = variant_from_dict({"extends": "classic", "bidding": {"hook": "off"},
                                 "kinds": {"no_trump": {"hook": "always"}}})
    game = single(variant, 3, 4, dealer=0, kind="no_trump", bids=[1, 1])
    assert legal_bids(game) == [0, 1, 3, 4]


# -- the pass limit ------------------------------------------------------------------------------


def pass_limit_game(schedule: list[str]) -> Game:
    """Odessa (no more than two passes in a row) at three players, seat 0 dealing first."""
    variant = variant_from_dict(
        {"extends": "odessa", "schedule": {"deals": schedule}, "table": {"first_dealer": "seat0"}}
    )
    return Game(variant, players=3, seed=1)


def bid_round(game: Game, bids: dict[int, int]) -> None:
    """Each seat bids as given, in bidding order; then the deal is played out."""
    while game.phase == Phase.BID:
        game.apply(Bid(bids[game.to_move]))
    play_on(game)


def test_no_more_than_two_passes_in_a_row() -> None:
    # 003 l.21 «нельзя заказывать "пас" больше двух раз подряд».
    game = pass_limit_game(["2*3"])
    bid_round(game, {1: 0, 2: 0, 0: 0})  # dealer 0: others 0 of 2, so the pass is open
    bid_round(game, {2: 0, 0: 0, 1: 0})  # dealer 1
    assert game.view.dealer == 2 and game.to_move == 0
    assert legal_bids(game) == [1, 2]  # seat 0 passed twice in a row
    game.apply(Bid(1))
    assert legal_bids(game) == [1, 2]  # so did seat 1
    game.apply(Bid(1))
    assert legal_bids(game) == [1, 2]  # the dealer: the hook bars 0 anyway


def test_pass_limit_exception_for_the_dealer_of_a_one_card_deal() -> None:
    # 003 l.21 «Исключением является ситуация, когда играется кон с одной картой и раздающий
    # вынужден пасовать третий раз подряд, чтобы сумма взяток не была равна одному».
    game = pass_limit_game(["2*2", "1"])
    bid_round(game, {1: 1, 2: 0, 0: 0})  # dealer 0
    bid_round(game, {2: 0, 0: 1, 1: 0})  # dealer 1; seat 2 has now passed twice in a row
    assert game.view.dealer == 2 and game.deal.hand_size == 1
    game.apply(Bid(0))  # seat 0: one pass
    game.apply(Bid(0))  # seat 1: second pass in a row, allowed
    assert game.to_move == 2
    assert legal_bids(game) == [0]  # third pass: bid 1 would make the bids meet


def test_pass_limit_binds_a_non_dealer_on_a_one_card_deal() -> None:
    # 003 l.21 excepts only the dealer («раздающий вынужден пасовать третий раз подряд»): a
    # player who passed twice bids 1 on one card.
    game = pass_limit_game(["1*3"])
    bid_round(game, {1: 0, 2: 0, 0: 0})
    bid_round(game, {2: 0, 0: 0, 1: 0})
    assert game.view.dealer == 2 and game.to_move == 0
    assert legal_bids(game) == [1]


def test_a_bid_resets_the_pass_count() -> None:
    game = pass_limit_game(["2*4"])
    bid_round(game, {1: 0, 2: 0, 0: 0})
    bid_round(game, {2: 0, 0: 1, 1: 0})  # seat 0 breaks the run
    assert game.to_move == 0
    assert legal_bids(game) == [0, 1, 2]


# -- dark deals ------------------------------------------------------------------------------------


def test_dark_deal_without_the_pass() -> None:
    # 003 l.68 «На «темных» нельзя заказывать «пас», или заказывать кол-во взяток меньше
    # числа оговоренного заранее, например 2».
    variant = variant_from_dict({"extends": "odessa", "kinds": {"dark": {"min_bid": 1}}})
    game = single(variant, 3, 6, dealer=0, kind="dark")
    assert legal_bids(game) == [1, 2, 3, 4, 5, 6]
    two = variant_from_dict({"extends": "odessa", "kinds": {"dark": {"min_bid": 2}}})
    game = single(two, 3, 6, dealer=0, kind="dark")
    assert legal_bids(game) == [2, 3, 4, 5, 6]
    game.apply(Bid(2))
    game.apply(Bid(2))
    assert legal_bids(game) == [3, 4, 5, 6]  # the dealer: 2 is barred by the hook
    normal = single(two, 3, 6, dealer=0)
    assert legal_bids(normal)[0] == 0


def test_dark_bids_are_made_without_seeing_the_cards() -> None:
    # 004 l.19 «игроки торгуются не после сдачи, а до нее, не смотря в свои карты».
    variant = load_variant("odessa")
    hands = hands_for(variant, 3, 4)
    game = Game.single_deal(variant, hands, trump=0, dealer=0, kind="dark")
    for seat in range(3):
        seen = game.observation(seat)
        assert seen.hand_hidden and seen.hand == 0
    for bid in (1, 1, 1):
        game.apply(Bid(bid))
    assert game.phase == Phase.PLAY
    for seat in range(3):
        seen = game.observation(seat)
        assert not seen.hand_hidden and seen.hand == hands[seat]


def test_overbid_on_dark_deals_three_players_twelve_cards() -> None:
    # 003 l.71 «при игре втроем, когда двое заказали по 3, он должен объявить минимум 7, а не 5
    # или меньше» - read as: the bids must exceed the tricks (docs/rules.md#hook, `overbid`), 12
    # cards.
    variant = variant_from_dict({"extends": "odessa", "kinds": {"dark": {"hook": "overbid"}}})
    game = single(variant, 3, 12, dealer=0, kind="dark")
    assert legal_bids(game) == list(range(13))  # the first bidders are free
    game.apply(Bid(3))
    assert legal_bids(game) == list(range(13))
    game.apply(Bid(3))
    assert legal_bids(game) == [7, 8, 9, 10, 11, 12]
    # On a normal deal of the same variant the usual hook holds: 6 barred, 5 or less allowed.
    normal = single(variant, 3, 12, dealer=0, bids=[3, 3])
    assert legal_bids(normal) == [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]


def test_overbid_on_every_deal() -> None:
    # 003 l.71 «Опционально такое правило допустимо применять на любых раздачах».
    variant = variant_from_dict({"extends": "odessa", "bidding": {"hook": "overbid"}})
    game = single(variant, 3, 12, dealer=0, bids=[3, 3])
    assert legal_bids(game) == [7, 8, 9, 10, 11, 12]
    game = single(variant, 4, 6, dealer=0, bids=[1, 2, 1])
    assert legal_bids(game) == [3, 4, 5, 6]


# -- no bidding ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["golden", "misere"])
def test_golden_and_misere_deals_skip_the_bidding(kind: str) -> None:
    # 000-A4 «Игроки не делают заказов на количество взяток».
    game = single("classic", 4, 3, dealer=0, kind=kind)
    assert game.phase == Phase.PLAY
    assert game.bids == [None, None, None, None]
    assert game.to_move == 1


def test_overbid_that_cannot_be_met_falls_back_to_the_hook() -> None:
    # 003 l.71 (docs/rules.md#hook): when the others bid nothing, no bid of 0..12 makes the bids
    # exceed 12 tricks; the rule's aim («в темных заведомо будет «недобор»») cannot be met, so at
    # least the bids must not meet: any bid but 12.
    variant = variant_from_dict({"extends": "odessa", "kinds": {"dark": {"hook": "overbid"}}})
    game = single(variant, 3, 12, dealer=0, kind="dark", bids=[0, 0])
    assert legal_bids(game) == list(range(12))
