"""Card play: following suit, trumping, every Joker call and restriction, and how trump is chosen.

Positions are set up with ``Game.single_deal`` and exact hands; the expected legal cards and trick
winners are worked out by hand from the quoted seed rule. Suits: 0 ♠, 1 ♣, 2 ♦, 3 ♥.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from raspis.engine import (
    Bid,
    Game,
    NameTrump,
    Phase,
    Play,
    load_variant,
    parse_card,
    parse_cards,
    rng,
    variant_from_dict,
)
from raspis.engine.cards import JOKER, JOKER2, card_str, is_joker, popcount, suit_of
from raspis.engine.errors import VariantError
from raspis.engine.variant import Variant

SPADES, CLUBS, DIAMONDS, HEARTS, NO_TRUMP = 0, 1, 2, 3, -1


def deal(variant: Variant | str, hands: list[str], trump: int, **options: Any) -> Game:
    """A single deal from hands written as text, bidding done (everyone passes, where legal)."""
    if isinstance(variant, str):
        variant = load_variant(variant)
    game = Game.single_deal(variant, [parse_cards(hand) for hand in hands], trump, **options)
    while game.phase == Phase.BID:
        bids = [action.tricks for action in game.legal_actions()]
        game.apply(Bid(bids[0]))
    assert game.phase == Phase.PLAY
    return game


def plain(game: Game) -> set[str]:
    """The ordinary cards the seat to move may play, as text."""
    return {card_str(action.card) for action in game.legal_actions()
            if isinstance(action, Play) and not is_joker(action.card)}


def joker_calls(game: Game) -> set[tuple[str | None, int]]:
    """The (call, suit) pairs a Joker may be played with now, but for the Joker declared as a
    named card (``call = "card"``: on in classic since 000 l.307 «джокер может быть выдан за
    любую карту»; ``named_cards`` and tests/test_joker_card.py)."""
    return {(action.call, action.suit) for action in game.legal_actions()
            if isinstance(action, Play) and is_joker(action.card) and action.call != "card"}


def named_cards(game: Game) -> set[tuple[int, int]]:
    """The (suit, rank) of every card the Joker may be declared as now."""
    return {(action.suit, action.rank) for action in game.legal_actions()
            if isinstance(action, Play) and is_joker(action.card) and action.call == "card"}


def play(game: Game, *cards: str) -> None:
    """Play cards in turn; a Joker is written 'JK high', 'JK highest s', 'JK2 low'."""
    for text in cards:
        words = text.split()
        card = parse_card(words[0])
        call = words[1] if len(words) > 1 else None
        suit = "scdh".index(words[2]) if len(words) > 2 else -1
        game.apply(Play(card, call, suit))  # type: ignore[arg-type]


def last_winner(game: Game) -> int:
    return game.tricks[-1].winner


# -- following suit and trumping -------------------------------------------------------------


def test_follow_suit_when_able() -> None:
    # 000-A4 «Если игрок кладёт на стол бубновую карту, то все остальные игроки обязаны также
    # положить бубновую карту».
    game = deal("classic", ["7s 8d", "Ks Ah", "9d 10d"], HEARTS, dealer=2)
    assert game.to_move == 0
    assert plain(game) == {"7♠", "8♦"}  # the leader plays anything
    play(game, "7s")
    assert plain(game) == {"K♠"}


def test_a_void_player_must_trump() -> None:
    # 004 l.13 «Бить козырем, если имеется карта подходящей масти нельзя, не бить козырем, если нет
    # масти, но есть козырь то же нельзя. Если отсутствует нужная масть и козырная карта, то можно
    # сбросить любую карту».
    game = deal("odessa-short", ["7s 8d 9c", "10h Ah 8c", "9d 10d Jd"], HEARTS, dealer=2)
    play(game, "7s")
    assert plain(game) == {"10♥", "A♥"}
    play(game, "10h")
    assert plain(game) == {"9♦", "10♦", "J♦"}  # neither suit nor trump: anything


def test_trumping_is_not_allowed_while_holding_the_led_suit() -> None:
    game = deal("odessa-short", ["7s 8d", "9s Ah", "9d 10d"], HEARTS, dealer=2)
    play(game, "7s")
    assert plain(game) == {"9♠"}


def test_oh_hell_has_no_obligation_to_trump() -> None:
    game = deal("oh-hell", ["7s 8d", "10h 8c", "9d 10d"], HEARTS, dealer=2)
    play(game, "7s")
    assert plain(game) == {"10♥", "8♣"}


def test_trick_winner_trump_then_highest_of_the_led_suit() -> None:
    # 000-A4 «Если никто из игроков не положил козырную карту, то взятку забирает тот игрок, у
    # которого была самая высокая карта заявленной масти ... Если же кто-либо из игроков положил
    # козырную карту ... то забирать взятку будет он».
    game = deal("odessa-short", ["7s 8s", "6h 9c", "As 9d"], HEARTS, dealer=2)
    play(game, "7s", "6h", "As")
    assert last_winner(game) == 1  # the 6♥ trump beats the A♠
    game = deal("odessa-short", ["7s 8s", "Ks 9c", "Ad Qd"], HEARTS, dealer=2)
    play(game, "7s", "Ks", "Ad")
    assert last_winner(game) == 1  # the K♠; the A♦ of another suit never wins


def test_the_leader_is_left_of_the_dealer_and_the_winner_leads_next() -> None:
    game = deal("odessa-short", ["7s 8s", "9c Ks", "As 9d"], HEARTS, dealer=1)
    assert game.to_move == 2
    play(game, "As", "7s", "Ks")
    assert last_winner(game) == 2
    assert game.to_move == 2


# -- the Joker, following ------------------------------------------------------------------------


def test_the_joker_may_be_played_while_holding_the_led_suit() -> None:
    # 003 l.27 «Правила, относящиеся к ходу по масти или козырю, на джокера не распространяются»;
    # 000-A2 «джокером можно ходить независимо от масти, даже если масть козырная».
    game = deal("classic", ["8s 9s", "Ks JK", "9d 10d"], HEARTS, dealer=2)
    play(game, "8s")
    assert plain(game) == {"K♠"}
    assert joker_calls(game) == {("high", -1), ("low", -1)}
    # and, followed, as any card of the deck (000 l.307: «любого ранга и масти»): the 36-card
    # deck's cards but the 7♠, which is the Joker itself (000 l.175 «Джокер: семь пик»)
    assert len(named_cards(game)) == 35 and (0, 7) not in named_cards(game)


def test_a_high_joker_beats_the_trump_ace() -> None:
    # 000-A4 «может побить этой картой любые другие, в том числе и козырного туза»; 003 «забрать
    # любую взятку, даже если она предварительно бита козырным тузом».
    game = deal("classic", ["As 9s", "Ah 8c", "JK 10d"], HEARTS, dealer=2)
    play(game, "As", "Ah")
    assert plain(game) == {"10♦"}
    play(game, "JK high")
    assert last_winner(game) == 2  # seat 2 played the Joker


def test_a_low_joker_gives_the_trick_away() -> None:
    # 003 «самая маленькая карта в колоде ... чтобы отдать ненужную взятку».
    game = deal("classic", ["6s 9s", "JK Kd", "7s 10d"], HEARTS, dealer=2)
    play(game, "6s", "JK low", "7s")
    assert last_winner(game) == 2


# -- the Joker, leading ------------------------------------------------------------------------


def test_classic_joker_lead_calls() -> None:
    # classic (000): «по старшим <масть>», «по старшим козырям», «за самую младшую карту»; and
    # 000-A4 l.183 «Джокером можно заказать «по старшему козырю», «по младшему козырю», «по
    # старшей карте», «по младшей карте»».
    game = deal("classic", ["JK 9s", "Ah Ks", "9d 10d"], HEARTS, dealer=2)
    assert joker_calls(game) == {("highest", suit) for suit in range(4)} | {
        ("trumps", -1), ("low", -1), ("highest_card", -1), ("lowest_card", -1),
        ("lowest_trump", -1)}


def test_no_highest_trumps_without_a_trump() -> None:
    game = deal("classic", ["JK 9s", "Ah Ks", "9d 10d"], NO_TRUMP, dealer=2)
    assert ("trumps", -1) not in joker_calls(game)
    assert ("highest", SPADES) in joker_calls(game)


def test_highest_of_a_suit_forces_the_highest_card_of_that_suit() -> None:
    # 000-A5 l.301 «каждый участник раздачи обязан сбросить свою самую старшую карту той масти,
    # которую указал игрок с джокером».
    game = deal("classic", ["JK 9s 6c", "8s Ks Qs", "9d 10h Jh", "6d 7d 8d"], HEARTS, dealer=3)
    play(game, "JK highest s")
    assert plain(game) == {"K♠"}
    play(game, "Ks")
    # «если данной масти нет, тогда нужно положить козырь»: any trump, not only the highest.
    assert plain(game) == {"10♥", "J♥"}
    play(game, "10h")
    # «только при его отсутствии – любую другую карту».
    assert plain(game) == {"6♦", "7♦", "8♦"}
    play(game, "6d")
    assert last_winner(game) == 0  # classic: the Joker keeps the trick (joker_wins)


def test_highest_of_a_suit_trumped_wins_when_agreed() -> None:
    # 000-A5 l.303 «Победителем в данной раздаче может стать или джокер, или тот, кто положил
    # старший козырь – это нужно обсудить со всеми перед началом игры».
    variant = variant_from_dict({"extends": "classic", "joker": {"demand_trumped": "trump_wins"}})
    hands = ["JK 9s 6c", "8s Ks Qs", "9d 10h Jh", "6d 7h 8d"]
    game = deal(variant, hands, HEARTS, dealer=3)
    play(game, "JK highest s", "Ks", "10h", "7h")
    assert last_winner(game) == 2  # the highest trump
    game = deal(variant, ["JK 9s 6c", "8s Ks Qs", "9d 10s Jh", "6d 7s 8d"], HEARTS, dealer=3)
    play(game, "JK highest s", "Ks", "10s", "7s")
    assert last_winner(game) == 0  # nobody trumped: the Joker


def test_highest_trumps_forces_the_highest_trump() -> None:
    # 000-A5 l.299 «все обязаны выдать свой старший козырь. Если таковых не окажется, то можно
    # сбросить любую карту ... Естественно, что данную взятку забирает джокер».
    game = deal("classic", ["JK 9s", "8h Ah", "9d 10d"], HEARTS, dealer=2)
    play(game, "JK trumps")
    assert plain(game) == {"A♥"}
    play(game, "Ah")
    assert plain(game) == {"9♦", "10♦"}
    play(game, "10d")
    assert last_winner(game) == 0


def test_odessa_joker_lead_high_or_low_in_a_named_suit() -> None:
    # 003 l.27 «когда делается заход с джокера нужно задать масть и объявить джокера "старшей" или
    # "младшей" картой».
    game = deal("odessa", ["JK 9s", "8d Ah", "9d 10d"], HEARTS, dealer=2)
    calls = joker_calls(game)
    assert {("high", suit) for suit in range(4)} <= calls
    assert {("low", suit) for suit in range(4)} <= calls
    play(game, "JK high d")
    assert plain(game) == {"8♦"}  # follow the named suit with any card of it
    play(game, "8d", "10d")
    assert last_winner(game) == 0


def test_low_joker_in_a_suit_nobody_follows_still_wins() -> None:
    # 003 l.27 «Если джокер используется как младшая карта, но у остальных игроков нет карт
    # заявленной масти или козыря, игрок с джокером все равно забирает эту взятку».
    game = deal("odessa", ["JK 9s", "8c As", "9c 10s"], HEARTS, dealer=2)
    play(game, "JK low d", "8c", "9c")
    assert last_winner(game) == 0


def test_low_joker_in_a_suit_loses_to_that_suit_or_a_trump() -> None:
    game = deal("odessa", ["JK 9s", "8d As", "9c 10s"], HEARTS, dealer=2)
    play(game, "JK low d", "8d", "9c")
    assert last_winner(game) == 1
    game = deal("odessa", ["JK 9s", "8d As", "6h 10s"], HEARTS, dealer=2)
    play(game, "JK low d", "8d")
    assert plain(game) == {"6♥"}  # void in ♦: must trump
    play(game, "6h")
    assert last_winner(game) == 2


# -- restrictions on the Joker ---------------------------------------------------------------


def test_demands_only_on_the_first_trick() -> None:
    # 002-RP l.35 «требование «старших козырей» и «старших карт» допускается только при первом
    # розыгрыше в сдаче»; 003 l.27 «только при розыгрыше первой карты в текущей сдаче».
    variant = variant_from_dict({"extends": "odessa",
                                 "joker": {"demands_first_trick_only": True}})
    game = deal(variant, ["JK As", "8d Ah", "9d 10d"], HEARTS, dealer=2)
    assert ("highest", SPADES) in joker_calls(game)
    assert ("trumps", -1) in joker_calls(game)
    play(game, "As", "Ah", "9d")
    assert game.to_move == 1
    game = deal(variant, ["As JK", "8d 9s", "9d 10d"], HEARTS, dealer=2)
    play(game, "As", "9s", "9d")
    assert game.to_move == 0
    calls = joker_calls(game)
    assert not any(call in ("highest", "trumps") for call, _ in calls)
    assert ("high", DIAMONDS) in calls


def test_demands_only_in_the_first_deals_of_the_game() -> None:
    # 000-A5 l.309 «использовать джокер для сбора сильнейших карт можно лишь в первых кругах игры».
    variant = variant_from_dict({"extends": "classic", "joker": {"demands_until_deal": 2}})
    checked = set()
    for seed in range(100):
        game = Game(variant, players=3, seed=seed, log=False)
        chooser = random.Random(seed)
        while not game.is_over() and game.deal.number < 4:
            holds_joker = any(is_joker(action.card) for action in game.legal_actions()
                              if isinstance(action, Play))
            if game.phase == Phase.PLAY and not game.trick and holds_joker:
                calls = {call for call, _ in joker_calls(game)}
                demands = bool(calls & {"highest", "trumps"})
                assert demands == (game.deal.number < 2), game.deal.number
                checked.add(game.deal.number < 2)
            game.apply(chooser.choice(game.legal_actions()))
        if checked == {True, False}:
            break
    assert checked == {True, False}


def test_joker_locked_until_the_queen_of_spades_is_out() -> None:
    # 003 l.66 «Джокер нельзя использовать, пока из игры не вышла определенная карта, например,
    # дама пик».
    variant = variant_from_dict({"extends": "odessa", "joker": {"locked_until": "Qs"}})
    game = deal(variant, ["JK 8c 9c", "Qs 8d 9d", "10c 10d 6s"], HEARTS, dealer=2)
    assert joker_calls(game) == set()
    assert plain(game) == {"8♣", "9♣"}
    play(game, "8c", "Qs", "10c")  # seat 1 is void in ♣ and has no trump: the Q♠ is discarded
    play(game, "6s")  # seat 2 took the trick and leads
    assert joker_calls(game) == {("high", -1), ("low", -1)}  # the Q♠ has been played


def test_a_locked_joker_may_be_played_when_it_is_the_only_card() -> None:
    variant = variant_from_dict({"extends": "odessa", "joker": {"locked_until": "Qs"}})
    game = deal(variant, ["JK", "8d", "10c"], HEARTS, dealer=0)
    play(game, "8d")
    assert game.to_move == 2
    play(game, "10c")
    assert joker_calls(game) == {("high", -1), ("low", -1)}


# -- Joker-52 ------------------------------------------------------------------------------------


def test_joker_52_dealer_leads_the_first_trick() -> None:
    # 002-J52 l.108 «Первый ход в розыгрыше принадлежит сдатчику».
    game = deal("joker-52", ["2s 3s", "4s 5s", "6s 7s"], HEARTS, dealer=1)
    assert game.to_move == 1


def test_joker_52_second_card_sets_the_led_suit() -> None:
    # 002-J52 l.108 «игрок сделал первый ход во взятке Джокером, тогда вторая выложенная карта
    # становится заходящей мастью, независимо от того какое значение имеет Джокер».
    game = deal("joker-52", ["JK 2c", "4s 5d", "6s 7d"], HEARTS, dealer=0)
    assert joker_calls(game) == {("high", -1), ("low", -1)}
    play(game, "JK low")
    assert plain(game) == {"4♠", "5♦"}  # the second card is free
    play(game, "5d")
    assert plain(game) == {"7♦"}  # it set the suit: ♦
    play(game, "7d")
    assert last_winner(game) == 2


def test_joker_52_void_player_discards_anything() -> None:
    # 002-J52 l.108 «если карты такой масти нет, то может положить свою любую карту».
    game = deal("joker-52", ["2s 3s", "4h 5d", "6s 7s"], HEARTS, dealer=0)
    play(game, "2s")
    assert plain(game) == {"4♥", "5♦"}


def test_joker_52_two_jokers_take_opposite_values() -> None:
    # 002-J52 l.108 «Если в одной взятке оказываются 2 Джокера, то они становятся противоположными
    # картами».
    game = deal("joker-52", ["JK 2c", "JK2 5d", "6s 7d"], HEARTS, dealer=0)
    play(game, "JK high")
    assert joker_calls(game) == {("low", -1)}
    play(game, "JK2 low", "6s")
    assert last_winner(game) == 0
    game = deal("joker-52", ["JK 2c", "JK2 5d", "6s 7d"], HEARTS, dealer=0)
    play(game, "JK low")
    assert joker_calls(game) == {("high", -1)}
    play(game, "JK2 high", "6s")
    assert last_winner(game) == 1


def test_joker_52_leading_the_joker_costs_10_unless_it_is_the_last_card() -> None:
    # 002-J52 l.112 «за ход Джокером на пустой стол игрок штрафуется на 10 очков. Штраф не
    # применяется, если Джокер оказался последней картой в руке».
    game = deal("joker-52", ["JK 2c", "4s 5d", "6s 7d"], HEARTS, dealer=0)
    bids = list(game.bids)
    play(game, "JK high", "4s", "6s")  # seat 0 takes the first trick and leads the 2♣
    play(game, "2c", "5d", "7d")
    result = game.results[-1]
    assert result.fines == (-10, 0, 0)
    assert bids[0] is not None
    game = deal("joker-52", ["2c JK", "4s 5d", "6s 7d"], HEARTS, dealer=0)
    play(game, "2c", "4s", "6s")  # ♣ led: nobody follows, seat 0 takes it, JK is the last card
    play(game, "JK high", "5d", "7d")
    assert game.results[-1].fines == (0, 0, 0)


# -- circular trumps ------------------------------------------------------------------------------


def test_circular_trumps_lead_a_spade_clubs_are_trump() -> None:
    # 002-RP l.61 «если первая карта в заходе – пики, то козырем будут трефы».
    game = deal("circular-trumps", ["As 9s", "6c 9d", "Kd 10d"], NO_TRUMP, dealer=2)
    play(game, "As")
    assert plain(game) == {"6♣"}  # void in ♠: must trump with ♣
    play(game, "6c", "Kd")
    assert last_winner(game) == 1
    assert game.tricks[-1].trump == CLUBS


def test_circular_trumps_wrap_from_hearts_to_spades() -> None:
    # The cycle «Пики; Трефы; Бубны; Червы» (000-A2) goes round: hearts led, spades are trump.
    game = deal("circular-trumps", ["Ah 9c", "6s 9d", "Kh 10d"], NO_TRUMP, dealer=2)
    play(game, "Ah", "6s", "Kh")
    assert last_winner(game) == 1
    # 000-A2 l.112: a club led (the "6" whose suit sign was lost) makes diamonds trump.
    game = deal("circular-trumps", ["9c Ah", "6d 9s", "Kc 10h"], NO_TRUMP, dealer=2)
    play(game, "9c", "6d", "Kc")
    assert last_winner(game) == 1


def test_circular_trumps_joker_must_name_a_suit() -> None:
    # 000-A2 «не может потребовать «по старшим картам». Нужно указать конкретную масть»; 002-RP
    # «уже не может заявить «по старшим козырям»».
    game = deal("circular-trumps", ["JK 9s", "6c 9d", "Kd 10d"], NO_TRUMP, dealer=2)
    calls = joker_calls(game)
    assert ("trumps", -1) not in calls
    assert all(suit >= 0 for _, suit in calls)
    play(game, "JK highest s")
    assert plain(game) == {"6♣"}  # ♠ demanded, void: the trick's trump is the next suit, ♣
    assert game.view.trick_trump == CLUBS


# -- the trump suit of a deal ---------------------------------------------------------------------


def advance_to(game: Game, deal_number: int, seed: int = 0) -> None:
    chooser = random.Random(seed)
    while game.deal.number < deal_number:
        game.apply(chooser.choice(game.legal_actions()))


def dealt_cards(variant: Variant, seed: int, number: int, dealer: int, players: int,
                hand_size: int) -> tuple[list[list[int]], list[int]]:
    """Each seat's cards in the order received, and the stock, from the seeded shuffle."""
    deck = rng.shuffled(variant.deck_cards, rng.deal_key(seed, number))
    received: list[list[int]] = [[] for _ in range(players)]
    for position in range(hand_size * players):
        received[(dealer + 1 + position) % players].append(deck[position])
    return received, deck[hand_size * players:]


def test_turned_card_after_the_deal_is_trump() -> None:
    # 003 l.17 «затем открывается козырь»; the next card of the stock.
    variant = load_variant("classic")
    game = Game(variant, players=4, seed=21)
    received, stock = dealt_cards(variant, 21, 0, game.view.dealer, 4, 1)
    assert game.trump_card == stock[0]
    assert game.view.trump == (suit_of(stock[0]) if not is_joker(stock[0]) else NO_TRUMP)


def test_trump_when_the_whole_deck_is_dealt_is_the_dealers_last_card() -> None:
    # 000-A4 l.202 «где игрокам сдаётся вся колода без остатка, козырь назначается по последней
    # карте в колоде. То есть, у игрока, которому сдают последнюю карту, её переворачивают и
    # показывают козырь. Если джокер выпадает козырной картой, то розыгрыш проходит без козырей».
    variant = load_variant("classic")
    for seed in range(4):
        game = Game(variant, players=4, seed=seed)
        advance_to(game, 8, seed)
        assert game.deal.hand_size == 9
        received, stock = dealt_cards(variant, seed, 8, game.view.dealer, 4, 9)
        assert stock == []
        last = received[game.view.dealer][-1]
        assert game.trump_card == last
        assert game.view.hands[game.view.dealer] >> last & 1
        assert game.view.trump == (NO_TRUMP if is_joker(last) else suit_of(last))


@pytest.mark.parametrize(("preset", "players", "hand_size"),
                         [("classic", 5, 7), ("oh-hell", 5, 10), ("oh-hell", 3, 17)])
def test_a_card_left_over_at_the_maximum_hand_is_turned(
    preset: str, players: int, hand_size: int
) -> None:
    # 000-A4 applies the dealer's last card only «где игрокам сдаётся вся колода без остатка»; with
    # five players and 36 cards «до 7 карт и одна карта остается» (003 l.17), and that card can be
    # turned as usual. Oh Hell at five players: 50 of 52 cards dealt, two left.
    variant = load_variant(preset)
    game = Game(variant, players=players, seed=3)
    number = next(deal.number for deal in variant.deal_schedule(players)
                  if deal.hand_size == hand_size)
    advance_to(game, number, 3)
    received, stock = dealt_cards(variant, 3, number, game.view.dealer, players, hand_size)
    assert stock
    assert game.trump_card == stock[0]


def test_the_odd_card_of_52_and_a_joker_is_not_turned_when_agreed() -> None:
    # 003 l.13 «стандартная колода + джокер. В этом случае, при раздаче на все карты, «лишняя»
    # карта, не открывается»; the trump then comes from the full-deal rule (here the dealer's last).
    variant = variant_from_dict({
        "extends": "odessa",
        "deck": {"lowest_rank": 2, "jokers": 1, "joker_cards": []},
        "schedule": {"max_hand": 13},  # «при раздаче на все карты»: 53 cards, 13 each at four
        "trump": {"unturned_leftover": 1},
    })
    game = Game(variant, players=4, seed=2)
    number = next(deal.number for deal in variant.deal_schedule(4) if deal.hand_size == 13)
    advance_to(game, number, 2)
    received, stock = dealt_cards(variant, 2, number, game.view.dealer, 4, 13)
    assert len(stock) == 1
    assert game.trump_card == received[game.view.dealer][-1]
    assert game.trump_how == "last dealt"
    game = Game(variant, players=4, seed=2)
    advance_to(game, number - 1, 2)  # twelve cards each: five left, the first is turned
    received, stock = dealt_cards(variant, 2, number - 1, game.view.dealer, 4, 12)
    assert game.trump_card == stock[0]


def test_a_turned_joker_means_no_trump() -> None:
    # 004 l.23 «Если джокер выходит во время сдачи при открытии козыря, то сдача идет без козыря».
    variant = load_variant("classic")
    seeds = [seed for seed in range(400)
             if Game(variant, players=4, seed=seed, log=False).trump_card == JOKER]
    assert seeds, "no seed turns the Joker on the first deal"
    game = Game(variant, players=4, seed=seeds[0])
    assert game.view.trump == NO_TRUMP
    assert game.phase == Phase.BID


def test_a_turned_joker_lets_the_dealer_name_trump_when_agreed() -> None:
    # 003 l.29 «или же, по предварительной договорённости, козырь назначает сдаюший».
    variant = variant_from_dict({"extends": "classic", "trump": {"joker_turned": "dealer_names"}})
    seed = next(seed for seed in range(400)
                if Game(variant, players=4, seed=seed, log=False).trump_card == JOKER)
    game = Game(variant, players=4, seed=seed)
    assert game.phase == Phase.TRUMP
    assert game.to_move == game.view.dealer
    assert {action.suit for action in game.legal_actions()} == {0, 1, 2, 3, -1}
    game.apply(NameTrump(DIAMONDS))
    assert game.view.trump == DIAMONDS
    assert game.phase == Phase.BID


def test_fixed_trump_for_the_whole_game() -> None:
    # 003 l.17 «либо он выбирается перед игрой на всю игру, например, бубны».
    variant = variant_from_dict({"extends": "classic",
                                 "trump": {"mode": "fixed", "fixed_suit": "diamonds"}})
    game = Game(variant, players=4, seed=1)
    chooser = random.Random(1)
    while not game.is_over():
        game.apply(chooser.choice(game.legal_actions()))
    trumps = {(result.kind, result.trump) for result in game.results}
    assert {trump for kind, trump in trumps if kind != "no_trump"} == {DIAMONDS}


def test_the_no_trump_deal_has_no_trump_and_the_joker_still_plays() -> None:
    # 000-A4 «Бескозырка. Игроки заказывают количество взяток как обычно, при игра проходит без
    # козырей. Джокер действует».
    variant = load_variant("classic")
    game = Game(variant, players=4, seed=5)
    number = next(deal.number for deal in variant.deal_schedule(4) if deal.kind == "no_trump")
    advance_to(game, number, 5)
    assert game.view.trump == NO_TRUMP
    assert game.phase == Phase.BID


def test_the_joker_holder_leads_a_no_trump_deal_when_agreed() -> None:
    # 000-A2 l.99 «Тот, у которого на руках в этот момент есть джокер, имеет право ходить первым».
    variant = variant_from_dict({"extends": "classic",
                                 "kinds": {"no_trump": {"joker_holder_leads": True}}})
    game = deal(variant, ["8s 9s", "Ks Qs", "9d JK"], NO_TRUMP, dealer=0, kind="no_trump")
    assert game.to_move == 2


def test_named_trump_in_the_nine_card_pulkas_of_georgian_joker() -> None:
    # 002-GJ l.17 «В 2 и 4 «пулях» главенствующая масть определятся по-другому. Человек, сидящий по
    # левую руку от сдающего, по трем первым своим картам назначает его».
    variant = load_variant("joker")
    game = Game(variant, players=4, seed=13)
    advance_to(game, 8, 13)
    assert game.deal.hand_size == 9 and game.deal.kind == "named"
    assert game.phase == Phase.TRUMP
    namer = (game.view.dealer + 1) % 4
    assert game.to_move == namer
    received, _ = dealt_cards(variant, 13, 8, game.view.dealer, 4, 9)
    seen = game.observation(namer)
    assert popcount(seen.hand) == 3
    assert seen.hand == sum(1 << card for card in received[namer][:3])
    assert seen.legal_actions == tuple(NameTrump(suit) for suit in range(4))  # no "no trump"
    game.apply(NameTrump(CLUBS))
    assert game.view.trump == CLUBS
    assert game.phase == Phase.BID
    assert popcount(game.observation(namer).hand) == 9


def test_turned_trump_in_the_first_pulka_of_georgian_joker() -> None:
    # 002-GJ l.17 «В 1 и 3 раунде ... следующая переворачивается картинкой вверх – это будет
    # козырь. Если это Джокер, то партия играется без козырей».
    variant = load_variant("joker")
    game = Game(variant, players=4, seed=13)
    for number in range(8):
        advance_to(game, number, 13)
        assert game.trump_card is not None
        assert game.view.trump == (NO_TRUMP if game.trump_card in (JOKER, JOKER2)
                              else suit_of(game.trump_card))


def test_actions_print_like_the_score_sheet_and_parse_back() -> None:
    from raspis.engine import parse_action

    actions = [Bid(0), Bid(3), NameTrump(HEARTS), NameTrump(NO_TRUMP), Play(parse_card("10h")),
               Play(JOKER, "high"), Play(JOKER2, "low", DIAMONDS), Play(JOKER, "highest", SPADES),
               Play(JOKER, "trumps"), Play(JOKER, "highest_card"), Play(JOKER2, "lowest_trump"),
               Play(JOKER, "aces")]
    for action in actions:
        assert parse_action(str(action)) == action
    assert str(Bid(0)) == "pass"
    assert parse_action("пас") == Bid(0)
    assert parse_action("JK highest ♠") == Play(JOKER, "highest", SPADES)
    with pytest.raises(ValueError):
        parse_action("7s high")


def test_georgian_joker_lowest_of_a_suit() -> None:
    # 002-GJ l.1 «сказать, чтобы все положили старшие или младшие карты такой-то масти»: everyone
    # plays their lowest card of the suit (void: a trump, else anything); the Joker counts as low,
    # so the highest card of the suit takes the trick.
    hands = ["JK 9s 7c", "8d Kd 7s", "10d Qd Ad", "7h 8h 9h"]
    game = deal("joker", hands, CLUBS, dealer=3)
    assert ("lowest", DIAMONDS) in joker_calls(game)
    play(game, "JK lowest d")
    assert plain(game) == {"8♦"}
    play(game, "8d")
    assert plain(game) == {"10♦"}
    play(game, "10d")
    assert plain(game) == {"7♥", "8♥", "9♥"}  # neither ♦ nor a trump: anything
    play(game, "9h")
    assert last_winner(game) == 2  # the 10♦, the highest diamond
    game = deal("joker", [*hands[:3], "7h 8h 9c"], CLUBS, dealer=3)
    play(game, "JK lowest d", "8d", "10d")
    assert plain(game) == {"9♣"}  # no ♦: must trump
    play(game, "9c")
    assert last_winner(game) == 3


@pytest.mark.parametrize(("rule", "winner"), [("second_wins", 2), ("first_wins", 1)])
def test_two_high_jokers_in_one_trick(rule: str, winner: int) -> None:
    # Georgian Joker has two Jokers (6♣, 6♠); the seeds do not say which of two high Jokers wins:
    # the option two_jokers decides (the later one by default, as commonly played).
    variant = variant_from_dict({"extends": "joker", "joker": {"two_jokers": rule}})
    game = deal(variant, ["As 9s", "JK 7s", "JK2 8s"], HEARTS, dealer=2)
    play(game, "As", "JK high", "JK2 high")
    assert last_winner(game) == winner


def test_dealer_naming_after_a_turned_joker_sees_the_whole_hand() -> None:
    """003 l.29: a Joker turned up, 'козырь назначает сдающий' - after the deal, so the dealer has
    every card in hand (unlike 002's naming after three cards)."""
    import random

    from raspis.engine import Game, Phase, variant_from_dict

    variant = variant_from_dict({"extends": "joker-52", "trump": {"joker_turned": "dealer_names"}})
    for seed in range(300):
        game = Game(variant, 3, seed)
        chooser = random.Random(seed)
        while not game.is_over() and game.phase != Phase.TRUMP:
            game.apply(chooser.choice(game.legal_actions()))
        if game.phase == Phase.TRUMP:
            break
    else:
        raise AssertionError("no turned Joker in 300 games")
    assert game.trump_card is not None and game.trump_card >= 52
    assert game.current_player() == game.view.dealer
    seen = game.observation(game.view.dealer)
    assert seen.hand == game.view.hands[game.view.dealer]
    assert bin(seen.hand).count("1") == game.deal.hand_size


# -- fixes found by checking the engine against the seed texts -------------------------------


def test_a_joker_with_its_demands_barred_after_the_first_trick_can_still_be_led_to_win() -> None:
    # RULES §5 (000, 002, 003): led, the Joker is high («старше всех») or low; 002 and 003 allow
    # the demands only on the first trick. Classic's calls are the two demands and "low": once
    # the demands are barred the Joker must still be playable high.
    variant = variant_from_dict({"extends": "classic", "joker": {"demands_first_trick_only": True}})
    game = deal(variant, ["JK Ac", "Kc Qs", "9c 10h", "8c 7d"], HEARTS, dealer=3)
    assert ("highest", SPADES) in joker_calls(game)  # the first trick: the demands are allowed
    play(game, "Ac", "Kc", "9c", "8c")
    assert last_winner(game) == 0
    assert joker_calls(game) == {("high", -1), ("low", -1)}
    play(game, "JK high", "Qs", "10h", "7d")
    assert last_winner(game) == 0  # high: it beats everything, the trump too


def test_a_joker_in_a_deal_past_the_demands_can_still_be_led_to_win() -> None:
    # 000: the demands only in the first deals of the game (``demands_until_deal``).
    variant = variant_from_dict({"extends": "classic", "joker": {"demands_until_deal": 1}})
    seen = 0
    for seed in range(40):
        game = Game(variant, 4, seed, log=False)
        while not game.is_over() and game.deal.number < 4:
            leads = game.phase == Phase.PLAY and not game.trick
            if leads and game.view.hands[game.to_move] >> JOKER & 1:
                calls = joker_calls(game)
                if game.deal.number == 0:
                    assert any(call == "highest" for call, _ in calls)
                else:
                    assert calls == {("high", -1), ("low", -1)}
                    seen += 1
            game.apply(game.legal_actions()[0])
    assert seen >= 3


def test_a_second_joker_played_high_beats_the_trump_that_beat_the_first() -> None:
    # 000-A5 l.303: where agreed, a trump beats the Joker that demanded "highest <suit>"; a Joker
    # played high after it still beats everything (RULES §5), the trump included.
    variant = variant_from_dict({"extends": "classic", "deck": {"jokers": 1},
                                 "joker": {"demand_trumped": "trump_wins"}})
    game = deal(variant, ["JK 9s 6c", "8c Kc Qc", "9d 10h Jh", "JK2 7d 8d"], HEARTS, dealer=3)
    play(game, "JK highest s", "8c", "10h", "JK2 high")
    assert last_winner(game) == 3
    game = deal(variant, ["JK 9s 6c", "8c Kc Qc", "9d 10h Jh", "JK2 7d 8d"], HEARTS, dealer=3)
    play(game, "JK highest s", "8c", "10h", "JK2 low")
    assert last_winner(game) == 2  # the second Joker low: the trump still beats the demand


def test_memory_own_tricks_only() -> None:
    # 000 (first article): «В большинстве случаев игроки имеют возможность подглядывать в свои
    # взятки»; 002: «Заглядывать в свои взятки обычно разрешается»: a seat looks back at the
    # tricks it took, not at the others' (``play.memory = "own"``).
    variant = variant_from_dict({"extends": "classic", "play": {"memory": "own"}})
    game = deal(variant, ["As Ac 6d", "Ks Kc 7d", "Qs Qc 8d", "Js Jc 9d"], HEARTS, dealer=3)
    play(game, "As", "Ks", "Qs", "Js")  # seat 0 takes the first trick
    play(game, "Ac", "Kc", "Qc", "Jc")  # and the second
    play(game, "6d", "7d", "8d")        # seat 3 is yet to play to the third
    mine, theirs = game.observation(0), game.observation(1)
    assert [trick.winner for trick in mine.tricks] == [0, 0]
    assert theirs.tricks == ()
    spades_and_clubs = parse_cards("As Ks Qs Js Ac Kc Qc Jc")
    in_trick = parse_cards("6d 7d 8d")
    assert mine.played == spades_and_clubs | in_trick
    assert theirs.played == in_trick  # only the trick under way


def test_blind_bidding_sees_the_trump_but_not_the_hand() -> None:
    # 002: «игроки заказывают взятки либо до сдачи, либо после, но не глядя в свои карты»; 000
    # (second article): «Заказываются взятки до раздачи либо не глядя в карты». Before the deal
    # (dark) neither the hand nor the trump is known; after it, without looking (blind), the
    # trump is.
    for bidding, trump_seen in (("dark", False), ("blind", True)):
        variant = variant_from_dict({
            "extends": "classic", "schedule": {"deals": ["3*4 special"]},
            "kinds": {"special": {"special": True, "bidding": bidding}}})
        game = Game(variant, 4, seed=5)
        seen = game.observation(game.to_move)
        assert seen.hand == 0 and seen.hand_hidden
        assert (seen.trump == game.view.trump and not seen.trump_hidden) == trump_seen
        while game.phase == Phase.BID:
            game.apply(game.legal_actions()[0])
        assert game.observation(game.to_move).hand == game.view.hands[game.to_move]  # play: seen


# -- demands of any suit and of a named rank ----------------------------------------------------

ANY_SUIT = load_variant("classic")  # 000's fourth article: classic offers its demands (first trick)


@pytest.mark.parametrize("demand_trumped", ["joker_wins", "trump_wins"])
def test_highest_card_of_any_suit(demand_trumped: str) -> None:
    # 000-A2 l.83 «Запросить, чтоб каждый игрок походил самой старшей картой любой масти»; 000-A4
    # l.183 «Джокером можно заказать ... «по старшей карте» ... и тогда все игроки обязаны будут
    # положить карту из своей руки в соответствии с заказом. Также джокер может быть и младшей
    # картой, которая не забирает взятку»: the demanding Joker takes the trick, and a trump ace
    # played to it does not beat it, whatever was agreed for "highest <suit>" (000-A5 l.303).
    variant = variant_from_dict({"extends": "classic", "joker": {"demand_trumped": demand_trumped}})
    game = deal(variant, ["JK 9s 6c", "8s Kc Qh", "9d Ah Ad", "6d 7h 8d"], HEARTS, dealer=3)
    play(game, "JK highest_card")
    assert plain(game) == {"K♣"}  # the king is the highest rank held, a club though not led
    play(game, "Kc")
    assert plain(game) == {"A♥", "A♦"}  # two aces: either, the trump ace too
    play(game, "Ah")
    assert plain(game) == {"8♦"}
    play(game, "8d")
    assert last_winner(game) == 0


def test_lowest_card_of_any_suit() -> None:
    # 000-A2 l.85 «Запросить, чтоб каждый скинул самую младшую карту»; 000-A4 l.183 «по младшей
    # карте».
    game = deal(ANY_SUIT, ["JK 9s 6c", "8s Kc Qh", "9d 10h 9h", "6d 7h 8d"], HEARTS, dealer=3)
    play(game, "JK lowest_card")
    assert plain(game) == {"8♠"}
    play(game, "8s")
    assert plain(game) == {"9♦", "9♥"}
    play(game, "9h")
    assert plain(game) == {"6♦"}
    play(game, "6d")
    assert last_winner(game) == 0  # the Joker, not the nine of trumps


def test_lowest_trump() -> None:
    # 000-A4 l.183 «Джокером можно заказать «по старшему козырю», «по младшему козырю» ... и тогда
    # все игроки обязаны будут положить карту из своей руки в соответствии с заказом»; without a
    # trump, as after «Старшие козыря» (000-A5 l.299): «можно сбросить любую карту».
    game = deal(ANY_SUIT, ["JK 9s 6c", "8s Kh Qh", "9d 10d Jc", "6h 7h 8d"], HEARTS, dealer=3)
    play(game, "JK lowest_trump")
    assert plain(game) == {"Q♥"}
    play(game, "Qh")
    assert plain(game) == {"9♦", "10♦", "J♣"}
    play(game, "Jc")
    assert plain(game) == {"6♥"}
    play(game, "6h")
    assert last_winner(game) == 0
    game = deal(ANY_SUIT, ["JK 9s", "Ah Ks", "9d 10d"], NO_TRUMP, dealer=2)
    calls = joker_calls(game)
    assert ("lowest_trump", -1) not in calls  # no trump to demand
    assert {("highest_card", -1), ("lowest_card", -1)} <= calls


def test_classic_demands_only_as_the_first_card_of_a_deal() -> None:
    # 000-A4 l.183 «игрок, который кладёт на стол джокера первой картой кона, то он может сделать
    # заказ. Джокером можно заказать «по старшему козырю», «по младшему козырю», «по старшей
    # карте», «по младшей карте»»; a «кон» is a deal (003 l.21 «кон с одной картой», l.55 «числу
    # карт в кону»; 002 l.27 «очков за кон»). Led later, the Joker is still the lowest card (l.183
    # «младшей картой», l.305) or beats everything (l.183), or is declared as a card (l.307).
    demands = {("highest_card", -1), ("lowest_card", -1), ("lowest_trump", -1), ("trumps", -1),
               *(("highest", suit) for suit in range(4))}
    game = deal("classic", ["JK 9s 6c", "8s Kh 6h", "9d 10d Jc", "6s Ac 8d"], HEARTS, dealer=3)
    assert joker_calls(game) == demands | {("low", -1)}
    game = deal("classic", ["9s JK 6c", "8s Kh 6h", "9d 10d Jc", "6s Ac 8d"], HEARTS, dealer=3)
    play(game, "9s", "8s", "9d", "6s")  # the first trick, without the Joker: seat 0 leads again
    assert last_winner(game) == 0
    assert joker_calls(game) == {("low", -1), ("high", -1)}
    assert named_cards(game)  # declared as a card: still allowed (not a demand)
    play(game, "JK high")
    assert plain(game) == {"K♥", "6♥"}  # a plain high Joker demands nothing: any card


ONE_TRUMP = variant_from_dict({"extends": "classic",
                              "joker": {"lead_calls": ["one_trump", "low"], "as_card": False}})


def test_one_trump_each() -> None:
    # 000-A2 l.84 «Запросить, чтоб игроки скинули по одному козырю»: each player throws a trump,
    # any trump (the text names none, so any of them is legal); without a trump, any card, as
    # after «Старшие козыря» (000-A5 l.299 «Если таковых не окажется, то можно сбросить любую
    # карту»). The Joker takes the trick («Походивший с джокера может забрать взятку», l.87): a
    # trump ace thrown to it does not beat it.
    game = deal(ONE_TRUMP, ["JK 9s 6c", "8s Kh 6h", "9d 10d Jc", "Ah 7h 8d"], HEARTS, dealer=3)
    assert ("one_trump", -1) in joker_calls(game)
    play(game, "JK one_trump")
    assert plain(game) == {"K♥", "6♥"}  # either trump, not only the highest or the lowest
    play(game, "6h")
    assert plain(game) == {"9♦", "10♦", "J♣"}  # no trump: any card
    play(game, "Jc")
    assert plain(game) == {"A♥", "7♥"}
    play(game, "Ah")
    assert last_winner(game) == 0
    # no trump in the deal, nothing to demand: «по одному козырю» is not offered; the Joker
    # still leads high (RULES §5: it beats everything) or low
    game = deal(ONE_TRUMP, ["JK 9s", "Ah Ks", "9d 10d"], NO_TRUMP, dealer=2)
    assert joker_calls(game) == {("low", -1), ("high", -1)}


def test_one_trump_each_is_a_demand() -> None:
    # A demand like the others: barred after the first trick where demands are (000 l.183
    # «первой картой кона»; 002 l.35, 003 l.27), and not allowed with circular trumps, where no
    # trump is known before a suit is led (000 l.114, 002 l.61).
    first_only = variant_from_dict({"extends": "classic",
                                    "joker": {"lead_calls": ["one_trump", "low"],
                                              "as_card": False,
                                              "demands_first_trick_only": True}})
    game = deal(first_only, ["9s JK 6c", "8s Kh 6h", "9d 10d Jc", "6s Ac 8d"], HEARTS, dealer=3)
    assert ("one_trump", -1) in joker_calls(game)  # the first trick: the demand is open
    play(game, "9s", "8s", "9d", "6s")  # the nine of spades holds the trick: seat 0 leads again
    assert last_winner(game) == 0
    assert joker_calls(game) == {("low", -1), ("high", -1)}
    with pytest.raises(VariantError, match="one_trump"):
        variant_from_dict({"extends": "circular-trumps",
                           "joker": {"lead_calls": ["one_trump", "highest_suit"]}})


def test_named_rank() -> None:
    # 003 l.27 «Можно также требовать сбросить карту определённого номинала, например туза»; with
    # none of it, as after the other demands: «Если требуемой масти или козыря нет, то можно
    # положить любую карту». The others discard to the Joker: it takes the trick.
    game = deal("odessa", ["JK 9s 6c", "As Ac 8h", "9d 10h Jh", "Ad 8d 6h"], HEARTS, dealer=3)
    calls = joker_calls(game)
    ranks = ("sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces")
    assert {(rank, -1) for rank in ranks} <= calls  # the ranks of the 36-card deck
    assert ("fives", -1) not in calls and ("twos", -1) not in calls
    play(game, "JK aces")
    assert plain(game) == {"A♠", "A♣"}
    play(game, "Ac")
    assert plain(game) == {"9♦", "10♥", "J♥"}  # no ace: any card
    play(game, "Jh")
    assert plain(game) == {"A♦"}
    play(game, "Ad")
    assert last_winner(game) == 0  # the Joker, not the jack of trumps
