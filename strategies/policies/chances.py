"""The chances ``strong``'s policy reasons with: each card's chance of a trick, the trick
distribution of a hand, the scale that calibrates them, and the chance that a card holds a trick.

Two records carry what these read, each as one value (a numba ``NamedTuple``, free to pass
between compiled functions): ``PlayRules``, the rules of play (read once per deal from the plan,
or per variant by the scalar heuristic: ``players.tactics.Rules.play``), and ``Holding``, a hand
as the seat bidding with it sees the deal. ``Outlook`` is what the chance that a card holds reads
of the cards out, worked out once per decision (``outlook``).

Bidding (``card_chances``): the chance of each source of a trick in the hand (Jokers nearly whole,
a card by the binomial chance that the unseen higher cards fall under the hand's own, side suits
discounted for ruffs, spare trumps for ruffing), scaled so that a deal's estimates add up to its
tricks on average (``calibrate``, once per table: ``policies.section``), give the Poisson-binomial
distribution of the trick count (``trick_distribution``). The card play (``policies.cards``)
weighs each card by the chance it holds the trick against the players still to play
(``beaten``, ``lead_chance``).

Every number below that is not a probability law is a rule of thumb set by hand with the first
heuristic and kept since (docs/strength.md measures the players they make, not each number).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import uint64
from raspis.engine.cards import JOKER, JOKER2
from raspis.engine.core import fields, rules
from raspis.engine.core.compiling import jit
from raspis.engine.core.deal import splitmix64

JOKERS = rules.JOKER_BITS

#: a Joker's chance of a trick while the other Joker is out and can beat it (two Jokers, the
#: second wins); set by hand
JOKER_CONTESTED = 0.85
#: a Joker's chance of a trick otherwise (it wins whatever it meets, bar a rare lost lead); set by
#: hand
JOKER_SURE = 0.97
#: a trump less likely than this to win a trick in its suit counts as spare, kept for ruffing;
#: set by hand
SPARE_TRUMP = 0.5
#: the tricks a spare trump is worth, for each short side suit it may ruff (at most one a spare
#: trump); set by hand
RUFF_VALUE = 0.45
#: how much the Jokers out take off every source of a trick: this share of the Jokers in the other
#: hands for each card of the hand; set by hand
JOKER_OUT_SHARE = 0.5
#: the deals the calibration of the card chances draws for each (players, hand size, trump or
#: not), from a fixed seed (``calibrate``): enough for a stable scale, cheap enough to work out
#: for every deal size when a policy table is built; set by hand
CALIBRATION_DEALS = 64
#: the calibration scale is kept within these bounds (a hand's estimate at most doubled or
#: halved); set by hand
SCALE_LOWEST, SCALE_HIGHEST = 0.5, 2.0


class PlayRules(NamedTuple):
    """The rules of play the policy reasons with, as one value."""

    #: each trick's trump follows its led suit (``trump.mode = "circular"``)
    circular: bool
    #: a seat void in the led suit must trump (``play.must_trump``)
    must_trump: bool
    #: which of two Jokers takes a trick (``rules.TWO_JOKERS_*``)
    two_jokers: int
    #: the fine for leading a Joker with other cards in hand (``joker.lead_fine``: below 0, fined)
    lead_fine: int
    #: the cards a Joker may be declared as (``joker.as_card``; 0: none)
    nameable: int


class Holding(NamedTuple):
    """A hand as the seat bidding with it sees the deal: what the card chances read."""

    #: the seat's cards (a mask)
    hand: int
    #: the deal's trump suit (-1: none)
    trump: int
    #: the cards each seat is dealt
    hand_size: int
    #: the seats taking part in the deal
    players: int
    #: the seat leads the first trick
    leads: bool
    #: the cards the seat has not seen (a mask: in other hands, the stock, or nowhere)
    unseen: int
    #: the rules of play
    rules: PlayRules


class Outlook(NamedTuple):
    """What the chance that a card holds reads of the cards out (``outlook``)."""

    #: the cards the seat has not seen (a mask)
    unseen: int
    #: how many (at least 1)
    count: int
    #: the opponents (at least 1)
    opponents: int
    #: the cards each opponent holds (at least 1)
    each: float
    #: the share of the other players still wanting tricks (they overtake when they can)
    keen: float
    #: a seat void in the led suit must trump
    must_trump: bool
    #: the Jokers among the cards out
    jokers_out: int
    #: each suit's share of the cards out
    shares: np.ndarray


# -- small helpers ---------------------------------------------------------------------------------


@jit()
def jokers_in(mask: int) -> int:
    """How many Jokers ``mask`` holds."""
    return (mask >> JOKER & 1) + (mask >> JOKER2 & 1)


@jit()
def above(card: int) -> int:
    """The cards of ``card``'s suit above it (a mask)."""
    return rules.suit_mask(card // 13) & ~((2 << card) - 1)


@jit()
def below(card: int) -> int:
    """The cards of ``card``'s suit below it (a mask)."""
    return rules.suit_mask(card // 13) & ((1 << card) - 1)


@jit()
def _at_most(count: int, chance: float, limit: int) -> float:
    """P(Binomial(count, chance) <= limit)."""
    if limit >= count:
        return 1.0
    if limit < 0:
        return 0.0
    total = 0.0
    term = (1.0 - chance) ** count  # j = 0
    if chance >= 1.0:
        return 0.0
    ratio = chance / (1.0 - chance)
    for j in range(limit + 1):
        total += term
        term *= ratio * (count - j) / (j + 1)
    return min(1.0, total)


@jit()
def _pow(base: float, exponent: float) -> float:
    return base ** exponent


# -- what the seat knows of the cards out ----------------------------------------------------------


@jit()
def turned_out(state: np.ndarray, shown: bool, hand: int) -> int:
    """The turned trump card (when ``shown``: not while bidding a dark deal), known to every
    seat."""
    card = fields.trump_card(state)
    if shown and 0 <= card < 54:
        return (1 << card) & ~hand
    return 0


@jit()
def outlook(unseen: int, players: int, others_cards: int, keen: float,
            must_trump: bool) -> Outlook:
    """What the chance that a card holds reads of the cards out: ``unseen`` the cards the seat
    has not seen, ``others_cards`` how many the other ``players - 1`` hold, ``keen`` the share
    of them still wanting tricks."""
    count = max(1, rules.popcount(unseen))
    opponents = max(1, players - 1)
    each = max(1.0, others_cards / opponents)
    shares = np.empty(4, dtype=np.float64)
    for suit in range(4):
        shares[suit] = rules.popcount(unseen & rules.suit_mask(suit)) / count
    return Outlook(unseen, count, opponents, each, keen, must_trump, jokers_in(unseen), shares)


# -- the chance that a card holds ------------------------------------------------------------------


@jit()
def beaten(card: int, trump: int, opponents: int, led: int, seen: Outlook) -> float:
    """Chance that one of ``opponents`` players still to play takes a trick ``card`` is winning
    (``trump`` the trick's trump, ``led`` its led suit when ``card`` ruffs it): keen players
    overtake whenever they can, the others only when they must."""
    if opponents <= 0:
        return 0.0
    each, keen, shares = seen.each, seen.keen, seen.shares
    suit = card // 13
    higher = rules.popcount(seen.unseen & above(card)) / seen.count
    has_higher = 1.0 - _pow(1.0 - higher, each) if higher > 0 else 0.0
    if led >= 0 and led != suit:
        void = _pow(1.0 - shares[led], each)
        per = void * has_higher
    else:
        lower = rules.popcount(seen.unseen & below(card)) / seen.count
        forced = _pow(1.0 - lower, each)
        per = has_higher * (keen + (1.0 - keen) * forced)
        if trump >= 0 and trump != suit and shares[trump] > 0:
            void = _pow(1.0 - shares[suit], each)
            ruff = void * (1.0 - _pow(1.0 - shares[trump], each))
            ruff *= keen + (1.0 - keen) * (1.0 if seen.must_trump else 0.0)
            per += ruff - per * ruff
    if seen.jokers_out:
        per += (1.0 - per) * keen * min(1.0, seen.jokers_out * each / seen.count)
    return 1.0 - _pow(1.0 - per, opponents)


@jit()
def lead_chance(card: int, trump: int, circular: bool, opponents: int, seen: Outlook) -> float:
    """Chance that ``card`` led takes the trick against ``opponents`` (``trump`` the deal's; under
    circular trumps the trick's trump follows the card's suit)."""
    ruff = rules.circular_trick_trump(card // 13) if circular else trump
    return 1.0 - beaten(card, ruff, opponents, np.int64(-1), seen)


@jit()
def likeliest(cards: int, trump: int, circular: bool, opponents: int, seen: Outlook) -> int:
    """The card of ``cards`` with the best ``lead_chance`` (the higher rank among equals); -1
    for none."""
    pick, pick_chance = -1, 0.0
    rest = cards
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        chance = lead_chance(card, trump, circular, opponents, seen)
        if pick < 0 or chance > pick_chance or (chance == pick_chance and card % 13 > pick % 13):
            pick, pick_chance = card, chance
    return pick


# -- bidding: card chances, the trick distribution, the calibration --------------------------------


@jit()
def card_chances(holding: Holding, out: np.ndarray) -> int:
    """The chance of each source of a trick in ``holding``'s hand into ``out``; returns how
    many."""
    hand, trump, hand_size, unseen = holding.hand, holding.trump, holding.hand_size, holding.unseen
    circular, must_trump = holding.rules.circular, holding.rules.must_trump
    first_wins = holding.rules.two_jokers == rules.TWO_JOKERS_FIRST_WINS
    unseen_count = max(1, rules.popcount(unseen))
    opponents = holding.players - 1
    in_hands = min(1.0, opponents * hand_size / unseen_count)
    jokers_out = jokers_in(unseen)
    mine_jokers = jokers_in(hand)
    count = 0
    joker_chance = JOKER_CONTESTED if (jokers_out > 0 and not first_wins) else JOKER_SURE
    for _ in range(mine_jokers):
        out[count] = joker_chance
        count += 1
    plain = hand & ~JOKERS
    if hand_size == 1:
        if mine_jokers == 0 and plain != 0:
            card = rules.highest_index(plain)
            suit = card // 13
            ruff = rules.circular_trick_trump(suit) if circular else trump
            beats = rules.popcount(unseen & above(card)) + jokers_out
            if ruff >= 0 and ruff != suit and must_trump:
                beats += rules.popcount(unseen & rules.suit_mask(ruff))
            safe = max(0.0, 1.0 - beats / unseen_count)
            if holding.leads or (suit == trump and not circular):
                out[count] = safe ** opponents
            else:
                lower = rules.popcount(unseen & below(card)) / unseen_count
                out[count] = lower * safe ** max(0, opponents - 1)
            count += 1
        return count
    spare = 0
    shortness = 0.0
    for suit in range(4):
        mine = plain & rules.suit_mask(suit)
        length = rules.popcount(mine)
        is_trump = suit == trump and not circular
        if not is_trump and trump >= 0 and not circular:
            shortness += 1.0 if length == 0 else 0.5 if length == 1 else 0.0
        if mine == 0:
            continue
        ruff = rules.circular_trick_trump(suit) if circular else (trump if not is_trump else -1)
        share = rules.popcount(unseen & rules.suit_mask(suit)) / unseen_count
        has_ruff = 0.0
        if ruff >= 0:
            ruffs = rules.popcount(unseen & rules.suit_mask(ruff)) / unseen_count
            has_ruff = 1.0 - (1.0 - ruffs) ** hand_size
        index = np.int64(0)
        rest = mine
        while rest:
            card = rules.highest_index(rest)
            rest &= ~(1 << card)
            chance = _at_most(rules.popcount(unseen & above(card)), in_hands, index)
            if has_ruff > 0:
                void = _at_most(hand_size, share, index)
                chance *= (1.0 - void * has_ruff) ** opponents
            if is_trump and chance < SPARE_TRUMP:
                spare += 1
            out[count] = chance
            count += 1
            index += 1
    if spare and hand_size >= 3:
        ruffs = RUFF_VALUE * min(spare, shortness)
        while ruffs > 0:
            out[count] = min(1.0, ruffs)
            count += 1
            ruffs -= 1.0
    if jokers_out:
        factor = 1.0 - JOKER_OUT_SHARE * jokers_out * in_hands / hand_size
        for index in range(count):
            out[index] *= factor
    return count


@jit()
def trick_distribution(chances: np.ndarray, count: int, scale: float, hand_size: int,
                       out: np.ndarray) -> None:
    """P(t tricks), t = 0..hand_size, into ``out``: each of the ``count`` sources wins
    independently with its chance times ``scale`` (at most 1), a Poisson-binomial distribution,
    more sources than tricks piling up on the last entry."""
    out[:hand_size + 1] = 0.0
    out[0] = 1.0
    top = 0
    for index in range(count):
        chance = min(1.0, max(0.0, chance_of(chances[index], scale)))
        miss = 1.0 - chance
        full = top == hand_size
        top = min(top + 1, hand_size)
        for tricks in range(top, 0, -1):
            if tricks == hand_size and full:
                out[tricks] += out[tricks - 1] * chance
            else:
                out[tricks] = out[tricks] * miss + out[tricks - 1] * chance
        out[0] *= miss


@jit()
def chance_of(chance: float, scale: float) -> float:
    """A source's chance of a trick, scaled (at most 1)."""
    return min(1.0, chance * scale)


@jit()
def estimate(holding: Holding) -> float:
    """The expected tricks of a hand, unscaled: the sum of its ``card_chances``, at most the hand
    size."""
    chances = np.empty(64, dtype=np.float64)
    count = card_chances(holding, chances)
    total = 0.0
    for index in range(count):
        total += chances[index]
    return min(float(holding.hand_size), total)


@jit()
def calibrate(cards: np.ndarray, players: int, hand_size: int, trump: bool,
              play_rules: PlayRules, seed: int) -> float:
    """The scale that makes the estimates of a deal's hands add up to its tricks on average,
    over ``CALIBRATION_DEALS`` deals shuffled from ``seed`` (``section.strong_section``; the
    heuristic's ``tactics.Rules.scale``)."""
    key = uint64(seed)
    deck = 0
    for card in cards:
        deck |= 1 << card
    deck_cards = cards.copy()
    total = 0.0
    deals = CALIBRATION_DEALS
    for _ in range(deals):
        for index in range(len(deck_cards) - 1, 0, -1):  # Fisher-Yates on a counter hash
            key = splitmix64(key)
            other = np.int64(key % uint64(index + 1))
            deck_cards[index], deck_cards[other] = deck_cards[other], deck_cards[index]
        key = splitmix64(key)
        suit = np.int64(key % uint64(4)) if trump else np.int64(-1)
        for seat in range(players):
            hand = np.int64(0)
            for index in range(seat * hand_size, (seat + 1) * hand_size):
                hand |= 1 << deck_cards[index]
            total += estimate(Holding(hand, suit, hand_size, players, seat == 0, deck & ~hand,
                                      play_rules))
    value = hand_size * deals / total if total > 0 else 1.0
    return min(SCALE_HIGHEST, max(SCALE_LOWEST, value))


__all__ = ["JOKERS", "Holding", "Outlook", "PlayRules", "above", "beaten", "below",
           "calibrate", "card_chances", "chance_of", "estimate", "jokers_in", "lead_chance",
           "likeliest", "outlook", "trick_distribution", "turned_out"]
