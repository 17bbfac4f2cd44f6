"""Cards as small integers and hands as bitmasks (engine.cards), and the decks the variants build.

Expected values come from the rule texts: the 36-card deck (6..A) and the 52-card deck (2..A)
(RULES §2), the Joker standing for the 7♠ (000-A4 «Джокер: семь пик»), the two Jokers 6♣ and 6♠
of the Georgian Joker (002-GJ «Шестерки треф и пик играют роль Джокера»), 52 + 2 Jokers (002-J52),
the 33-card deck of 003 (l.13 «колода в 33 карты, из которой удалены все шестёрки, кроме
трефовой, которая объявляется джокером»), and the circular-trump cycle ♠ -> ♣ -> ♦ -> ♥
(000-A2, 002-RP).
"""

from __future__ import annotations

import pytest
from raspis.engine import load_variant, parse_card, parse_cards, variant_from_dict
from raspis.engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER,
    JOKER2,
    SPADES,
    card_list,
    card_str,
    cards_of,
    highest,
    is_joker,
    lowest,
    make_card,
    mask_str,
    popcount,
    rank_of,
    suit_of,
)


def test_every_ordinary_card_round_trips_through_rank_and_suit() -> None:
    seen = set()
    for suit in (SPADES, CLUBS, DIAMONDS, HEARTS):
        for rank in range(2, 15):
            card = make_card(rank, suit)
            assert rank_of(card) == rank
            assert suit_of(card) == suit
            assert not is_joker(card)
            seen.add(card)
    assert len(seen) == 52


def test_jokers_have_no_suit_and_rank_above_the_ace() -> None:
    # 002-J52: «2, 3, ..., 10, В, Д, К, Т, Джокер» - the Joker ranks above the ace.
    for joker in (JOKER, JOKER2):
        assert is_joker(joker)
        assert suit_of(joker) == -1
        assert rank_of(joker) > rank_of(make_card(14, SPADES))


@pytest.mark.parametrize(("rank", "suit"), [(0, SPADES), (1, SPADES), (15, SPADES), (7, 4)])
def test_make_card_rejects_impossible_cards(rank: int, suit: int) -> None:
    with pytest.raises(ValueError):
        make_card(rank, suit)


def test_ace_is_highest_and_two_lowest_within_a_suit() -> None:
    hearts = parse_cards("2h 7h 10h Jh Qh Kh Ah")
    assert highest(hearts) == parse_card("Ah")
    assert lowest(hearts) == parse_card("2h")
    # Higher rank means a larger id within one suit, so card ids compare like ranks.
    ranks = [rank_of(card) for card in cards_of(hearts)]
    assert ranks == sorted(ranks)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7♠", 7, SPADES),
        ("7s", 7, SPADES),
        ("10♥", 10, HEARTS),
        ("Th", 10, HEARTS),
        ("Ad", 14, DIAMONDS),
        ("qc", 12, CLUBS),
        ("Тs", 14, SPADES),  # Russian «Т(уз)» as printed on Soviet decks
        ("Дh", 12, HEARTS),  # «Д(ама)»
    ],
)
def test_parse_card_reads_the_common_spellings(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert (rank_of(card), suit_of(card)) == (rank, suit)


def test_parse_card_reads_jokers() -> None:
    assert parse_card("JK") == JOKER
    assert parse_card("jk1") == JOKER
    assert parse_card("JK2") == JOKER2


@pytest.mark.parametrize("text", ["1s", "7x", "", "Z♠", "11h"])
def test_parse_card_names_the_bad_text(text: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_card(text)
    assert repr(text) in str(error.value)


def test_card_str_both_forms() -> None:
    assert card_str(parse_card("10h")) == "10♥"
    assert card_str(parse_card("10h"), ascii_only=True) == "Th"
    assert card_str(parse_card("As"), ascii_only=True) == "As"
    assert card_str(JOKER) == "JK"
    assert card_str(JOKER2) == "JK2"
    for text in ("6c", "Jd", "Kh", "As", "Td"):
        assert parse_card(card_str(parse_card(text))) == parse_card(text)


def test_masks_count_and_list_cards() -> None:
    mask = parse_cards("As, Kd 7h JK")
    assert popcount(mask) == 4
    assert sorted(card_list(mask)) == sorted(parse_card(t) for t in ("As", "Kd", "7h", "JK"))
    assert list(cards_of(0)) == []
    assert parse_cards(["As", "Kd"]) == parse_cards("As Kd")


def test_mask_str_groups_by_suit_highest_first_jokers_first() -> None:
    mask = parse_cards("6s As 10h JK 2h")
    assert mask_str(mask) == "JK A♠ 6♠ 10♥ 2♥"


def test_suit_numbers_follow_the_circular_trump_cycle() -> None:
    # 002-RP l.61 «если первая карта в заходе – пики, то козырем будут трефы»; the cycle is
    # «Пики; Трефы; Бубны; Червы» (000-A2): ♠ -> ♣ -> ♦ -> ♥ -> ♠.
    assert (SPADES + 1) % 4 == CLUBS
    assert (CLUBS + 1) % 4 == DIAMONDS
    assert (DIAMONDS + 1) % 4 == HEARTS
    assert (HEARTS + 1) % 4 == SPADES


# -- decks built by the variants -----------------------------------------------------------------


def test_classic_deck_is_36_cards_with_the_seven_of_spades_as_joker() -> None:
    # 000-A4: a 36-card deck, «Джокер: семь пик».
    variant = load_variant("classic")
    deck = set(variant.deck_cards)
    assert variant.deck_size == 36
    assert len(deck) == 36
    assert JOKER in deck
    assert parse_card("7s") not in deck
    assert variant.joker_count == 1
    assert variant.joker_stands_for == {JOKER: parse_card("7s")}
    assert {rank_of(card) for card in deck if not is_joker(card)} == set(range(6, 15))


def test_georgian_joker_deck_has_two_jokers_for_the_black_sixes() -> None:
    # 002-GJ: «Шестерки треф и пик играют роль Джокера».
    variant = load_variant("joker")
    deck = set(variant.deck_cards)
    assert variant.deck_size == 36
    assert {JOKER, JOKER2} <= deck
    assert parse_card("6c") not in deck and parse_card("6s") not in deck
    assert parse_card("6h") in deck and parse_card("6d") in deck
    assert set(variant.joker_stands_for.values()) == {parse_card("6c"), parse_card("6s")}


def test_joker_52_deck_is_52_cards_and_two_jokers() -> None:
    variant = load_variant("joker-52")
    assert variant.deck_size == 54
    assert variant.joker_count == 2
    assert {rank_of(card) for card in variant.deck_cards if not is_joker(card)} == set(range(2, 15))


def test_oh_hell_and_odessa_short_have_no_joker() -> None:
    # 004's basic Odessa rules never mention a Joker (004 l.5-13; it comes only in the variant
    # «С джокером», 004 l.21-23); Oh Hell has none.
    assert load_variant("oh-hell").deck_size == 52
    assert load_variant("oh-hell").joker_count == 0
    assert load_variant("odessa-short").deck_size == 36
    assert load_variant("odessa-short").joker_count == 0


def test_the_33_card_deck_of_003() -> None:
    # 003 l.13: all sixes removed except the 6♣, which is the Joker: 33 cards,
    # 11 each for three players, where the hands go to the deck's limit (003 l.64's long hands,
    # odessa-long; odessa itself stops at six, l.17).
    variant = variant_from_dict(
        {"extends": "odessa-long",
         "deck": {"removed": ["6s", "6d", "6h"], "joker_cards": ["6c"]},
         "players": {"min": 3, "max": 3}},
    )
    assert variant.deck_size == 33
    assert JOKER in variant.deck_cards
    assert not any(rank_of(card) == 6 for card in variant.deck_cards if not is_joker(card))
    assert variant.max_hand(3) == 11


def test_georgian_at_six_players_uses_the_54_card_deck() -> None:
    # 003 l.19, 004 l.16, 002-RP l.63: at six players four nine-card deals; 6 x 9 = 54 cards,
    # 52 and two Jokers (docs/rules.md#schedule).
    variant = load_variant("georgian").for_player_count(6)
    assert variant.deck_size == 54
    assert variant.joker_count == 2
    assert load_variant("georgian").for_player_count(4).deck_size == 36
