"""The compiled policy of ``strong``: the heuristic's rules, compiled on the state machine, with
bids chosen by the deal's own score table.

``decide_strong(state, plan, table, at)`` is a numba function of the rules core's state vector
(``engine.core.machine``), called by ``strategies.compiled.decide`` for every seat whose policy is
``STRONG``; ``at`` is where its section of the policy table starts (``strong_section``). It reads
only what the seat to move may see: its own visible hand (``machine.visible_hand``), the trump as
visible (``machine.visible_trump``), the bids, the tricks taken, the trick under way, the cards the
memory rule lets it look back at (``machine.seen_cards``), the public premium span (who has made
every bid of it so far, and each seat's best deal: what every seat works out from the bids, the
tricks and the totals) and the deal's score table in the plan.

The one copy of the heuristic's reasoning: the scalar ``heuristic`` calls these functions too
(``strategies.tactics`` is their Python face, plain values in and out), so ``strong`` and
``heuristic`` differ only in how they bid from the trick distribution and in what they read.

Bidding (``card_chances``): the chance of each source of a trick in the hand (Jokers nearly whole,
a card by the binomial chance that the unseen higher cards fall under the hand's own, side suits
discounted for ruffs, spare trumps for ruffing), scaled so that a deal's estimates add up to its
tricks on average (``strong_section`` calibrates the scale on random deals once per table), give
the Poisson-binomial distribution of the trick count. For each legal bid a share ``STEER`` of the
deals one trick off it is moved onto it (the seat plays towards its bid); where a fitted table is
shipped (``load_fit``: ``data/strong/NAME-PLAYERS.npz``, made by ``strategies.strong.fit_bids``),
that is blended with what the bid came to in self-play for hands of the same bucket
(``fit_bucket``: the expected tricks and the pressure of the bids made before), ``PRIOR`` deals'
worth of the model against the counted deals. The bid is the legal one with the best expected
points under the deal's score table in the plan, with the premium kept in reach added to a made bid
(odds 1, as measured best for the heuristic in docs/strength.md). A hidden hand (dark, forehead)
bids from the average share.

Card play (``choose_play``, from plain values; ``_play`` reads them from the state): the seat keeps
its ``need`` likeliest winners, wins a trick as cheaply as holds up, sheds spare cards highest
first, ducks with the most dangerous card that cannot win; whether a card holds depends on who
still wants tricks (keen players overtake when they can). The Joker is kept, led only when every
trick is needed (with the demand that helps the hand, or declared as a card where only that does
it) or low to lose. A seat in a premium span aims at exactly its bid while it can still make it.

The card model (``card_features``, ``model_card``; ``strong`` only, through its table: the
heuristic plays the rules above): where the rules play a plain card and two or more are legal,
each legal plain card is scored by a linear model over ``CARD_FEATURES`` features (what the
rules work out for it: its chances to win and to hold, keeper, trump, rank, ..., and whether it is
the rules' own card), one weight row for each of a lead or a follow by a seat that wants tricks or
none, fitted to ``mc``'s play (``strategies.distil``) and shipped beside the fitted bid outcomes
(``fit_cards``); the best score is played.

Everything here is integer masks and a few floating-point chances per card: a decision takes a
fraction of a microsecond to a few microseconds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import uint64
from raspis.engine.cards import JOKER, JOKER2
from raspis.engine.core import fields, rules
from raspis.engine.core import machine as m
from raspis.engine.core.codes import (
    CALL_HIGH,
    CALL_HIGHEST,
    CALL_LOW,
    CALL_LOWEST,
    CALL_TRUMPS,
    CARD_OPTION,
    OPTION_CALL,
    OPTION_COUNT,
    OPTION_SUIT,
    OPTIONS,
    TRUMP_CIRCULAR,
    WINNING_LEADS,
)
from raspis.engine.core.compiling import jit
from raspis.engine.core.deal import splitmix64
from raspis.engine.core.view import PlanView

from .keep import keep_code

JOKERS = rules.JOKER_BITS
#: the lead options that take the trick, and those that lose it (low, lowest of a suit)
WINNING_MASK = sum(1 << option for option in WINNING_LEADS)
LOSING_MASK = sum(1 << option for option, (call, _) in enumerate(OPTIONS)
                  if call in (CALL_LOW, CALL_LOWEST))
#: the section's header: the largest hand, the players, the deck, where the fitted bid outcomes
#: and the card model start (0: none), then the scales
(X_MAX_HAND, X_PLAYERS, X_DECK, X_FIT, X_CARDS, X_SCALES) = range(6)
SCALE_UNIT = 1_000_000
#: the share of the deals one trick off a bid that play towards the bid brings onto it
STEER = 0.3
#: buckets a trick of the fitted table's expected trick counts, and the weight of the model's
#: distribution against the fitted deals (as that many deals)
BUCKETS = 4
PRESSURES = 3
PRIOR = 20.0
#: the card model (``strategies.distil``): what it reads of every plain card the seat may play
#: (``card_features``), its weight rows (``CARD_MODELS``: a lead, then a
#: follow, each for a seat that wants tricks and one that wants none; ``card_row``) and the unit
#: the weights are kept in in the table
CARD_FEATURES = 16
CARD_MODELS = 4
#: the feature that is 1 for the card the rules play
BASE_FEATURE = 11
WEIGHT_UNIT = 1_000_000


# -- small helpers ---------------------------------------------------------------------------------


@jit()
def _jokers(mask: int) -> int:
    """How many Jokers ``mask`` holds."""
    return (mask >> JOKER & 1) + (mask >> JOKER2 & 1)


@jit()
def _above(card: int) -> int:
    return rules.suit_mask(card // 13) & ~((2 << card) - 1)


@jit()
def _below(card: int) -> int:
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


# -- the chance that a card holds ------------------------------------------------------------------


@jit()
def _beaten(card: int, trump: int, opponents: int, led: int, unseen: int, count: int,
            each: float, keen: float, must_trump: bool, jokers_out: int,
            shares: np.ndarray) -> float:
    """Chance that one of ``opponents`` players still to play takes a trick ``card`` is winning
    (``trump`` the trick's trump, ``led`` its led suit when ``card`` ruffs it): keen players
    overtake whenever they can, the others only when they must."""
    if opponents <= 0:
        return 0.0
    suit = card // 13
    higher = rules.popcount(unseen & _above(card)) / count
    has_higher = 1.0 - _pow(1.0 - higher, each) if higher > 0 else 0.0
    if led >= 0 and led != suit:
        void = _pow(1.0 - shares[led], each)
        per = void * has_higher
    else:
        lower = rules.popcount(unseen & _below(card)) / count
        forced = _pow(1.0 - lower, each)
        per = has_higher * (keen + (1.0 - keen) * forced)
        if trump >= 0 and trump != suit and shares[trump] > 0:
            void = _pow(1.0 - shares[suit], each)
            ruff = void * (1.0 - _pow(1.0 - shares[trump], each))
            ruff *= keen + (1.0 - keen) * (1.0 if must_trump else 0.0)
            per += ruff - per * ruff
    if jokers_out:
        per += (1.0 - per) * keen * min(1.0, jokers_out * each / count)
    return 1.0 - _pow(1.0 - per, opponents)


@jit()
def _lead_chance(card: int, trump: int, circular: bool, opponents: int, unseen: int, count: int,
                 each: float, keen: float, must_trump: bool, jokers_out: int,
                 shares: np.ndarray) -> float:
    ruff = rules.circular_trick_trump(card // 13) if circular else trump
    return 1.0 - _beaten(card, ruff, opponents, np.int64(-1), unseen, count, each, keen, must_trump,
                         jokers_out, shares)


# -- bidding: card chances, the trick distribution, the calibration --------------------------------


@jit()
def card_chances(hand: int, trump: int, hand_size: int, players: int, leads: bool, unseen: int,
                 circular: bool, must_trump: bool, first_wins: bool, out: np.ndarray) -> int:
    """The chance of each source of a trick in ``hand`` into ``out``; returns how many."""
    unseen_count = max(1, rules.popcount(unseen))
    opponents = players - 1
    in_hands = min(1.0, opponents * hand_size / unseen_count)
    jokers_out = _jokers(unseen)
    mine_jokers = _jokers(hand)
    count = 0
    joker_chance = 0.85 if (jokers_out > 0 and not first_wins) else 0.97
    for _ in range(mine_jokers):
        out[count] = joker_chance
        count += 1
    plain = hand & ~JOKERS
    if hand_size == 1:
        if mine_jokers == 0 and plain != 0:
            card = rules.highest_index(plain)
            suit = card // 13
            ruff = rules.circular_trick_trump(suit) if circular else trump
            beats = rules.popcount(unseen & _above(card)) + jokers_out
            if ruff >= 0 and ruff != suit and must_trump:
                beats += rules.popcount(unseen & rules.suit_mask(ruff))
            safe = max(0.0, 1.0 - beats / unseen_count)
            if leads or (suit == trump and not circular):
                out[count] = safe ** opponents
            else:
                lower = rules.popcount(unseen & _below(card)) / unseen_count
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
            chance = _at_most(rules.popcount(unseen & _above(card)), in_hands, index)
            if has_ruff > 0:
                void = _at_most(hand_size, share, index)
                chance *= (1.0 - void * has_ruff) ** opponents
            if is_trump and chance < 0.5:
                spare += 1
            out[count] = chance
            count += 1
            index += 1
    if spare and hand_size >= 3:
        ruffs = 0.45 * min(spare, shortness)
        while ruffs > 0:
            out[count] = min(1.0, ruffs)
            count += 1
            ruffs -= 1.0
    if jokers_out:
        factor = 1.0 - 0.5 * jokers_out * in_hands / hand_size
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
    return min(1.0, chance * scale)


@jit()
def estimate(hand: int, trump: int, hand_size: int, players: int, leads: bool, unseen: int,
             circular: bool, must_trump: bool, first_wins: bool) -> float:
    """The expected tricks of a hand, unscaled: the sum of its ``card_chances``, at most the hand
    size."""
    chances = np.empty(64, dtype=np.float64)
    count = card_chances(hand, trump, hand_size, players, leads, unseen, circular, must_trump,
                         first_wins, chances)
    total = 0.0
    for index in range(count):
        total += chances[index]
    return min(float(hand_size), total)


@jit()
def calibrate(cards: np.ndarray, players: int, hand_size: int, trump: bool, circular: bool,
              must_trump: bool, first_wins: bool, seed: int) -> float:
    """The scale that makes the estimates of a deal's hands add up to its tricks on average,
    over 64 deals shuffled from ``seed`` (``strong_section``; the heuristic's
    ``tactics.Rules.scale``)."""
    key = uint64(seed)
    deck = 0
    for card in cards:
        deck |= 1 << card
    deck_cards = cards.copy()
    total = 0.0
    deals = 64
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
            total += estimate(hand, suit, hand_size, players, seat == 0, deck & ~hand, circular,
                              must_trump, first_wins)
    value = hand_size * deals / total if total > 0 else 1.0
    return min(2.0, max(0.5, value))


def strong_section(plan_vector: np.ndarray, deck_cards: tuple[int, ...],
                   circular: bool, fitted: dict[int, np.ndarray] | None = None,
                   card_model: np.ndarray | None = None) -> np.ndarray:
    """The policy's table: the calibration scale for every (participants, hand size, trump or
    not) the plan can deal, in millionths; then, where ``fitted`` has them, each hand size's
    fitted outcomes (``fitted[hand_size][bucket, bid, taken]``: deals counted) for the plan's
    player count; ``card_model``: the card model's weights (``CARD_MODELS`` x ``CARD_FEATURES``), in
    ``WEIGHT_UNIT``ths."""
    options = PlanView(plan_vector)
    players = options.players
    max_hand = options.max_tricks
    must_trump = bool(options.must_trump)
    first_wins = options.two_jokers == rules.TWO_JOKERS_FIRST_WINS
    cards = np.array(deck_cards, dtype=np.int64)
    section = np.zeros(X_SCALES + (players + 1) * (max_hand + 1) * 2, dtype=np.int64)
    section[X_MAX_HAND] = max_hand
    section[X_PLAYERS] = players
    section[X_DECK] = sum(1 << card for card in deck_cards)
    for participants in range(2, players + 1):
        for hand_size in range(1, max_hand + 1):
            if participants * hand_size > len(cards):
                continue
            for trump in range(2):
                scale = calibrate(cards, participants, hand_size, trump == 1, circular,
                                  must_trump, first_wins,
                                  participants * 1000 + hand_size * 2 + trump)
                index = X_SCALES + (participants * (max_hand + 1) + hand_size) * 2 + trump
                section[index] = round(scale * SCALE_UNIT)
    if card_model is not None:
        section[X_CARDS] = len(section)
        weights = np.round(np.asarray(card_model, dtype=np.float64) * WEIGHT_UNIT).astype(np.int64)
        section = np.concatenate([section, weights.reshape(CARD_MODELS * CARD_FEATURES)])
    if not fitted:
        return section
    index_at = len(section)
    pieces = [section, np.zeros(max_hand + 1, dtype=np.int64)]
    at = index_at + max_hand + 1
    for hand_size in range(1, max_hand + 1):
        counts = fitted.get(hand_size)
        shape = (fit_buckets(hand_size), hand_size + 1, hand_size + 1)
        if counts is None or counts.shape != shape:
            continue
        pieces[1][hand_size] = at
        pieces.append(counts.astype(np.int64).ravel())
        at += counts.size
    section[X_FIT] = index_at
    return np.concatenate(pieces)


def fit_path(name: str, players: int) -> Path:
    """Where the fitted bid outcomes of a preset are shipped: ``data/strong/NAME-PLAYERS.npz``."""
    return Path(__file__).resolve().parent.parent / "data" / "strong" / f"{name}-{players}.npz"


def load_fit(name: str, players: int, deck: int) -> dict[int, np.ndarray] | None:
    """The fitted bid outcomes of variant ``name`` at ``players`` (``strategies.strong.fit_bids``),
    if shipped for it and fitted on the same deck; else None."""
    found = load_shipped(name, players, deck)
    return None if found is None else found[0]


def load_shipped(name: str, players: int, deck: int
                 ) -> tuple[dict[int, np.ndarray], np.ndarray | None] | None:
    """(the fitted bid outcomes, the card model or None) shipped for preset ``name`` at
    ``players`` (``fit_path``), read in one opening, if shipped and fitted on the same deck; else
    None."""
    path = fit_path(name, players)
    if not path.is_file():
        return None
    with np.load(path) as data:
        if int(data["deck"]) != deck:
            return None
        return fit_counts(data), fit_cards(data)


def fit_counts(data) -> dict[int, np.ndarray]:  # noqa: ANN001 - an open ``np.load`` archive
    """The counts of a fitted table's archive: ``nHAND_SIZE`` arrays, by hand size (the other
    entries, ``deck`` and a user fit's notes, left out)."""
    return {int(key[1:]): data[key] for key in data.files
            if key.startswith("n") and key[1:].isdigit()}


def fit_cards(data) -> np.ndarray | None:  # noqa: ANN001 - an open ``np.load`` archive
    """The card model's weights in a fitted table's archive (``cards``: ``CARD_MODELS`` x
    ``CARD_FEATURES``, made by ``strategies.distil``), or None where it has none of that shape."""
    if "cards" not in data.files:
        return None
    weights = np.asarray(data["cards"], dtype=np.float64)
    return weights if weights.shape == (CARD_MODELS, CARD_FEATURES) else None


# -- what the seat knows ---------------------------------------------------------------------------


@jit()
def _points(plan: np.ndarray, row: int, bid: int, taken: int) -> int:
    """``fields.deal_points``, compiled once here rather than inlined at each of its callers."""
    return fields.deal_points(plan, row, bid, taken)


@jit()
def _stake(state: np.ndarray, plan: np.ndarray, seat: int, bid: int) -> float:
    """What making ``bid`` adds for ``seat`` on top of the deal's points: the premium kept in
    reach while the seat has made every bid of the span so far (the core's ``rules.premium`` of
    its best deal, this one made included; ``tactics.premium_stake`` with odds 1); 0 without a
    premium, outside a span, or once a bid of it was missed."""
    mode = fields.plan_premium_mode(plan)
    row = fields.row(state)
    if mode == rules.PREMIUM_NONE or fields.deal_block(plan, row) < 0 or bid < 0:
        return 0.0
    if fields.deal_bidding(plan, row) == 0:
        return 0.0
    opens = fields.deal_opens(plan, row) != 0
    if not opens and fields.span_made(state, plan, seat) == 0:
        return 0.0
    made = _points(plan, row, bid, bid)
    best = made if opens else max(made, fields.span_best(state, plan, seat))
    return float(rules.premium(mode, best, fields.plan_premium_points(plan)))


@jit()
def aims(points: np.ndarray, bidding: bool, staked: bool, order: np.ndarray, bids: np.ndarray,
         taken: np.ndarray, seat: int, remaining: int) -> tuple[int, float, bool]:
    """What ``seat`` plays for, from plain values: (``need``, the tricks still to aim for;
    ``keen``, the share of the other players still wanting tricks; ``cliff``, whether the deal
    has bids to make). The one copy of this rule, for ``strong`` (``_play``, from the state) and
    the scalar ``heuristic`` (``tactics.Rules.aims`` from an observation, ``seat_aims`` from
    a game's state).

    ``points[t]``: the seat's deal points for taking ``t`` tricks in all (its bid's row of the
    deal's score table, ``fields.points_row``; with no bidding, the row of no bid), over every
    trick the deal plays; ``bidding``: the deal has bids; ``staked``: making the bid is worth a
    premium kept in reach (``_stake``, ``heuristic.PremiumOutlook.stake``); ``order`` the seats
    taking part; ``bids`` (-1: none) and ``taken`` by seat; ``remaining`` the seat's cards.

    ``need`` is the count of more tricks (at most ``remaining``) that scores best (0: take no
    more), or exactly the bid while a premium is staked on it and it can still be made. Without
    bidding, the others are all keen when a trick scores (a golden deal), none otherwise."""
    own = taken[seat]
    bid = bids[seat] if bidding else -1
    if staked and 0 <= bid and own <= bid <= own + remaining:
        need = bid - own
    else:
        need, best = 0, points[own]
        for extra in range(1, remaining + 1):
            if own + extra >= len(points):
                break
            if points[own + extra] > best:
                need, best = extra, points[own + extra]
    if not bidding:
        return need, (1.0 if points[1] > points[0] else 0.0), False
    wanting = 0
    for position in range(len(order)):
        other = order[position]
        if other != seat and 0 <= bids[other] and bids[other] > taken[other]:
            wanting += 1
    return need, wanting / max(1, len(order) - 1), True


@jit()
def seat_aims(state: np.ndarray, plan: np.ndarray, seat: int, remaining: int,
              premium: bool) -> tuple[int, float, bool]:
    """``aims`` of ``seat`` (``remaining`` cards), read from the state; ``premium``: a premium
    kept in reach counts (``_stake``; the heuristic's playouts leave it out)."""
    row = fields.row(state)
    bidding = fields.deal_bidding(plan, row) != 0
    bid = fields.bid(state, plan, seat) if bidding else -1
    staked = premium and bidding and _stake(state, plan, seat, bid) > 0
    return aims(fields.points_row(plan, row, bid), bidding, staked, fields.order_row(state, plan),
                fields.bids_row(state, plan), fields.taken_row(state, plan), seat, remaining)


@jit()
def _turned_out(state: np.ndarray, shown: bool, hand: int) -> int:
    """The turned trump card (when ``shown``: not while bidding a dark deal), known to every
    seat."""
    card = fields.trump_card(state)
    if shown and 0 <= card < 54:
        return (1 << card) & ~hand
    return 0


# -- the decision ----------------------------------------------------------------------------------


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
        scale = table[at + X_SCALES + (players * (max_hand + 1) + hand_size) * 2 + flag] \
            / SCALE_UNIT
        if scale <= 0:
            scale = 1.0
        unseen = table[at + X_DECK] & ~hand & ~_turned_out(state, trump >= 0, hand)
        first = m.seated_first_leader(state, plan)
        chances = np.empty(64, dtype=np.float64)
        count = card_chances(hand, trump, hand_size, players, first == seat, unseen, circular,
                             fields.plan_must_trump(plan) != 0,
                             fields.plan_two_jokers(plan) == rules.TWO_JOKERS_FIRST_WINS, chances)
        trick_distribution(chances, count, scale, hand_size, distribution)
    expected = 0.0
    for tricks in range(hand_size + 1):
        expected += tricks * distribution[tricks]
    return expected


@jit()
def fit_buckets(hand_size: int) -> int:
    """The fitted table's buckets at a hand size: ``PRESSURES`` x the expected tricks'."""
    return PRESSURES * (BUCKETS * hand_size + 1)


@jit()
def fit_bucket(state: np.ndarray, plan: np.ndarray, seat: int, expected: float,
               hand_size: int) -> int:
    """The seat's bucket in the fitted table: its expected tricks (``BUCKETS`` a trick), and how
    the bids made before it stand against their share of the tricks (the pressure: below, about
    or above ``hand_size / participants`` a bid, by half a trick)."""
    tricks = min(BUCKETS * hand_size, max(0, int(expected * BUCKETS + 0.5)))
    participants = fields.order_length(state)
    made, total = 0, 0
    for position in range(participants):
        other = fields.seat_at(state, plan, position)
        bid = fields.bid(state, plan, other)
        if other != seat and bid >= 0:
            made += 1
            total += bid
    excess = total - made * hand_size / participants
    pressure = 0 if excess < -0.5 else 2 if excess > 0.5 else 1
    return pressure * (BUCKETS * hand_size + 1) + tricks


@jit()
def bid_bucket(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int) -> int:
    """The fitted table's bucket of the seat to bid (``strategies.strong.fit_bids``)."""
    seat = fields.to_move(state)
    hand_size = fields.deal_hand_size(plan, fields.row(state))
    distribution = np.empty(hand_size + 1, dtype=np.float64)
    expected = bid_distribution(state, plan, table, at, seat,
                                m.visible_hand(state, plan, seat), distribution)
    return fit_bucket(state, plan, seat, expected, hand_size)


@jit()
def best_bid(distributions: np.ndarray, legal: int, points: np.ndarray, stakes: np.ndarray,
             values: np.ndarray) -> int:
    """The legal bid (``legal``: a mask) with the highest expected deal points, -1 when no bid of
    the table is legal: ``distributions[bid, t]`` the chance of taking ``t`` tricks when bidding
    ``bid`` (how the seat plays depends on its bid), ``points[bid, t]`` the deal's points,
    ``stakes[bid]`` what making ``bid`` adds on top (the premium kept in reach). ``values[bid]``
    gets each legal bid's expectation. Ties (within 1e-9) go to the lower bid. The one bid
    choice of ``strong`` (``_bid``) and of the scalar strategies (``tactics.best_bid``)."""
    choice, best = -1, 0.0
    for bid in range(points.shape[0]):
        if legal >> bid & 1:
            value = stakes[bid] * distributions[bid, bid]
            for taken in range(points.shape[1]):
                if distributions[bid, taken] > 0:
                    value += distributions[bid, taken] * points[bid, taken]
            values[bid] = value
            if choice < 0 or value > best + 1e-9:
                choice, best = bid, value
    return choice


@jit()
def _bid(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
         hand: int) -> int:
    row = fields.row(state)
    legal = fields.legal_first(state)
    hand_size = fields.deal_hand_size(plan, row)
    distribution = np.empty(hand_size + 1, dtype=np.float64)
    expected = bid_distribution(state, plan, table, at, seat, hand, distribution)
    # the fitted outcomes of this bucket (``strategies.strong.fit_bids``), for the full table's
    # participants
    block = -1
    if table[at + X_FIT] > 0 and fields.order_length(state) == table[at + X_PLAYERS]:
        offset = table[at + table[at + X_FIT] + hand_size]
        if offset > 0:
            block = (at + offset
                     + fit_bucket(state, plan, seat, expected, hand_size) * (hand_size + 1) ** 2)
    aimed = np.zeros((hand_size + 1, hand_size + 1), dtype=np.float64)
    points = np.zeros((hand_size + 1, hand_size + 1), dtype=np.float64)
    stakes = np.zeros(hand_size + 1, dtype=np.float64)
    for bid in range(hand_size + 1):
        if legal >> bid & 1:
            # the seat plays towards its bid: a share ``STEER`` of the deals one trick off the
            # bid either way end on it
            bid_aimed = aimed[bid]
            bid_aimed[:] = distribution
            for near in (bid - 1, bid + 1):
                if 0 <= near <= hand_size:
                    moved = STEER * distribution[near]
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
            stakes[bid] = _stake(state, plan, seat, bid)
            for taken in range(hand_size + 1):
                points[bid, taken] = _points(plan, row, bid, taken)
    choice = best_bid(aimed, legal, points, stakes, np.empty(hand_size + 1, dtype=np.float64))
    if choice < 0:  # every legal bid above the hand (``play.draw_after_trick``): the lowest
        choice = rules.bit_index(legal & -legal)
    return choice


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
            score += 1.0 + max(0, card % 13 - 6) * 0.15
        if score > best_score:
            best, best_score = suit, score
    return best


@jit()
def _keepers(chances: np.ndarray, hand: int, jokers_held: int, need: int) -> int:
    """The ``need`` cards most likely to win (the Jokers count first), as a mask."""
    count = need - jokers_held
    kept = 0
    for _ in range(max(count, 0)):
        pick, pick_chance = -1, -1.0
        rest = hand & ~kept
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            chance = chances[card]
            if pick < 0 or chance > pick_chance or (chance == pick_chance
                                                    and card % 13 < pick % 13):
                pick, pick_chance = card, chance
        if pick < 0:
            break
        kept |= 1 << pick
    return kept


@jit()
def _cheapest(cards: int, position: int, led: int, trick_trump: int, beats: bool,
              two_jokers: int) -> int:
    """The card of ``cards`` with the lowest ``rules.card_key`` played ``position``-th (after a
    Joker led without a suit, each card as if it set the led suit); -1 for none."""
    cheapest, cheapest_key = -1, 0
    rest = cards
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        key = rules.card_key(card, 0, position, led if led >= 0 else card // 13, trick_trump,
                             beats, two_jokers)
        if cheapest < 0 or key < cheapest_key:
            cheapest, cheapest_key = card, key
    return cheapest


@jit()
def _likeliest(cards: int, trump: int, circular: bool, opponents: int, unseen: int, count: int,
               each: float, keen: float, must_trump: bool, jokers_out: int,
               shares: np.ndarray) -> int:
    """The card of ``cards`` with the best ``_lead_chance`` (the higher rank among equals); -1
    for none."""
    pick, pick_chance = -1, 0.0
    rest = cards
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        chance = _lead_chance(card, trump, circular, opponents, unseen, count, each, keen,
                              must_trump, jokers_out, shares)
        if pick < 0 or chance > pick_chance or (chance == pick_chance and card % 13 > pick % 13):
            pick, pick_chance = card, chance
    return pick


@jit()
def _joker_lead(calls: int, hand: int, unseen: int, trump: int, high: bool) -> int:
    """The option to lead a Joker with: to win (with a demand that helps the hand) or to lose
    (low, in the suit most likely to be followed); -1 when none fits."""
    best, best_score = -1, -1e9
    for option in range(OPTION_COUNT):
        if not calls >> option & 1:
            continue
        call, suit = OPTION_CALL[option], OPTION_SUIT[option]
        if best < 0:
            best = option
        if high:
            if call == CALL_TRUMPS:
                mine = hand & rules.suit_mask(trump) if trump >= 0 else 0
                above = rules.popcount(unseen & _above(rules.highest_index(mine))) if mine else 0
                score = 30.0 + 5 * min(above, 3) if mine and above else 5.0
            elif call == CALL_HIGHEST and suit >= 0:
                mine = hand & rules.suit_mask(suit)
                if mine:
                    above = rules.popcount(unseen & _above(rules.highest_index(mine)))
                    score = 25.0 - 6 * abs(above - 1) + rules.popcount(mine)
                else:
                    score = 2.0
            elif call == CALL_HIGH:
                score = 10.0 - rules.popcount(hand & rules.suit_mask(suit)) if suit >= 0 \
                    else 10.0
            else:
                continue
        else:
            if call == CALL_LOW and suit < 0:
                score = 100.0
            elif call == CALL_LOW or call == CALL_LOWEST:
                mask = rules.suit_mask(suit)
                score = float(rules.popcount(unseen & mask) - 2 * rules.popcount(hand & mask))
            else:
                continue
        if score > best_score:
            best, best_score = option, score
    return best


@jit()
def _named_lead(calls: int, nameable: int, hand: int, unseen: int, trump: int,
                high: bool) -> int:
    """The card to declare a led Joker as (``joker.as_card``) where no call does what is wanted,
    else -1: to take the trick, the highest trump (000 «за козырного туза»; without a trump,
    the highest card of the suit most likely followed); to lose it, the lowest card of the plain
    suit most likely followed (000 «или двойку треф»)."""
    if not calls >> CARD_OPTION & 1 or calls & (WINNING_MASK if high else LOSING_MASK):
        return -1
    if high and trump >= 0 and nameable & rules.suit_mask(trump):
        return rules.highest_index(nameable & rules.suit_mask(trump))
    best, best_score = -1, -1e9
    for suit in range(4):
        mine = nameable & rules.suit_mask(suit)
        if mine == 0 or (suit == trump and not high):
            continue
        mask = rules.suit_mask(suit)
        score = float(rules.popcount(unseen & mask) - 2 * rules.popcount(hand & mask))
        if score > best_score:
            best = rules.highest_index(mine) if high else rules.bit_index(mine & -mine)
            best_score = score
    return best


@jit()
def _lowest_lead(win: np.ndarray, cards: int) -> int:
    """A lead meant to lose: the highest of the cards nearly sure to lose, else the least likely
    to win."""
    safe, low = -1, -1
    rest = cards
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        if win[card] < 0.08 and (safe < 0 or card % 13 > safe % 13):
            safe = card
        if low < 0 or win[card] < win[low] or (win[card] == win[low] and card % 13 < low % 13):
            low = card
    return safe if safe >= 0 else low


@jit()
def _card_view(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
               hand: int) -> tuple[int, float, bool, int, int]:
    """What the seat to move reads for its card (``seat_aims``' need, keen and cliff, the cards
    it has not seen, how many the others hold), from what it may see."""
    players = fields.order_length(state)
    need, keen, cliff = seat_aims(state, plan, seat, rules.popcount(hand), np.bool_(True))
    unseen = (table[at + X_DECK] & ~hand & ~m.seen_cards(state, plan, seat)
              & ~_turned_out(state, np.bool_(True), hand))
    hand_size = fields.deal_hand_size(plan, fields.row(state))
    others_cards = ((players - 1) * (hand_size - fields.tricks_done(state))
                    - fields.trick_length(state))
    return need, keen, cliff, unseen, others_cards


@jit()
def _rules_play(state: np.ndarray, plan: np.ndarray, hand: int, need: int, keen: float,
                cliff: bool, unseen: int, others_cards: int, chances: np.ndarray) -> int:
    """``choose_play`` on the values of the state (the card play's rules, before the card
    model), leaving the card chances it worked out in ``chances`` (``play_with``)."""
    _, best, beats = m.trick_lead(state)
    return play_with(hand, fields.legal_first(state), fields.legal_second(state),
                     fields.trump(state), fields.led_suit(state), fields.trick_trump(state),
                     fields.trick_length(state), best, beats, fields.order_length(state), need,
                     cliff, keen, unseen, others_cards, fields.circular(state) != 0,
                     fields.plan_must_trump(plan) != 0, fields.plan_two_jokers(plan),
                     fields.plan_lead_fine(plan), fields.plan_nameable(plan), chances)


@jit()
def _play(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
          hand: int) -> int:
    """The card of the seat to move: the card play's rules (``choose_play``), and where they play
    a plain card and the table holds a card model, the model's card."""
    legal_all = fields.legal_first(state)
    calls = fields.legal_second(state)
    jokers = legal_all & JOKERS
    if legal_all & (legal_all - 1) == 0 and (jokers == 0 or calls & (calls - 1) == 0):
        return m.play_code(rules.bit_index(legal_all), rules.bit_index(calls) if calls else 0)
    need, keen, cliff, unseen, others_cards = _card_view(state, plan, table, at, seat, hand)
    win = np.zeros(54, dtype=np.float64)
    code = _rules_play(state, plan, hand, need, keen, cliff, unseen, others_cards, win)
    model = table[at + X_CARDS]
    plain = legal_all & ~JOKERS
    if model <= 0 or code >= JOKER or plain & (plain - 1) == 0:
        return code
    # every feature of a legal card is written, and only those rows are read
    features = np.empty((JOKER, CARD_FEATURES), dtype=np.float64)
    legal = card_features(state, plan, hand, plain, need, keen, unseen, others_cards, code,
                          win, features)
    row = card_row(fields.trick_length(state) == 0, need)
    return model_card(legal, features, table, at + model + row * CARD_FEATURES)


@jit()
def card_row(lead: bool, need: int) -> int:
    """The card model's weight row: a lead or a follow, for a seat that wants tricks or none."""
    return (0 if lead else 2) + (0 if need > 0 else 1)


@jit()
def card_position(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int,
                  features: np.ndarray) -> tuple[int, int, int]:
    """At a card of the seat to move (for fitting the card model): the plain cards it may play,
    the card the rules play (``choose_play``; a Joker's code is ``JOKER`` or more) and the model's
    row (``card_row``); ``features`` (``JOKER`` x ``CARD_FEATURES``) filled for those cards."""
    seat = fields.to_move(state)
    hand = m.visible_hand(state, plan, seat)
    need, keen, cliff, unseen, others_cards = _card_view(state, plan, table, at, seat, hand)
    win = np.zeros(54, dtype=np.float64)
    code = _rules_play(state, plan, hand, need, keen, cliff, unseen, others_cards, win)
    legal = card_features(state, plan, hand, fields.legal_first(state) & ~JOKERS, need, keen,
                          unseen, others_cards, code, win, features)
    return legal, code, card_row(fields.trick_length(state) == 0, need)


@jit()
def card_features(state: np.ndarray, plan: np.ndarray, hand: int, legal: int, need: int,
                  keen: float, unseen: int, others_cards: int, base: int, win: np.ndarray,
                  features: np.ndarray) -> int:
    """Fill ``features[card]`` for every plain card of ``legal`` and return ``legal``; ``win``:
    the card chances the rules left (``play_with``), completed here where they need none. At a lead,
    ``lead_features``; after it, per card: whether it wins the trick as it stands, its chance
    to hold (none after it overtakes: ``_beaten``) and that times the share of the hand still
    wanted; winning times the share of the others still wanting tricks; its chance to win a
    trick it led (what keeping it is worth); one of the ``need`` keepers; a trump; the cheapest
    card that wins; its chance to hold when the seat plays last; its suit's length in hand (a
    share); its rank (0 to 1); the rules' card ``base``; the cards out above it (up to 4); of
    the led suit; winning when the seat has taken more than its bid; winning but likely to be
    overtaken."""
    players = fields.order_length(state)
    trump = fields.trump(state)
    circular = fields.circular(state) != 0
    must_trump = fields.plan_must_trump(plan) != 0
    count, opponents, each, jokers_out, shares = _unseen_view(unseen, players, others_cards)
    position = fields.trick_length(state)
    # as the rules' chances: the deal's trump at a lead, the trick's after it (none when circular)
    chance_trump = trump if position == 0 else -1 if circular else fields.trick_trump(state)
    # the chances the features read: of the cards it may play, and of the whole hand where the
    # keepers are picked from it (a follow that still wants tricks); the rules worked them out
    # already (``play_with``) but at a follow that wants no tricks
    rest = legal if position and need <= 0 else 0
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        win[card] = _lead_chance(card, chance_trump, circular, opponents, unseen, count, each,
                                 keen, must_trump, jokers_out, shares)
    keepers = _keepers(win, hand & ~JOKERS if position else legal, _jokers(hand),
                       need) if need > 0 else 0
    remaining = max(1, rules.popcount(hand))
    wanted = max(need, 0) / remaining
    seat = fields.to_move(state)
    bid = fields.bid(state, plan, seat)
    busted = 1.0 if 0 <= bid < fields.taken(state, plan, seat) else 0.0
    if position == 0:
        lead_features(hand, legal, trump, unseen, win, keepers, wanted, keen, busted, shares,
                      base, features)
        return legal
    _, best, beats = m.trick_lead(state)
    led = fields.led_suit(state)
    trick_trump = fields.trick_trump(state)
    two_jokers = fields.plan_two_jokers(plan)
    winners = rules.winning_cards(legal, best, position, led, trick_trump, beats, two_jokers)
    cheapest = _cheapest(winners, position, led, trick_trump, beats, two_jokers)
    after = players - 1 - position
    rest = legal
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        suit = card // 13
        holds = 0.0
        if winners >> card & 1:
            ruffing = led if suit == trick_trump and led >= 0 else -1
            holds = 1.0 - _beaten(card, trick_trump, after, ruffing, unseen, count, each, keen,
                                  must_trump, jokers_out, shares)
        row = features[card]
        row[0] = 1.0 if winners >> card & 1 else 0.0
        row[1] = holds
        row[2] = holds * wanted
        row[3] = row[0] * keen
        row[4] = win[card]
        row[5] = keepers >> card & 1
        row[6] = 1.0 if suit == trump else 0.0
        row[7] = 1.0 if card == cheapest else 0.0
        row[8] = holds if after == 0 else 0.0
        row[9] = rules.popcount(hand & rules.suit_mask(suit)) / remaining
        row[10] = (card % 13) / 12.0
        row[BASE_FEATURE] = 1.0 if card == base else 0.0
        row[12] = min(rules.popcount(unseen & _above(card)), 4) / 4.0
        row[13] = 1.0 if suit == led else 0.0
        row[14] = row[0] * busted
        row[15] = row[0] * (1.0 - holds)
    return legal


@jit()
def lead_features(hand: int, legal: int, trump: int, unseen: int, win: np.ndarray, keepers: int,
                  wanted: float, keen: float, busted: float, shares: np.ndarray, base: int,
                  features: np.ndarray) -> None:
    """A lead's features of each plain card of ``legal``: its chance to win the trick led
    (``_lead_chance``) and its square; whether it is one of the keepers; a trump; its suit's
    length in hand (a share of the hand); a side-suit singleton; no card out above it; the cards
    out above it (up to 4, a quarter each); its suit's share of the cards out; a higher card of
    the suit in hand; its rank (0 to 1); whether it is the rules' card ``base``; its win chance
    times the share of the hand still wanted (``wanted``); the lowest of two or more of its
    suit in hand; its win chance times the share of the others still wanting tricks (``keen``)
    and times whether the seat has taken more than its bid (``busted``)."""
    remaining = max(1, rules.popcount(hand))
    rest = legal
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        suit = card // 13
        own = rules.popcount(hand & rules.suit_mask(suit))
        above = rules.popcount(unseen & _above(card))
        row = features[card]
        row[0] = win[card]
        row[1] = win[card] * win[card]
        row[2] = keepers >> card & 1
        row[3] = 1.0 if suit == trump else 0.0
        row[4] = own / remaining
        row[5] = 1.0 if own == 1 and suit != trump else 0.0
        row[6] = 1.0 if above == 0 else 0.0
        row[7] = min(above, 4) / 4.0
        row[8] = shares[suit]
        row[9] = 1.0 if hand & _above(card) else 0.0
        row[10] = (card % 13) / 12.0
        row[BASE_FEATURE] = 1.0 if card == base else 0.0
        row[12] = win[card] * wanted
        row[13] = 1.0 if own >= 2 and hand & _below(card) == 0 else 0.0
        row[14] = win[card] * keen
        row[15] = win[card] * busted


@jit()
def model_card(legal: int, features: np.ndarray, table: np.ndarray, weights: int) -> int:
    """The card of ``legal`` with the best score under the card model's weight row at
    ``table[weights:]`` (``CARD_FEATURES`` of them, in ``WEIGHT_UNIT``ths); ties to the lower
    rank."""
    pick, pick_score = -1, 0.0
    rest = legal
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        score = 0.0
        for index in range(CARD_FEATURES):
            score += features[card, index] * table[weights + index]
        if pick < 0 or score > pick_score or (score == pick_score and card % 13 < pick % 13):
            pick, pick_score = card, score
    return pick


@jit()
def _unseen_view(unseen: int, players: int, others_cards: int
                 ) -> tuple[int, int, float, int, np.ndarray]:
    """What the card chances read of the cards out: how many (at least 1), the opponents, the
    cards each holds, the Jokers among them, and each suit's share of them."""
    count = max(1, rules.popcount(unseen))
    opponents = max(1, players - 1)
    each = max(1.0, others_cards / opponents)
    shares = np.empty(4, dtype=np.float64)
    for suit in range(4):
        shares[suit] = rules.popcount(unseen & rules.suit_mask(suit)) / count
    return count, opponents, each, _jokers(unseen), shares


@jit()
def choose_play(hand: int, legal_all: int, calls: int, trump: int, led: int, trick_trump: int,
                position: int, best: int, beats: bool, players: int, need: int, cliff: bool,
                keen: float, unseen: int, others_cards: int, circular: bool, must_trump: bool,
                two_jokers: int, lead_fine: int, nameable: int) -> int:
    """The card to play (an action code, ``machine.play_code``), from plain values: the one copy
    of the card play of ``strong`` and of the scalar ``heuristic`` (``tactics.choose_play`` is
    its Python face).

    ``legal_all``: the legal cards (mask), ``calls``: a Joker's legal options (``codes.OPTIONS``
    mask); ``trump`` the deal's, ``led`` and ``trick_trump`` the trick's; ``position`` the cards
    already in the trick (0: a lead), ``best`` and ``beats`` what leads it (``rules.card_key``,
    ``machine.trick_lead``); ``players`` in the deal; ``need`` the tricks still wanted; ``cliff``:
    missing one loses the deal's bid; ``keen`` the share of the others still wanting tricks;
    ``unseen`` the cards the seat has not seen; ``others_cards`` how many the others hold;
    ``lead_fine`` the Joker lead fine (below 0: fined); ``nameable`` the cards a Joker may be
    declared as."""
    return play_with(hand, legal_all, calls, trump, led, trick_trump, position, best, beats,
                     players, need, cliff, keen, unseen, others_cards, circular, must_trump,
                     two_jokers, lead_fine, nameable, np.zeros(54, dtype=np.float64))


@jit()
def play_with(hand: int, legal_all: int, calls: int, trump: int, led: int, trick_trump: int,
              position: int, best: int, beats: bool, players: int, need: int, cliff: bool,
              keen: float, unseen: int, others_cards: int, circular: bool, must_trump: bool,
              two_jokers: int, lead_fine: int, nameable: int, chances: np.ndarray) -> int:
    """``choose_play`` with the buffer of card chances given (54 zeros): the rules leave in it
    the chance of each plain card to win a trick it leads (``_lead_chance``), at a lead for the
    legal cards, after it for the whole hand where the seat still wants tricks (the chances its
    keepers are picked by), which the card model reads (``card_features``)."""
    legal = legal_all & ~JOKERS
    jokers = legal_all & JOKERS
    joker = JOKER if jokers >> JOKER & 1 else JOKER2
    remaining = rules.popcount(hand)
    count, opponents, each, jokers_out, shares = _unseen_view(unseen, players, others_cards)
    jokers_held = _jokers(hand)
    if position == 0:
        return _lead(hand, legal, jokers, joker, calls, trump, need, circular, remaining,
                     jokers_held, unseen, count, opponents, each, keen, must_trump, jokers_out,
                     shares, chances, lead_fine < 0 and remaining > 1, nameable)
    return _follow(hand, legal, jokers, joker, calls, need, cliff, circular, remaining,
                   jokers_held, unseen, count, players, each, keen, must_trump, jokers_out,
                   shares, chances, led, trick_trump, position, best, beats, two_jokers)


@jit()
def _lead(hand: int, legal: int, jokers: int, joker: int, calls: int, trump: int, need: int,
          circular: bool, remaining: int, jokers_held: int, unseen: int, count: int,
          opponents: int, each: float, keen: float, must_trump: bool, jokers_out: int,
          shares: np.ndarray, win: np.ndarray, fined: bool, nameable: int) -> int:
    rest = legal
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        win[card] = _lead_chance(card, trump, circular, opponents, unseen, count, each, keen,
                                 must_trump, jokers_out, shares)
    if need > 0:
        must_all = need >= remaining
        keepers = _keepers(win, legal, jokers_held, need)
        sure = jokers_held
        rest = keepers
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            sure += win[card] >= 0.8
        spare = legal & ~keepers
        if not must_all and sure >= need and spare:
            return _lowest_lead(win, spare)
        best_card, best = -1, 0.0
        rest = legal
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            if best_card < 0 or win[card] > best or (win[card] == best
                                                     and card % 13 < best_card % 13):
                best_card, best = card, win[card]
        if best_card < 0 or (jokers and not fined and best < 0.6 and must_all):
            named = _named_lead(calls, nameable, hand, unseen, trump, np.bool_(True))
            if named >= 0:
                return m.named_code(joker, named)
            return m.play_code(joker, _joker_lead(calls, hand, unseen, trump, np.bool_(True)))
        if best >= 0.35 or must_all:
            return best_card
        if trump >= 0 and not circular and hand & rules.suit_mask(trump):
            single, single_win = -1, 0.0
            rest = legal
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                suit = card // 13
                if suit != trump and rules.popcount(hand & rules.suit_mask(suit)) == 1:
                    if single < 0 or win[card] < single_win:
                        single, single_win = card, win[card]
            if single >= 0:
                return single
        return _lowest_lead(win, spare if spare else legal)
    if legal:
        lowest, lowest_win = -1, 0.0
        rest = legal
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            if lowest < 0 or win[card] < lowest_win or (win[card] == lowest_win
                                                         and card % 13 < lowest % 13):
                lowest, lowest_win = card, win[card]
        if not jokers or lowest_win < (0.6 if fined else 0.25):
            return _lowest_lead(win, legal)
    named = _named_lead(calls, nameable, hand, unseen, trump, np.bool_(False))
    if named >= 0:
        return m.named_code(joker, named)
    return m.play_code(joker, _joker_lead(calls, hand, unseen, trump, np.bool_(False)))


@jit()
def _follow(hand: int, legal: int, jokers: int, joker: int, calls: int, need: int, cliff: bool,
            circular: bool, remaining: int, jokers_held: int, unseen: int, count: int,
            players: int, each: float, keen: float, must_trump: bool, jokers_out: int,
            shares: np.ndarray, chances: np.ndarray, led: int, trick_trump: int, position: int,
            best: int, beats: bool, two_jokers: int) -> int:
    after = players - 1 - position
    opponents_after = after
    high_ok = jokers != 0 and calls & 1 != 0
    low_ok = jokers != 0 and calls & 2 != 0
    high_key = rules.card_key(JOKER, CALL_HIGH, position, led, trick_trump, beats, two_jokers)
    chance_trump = trick_trump if not circular else -1
    if need > 0:
        must_all = cliff and need >= remaining
        winners = rules.winning_cards(legal, best, position, led, trick_trump, beats, two_jokers)
        rest = hand & ~JOKERS
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            chances[card] = _lead_chance(card, chance_trump, circular, players - 1, unseen,
                                         count, each, keen, must_trump, jokers_out, shares)
        keepers = _keepers(chances, hand & ~JOKERS, jokers_held, need)
        if winners:
            if after == 0:
                cheapest = _cheapest(winners, position, led, trick_trump, beats, two_jokers)
                return cheapest
            holds = np.zeros(54, dtype=np.float64)
            top = -1.0
            rest = winners
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                ruffing = led if card // 13 == trick_trump and led >= 0 else -1
                holds[card] = 1.0 - _beaten(card, trick_trump, opponents_after, ruffing, unseen,
                                            count, each, keen, must_trump, jokers_out, shares)
                top = max(top, holds[card])
            if must_all and high_ok and high_key > best and top < 0.9:
                return m.play_code(joker, 0)
            choice, choice_key = -1, 0
            rest = winners
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                if holds[card] >= top - 0.05:
                    key = rules.card_key(card, 0, position, led if led >= 0 else card // 13,
                                         trick_trump, beats, two_jokers)
                    if choice < 0 or key < choice_key:
                        choice, choice_key = card, key
            if top >= 0.3 or not keepers >> choice & 1 or must_all:
                return choice
        elif must_all and high_ok and high_key > best:
            return m.play_code(joker, 0)
        if legal == 0:
            if high_ok and high_key > best:
                return m.play_code(joker, 0)
            return m.play_code(joker, 1 if low_ok else rules.bit_index(calls & -calls))
        spare = legal & ~keepers
        if spare and not must_all:
            pick = -1
            rest = spare
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                if pick < 0 or chances[card] > chances[pick] or (
                        chances[card] == chances[pick] and card % 13 > pick % 13):
                    pick = card
            return pick
        pick = -1
        rest = legal
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            if pick < 0 or chances[card] < chances[pick] or (
                    chances[card] == chances[pick] and card % 13 < pick % 13):
                pick = card
        return pick
    # ducking: the most dangerous card that cannot win; else the Joker low; else the likeliest to
    # be overtaken
    winners = rules.winning_cards(legal, best, position, led, trick_trump, beats, two_jokers)
    losers = legal & ~winners
    if losers:
        if losers & (losers - 1) == 0:
            return rules.bit_index(losers)
        return _likeliest(losers, chance_trump, circular, players - 1, unseen, count, each, keen,
                          must_trump, jokers_out, shares)
    if low_ok:
        if after > 0 and legal:
            cheapest = _cheapest(legal, position, led, trick_trump, beats, two_jokers)
            ruffing = led if cheapest // 13 == trick_trump and led >= 0 else -1
            if _beaten(cheapest, trick_trump, after, ruffing, unseen, count, each, keen,
                       must_trump, jokers_out, shares) > 0.7:
                return cheapest
        return m.play_code(joker, 1)
    if legal == 0:
        return m.play_code(joker, rules.bit_index(calls & -calls))
    if after == 0:
        return _likeliest(legal, chance_trump, circular, players - 1, unseen, count, each, keen,
                          must_trump, jokers_out, shares)
    cheapest = _cheapest(legal, position, led, trick_trump, beats, two_jokers)
    return cheapest


@jit()
def decide_strong(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int) -> int:
    """The action code of ``strong`` for the seat to move."""
    phase = fields.phase(state)
    seat = fields.to_move(state)
    hand = m.visible_hand(state, plan, seat)
    if phase == m.PH_TRUMP:
        return name_trump_suit(hand) + 1
    if phase == m.PH_KEEP:
        return keep_code(state, plan)
    if phase == m.PH_BID:
        legal = fields.legal_first(state)
        if legal & (legal - 1) == 0:
            return rules.bit_index(legal)
        return _bid(state, plan, table, at, seat, hand)
    return _play(state, plan, table, at, seat, hand)


__all__ = ["decide_strong", "strong_section"]
