"""``strong``'s card model: where the card rules (``policies.cards``) play a plain card and two or
more are legal, each legal plain card is scored by a linear model over ``CARD_FEATURES`` features
(what the rules work out for it: its chances to win and to hold, keeper, trump, rank, ..., and
whether it is the rules' own card), one weight row for each of a lead or a follow by a seat that
wants tricks or none (``card_row``), fitted to ``mc``'s play (``strategies.fitting.distil``) and
shipped beside the fitted bid outcomes (``policies.fitted``); the best score is played
(``model_card``). Only ``strong`` plays it, through its table: the heuristic plays the rules.
"""

from __future__ import annotations

import numpy as np
from raspis.engine.core import fields, rules
from raspis.engine.core import machine as m
from raspis.engine.core.compiling import jit

from .cards import CardPosition, cheapest, keepers, play_with, position_of
from .chances import JOKERS, Outlook, above, beaten, below, jokers_in, lead_chance, outlook
from .section import CARD_FEATURES, CARD_MODELS, WEIGHT_UNIT

#: the feature that is 1 for the card the rules play
BASE_FEATURE = 11


@jit()
def card_row(lead: bool, need: int) -> int:
    """The card model's weight row: a lead or a follow, for a seat that wants tricks or none."""
    return (0 if lead else 2) + (0 if need > 0 else 1)


@jit()
def card_position(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int,
                  features: np.ndarray) -> tuple[int, int, int]:
    """At a card of the seat to move (for fitting the card model): the plain cards it may play,
    the card the rules play (``cards.choose_play``; a Joker's code is ``JOKER`` or more) and the
    model's row (``card_row``); ``features`` (``JOKER`` x ``CARD_FEATURES``) filled for those
    cards."""
    seat = fields.to_move(state)
    hand = m.visible_hand(state, plan, seat)
    position = position_of(state, plan, table, at, seat, hand)
    win = np.zeros(54, dtype=np.float64)
    code = play_with(position, win)
    legal = card_features(state, plan, position, code, win, features)
    return legal, code, card_row(position.trick.length == 0, position.aims.need)


@jit()
def card_features(state: np.ndarray, plan: np.ndarray, position: CardPosition, base: int,
                  win: np.ndarray, features: np.ndarray) -> int:
    """Fill ``features[card]`` for every legal plain card at ``position`` and return them (a
    mask); ``win``: the card chances the rules left (``cards.play_with``), completed here where
    they need none. At a lead, ``lead_features``; after it, per card: whether it wins the trick
    as it stands, its chance to hold (none after it overtakes: ``chances.beaten``) and that times
    the share of the hand still wanted; winning times the share of the others still wanting
    tricks; its chance to win a trick it led (what keeping it is worth); one of the ``need``
    keepers; a trump; the cheapest card that wins; its chance to hold when the seat plays last;
    its suit's length in hand (a share); its rank (0 to 1); the rules' card ``base``; the cards
    out above it (up to 4); of the led suit; winning when the seat has taken more than its bid
    (read from the state); winning but likely to be overtaken."""
    hand, trump, need = position.hand, position.trump, position.aims.need
    circular, unseen = position.rules.circular, position.unseen
    legal = position.legal & ~JOKERS
    seen = outlook(unseen, position.players, position.others_cards, position.aims.keen,
                   position.rules.must_trump)
    length = position.trick.length
    # as the rules' chances: the deal's trump at a lead, the trick's after it (none when circular)
    chance_trump = trump if length == 0 else -1 if circular else position.trick.trump
    # the chances the features read: of the cards it may play, and of the whole hand where the
    # keepers are picked from it (a follow that still wants tricks); the rules worked them out
    # already (``play_with``) but at a follow that wants no tricks
    rest = legal if length and need <= 0 else 0
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        win[card] = lead_chance(card, chance_trump, circular, seen.opponents, seen)
    kept = keepers(win, hand & ~JOKERS if length else legal, jokers_in(hand),
                   need) if need > 0 else 0
    remaining = max(1, rules.popcount(hand))
    wanted = max(need, 0) / remaining
    seat = fields.to_move(state)
    bid = fields.bid(state, plan, seat)
    busted = 1.0 if 0 <= bid < fields.taken(state, plan, seat) else 0.0
    if length == 0:
        lead_features(position, seen, win, kept, wanted, busted, base, features)
        return legal
    trick = position.trick
    led, trick_trump, two_jokers = trick.led, trick.trump, position.rules.two_jokers
    winners = rules.winning_cards(legal, trick.best, length, led, trick_trump, trick.beats,
                                  two_jokers)
    cheap = cheapest(winners, trick, two_jokers)
    after = position.players - 1 - length
    rest = legal
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        suit = card // 13
        holds = 0.0
        if winners >> card & 1:
            ruffing = led if suit == trick_trump and led >= 0 else -1
            holds = 1.0 - beaten(card, trick_trump, after, ruffing, seen)
        row = features[card]
        row[0] = 1.0 if winners >> card & 1 else 0.0
        row[1] = holds
        row[2] = holds * wanted
        row[3] = row[0] * seen.keen
        row[4] = win[card]
        row[5] = kept >> card & 1
        row[6] = 1.0 if suit == trump else 0.0
        row[7] = 1.0 if card == cheap else 0.0
        row[8] = holds if after == 0 else 0.0
        row[9] = rules.popcount(hand & rules.suit_mask(suit)) / remaining
        row[10] = (card % 13) / 12.0
        row[BASE_FEATURE] = 1.0 if card == base else 0.0
        row[12] = min(rules.popcount(unseen & above(card)), 4) / 4.0
        row[13] = 1.0 if suit == led else 0.0
        row[14] = row[0] * busted
        row[15] = row[0] * (1.0 - holds)
    return legal


@jit()
def lead_features(position: CardPosition, seen: Outlook, win: np.ndarray, kept: int,
                  wanted: float, busted: float, base: int, features: np.ndarray) -> None:
    """A lead's features of each legal plain card: its chance to win the trick led
    (``chances.lead_chance``) and its square; whether it is one of the keepers (``kept``); a
    trump; its suit's length in hand (a share of the hand); a side-suit singleton; no card out
    above it; the cards out above it (up to 4, a quarter each); its suit's share of the cards
    out; a higher card of the suit in hand; its rank (0 to 1); whether it is the rules' card
    ``base``; its win chance times the share of the hand still wanted (``wanted``); the lowest of
    two or more of its suit in hand; its win chance times the share of the others still wanting
    tricks (``keen``) and times whether the seat has taken more than its bid (``busted``)."""
    hand, trump, unseen = position.hand, position.trump, position.unseen
    remaining = max(1, rules.popcount(hand))
    rest = position.legal & ~JOKERS
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        suit = card // 13
        own = rules.popcount(hand & rules.suit_mask(suit))
        higher = rules.popcount(unseen & above(card))
        row = features[card]
        row[0] = win[card]
        row[1] = win[card] * win[card]
        row[2] = kept >> card & 1
        row[3] = 1.0 if suit == trump else 0.0
        row[4] = own / remaining
        row[5] = 1.0 if own == 1 and suit != trump else 0.0
        row[6] = 1.0 if higher == 0 else 0.0
        row[7] = min(higher, 4) / 4.0
        row[8] = seen.shares[suit]
        row[9] = 1.0 if hand & above(card) else 0.0
        row[10] = (card % 13) / 12.0
        row[BASE_FEATURE] = 1.0 if card == base else 0.0
        row[12] = win[card] * wanted
        row[13] = 1.0 if own >= 2 and hand & below(card) == 0 else 0.0
        row[14] = win[card] * seen.keen
        row[15] = win[card] * busted


@jit()
def model_card(legal: int, features: np.ndarray, table: np.ndarray, weights: int, net: int,
               units: int) -> int:
    """The card of ``legal`` with the best score under the card model's weight row at
    ``table[weights:]`` (``CARD_FEATURES`` of them, in ``WEIGHT_UNIT``ths) and, with ``units``
    hidden units, its nonlinear part at ``table[net:]`` (``section.CardModel``: hidden weights by
    feature, biases, output weights; rectified units, ``max(a, 0)``, as
    ``strategies.fitting.net`` fits them); ties to the lower rank."""
    pick, pick_score = -1, 0.0
    rest = legal
    biases = net + CARD_FEATURES * units
    output = biases + units
    hidden = np.empty(max(units, 1), dtype=np.float64)
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        score = 0.0
        for index in range(CARD_FEATURES):
            score += features[card, index] * table[weights + index]
        if units:
            for unit in range(units):
                hidden[unit] = table[biases + unit]
            for index in range(CARD_FEATURES):
                value = features[card, index]
                if value != 0.0:  # most features of a card are 0 or 1: skip the zeros
                    row = net + index * units
                    for unit in range(units):
                        hidden[unit] += value * table[row + unit]
            for unit in range(units):
                if hidden[unit] > 0:
                    score += table[output + unit] * (hidden[unit] / WEIGHT_UNIT)
        if pick < 0 or score > pick_score or (score == pick_score and card % 13 < pick % 13):
            pick, pick_score = card, score
    return pick


@jit()
def model_rows(table: np.ndarray, model: int, row: int) -> tuple[int, int, int]:
    """Where the card model (its block at ``table[model:]``) keeps weight row ``row``: its
    linear weights, its nonlinear part, and the hidden units a row (``section.card_block``)."""
    linear = CARD_MODELS * CARD_FEATURES
    units = table[model + linear]
    size = CARD_FEATURES * units + 2 * units
    return model + row * CARD_FEATURES, model + linear + 1 + row * size, units


__all__ = ["BASE_FEATURE", "card_features", "card_position", "card_row",
           "lead_features", "model_card", "model_rows"]
