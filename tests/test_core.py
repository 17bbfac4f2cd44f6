"""The rules core's own functions, checked against their definitions (hypothesis).

``engine.core.rules`` states each rule once; some functions are shortcuts of others (the cards
that would win a trick are the cards whose ``card_key`` beats the trick's best key; the cards a
play rules out are the cards whose presence would have made it illegal). Each shortcut is checked
here against the plain definition, card by card, over random hands and tricks.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from raspis.engine.cards import JOKER, JOKER2
from raspis.engine.core import rules
from raspis.engine.core.codes import named_call

cards52 = st.integers(min_value=0, max_value=(1 << 52) - 1)
suits = st.integers(min_value=-1, max_value=3)
keys = st.one_of(st.integers(min_value=-1, max_value=260), st.integers(1990, 2060),
                 st.sampled_from([1000, 1003, 997, 3001]))


@settings(max_examples=400, deadline=None)
@given(cards=cards52, best=keys, led=suits, trump=suits, beats=st.booleans(),
       position=st.integers(1, 5), two_jokers=st.integers(0, 2))
def test_winning_cards_are_the_cards_whose_key_beats_the_best(
        cards: int, best: int, led: int, trump: int, beats: bool, position: int,
        two_jokers: int) -> None:
    expected = 0
    for card in range(52):
        if cards >> card & 1:
            # a card after a Joker led without a suit sets the led suit (002 Joker-52)
            suit = led if led >= 0 else card // 13
            if rules.card_key(card, 0, position, suit, trump, beats, two_jokers) > best:
                expected |= 1 << card
    assert rules.winning_cards(cards, best, position, led, trump, beats, two_jokers) == expected


@settings(max_examples=300, deadline=None)
@given(card=st.integers(0, 51), candidates=cards52, lead=st.integers(0, 53),
       call=st.integers(0, 5), lead_suit=suits, led=suits, trump=suits,
       must_trump=st.booleans())
def test_cards_ruled_out_are_those_that_would_have_made_the_play_illegal(
        card: int, candidates: int, lead: int, call: int, lead_suit: int, led: int, trump: int,
        must_trump: bool) -> None:
    ruled_out = rules.cards_ruled_out(card, candidates, lead, call, lead_suit, led, trump,
                                      must_trump)
    for other in range(52):
        if other == card or not candidates >> other & 1:
            assert not ruled_out >> other & 1
            continue
        legal = rules.follow_mask((1 << card) | (1 << other), lead, call, lead_suit, led, trump,
                                  must_trump)
        assert bool(ruled_out >> other & 1) == (not legal >> card & 1)


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 62) - 1))
def test_popcount_and_bit_index(mask: int) -> None:
    assert rules.popcount(mask) == bin(mask).count("1")
    if mask:
        low = mask & -mask
        assert rules.bit_index(low) == low.bit_length() - 1
        assert rules.highest_bit(mask) == 1 << (mask.bit_length() - 1)


def _first_dealer_by_the_texts(cards: list[int], players: int, how: str) -> int:
    """000, 002: «тянут по карте, сдаёт тот, у кого старшая» (ties draw again); 002 (Joker):
    cards dealt face up round the table until an ace comes. Written here from the texts."""
    if how == "seat0":
        return 0
    rank = [card % 13 + 2 if card < 52 else 15 for card in cards]
    if how == "first_ace":
        return next((i % players for i, value in enumerate(rank) if value == 14), 0)
    drawing, position = list(range(players)), 0
    while len(drawing) > 1 and position + len(drawing) <= len(cards):
        drawn = dict(zip(drawing, rank[position:position + len(drawing)], strict=True))
        position += len(drawing)
        drawing = [seat for seat in drawing if drawn[seat] == max(drawn.values())]
    return drawing[0]


def test_the_shuffle_orders_alike_whether_or_not_two_hashes_share_a_bucket() -> None:
    """``deal.shuffle_with`` places the cards by a bitmap of their hashes' top 12 bits, and sorts
    the hashes in full only where two cards share those bits: both ways give the order of the
    definition (``rng.shuffled``: by hash, ties by card), and both ways occur."""
    import numpy as np
    from raspis.engine import rng
    from raspis.engine.core import deal

    shared = alone = 0
    for size in (36, 52, 54, 20):
        cards = list(range(size))
        out = np.empty(size, dtype=np.int64)
        for number in range(700):
            key = rng.deal_key(number * 7919 + size, number)
            deal.shuffle(np.array(cards, dtype=np.int64), np.uint64(key), out)
            assert out.tolist() == rng.shuffled(cards, key), (size, number)
            tops = {rng.splitmix64(key ^ (card * rng.GOLDEN & rng.MASK64)) >> 52 for card in cards}
            if len(tops) < size:
                shared += 1
            else:
                alone += 1
    assert shared > 100 and alone > 100, (shared, alone)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 6),
       how=st.sampled_from(["lot", "first_ace", "seat0"]),
       preset=st.sampled_from(["classic", "joker", "joker-52"]))
def test_the_shuffle_and_the_first_dealer_follow_their_definitions(
        seed: int, players: int, how: str, preset: str) -> None:
    import numpy as np
    from raspis.engine import load_variant, rng
    from raspis.engine.core import deal
    from raspis.engine.core.deal import FIRST_DEALER_CODES

    cards = load_variant(preset).deck_cards
    key = rng.lot_key(seed)
    shuffled = np.empty(len(cards), dtype=np.int64)
    deal.shuffle(np.array(cards, dtype=np.int64), np.uint64(key), shuffled)
    assert shuffled.tolist() == rng.shuffled(cards, key)
    assert deal.first_dealer(shuffled, players, FIRST_DEALER_CODES[how]) == (
        _first_dealer_by_the_texts(shuffled.tolist(), players, how))


def test_the_led_suit_is_the_first_cards_or_a_named_jokers() -> None:
    """``led_suit_after``: a suit already led stays; otherwise the first ordinary card sets it
    (its suit is its id // 13: ``engine.cards``' ids are suit * 13 + rank - 2), and so does a Joker
    declared as a card, as that card would (000's fifth article: «джокер может быть выдан за любую
    карту»), at any position; a Joker led with a suit (003) sets that suit; a Joker without
    either leaves it unset."""
    for card in range(52):
        suit = card // 13
        for position in range(4):
            assert rules.led_suit_after(-1, card, position, 0, -1) == suit
            for joker in (JOKER, JOKER2):
                assert rules.led_suit_after(-1, joker, position, named_call(card), -1) == suit
            assert rules.led_suit_after((suit + 1) % 4, card, position, 0, -1) == (suit + 1) % 4
    for suit in range(4):
        assert rules.led_suit_after(-1, JOKER, 0, 0, suit) == suit
    assert rules.led_suit_after(-1, JOKER, 1, 0, 2) == -1
    assert rules.led_suit_after(-1, JOKER, 0, 0, -1) == -1
