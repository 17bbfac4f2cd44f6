"""``strong``'s bid, and the suit it names: the bid with the best expected points under the
deal's own score table, from the trick distribution of its hand.

``bid_distribution`` reads the seat's ``Holding`` from the state (its visible hand, the trump as
visible, the cards it has not seen) and scales its card chances by the section's calibration
(``policies.chances``). For each legal bid a share ``STEER`` of the deals one trick off it is
moved onto it (the seat plays towards its bid); where a fitted table is shipped
(``policies.fitted``, made by ``strategies.fitting.bids``), that is blended with what the bid
came to in self-play for hands of the same bucket (``fit_bucket``: the expected tricks and the
pressure of the bids made before), ``PRIOR`` deals' worth of the model against the counted deals.
The bid is the legal one with the best expected points under the deal's score table in the plan
(``best_bid``), with the premium kept in reach added to a made bid (``stake``; odds 1, as measured
best for the heuristic in docs/strength.md). A hidden hand (dark, forehead) bids from the average
share.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from raspis.engine.core import fields, rules, scoring
from raspis.engine.core import machine as m
from raspis.engine.core.codes import TRUMP_CIRCULAR
from raspis.engine.core.compiling import jit

from .chances import JOKERS, Holding, PlayRules, card_chances, trick_distribution, turned_out
from .section import (
    BID_FEATURES,
    BUCKETS,
    SCALE_UNIT,
    X_BIDS,
    X_DECK,
    X_FIT,
    X_MAX_HAND,
    X_PLAYERS,
    scale_slot,
)

#: the share of the deals one trick off a bid that play towards the bid brings onto it; set by
#: hand
STEER = 0.3
#: the weight of the model's trick distribution against the fitted deals of a bucket, as that
#: many deals; set by hand
PRIOR = 20.0
#: naming trump, each card of a suit counts 1, and this much more for each rank above the eight
#: (a high card takes tricks as trump); set by hand
HIGH_CARD_WEIGHT = 0.15
#: the rank index (2 = 0) above which a card counts more when naming trump: the eight
HIGH_CARD_FROM = 6
#: the bid model's feature that is 1 for the bid of the best expected points
BASE_BID_FEATURE = 2
#: the largest hand the bid model's first weight row is for (``bid_row``)
SMALL_HAND = 3


class Worked(NamedTuple):
    """What ``bid_values`` works out for a bid (see there), which the bid model reads."""

    raw: np.ndarray
    aimed: np.ndarray
    values: np.ndarray
    deal_points: np.ndarray


@jit()
def points(plan: np.ndarray, row: int, bid: int, taken: int) -> int:
    """``fields.deal_points``, compiled once here rather than inlined at each of its callers."""
    return fields.deal_points(plan, row, bid, taken)


@jit()
def stake(state: np.ndarray, plan: np.ndarray, seat: int, bid: int) -> float:
    """What making ``bid`` adds for ``seat`` on top of the deal's points: the premium kept in
    reach while the seat has made every bid of the span so far (the core's ``scoring.premium`` of
    its best deal, this one made included; ``tactics.premium_stake`` with odds 1); 0 without a
    premium, outside a span, or once a bid of it was missed."""
    mode = fields.plan_premium_mode(plan)
    row = fields.row(state)
    if mode == scoring.PREMIUM_NONE or fields.deal_block(plan, row) < 0 or bid < 0:
        return 0.0
    if fields.deal_bidding(plan, row) == 0:
        return 0.0
    opens = fields.deal_opens(plan, row) != 0
    if not opens and fields.span_made(state, plan, seat) == 0:
        return 0.0
    made = points(plan, row, bid, bid)
    best = made if opens else max(made, fields.span_best(state, plan, seat))
    return float(scoring.premium(mode, best, fields.plan_premium_points(plan)))


@jit()
def bid_distribution(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int,
                     seat: int, hand: int, distribution: np.ndarray) -> float:
    """P(t tricks) for the seat to bid (t = 0..hand size) into ``distribution``, from its visible
    hand (or the average share when it bids without seeing it); returns the expected tricks."""
    row = fields.row(state)
    hand_size = fields.deal_hand_size(plan, row)
    players = fields.order_length(state)
    trump = m.visible_trump(state, plan)
    circular = fields.deal_trump_rule(plan, row) == TRUMP_CIRCULAR
    if fields.deal_hand_hidden(plan, row):
        share = np.empty(hand_size, dtype=np.float64)
        share[:] = 1.0 / players
        trick_distribution(share, hand_size, 1.0, hand_size, distribution)
    else:
        max_hand = table[at + X_MAX_HAND]
        flag = 1 if (trump >= 0 or circular) else 0
        scale = table[at + scale_slot(max_hand, players, hand_size, flag)] / SCALE_UNIT
        if scale <= 0:
            scale = 1.0
        unseen = table[at + X_DECK] & ~hand & ~turned_out(state, trump >= 0, hand)
        first = m.seated_first_leader(state, plan)
        play_rules = PlayRules(circular, fields.plan_must_trump(plan) != 0,
                               fields.plan_two_jokers(plan), fields.plan_lead_fine(plan),
                               fields.plan_nameable(plan))
        chances = np.empty(64, dtype=np.float64)
        count = card_chances(Holding(hand, trump, hand_size, players, first == seat, unseen,
                                     play_rules), chances)
        trick_distribution(chances, count, scale, hand_size, distribution)
    expected = 0.0
    for tricks in range(hand_size + 1):
        expected += tricks * distribution[tricks]
    return expected


@jit()
def bids_made(state: np.ndarray, plan: np.ndarray, seat: int) -> tuple[int, int]:
    """How many of the other seats taking part have bid, and their bids' total."""
    made, total = 0, 0
    for position in range(fields.order_length(state)):
        other = fields.seat_at(state, plan, position)
        bid = fields.bid(state, plan, other)
        if other != seat and bid >= 0:
            made += 1
            total += bid
    return made, total


@jit()
def fit_bucket(state: np.ndarray, plan: np.ndarray, seat: int, expected: float,
               hand_size: int) -> int:
    """The seat's bucket in the fitted table: its expected tricks (``BUCKETS`` a trick), and how
    the bids made before it stand against their share of the tricks (the pressure: below, about
    or above ``hand_size / participants`` a bid, by half a trick)."""
    tricks = min(BUCKETS * hand_size, max(0, int(expected * BUCKETS + 0.5)))
    participants = fields.order_length(state)
    made, total = bids_made(state, plan, seat)
    excess = total - made * hand_size / participants
    pressure = 0 if excess < -0.5 else 2 if excess > 0.5 else 1
    return pressure * (BUCKETS * hand_size + 1) + tricks


@jit()
def bid_bucket(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int) -> int:
    """The fitted table's bucket of the seat to bid (``strategies.fitting.bids.fit_bids``)."""
    seat = fields.to_move(state)
    hand_size = fields.deal_hand_size(plan, fields.row(state))
    distribution = np.empty(hand_size + 1, dtype=np.float64)
    expected = bid_distribution(state, plan, table, at, seat,
                                m.visible_hand(state, plan, seat), distribution)
    return fit_bucket(state, plan, seat, expected, hand_size)


@jit()
def best_bid(distributions: np.ndarray, legal: int, table: np.ndarray, stakes: np.ndarray,
             values: np.ndarray) -> int:
    """The legal bid (``legal``: a mask) with the highest expected deal points, -1 when no bid of
    the table is legal: ``distributions[bid, t]`` the chance of taking ``t`` tricks when bidding
    ``bid`` (how the seat plays depends on its bid), ``table[bid, t]`` the deal's points,
    ``stakes[bid]`` what making ``bid`` adds on top (the premium kept in reach). ``values[bid]``
    gets each legal bid's expectation. Ties (within 1e-9) go to the lower bid. The one bid
    choice of ``strong`` (``choose_bid``) and of the scalar strategies (``tactics.best_bid``)."""
    choice, best = -1, 0.0
    for bid in range(table.shape[0]):
        if legal >> bid & 1:
            value = stakes[bid] * distributions[bid, bid]
            for taken in range(table.shape[1]):
                if distributions[bid, taken] > 0:
                    value += distributions[bid, taken] * table[bid, taken]
            values[bid] = value
            if choice < 0 or value > best + 1e-9:
                choice, best = bid, value
    return choice


@jit()
def bid_row(hand_size: int) -> int:
    """The bid model's weight row: a hand of up to ``SMALL_HAND`` cards, or a larger one."""
    return 0 if hand_size <= SMALL_HAND else 1


@jit()
def bid_values(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
               hand: int) -> tuple[float, int, Worked]:
    """What ``strong`` works out for every legal bid of the seat to move (``seat``, its visible
    ``hand``): the expected tricks, the bid of the best expected points (-1: no legal bid in the
    hand's reach), and ``Worked``: ``raw`` the model's trick distribution of the hand
    (``bid_distribution``), ``aimed[bid]`` the tricks it takes bidding ``bid`` (steered, the
    fitted deals blended in), ``values[bid]`` the bid's expected points (``best_bid``: the deal's
    table, the stake), ``deal_points[bid, taken]`` the deal's table (every bid, legal or not)."""
    row = fields.row(state)
    legal = fields.legal_first(state)
    hand_size = fields.deal_hand_size(plan, row)
    raw = np.empty(hand_size + 1, dtype=np.float64)
    aimed = np.zeros((hand_size + 1, hand_size + 1), dtype=np.float64)
    values = np.zeros(hand_size + 1, dtype=np.float64)
    deal_points = np.empty((hand_size + 1, hand_size + 1), dtype=np.float64)
    expected = bid_distribution(state, plan, table, at, seat, hand, raw)
    # the fitted outcomes of this bucket (``strategies.fitting.bids.fit_bids``), for the full
    # table's participants
    block = -1
    if table[at + X_FIT] > 0 and fields.order_length(state) == table[at + X_PLAYERS]:
        offset = table[at + table[at + X_FIT] + hand_size]
        if offset > 0:
            block = (at + offset
                     + fit_bucket(state, plan, seat, expected, hand_size) * (hand_size + 1) ** 2)
    stakes = np.zeros(hand_size + 1, dtype=np.float64)
    for bid in range(hand_size + 1):
        for taken in range(hand_size + 1):
            deal_points[bid, taken] = points(plan, row, bid, taken)
        if legal >> bid & 1:
            # the seat plays towards its bid: a share ``STEER`` of the deals one trick off the
            # bid either way end on it
            bid_aimed = aimed[bid]
            bid_aimed[:] = raw
            for near in (bid - 1, bid + 1):
                if 0 <= near <= hand_size:
                    moved = STEER * raw[near]
                    bid_aimed[near] -= moved
                    bid_aimed[bid] += moved
            if block >= 0:  # what the fitted deals of this bucket and bid came to
                counts = block + bid * (hand_size + 1)
                seen = 0
                for taken in range(hand_size + 1):
                    seen += table[counts + taken]
                if seen > 0:
                    for taken in range(hand_size + 1):
                        bid_aimed[taken] = ((table[counts + taken] + PRIOR * bid_aimed[taken])
                                            / (seen + PRIOR))
            stakes[bid] = stake(state, plan, seat, bid)
    choice = best_bid(aimed, legal, deal_points, stakes, values)
    return expected, choice, Worked(raw, aimed, values, deal_points)


@jit()
def choose_bid(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
               hand: int) -> int:
    """``strong``'s bid for the seat to move (``seat``, its visible ``hand``): the legal bid with
    the best expected points (``bid_values``), or where the table holds a bid model, the bid of
    the best score under it (``bid_features``)."""
    legal = fields.legal_first(state)
    hand_size = fields.deal_hand_size(plan, fields.row(state))
    expected, choice, worked = bid_values(state, plan, table, at, seat, hand)
    if choice < 0:  # every legal bid above the hand (``play.draw_after_trick``): the lowest
        return rules.bit_index(legal & -legal)
    model = table[at + X_BIDS]
    if model <= 0:
        return choice
    features = np.empty((hand_size + 1, BID_FEATURES), dtype=np.float64)
    bid_features(state, plan, hand, expected, worked, choice, features)
    weights = at + model + bid_row(hand_size) * BID_FEATURES
    pick, pick_score = -1, 0.0
    for bid in range(hand_size + 1):
        if legal >> bid & 1:
            score = 0.0
            for index in range(BID_FEATURES):
                score += features[bid, index] * table[weights + index]
            if pick < 0 or score > pick_score:
                pick, pick_score = bid, score
    return pick


@jit()
def bid_position(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int,
                 features: np.ndarray) -> tuple[int, int, int]:
    """At a bid of the seat to move (for fitting the bid model): its legal bids (a mask), the bid
    of the best expected points (``choose_bid`` without a model) and the model's row
    (``bid_row``); ``features`` (hand size + 1 x ``BID_FEATURES``) filled for the legal bids."""
    seat = fields.to_move(state)
    hand = m.visible_hand(state, plan, seat)
    legal = fields.legal_first(state)
    expected, choice, worked = bid_values(state, plan, table, at, seat, hand)
    if choice >= 0:
        bid_features(state, plan, hand, expected, worked, choice, features)
    return legal, choice, bid_row(fields.deal_hand_size(plan, fields.row(state)))


@jit()
def bid_features(state: np.ndarray, plan: np.ndarray, hand: int, expected: float,
                 worked: Worked, base: int, features: np.ndarray) -> None:
    """Fill ``features[bid]`` for every legal bid (``worked``: ``bid_values``' arrays): its
    expected points (a share of the largest of the deal's table in reach); its chance to be made;
    whether it is the bid of the best expected points (``base``); how far it lies from the
    expected tricks, that distance's size and square (up to 3 tricks); a bid of none; the bids'
    total with it against the tricks (a share of the hand), that excess's size, and the excess
    times the share of bidders still to bid and times whether none is; the hand's own chance of
    taking exactly that many tricks (unsteered, unfitted); the chance of missing it by one; the
    bid as a share of the hand; and how far it lies from the expected tricks, and that distance's
    size, times the Jokers in the seat's ``hand`` (a Joker takes or loses a trick at will), the
    distance times the hand's share of trumps, and times whether the seat leads the first
    trick."""
    raw, aimed, values, deal_points = worked.raw, worked.aimed, worked.values, worked.deal_points
    hand_size = fields.deal_hand_size(plan, fields.row(state))
    legal = fields.legal_first(state)
    scale = 1.0  # the deal table's largest
    for bid in range(hand_size + 1):
        for taken in range(hand_size + 1):
            scale = max(scale, abs(deal_points[bid, taken]))
    seat = fields.to_move(state)
    participants = fields.order_length(state)
    made, total = bids_made(state, plan, seat)  # the seat to bid has not bid yet
    later = participants - 1 - made
    last = 1.0 if later == 0 else 0.0
    jokers = float(rules.popcount(hand & JOKERS))
    trump = m.visible_trump(state, plan)
    trumps = rules.popcount(hand & rules.suit_mask(trump)) / hand_size if trump >= 0 else 0.0
    leads = 1.0 if m.seated_first_leader(state, plan) == seat else 0.0
    for bid in range(hand_size + 1):
        if not legal >> bid & 1:
            continue
        row_features = features[bid]
        off = bid - expected
        over = (total + bid - hand_size) / hand_size
        near = 0.0
        if bid > 0:
            near += aimed[bid, bid - 1]
        if bid < hand_size:
            near += aimed[bid, bid + 1]
        row_features[0] = values[bid] / scale
        row_features[1] = aimed[bid, bid]
        row_features[BASE_BID_FEATURE] = 1.0 if bid == base else 0.0
        row_features[3] = off
        row_features[4] = abs(off)
        row_features[5] = min(off * off, 9.0) / 9.0
        row_features[6] = 1.0 if bid == 0 else 0.0
        row_features[7] = over
        row_features[8] = abs(over)
        row_features[9] = over * later / participants
        row_features[10] = over * last
        row_features[11] = raw[bid]
        row_features[12] = near
        row_features[13] = bid / hand_size
        row_features[14] = jokers * off
        row_features[15] = jokers * abs(off)
        row_features[16] = trumps * off
        row_features[17] = leads * off


@jit()
def name_trump_suit(hand: int) -> int:
    """The suit to name: the longest, counting high cards a little (strong and heuristic)."""
    first = hand & ~JOKERS
    best, best_score = 0, -1.0
    for suit in range(4):
        mine = first & rules.suit_mask(suit)
        score = 0.0
        while mine:
            card = rules.highest_index(mine)
            mine &= ~(1 << card)
            score += 1.0 + max(0, card % 13 - HIGH_CARD_FROM) * HIGH_CARD_WEIGHT
        if score > best_score:
            best, best_score = suit, score
    return best


__all__ = ["BASE_BID_FEATURE", "PRIOR", "SMALL_HAND", "STEER", "Worked", "best_bid",
           "bid_bucket", "bid_distribution", "bid_features", "bid_position", "bid_row",
           "bid_values", "bids_made", "choose_bid", "fit_bucket", "name_trump_suit", "points",
           "stake"]
