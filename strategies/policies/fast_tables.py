"""The tables of the compiled fast heuristic (``fastheuristic``).

``strategies.policies.compiled.fast_heuristic`` (the compiled policy of the batch ``fastheuristic``,
which its scalar twin ``strategies.players.fast.FastHeuristicStrategy`` runs too) reads them with
integer arithmetic only. Everything with a probability in it is worked out here once, rounded to
whole thousandths of a trick.

``suit_tables(variant, participants, hand_size)`` gives, for each suit and each pattern of a hand's
cards in that suit (the 13-bit pattern shifted down by the deck's lowest rank), the tricks (in
thousandths) the cards are expected to take: a card takes a trick when the opponents hold at most
as many of the unseen higher cards as the hand holds higher cards above it (a binomial tail), and a
side-suit card is discounted for the chance an opponent is void and ruffs. There are three tables:
the trump suit, a side suit under a trump, and a suit of a no-trump deal.

Joker calls are chosen by preference among the legal options (``engine.core.codes.OPTIONS``):
``WIN_LEAD`` to lead a Joker that should take the trick (highest trumps, high, high of a suit,
highest of a suit, the demands of any suit, then the low calls), ``LOSE_LEAD`` to lead one that
should lose.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
from raspis.engine.core.codes import CARD_OPTION
from raspis.engine.variant import Variant

#: A Joker counts as this many thousandths of a trick when bidding.
JOKER_VALUE = 900
#: the demands of any suit (highest card, lowest card, lowest trump, the named ranks 2..A): they
#: take the trick, after the older winning calls (the Joker declared as a card, ``CARD_OPTION``,
#: is never preferred: it needs the card, and high and low stay legal beside it)
_ANY_SUIT_DEMANDS = tuple(range(19, CARD_OPTION))
WIN_LEAD: tuple[int, ...] = (18, 0, 2, 3, 4, 5, 10, 11, 12, 13, *_ANY_SUIT_DEMANDS,
                             1, 6, 7, 8, 9, 14, 15, 16, 17)
LOSE_LEAD: tuple[int, ...] = (1, 6, 7, 8, 9, 14, 15, 16, 17, 0, 2, 3, 4, 5, 10, 11, 12, 13, 18,
                              *_ANY_SUIT_DEMANDS)
#: the assumed share of trumps among the unseen cards, for the ruff discount
_TRUMP_SHARE = 0.25


def _tail(count: int, chance: float) -> list[list[float]]:
    """``tail[n][k]``: P(Binomial(n, chance) <= k) for n, k in 0..count."""
    return [[sum(comb(n, j) * chance ** j * (1 - chance) ** (n - j) for j in range(min(k, n) + 1))
             for k in range(count + 1)] for n in range(count + 1)]


def lowest_rank(deck: int) -> int:
    """The lowest rank (0 for a 2) that some suit of the deck ``deck`` (a card mask) has."""
    ranks = 0
    for suit in range(4):
        ranks |= (deck >> (13 * suit)) & 8191
    return (ranks & -ranks).bit_length() - 1 if ranks else 0


@lru_cache(maxsize=256)
def _suit_tables(deck: int, deck_size: int, participants: int, hand_size: int) -> np.ndarray:
    low = lowest_rank(deck)
    unseen_count = max(1, deck_size - hand_size)
    opponents = participants - 1
    in_hands = min(1.0, opponents * hand_size / unseen_count)
    held = np.array(_tail(13, in_hands))
    # void[out, k]: an opponent holds at most k of the ``out`` unseen cards of the suit
    void = np.array([_tail(hand_size, out / unseen_count)[hand_size] for out in range(14)])
    has_ruff = 1.0 - (1.0 - _TRUMP_SHARE) ** hand_size
    # only the patterns without the ranks below the deck's lowest (2^9 of 2^13 in a 36-card deck)
    count = 1 << (13 - low)
    patterns = np.arange(count, dtype=np.int64) << low
    tables = np.zeros((3, 4, count), dtype=np.int64)
    for suit in range(4):
        suit_deck = (deck >> (13 * suit)) & 8191
        mine = patterns & suit_deck
        out = np.bitwise_count(suit_deck & ~mine).astype(np.int64)
        plain = np.zeros(count)
        side = np.zeros(count)
        index = np.zeros(count, dtype=np.int64)
        for rank in range(12, -1, -1):
            has = (mine >> rank) & 1 == 1
            above = np.bitwise_count(suit_deck & ~mine & ~((2 << rank) - 1)).astype(np.int64)
            chance = held[above, np.minimum(index, 13)]
            void_chance = void[out, np.minimum(index, hand_size)]
            plain += np.where(has, chance, 0.0)
            side += np.where(has, chance * (1.0 - void_chance * has_ruff) ** opponents, 0.0)
            index += has
        tables[0, suit] = np.rint(1000 * plain)   # the trump suit
        tables[1, suit] = np.rint(1000 * side)    # a side suit under a trump
        tables[2, suit] = np.rint(1000 * plain)   # a suit without trumps
    return tables


def suit_tables(variant: Variant, participants: int, hand_size: int) -> np.ndarray:
    """``tables[kind, suit, pattern >> lowest_rank(deck)]`` in thousandths of a trick, for the
    13-bit ``pattern`` of a hand's cards in ``suit``; kind 0: the trump suit, 1: a side suit under
    a trump, 2: any suit of a no-trump deal."""
    return _suit_tables(variant.deck_mask, len(variant.deck_cards), participants, hand_size)
