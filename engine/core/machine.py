"""The whole game as one compiled state machine: a state vector and one step function.

A game's state is one ``int64`` vector (``new_state``): the phase, the seat to move, the dealer,
the trump, every hand, the bids, the tricks taken, the trick under way, the finished tricks of the
deal, the stock, the running totals and one row of results per deal played. ``step(state, plan,
action)`` applies one player's action and runs every chance and bookkeeping event
that follows it (the trick's winner, the draw after a trick, the deal's score and premiums, the
next deal's shuffle, deal and trump, the tie-break deals, the end), and leaves the legal actions
of the next decision in the state. Every rule it applies is a function of ``engine.core.rules``
and ``engine.core.deal``: this module holds the order of events, not the rules.

``engine.Game`` drives it for one game (one call a decision); the batch engine's compiled loops
drive it for many (one row of a state matrix a game). The variant is compiled once into one
``int64`` vector, ``plan`` (``engine.core.plan.MachineTables``): the options as codes, the state's
layout, the deck, the deal table (one row per deal the game may play, the tie-break deals
included: ``deal_value``) and every deal's score table. One state and one plan are all a compiled
function needs, so a call from Python costs little.

Actions are small integers (``action_code``): a bid is its number of tricks; naming trump is the
suit plus one (0 for none); keeping the trick a Joker led is 1, declining it 0; a play is
``card | call << 6 | (suit + 1) << 11`` with the call codes of ``engine.core.codes`` (five bits:
``codes.CALL_COUNT`` calls, the named ranks included); a Joker declared as a card
(``joker.as_card``) is ``card | CALL_CARD << 6 | (suit + 1) << 11 | rank << 14`` with the named
card's suit and rank (2..14), and the trick holds its call as ``codes.named_call(named card)``.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from ..cards import JOKER, JOKER2
from . import deal as chance
from . import rules, scoring
from .codes import CALL_CARD, HOOK_NO_EQUAL, OPTION_CALL, OPTION_SUIT, TRUMP_TURNED, named_call
from .compiling import jit
from .rules import ix

# -- phases (``engine.phase.Phase``) ---------------------------------------------------------------
PH_DEAL, PH_TRUMP, PH_BID, PH_PLAY, PH_SCORE, PH_OVER = range(6)
#: the Joker's player keeps or declines the trick it led (000, ``joker.lead_choice``)
PH_KEEP = 6

# -- how the trump was chosen: ``deal.HOW_*`` and these -------------------------------------------
HOW_GIVEN = 7  #: set up by hand (``Game.single_deal``)
HOW_NAMED_BY = 8  #: named by a player (``S_NAMED_BY`` holds the seat)

# -- what a step did (the flags ``step`` returns) -------------------------------------------------
EV_TRICK, EV_DEAL_SCORED, EV_DEAL_STARTED, EV_TRUMP_CHOSEN, EV_GAME_OVER = (1, 2, 4, 8, 16)
EV_LEAD = 32  #: not an event: the next decision leads a trick

# -- the plan vector: options ---------------------------------------------------------------------
(P_PLAYERS, P_DECK, P_MUST_TRUMP, P_LOCK, P_TWO_JOKERS, P_TRUMP_WINS, P_LEAD_FINE, P_DRAW,
 P_PASS_LIMIT, P_PREMIUM_MODE, P_PREMIUM_POINTS, P_TIE_DEALS, P_SCHEDULE, P_FIXED_SUIT,
 P_DEALER_NAMES, P_NAMED_AFTER, P_DEALER_LEADS, P_FIRST_DEALER, P_NO_TRUMP_NAMING, P_ROWS,
 P_MAX_TRICKS, P_MAX_RESULTS, P_SIZE, P_MEMORY, P_PREMIUM_OTHERS, P_PREMIUM_SEVERAL,
 P_PREMIUM_LAST_EXCLUDED, P_NAMEABLE, P_KEEP,
 # the state's layout: where each array starts
 O_HANDS, O_FIRST, O_BIDS, O_TAKEN, O_FINES, O_SCORES, O_PASSES, O_ORDER, O_TSEAT, O_TCARD,
 O_TCALL, O_TSUIT, O_STOCK, O_MADE, O_BEST, O_HIST, O_RES, O_NEXT, O_SCRATCH, O_SHOWN,
 # and where the tables start in the plan vector
 O_DECK, O_DEALS, O_POINTS,
 P_LENGTH) = range(53)

# -- the state vector: scalars ---------------------------------------------------------------------
(S_PHASE, S_DEAL_INDEX, S_ROW, S_DEALER, S_FIRST_DEALER, S_TO_MOVE, S_NAMER, S_TRUMP,
 S_TRUMP_CARD, S_HOW, S_NAMED_BY, S_LED, S_TRICK_TRUMP, S_PLAYED, S_HOOK_FORCED, S_TRICK_LEN,
 S_TRICKS_DONE, S_STOCK_LEN, S_STOCK_POS, S_CIRCULAR, S_ORDER_LEN, S_SEED, S_RESULTS,
 S_LEGAL_A, S_LEGAL_B, S_JOKER_52, S_JOKER_53, S_SCHEDULE, S_DECISIONS,
 S_TURNED_HOLDER,
 # the trick so far (``trick_lead``): the position of the card holding it, that card's
 # ``rules.card_key``, and whether trumps beat the leading Joker's demand
 S_BEST_AT, S_BEST_KEY, S_BEATS,
 S_SCALARS) = range(34)

# -- one row of the deal table ---------------------------------------------------------------------
(D_NUMBER, D_HAND, D_KIND, D_BLOCK, D_HOOK, D_TRUMP_RULE, D_DEMANDS_FIRST, D_DEMANDS_LATER,
 D_CALLS_NN, D_CALLS_NT, D_CALLS_DN, D_CALLS_DT, D_OPENS, D_CLOSES, D_MIN_BID, D_BIDDING,
 D_HOLDER_LEADS, D_TRICKS, D_POINTS_AT, D_POINTS_WIDTH, D_PARTICIPANTS, D_SPECIAL,
 # what bidding hides and shows (``plan.bidding_view``), and the cards each seat shows the
 # others at the deal (``plan.shown_cards``: lobovaya read as one card each)
 D_HAND_HIDDEN, D_TRUMP_HIDDEN, D_OTHERS_SHOWN, D_SHOWN,
 D_WIDTH) = range(27)

# -- one finished trick of the deal: count, trump, winner, then seats, cards, calls, suits --------
H_COUNT, H_TRUMP, H_WINNER, H_CARDS = range(4)
#: per-seat blocks of a finished trick after ``H_CARDS``: seats, cards, calls, suits
H_BLOCKS = 4

# -- one result row (one deal played) --------------------------------------------------------------
(R_NUMBER, R_ROW, R_DEALER, R_TRUMP, R_TRUMP_CARD, R_HOOK_FORCED, R_JOKER_52, R_JOKER_53,
 R_PARTICIPANTS, R_SEATS) = range(10)
#: per-seat blocks of a result row, in this order after ``R_SEATS``
R_BIDS, R_TAKEN, R_POINTS, R_FINES, R_PREMIUMS, R_TOTALS, R_BLOCKS = range(7)

CALL_SHIFT, SUIT_SHIFT, RANK_SHIFT = 6, 11, 14
#: the card's bits in an action code (0..53), the call's (``codes.CALL_COUNT`` <= 32) and the
#: suit's (-1..3, plus one), each below its shift (``play_fields`` reads them; not to be confused
#: with ``rules.SUIT_BITS``, the 13 bits of a suit's cards in a hand mask)
CARD_FIELD, CALL_FIELD, SUIT_FIELD = 63, 31, 7
#: the legal mask of a ``KEEP`` decision: 1 keeps the trick, 0 declines it
KEEP_BOTH = 3


def action_code(card_or_value: int, call: int = 0, suit: int = -1, rank: int = 0) -> int:
    """The code of a play (``card`` with a Joker's ``call`` and ``suit``, and the ``rank`` of the
    card a Joker is declared as: ``CALL_CARD``); a bid's code is the bid and naming trump's is the
    suit plus one."""
    return card_or_value | call << CALL_SHIFT | (suit + 1) << SUIT_SHIFT | rank << RANK_SHIFT


@jit(inline="always")
def play_fields(action: int) -> tuple[int, int, int, int]:
    """A play's action code read back (``action_code``'s inverse): the card, the call code, the
    suit (-1: none) and the rank of the card a Joker is declared as (0: none). Python callers use
    ``play_fields.py_func``, the same function uncompiled."""
    return (action & CARD_FIELD, action >> CALL_SHIFT & CALL_FIELD,
            (action >> SUIT_SHIFT & SUIT_FIELD) - 1, action >> RANK_SHIFT)


@jit(inline="always")
def named_code(card: int, named: int) -> int:
    """``action_code`` for compiled callers: the Joker ``card`` declared as the card ``named``."""
    return (card | CALL_CARD << CALL_SHIFT | (named // 13 + 1) << SUIT_SHIFT
            | (named % 13 + 2) << RANK_SHIFT)


@jit(inline="always")
def play_code(card: int, option: int) -> int:
    """``action_code`` for compiled callers: playing ``card``, a Joker with the call option
    ``option`` (over ``codes.OPTIONS``; -1 is taken as the first; not ``CARD_OPTION``, which
    needs the card: ``named_code``)."""
    if card < JOKER:
        return card
    option = max(option, 0)
    return card | OPTION_CALL[option] << CALL_SHIFT | (OPTION_SUIT[option] + 1) << SUIT_SHIFT


def layout(players: int, deck_size: int, max_tricks: int, max_results: int) -> dict[str, int]:
    """Where each array of the state starts, and the state's length."""
    sizes = (("O_HANDS", players), ("O_FIRST", players), ("O_BIDS", players),
             ("O_TAKEN", players), ("O_FINES", players), ("O_SCORES", players),
             ("O_PASSES", players), ("O_ORDER", players), ("O_TSEAT", players),
             ("O_TCARD", players), ("O_TCALL", players), ("O_TSUIT", players),
             ("O_STOCK", deck_size), ("O_MADE", players), ("O_BEST", players),
             ("O_NEXT", players),
             # the cards each seat showed the others at the deal (lobovaya, one card each)
             ("O_SHOWN", players),
             # working space of a deal's start: the deck, the shuffle's, the dealt hands
             ("O_SCRATCH", 3 * deck_size + chance.SHUFFLE_SCRATCH + 3 * players),
             ("O_HIST", max_tricks * hist_width(players)),
             ("O_RES", max_results * result_width(players)))
    offsets = {}
    at = S_SCALARS
    for name, size in sizes:
        offsets[name] = at
        at += size
    offsets["length"] = at
    return offsets


def hist_width(players: int) -> int:
    """Entries of one finished trick in the state."""
    return H_CARDS + H_BLOCKS * players


def result_width(players: int) -> int:
    """Entries of one result row in the state."""
    return R_SEATS + R_BLOCKS * players


@jit(inline="always")
def deal_value(plan: np.ndarray, row: int, column: int) -> int:
    """Column ``column`` (``D_*``) of row ``row`` of the deal table."""
    return plan[ix(plan[O_DEALS] + row * D_WIDTH + column)]


@jit(inline="always")
def points_at(plan: np.ndarray, row: int, bid: int) -> int:
    """Where in the plan deal ``row``'s score table has its row for bidding ``bid`` (-1: no bid):
    the points of taking 0, 1, ... tricks follow (``D_POINTS_WIDTH`` of them)."""
    return plan[O_POINTS] + deal_value(plan, row, D_POINTS_AT) + (bid + 1) * deal_value(
        plan, row, D_POINTS_WIDTH)


# -- chance ----------------------------------------------------------------------------------------


@jit(inline="always")
def _mix3(seed: int, tag: int, number: int) -> np.uint64:
    """``engine.rng.mix(seed, tag, number)``."""
    key = chance.splitmix64(uint64(0) ^ uint64(seed))
    key = chance.splitmix64(key ^ uint64(tag))
    return chance.splitmix64(key ^ uint64(number))


@jit(inline="always")
def _mix2(seed: int, tag: int) -> np.uint64:
    key = chance.splitmix64(uint64(0) ^ uint64(seed))
    return chance.splitmix64(key ^ uint64(tag))


LOT_TAG, DEAL_TAG, FOREHEAD_TAG = 1, 2, 4  # engine.rng.LOT, engine.rng.DEAL, engine.rng.FOREHEAD


@jit()
def draw_first_dealer(plan: np.ndarray, seed: int) -> int:
    """The first dealer of the game with ``seed``: the lot of ``deal.first_dealer``."""
    size = plan[P_DECK]
    deck = np.empty(size, dtype=np.int64)
    chance.shuffle(plan[plan[O_DECK]:plan[O_DECK] + size], _mix2(seed, LOT_TAG), deck)
    return chance.first_dealer(deck, plan[P_PLAYERS], plan[P_FIRST_DEALER])


# -- the flow of a game ----------------------------------------------------------------------------


@jit()
def new_game(state: np.ndarray, plan: np.ndarray, seed: int) -> None:
    """A fresh game with ``seed`` (an ``int64`` view of the 64-bit seed) in ``state``: the lot
    for the first dealer, then the first deal."""
    state[:] = 0
    state[S_SEED] = seed
    state[S_SCHEDULE] = plan[P_SCHEDULE]
    dealer = draw_first_dealer(plan, seed)
    state[S_FIRST_DEALER] = dealer
    state[S_DEALER] = dealer
    state[S_DEAL_INDEX] = 0
    start_deal(state, plan, state[S_DEAL_INDEX])  # an int64, not the literal 0: one compile


@jit(inline="always")
def order_from(state: np.ndarray, plan: np.ndarray, participants: int) -> None:
    """The deal's order: the seats of ``participants`` (a mask) from the dealer's left round."""
    players = plan[P_PLAYERS]
    count = 0
    for step in range(players):
        seat = (state[S_DEALER] + 1 + step) % players
        if participants >> seat & 1:
            state[ix(plan[O_ORDER] + count)] = seat
            count += 1
    state[S_ORDER_LEN] = count
    link_order(state, plan)


@jit(inline="always")
def link_order(state: np.ndarray, plan: np.ndarray) -> None:
    """Each seat's successor in the deal's order (``next_seat``), from the order."""
    count = state[S_ORDER_LEN]
    order = plan[O_ORDER]
    for position in range(count):
        successor = state[ix(order + (position + 1) % count)]
        state[ix(plan[O_NEXT] + state[ix(order + position)])] = successor


@jit()
def start_deal(state: np.ndarray, plan: np.ndarray,
               row: int) -> None:
    """Shuffle, deal and show the trump of deal ``row`` of the deal table (its participants: all
    seats in the schedule, the tied leaders in a tie-break deal: 003)."""
    players = plan[P_PLAYERS]
    participants = (1 << players) - 1
    if deal_value(plan, row, D_NUMBER) >= state[S_SCHEDULE]:
        top = state[ix(plan[O_SCORES])]
        for seat in range(players):
            top = max(top, state[ix(plan[O_SCORES] + seat)])
        participants = 0
        for seat in range(players):
            if state[ix(plan[O_SCORES] + seat)] == top:
                participants |= 1 << seat
    order_from(state, plan, participants)
    count = state[S_ORDER_LEN]
    size = plan[P_DECK]
    scratch = plan[O_SCRATCH]
    deck = state[scratch:scratch + size]
    chance.shuffle_with(plan[plan[O_DECK]:plan[O_DECK] + size],
                        _mix3(state[S_SEED], DEAL_TAG, deal_value(plan, row, D_NUMBER)), deck,
                        state[scratch + size:scratch + 3 * size + chance.SHUFFLE_SCRATCH])
    hand_size = deal_value(plan, row, D_HAND)
    hands_at = scratch + 3 * size + chance.SHUFFLE_SCRATCH
    dealt = state[hands_at:hands_at + count]
    first = state[hands_at + count:hands_at + 2 * count]
    chance.deal_hands(deck, hand_size, count, plan[P_NAMED_AFTER], dealt, first)
    for seat in range(players):
        state[ix(plan[O_HANDS] + seat)] = 0
        state[ix(plan[O_FIRST] + seat)] = 0
    for position in range(count):
        seat = state[ix(plan[O_ORDER] + position)]
        state[ix(plan[O_HANDS] + seat)] = dealt[ix(position)]
        state[ix(plan[O_FIRST] + seat)] = first[ix(position)]
    used = hand_size * count
    rule = deal_value(plan, row, D_TRUMP_RULE)
    turned = deck[ix(used)] if used < size else -1
    trump, card, how, namer = chance.trump_of_deal(rule, deck[ix(used - 1)], turned,
                                                   plan[P_FIXED_SUIT], plan[P_DEALER_NAMES] != 0)
    # the card turned from the stock lies face up: out of play, or under the stock (002)
    state[S_STOCK_LEN] = chance.stock_after_deal(deck, used, rule == TRUMP_TURNED,
                                                 plan[P_DRAW] != 0,
                                                 state[plan[O_STOCK]:plan[O_STOCK] + size])
    state[S_STOCK_POS] = 0
    namer_seat = -1
    if namer == 1:
        namer_seat = state[ix(plan[O_ORDER])]
    elif namer == 2:
        namer_seat = state[S_DEALER]
    begin_deal(state, plan, row, trump, card, how, namer_seat)


@jit(inline="always")
def begin_deal(state: np.ndarray, plan: np.ndarray, row: int, trump: int,
               card: int, how: int, namer: int) -> None:
    """The deal's bookkeeping once the hands are in ``state``: trump, bids, tricks, the Jokers'
    holders; then naming trump, bidding or play."""
    players = plan[P_PLAYERS]
    state[S_ROW] = row
    state[S_TRUMP] = trump
    state[S_TRUMP_CARD] = card
    state[S_HOW] = how
    state[S_CIRCULAR] = how == chance.HOW_CIRCULAR
    state[S_NAMER] = namer
    for seat in range(players):
        state[ix(plan[O_BIDS] + seat)] = -1
        state[ix(plan[O_TAKEN] + seat)] = 0
        state[ix(plan[O_FINES] + seat)] = 0
    state[S_TRICK_LEN] = 0
    state[S_TRICKS_DONE] = 0
    state[S_LED] = -1
    state[S_TRICK_TRUMP] = trump
    state[S_PLAYED] = 0
    state[S_HOOK_FORCED] = 0
    state[S_JOKER_52] = -1
    state[S_JOKER_53] = -1
    shown = deal_value(plan, row, D_SHOWN)
    key = _mix3(state[S_SEED], FOREHEAD_TAG, deal_value(plan, row, D_NUMBER))
    state[S_TURNED_HOLDER] = -1
    for seat in range(players):
        hand = state[ix(plan[O_HANDS] + seat)]
        if hand >> JOKER & 1:
            state[S_JOKER_52] = seat
        if hand >> JOKER2 & 1:
            state[S_JOKER_53] = seat
        # lobovaya, one card each (000, 002, 003): each seat shows cards drawn at random
        state[ix(plan[O_SHOWN] + seat)] = chance.forehead_cards(hand, shown, key) if shown else 0
    if namer >= 0:
        state[S_PHASE] = PH_TRUMP
        state[S_TO_MOVE] = namer
        state[S_LEGAL_A] = plan[P_NO_TRUMP_NAMING]
        state[S_LEGAL_B] = 0
        return
    trump_decided(state, plan)


@jit()
def trump_decided(state: np.ndarray, plan: np.ndarray) -> None:
    """The trump is known: bidding starts left of the dealer, or play where nobody bids."""
    state[S_TRICK_TRUMP] = state[S_TRUMP]
    if deal_value(plan, state[S_ROW], D_BIDDING) == 0:
        start_play(state, plan)
        return
    state[S_PHASE] = PH_BID
    state[S_TO_MOVE] = state[ix(plan[O_ORDER])]
    set_legal(state, plan)


@jit()
def start_play(state: np.ndarray, plan: np.ndarray) -> None:
    """The first trick's leader (``deal.first_leader``)."""
    state[S_PHASE] = PH_PLAY
    count = state[S_ORDER_LEN]
    scratch = plan[O_SCRATCH] + 3 * plan[P_DECK] + chance.SHUFFLE_SCRATCH + 2 * plan[P_PLAYERS]
    hands = state[scratch:scratch + count]
    dealer_position = np.int64(-1)  # not a literal: one compile of first_leader
    for position in range(count):
        seat = state[ix(plan[O_ORDER] + position)]
        hands[ix(position)] = state[ix(plan[O_HANDS] + seat)]
        if seat == state[S_DEALER]:
            dealer_position = position
    leader = chance.first_leader(hands, count, dealer_position, plan[P_DEALER_LEADS] != 0,
                                 deal_value(plan, state[S_ROW], D_HOLDER_LEADS) != 0)
    state[S_TO_MOVE] = state[ix(plan[O_ORDER] + leader)]
    set_legal(state, plan)


@jit(inline="always")
def seated_first_leader(state: np.ndarray, plan: np.ndarray) -> int:
    """The seat that leads the first trick of the deal by the seating alone
    (``deal.seated_leader``): what a bidder expects, the Joker's holder not being known."""
    count = state[S_ORDER_LEN]
    dealer_position = np.int64(-1)
    for position in range(count):
        if state[ix(plan[O_ORDER] + position)] == state[S_DEALER]:
            dealer_position = position
    return state[ix(plan[O_ORDER] + chance.seated_leader(dealer_position,
                                                         plan[P_DEALER_LEADS] != 0))]


@jit(inline="always")
def bid_others(state: np.ndarray, plan: np.ndarray) -> int:
    """The sum of the bids made so far in the deal."""
    total = np.int64(0)  # not the literal 0: one compile of each callee it is passed to
    for seat in range(plan[P_PLAYERS]):
        bid = state[ix(plan[O_BIDS] + seat)]
        if bid > 0:
            total += bid
    return total


@jit(inline="always")
def is_last_bidder(state: np.ndarray, plan: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` bids last (the dealer, or the last of the tied players)."""
    return seat == state[ix(plan[O_ORDER] + state[S_ORDER_LEN] - 1)]


@jit(inline="always")
def next_seat(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """The seat after ``seat`` in the deal's order."""
    return state[ix(plan[O_NEXT] + seat)]


@jit(inline="always")
def lead_calls(state: np.ndarray, plan: np.ndarray) -> int:
    """The calls a Joker led now may make (the plan's ``lead_calls_mask`` for this deal and
    trick)."""
    row = state[S_ROW]
    demands = deal_value(plan, row, D_DEMANDS_FIRST if state[S_TRICKS_DONE] == 0
                                   else D_DEMANDS_LATER)
    has_trump = state[S_TRUMP] >= 0
    return deal_value(plan, row, D_CALLS_NN + 2 * demands + has_trump)


@jit()
def set_legal(state: np.ndarray, plan: np.ndarray) -> None:
    """The legal actions of the seat to move, as masks (``legal_masks``), for callers outside
    ``step``: the start of bidding or play, ``engine.Game``, the playouts; the trick so far is
    worked out afresh (``note_trick_lead``) for a position set up by hand."""
    note_trick_lead(state, plan)
    legal_masks(state, plan)


@jit(inline="always")
def legal_masks(state: np.ndarray, plan: np.ndarray) -> None:
    """The legal actions of the seat to move, as masks: in ``BID`` the bids (``rules.legal_bids``,
    up to the deal's tricks); in ``PLAY`` the cards (``rules.legal_cards``) and a Joker's calls
    (over ``codes.OPTIONS``); in ``KEEP`` keeping (bit 1) and declining (bit 0) the trick.
    Inlined once, at the end of ``step`` (every path of a decision ends there)."""
    phase = state[S_PHASE]
    seat = state[S_TO_MOVE]
    row = state[S_ROW]
    if phase == PH_BID:
        state[S_LEGAL_A] = rules.legal_bids(deal_value(plan, row, D_TRICKS),
                                            deal_value(plan, row, D_MIN_BID),
                                            deal_value(plan, row, D_HOOK),
                                            is_last_bidder(state, plan, seat),
                                            bid_others(state, plan),
                                            state[ix(plan[O_PASSES] + seat)], plan[P_PASS_LIMIT])
        state[S_LEGAL_B] = 0
        return
    if phase == PH_KEEP:  # bit 1: keep the trick, bit 0: decline it
        state[S_LEGAL_A] = KEEP_BOTH
        state[S_LEGAL_B] = 0
        return
    if phase != PH_PLAY:
        return
    hand = state[ix(plan[O_HANDS] + seat)]
    length = state[S_TRICK_LEN]
    if length:
        lead_card = state[ix(plan[O_TCARD])]
        lead_call = state[ix(plan[O_TCALL])]
        lead_suit = state[ix(plan[O_TSUIT])]
    else:
        lead_card, lead_call, lead_suit = -1, 0, -1
    cards = rules.legal_cards(hand, length, lead_card, lead_call, lead_suit, state[S_LED],
                              state[S_TRICK_TRUMP], plan[P_MUST_TRUMP] != 0, plan[P_LOCK],
                              state[S_PLAYED])
    state[S_LEGAL_A] = cards
    state[S_LEGAL_B] = joker_calls(state, plan) if cards & rules.JOKER_BITS else 0


@jit(inline="always")
def joker_calls(state: np.ndarray, plan: np.ndarray) -> int:
    """The calls a Joker played now may make, as options over ``codes.OPTIONS``: on a lead the
    deal's lead calls (``lead_calls``), else ``rules.follow_calls_named`` after the trick's first
    Joker. With ``codes.CARD_OPTION`` the Joker may be declared as any card of
    ``plan[P_NAMEABLE]`` (``rules.nameable_cards``)."""
    length = state[S_TRICK_LEN]
    if length == 0:
        return lead_calls(state, plan)
    first = -1
    for index in range(length):
        if state[ix(plan[O_TCARD] + index)] >= JOKER:
            first = state[ix(plan[O_TCALL] + index)]
            break
    return rules.follow_calls_named(plan[P_TWO_JOKERS], first, plan[P_NAMEABLE])


@jit()
def apply_trump(state: np.ndarray, plan: np.ndarray, suit: int) -> None:
    """The seat to move names ``suit`` (-1: no trump)."""
    state[S_TRUMP] = suit
    state[S_HOW] = HOW_NAMED_BY
    state[S_NAMED_BY] = state[S_TO_MOVE]
    trump_decided(state, plan)


@jit(inline="always")
def apply_bid(state: np.ndarray, plan: np.ndarray, bid: int) -> bool:
    """The seat to move bids ``bid``; the dealer's hook is noted where it binds. True when the
    next seat bids (its legal bids are still to be set), False when play started."""
    seat = state[S_TO_MOVE]
    row = state[S_ROW]
    last = is_last_bidder(state, plan, seat)
    if last and deal_value(plan, row, D_HOOK) == HOOK_NO_EQUAL:
        state[S_HOOK_FORCED] = rules.hook_binds(deal_value(plan, row, D_TRICKS),
                                                deal_value(plan, row, D_MIN_BID),
                                                bid_others(state, plan))
    state[ix(plan[O_BIDS] + seat)] = bid
    passes = plan[O_PASSES] + seat
    state[ix(passes)] = state[ix(passes)] + 1 if bid == 0 else 0
    if last:
        start_play(state, plan)
        return False
    state[S_TO_MOVE] = next_seat(state, plan, seat)
    return True


@jit(inline="always")
def best_in_trick(state: np.ndarray, plan: np.ndarray, skip: int) -> tuple[int, int, bool]:
    """(position, key, beats) of the card holding the trick so far (``rules.trick_best`` of the
    trick's slots): the greatest ``rules.card_key``, the earliest among equals, and whether trumps
    beat the leading Joker's demand; with ``skip`` the best of the other cards (000: a Joker's
    player who declines the trick: «взятку забирает игрок, который походил самой сильной
    картой»). (0, -2, False) before the lead, when the trick's slots still hold the last trick's
    cards."""
    return rules.trick_best(state[plan[O_TCARD]:], state[plan[O_TCALL]:], state[plan[O_TSUIT]:],
                            state[S_TRICK_LEN], state[S_LED], state[S_TRICK_TRUMP],
                            plan[P_TRUMP_WINS] != 0, plan[P_TWO_JOKERS], skip)


@jit(inline="always")
def note_trick_lead(state: np.ndarray, plan: np.ndarray) -> None:
    """Work out the trick so far afresh into ``S_BEST_AT``, ``S_BEST_KEY`` and ``S_BEATS``
    (``best_in_trick``): after the lead, when the led suit (and with it a circular trick's
    trump) is settled, and wherever a position is set up by hand (``set_legal``)."""
    best, key, beats = best_in_trick(state, plan, -1)
    state[S_BEST_AT] = best
    state[S_BEST_KEY] = key
    state[S_BEATS] = beats


@jit(inline="always")
def trick_lead(state: np.ndarray) -> tuple[int, int, bool]:
    """(position in the trick, ``rules.card_key``, beats) of the card holding the trick so far,
    as ``best_in_trick`` without a skip, kept by ``apply_play`` card by card: what a policy
    reads to know what it must beat. (0, -2, False) before the lead."""
    return state[S_BEST_AT], state[S_BEST_KEY], state[S_BEATS] != 0


@jit(inline="always")
def trick_winner(state: np.ndarray, plan: np.ndarray, skip: int) -> int:
    """The position in the trick of the card that takes it (``trick_lead``); with ``skip`` the
    best of the other cards (``best_in_trick``)."""
    if skip < 0:
        return state[S_BEST_AT]
    return best_in_trick(state, plan, skip)[0]


@jit(inline="always")
def apply_play(state: np.ndarray, plan: np.ndarray, card: int, call: int, suit: int) -> bool:
    """The seat to move plays ``card`` (a Joker with ``call`` and ``suit``) to the trick. True
    when the trick is full (``step`` then settles it), else the next seat is to move."""
    seat = state[S_TO_MOVE]
    hands = plan[O_HANDS]
    hand = state[ix(hands + seat)]
    length = state[S_TRICK_LEN]
    if length == 0 and plan[P_LEAD_FINE] != 0:
        state[ix(plan[O_FINES] + seat)] += scoring.lead_fine(card, rules.popcount(hand),
                                                             plan[P_LEAD_FINE])
    state[ix(hands + seat)] = hand & ~(1 << card)
    state[S_PLAYED] |= 1 << card
    state[ix(plan[O_TSEAT] + length)] = seat
    state[ix(plan[O_TCARD] + length)] = card
    state[ix(plan[O_TCALL] + length)] = call
    state[ix(plan[O_TSUIT] + length)] = suit
    length += 1
    state[S_TRICK_LEN] = length
    led = state[S_LED]
    if led < 0:  # the lead, or a Joker led without a suit: the trick so far afresh
        led = rules.led_suit_after(led, card, length - 1, call, suit)
        state[S_LED] = led
        if led >= 0 and state[S_CIRCULAR]:
            state[S_TRICK_TRUMP] = rules.circular_trick_trump(led)
        note_trick_lead(state, plan)
    else:  # the keys so far stand: only the new card may take the lead
        key = rules.card_key(card, call, length - 1, led, state[S_TRICK_TRUMP],
                             state[S_BEATS] != 0, plan[P_TWO_JOKERS])
        if key > state[S_BEST_KEY]:
            state[S_BEST_AT] = length - 1
            state[S_BEST_KEY] = key
    if length < state[S_ORDER_LEN]:
        state[S_TO_MOVE] = next_seat(state, plan, seat)
        return False
    return True


@jit(inline="always")
def draw_round(state: np.ndarray, plan: np.ndarray, winner: int) -> None:
    """After a trick every player draws one card from the stock, the trick's winner first, in
    turn (002: «После чего игроки берут по одной карте из оставшейся колоды»), while the stock has
    a card for everyone; the turned trump card lies under the stock and comes last
    (``deal.stock_after_deal``): who draws it is seen by all."""
    count = state[S_ORDER_LEN]
    if state[S_STOCK_LEN] - state[S_STOCK_POS] < count:
        return
    hands = plan[O_HANDS]
    drawer = winner
    for _ in range(count):
        drawn = state[ix(plan[O_STOCK] + state[S_STOCK_POS])]
        state[S_STOCK_POS] += 1
        state[ix(hands + drawer)] |= 1 << drawn
        if drawn == state[S_TRUMP_CARD] and state[S_HOW] != chance.HOW_LAST_DEALT:
            state[S_TURNED_HOLDER] = drawer
        drawer = next_seat(state, plan, drawer)


@jit(inline="always")
def finish_trick(state: np.ndarray, plan: np.ndarray, position: int) -> int:
    """The card at ``position`` takes the full trick: it is recorded, the stock drawn from (002)
    and a finished deal scored. Returns the events: ``EV_TRICK`` alone while the deal goes on
    (the winner leads; its legal cards are still to be set)."""
    hands = plan[O_HANDS]
    length = state[S_TRICK_LEN]
    winner = state[ix(plan[O_TSEAT] + position)]
    state[ix(plan[O_TAKEN] + winner)] += 1
    players = plan[P_PLAYERS]
    done = state[S_TRICKS_DONE]
    at = plan[O_HIST] + done * (H_CARDS + H_BLOCKS * players)
    state[ix(at + H_COUNT)] = length
    state[ix(at + H_TRUMP)] = state[S_TRICK_TRUMP]
    state[ix(at + H_WINNER)] = winner
    for index in range(length):
        state[ix(at + H_CARDS + index)] = state[ix(plan[O_TSEAT] + index)]
        state[ix(at + H_CARDS + players + index)] = state[ix(plan[O_TCARD] + index)]
        state[ix(at + H_CARDS + 2 * players + index)] = state[ix(plan[O_TCALL] + index)]
        state[ix(at + H_CARDS + 3 * players + index)] = state[ix(plan[O_TSUIT] + index)]
    state[S_TRICKS_DONE] = done + 1
    state[S_TRICK_LEN] = 0
    state[S_LED] = -1
    state[S_TRICK_TRUMP] = state[S_TRUMP]
    state[S_TO_MOVE] = winner
    if plan[P_DRAW] != 0:
        draw_round(state, plan, winner)
    if state[ix(hands + winner)]:
        return EV_TRICK
    return EV_TRICK | score_deal(state, plan)


@jit()
def score_deal(state: np.ndarray, plan: np.ndarray) -> int:
    """Record the deal's score into a result row (each seat's ``scoring.deal_score``, its record of
    the premium's span and, where the span closes, ``scoring.span_premiums``: the scoring rules
    are all in ``engine.core.scoring``), and go on to the next deal or the end. Returns the
    events."""
    players = plan[P_PLAYERS]
    row = state[S_ROW]
    result = state[S_RESULTS]
    at = plan[O_RES] + result * (R_SEATS + R_BLOCKS * players)
    seats = at + R_SEATS
    premium_on = (plan[P_PREMIUM_MODE] != scoring.PREMIUM_NONE
                  and deal_value(plan, row, D_BLOCK) >= 0)
    opens, closes = deal_value(plan, row, D_OPENS) != 0, deal_value(plan, row, D_CLOSES) != 0
    counted = scoring.span_counts(closes, plan[P_PREMIUM_LAST_EXCLUDED] != 0)
    participants = 0
    for seat in range(players):
        state[ix(seats + R_BIDS * players + seat)] = -1
        state[ix(seats + R_TAKEN * players + seat)] = state[ix(plan[O_TAKEN] + seat)]
        state[ix(seats + R_POINTS * players + seat)] = 0
        state[ix(seats + R_FINES * players + seat)] = state[ix(plan[O_FINES] + seat)]
        state[ix(seats + R_PREMIUMS * players + seat)] = 0
    for position in range(state[S_ORDER_LEN]):
        seat = state[ix(plan[O_ORDER] + position)]
        participants |= 1 << seat
        bid = state[ix(plan[O_BIDS] + seat)]
        taken = state[ix(plan[O_TAKEN] + seat)]
        score = scoring.deal_score(plan[ix(points_at(plan, row, bid) + taken)],
                                   state[ix(plan[O_FINES] + seat)])
        state[ix(seats + R_BIDS * players + seat)] = bid
        state[ix(seats + R_POINTS * players + seat)] = score
        if premium_on and counted:
            made, best = scoring.span_record(state[ix(plan[O_MADE] + seat)] != 0,
                                           state[ix(plan[O_BEST] + seat)], bid, taken, score, opens)
            state[ix(plan[O_MADE] + seat)] = made
            state[ix(plan[O_BEST] + seat)] = best
    if premium_on and closes:
        premiums = seats + R_PREMIUMS * players
        scoring.span_premiums(state[plan[O_MADE]:plan[O_MADE] + players],
                              state[plan[O_BEST]:plan[O_BEST] + players], counted or not opens,
                              plan[P_PREMIUM_MODE], plan[P_PREMIUM_POINTS],
                              plan[P_PREMIUM_OTHERS], plan[P_PREMIUM_SEVERAL],
                              state[premiums:premiums + players])
    for seat in range(players):
        total = plan[O_SCORES] + seat
        state[ix(total)] += (state[ix(seats + R_POINTS * players + seat)]
                             + state[ix(seats + R_PREMIUMS * players + seat)])
        state[ix(seats + R_TOTALS * players + seat)] = state[ix(total)]
    state[ix(at + R_NUMBER)] = deal_value(plan, row, D_NUMBER)
    state[ix(at + R_ROW)] = row
    state[ix(at + R_DEALER)] = state[S_DEALER]
    state[ix(at + R_TRUMP)] = state[S_TRUMP]
    state[ix(at + R_TRUMP_CARD)] = state[S_TRUMP_CARD]
    state[ix(at + R_HOOK_FORCED)] = state[S_HOOK_FORCED]
    state[ix(at + R_JOKER_52)] = state[S_JOKER_52]
    state[ix(at + R_JOKER_53)] = state[S_JOKER_53]
    state[ix(at + R_PARTICIPANTS)] = participants
    state[S_RESULTS] = result + 1
    return EV_DEAL_SCORED | next_deal(state, plan)


@jit()
def next_deal(state: np.ndarray, plan: np.ndarray) -> int:
    """The next deal of the schedule, a tie-break deal between the tied leaders (003), or the
    end. Returns the events."""
    players = plan[P_PLAYERS]
    index = state[S_DEAL_INDEX] + 1
    state[S_DEAL_INDEX] = index
    state[S_DEALER] = (state[S_DEALER] + 1) % players
    schedule = state[S_SCHEDULE]
    if index < schedule:
        start_deal(state, plan, index)
        return EV_DEAL_STARTED
    top = state[ix(plan[O_SCORES])]
    for seat in range(players):
        top = max(top, state[ix(plan[O_SCORES] + seat)])
    tied = 0
    for seat in range(players):
        tied += state[ix(plan[O_SCORES] + seat)] == top
    extra = index - schedule
    if tied > 1 and extra < plan[P_TIE_DEALS]:
        start_deal(state, plan, schedule + extra * (players - 1) + tied - 2)
        return EV_DEAL_STARTED
    state[S_PHASE] = PH_OVER
    state[S_TO_MOVE] = -1
    state[S_LEGAL_A] = 0
    state[S_LEGAL_B] = 0
    return EV_GAME_OVER


@jit()
def step(state: np.ndarray, plan: np.ndarray, action: int) -> tuple[int, int, int, int, int]:
    """Apply ``action`` (``action_code``; known to be legal) of the seat to move and everything
    that follows it. Returns (phase, seat to move, legal mask A, legal mask B, events): in ``BID``
    A is the legal bids; in ``PLAY`` A the legal cards and B a Joker's legal calls; in ``TRUMP``
    A is 1 where naming no trump is allowed; in ``KEEP`` A is 3 (keep: 1, decline: 0).
    ``apply_action`` as a function of its own."""
    return apply_action(state, plan, action)


@jit(inline="always")
def apply_action(state: np.ndarray, plan: np.ndarray,
                 action: int) -> tuple[int, int, int, int, int]:
    """``step``, inlined where a call per decision is too dear: the compiled loop of whole games
    with ``fastheuristic`` at every seat (``strategies.policies.compiled.play_fast``)."""
    phase = state[S_PHASE]
    events = 0
    state[S_DECISIONS] += 1
    # each rule function below is inlined once: the trick is settled and the next legal actions
    # set in one place whichever decision led there
    refresh = False  # the next decision's legal actions are still to be set
    settle = False  # a full trick is to be taken
    skip = -1  # the position in the trick that cannot take it (a declined Joker), -1 for none
    position = -1  # the position that takes it, where known already (a kept Joker's lead)
    if phase == PH_PLAY:
        card, call, suit, rank = play_fields(action)
        if call == CALL_CARD:
            call = named_call(13 * suit + rank - 2)
        settle = apply_play(state, plan, card, call, suit)
        refresh = not settle
    elif phase == PH_BID:
        refresh = apply_bid(state, plan, action)
    elif phase == PH_KEEP:
        # 000: the Joker's player keeps the trick it led, or declines it: then the best of the
        # other cards takes it
        state[S_PHASE] = PH_PLAY
        settle = True
        if action != 0:
            position = 0
        else:
            skip = 0
    elif phase == PH_TRUMP:
        apply_trump(state, plan, action - 1)
        events = EV_TRUMP_CHOSEN
    if settle:
        if position < 0:
            position = trick_winner(state, plan, skip)
        if (phase == PH_PLAY and plan[P_KEEP] != 0
                and rules.may_decline(state[ix(plan[O_TCARD])], position)):
            state[S_PHASE] = PH_KEEP  # 000: «Походивший с джокера может забрать взятку, либо
            state[S_TO_MOVE] = state[ix(plan[O_TSEAT])]  # отказаться от нее»: after the trick
            refresh = True
        else:
            events = finish_trick(state, plan, position)
            refresh = events == EV_TRICK
    if refresh:
        legal_masks(state, plan)
    if events & EV_DEAL_STARTED and state[S_PHASE] != PH_TRUMP:
        events |= EV_TRUMP_CHOSEN
    if state[S_TRICK_LEN] == 0:
        events |= EV_LEAD
    return (state[S_PHASE], state[S_TO_MOVE], state[S_LEGAL_A], state[S_LEGAL_B], events)


# -- what a seat may see ---------------------------------------------------------------------------


@jit(inline="always")
def visible_hand(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """The cards ``seat`` sees of its own hand: none while bidding a dark, blind or forehead deal
    (``plan.bidding_view``); only the first cards while naming trump after them (002), unless a
    turned Joker let the dealer see them all."""
    phase = state[S_PHASE]
    if phase == PH_BID and deal_value(plan, state[S_ROW], D_HAND_HIDDEN):
        return 0
    if phase == PH_TRUMP and state[S_HOW] == chance.HOW_NAMED and state[S_TRUMP_CARD] < 0:
        return state[ix(plan[O_FIRST] + seat)]
    return state[ix(plan[O_HANDS] + seat)]


@jit()
def visible_other_hand(state: np.ndarray, plan: np.ndarray, seat: int, other: int) -> int:
    """The cards of ``other``'s hand that ``seat`` sees, -1 for none (never its own): while
    bidding a forehead deal the whole hand (000 fifth article, ``plan.bidding_view``); in a deal
    where each seat shows cards at the deal (lobovaya read as one card each: 000 second article,
    002, 003; ``plan.shown_cards``) the shown cards ``other`` still holds, from the deal to its
    end (everyone saw them: 0 once they are played)."""
    phase = state[S_PHASE]
    if other == seat or not (phase == PH_TRUMP or phase == PH_BID or phase == PH_PLAY):
        return -1
    row = state[S_ROW]
    hand = state[ix(plan[O_HANDS] + other)]
    if phase == PH_BID and deal_value(plan, row, D_OTHERS_SHOWN):
        return hand
    if deal_value(plan, row, D_SHOWN):
        return state[ix(plan[O_SHOWN] + other)] & hand
    return -1


@jit()
def visible_trump(state: np.ndarray, plan: np.ndarray) -> int:
    """The trump suit as the seat to move sees it: -1 while bidding a dark deal."""
    if state[S_PHASE] == PH_BID and deal_value(plan, state[S_ROW], D_TRUMP_HIDDEN):
        return -1
    return state[S_TRUMP]


@jit()
def seen_cards(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """The cards of this deal ``seat`` has seen played and may look back at: the finished tricks
    the memory rule shows it (``rules.trick_visible``) and the trick under way."""
    memory = plan[P_MEMORY]
    if memory == rules.MEMORY_FULL:
        return state[S_PLAYED]
    players = plan[P_PLAYERS]
    width = H_CARDS + H_BLOCKS * players
    done = state[S_TRICKS_DONE]
    seen = 0
    for index in range(done):
        at = plan[O_HIST] + index * width
        if rules.trick_visible(memory, state[ix(at + H_WINNER)] == seat, index == done - 1):
            for entry in range(state[ix(at + H_COUNT)]):
                seen |= 1 << state[ix(at + H_CARDS + players + entry)]
    for entry in range(state[S_TRICK_LEN]):
        seen |= 1 << state[ix(plan[O_TCARD] + entry)]
    return seen


__all__ = ["action_code", "layout", "new_game", "seen_cards", "step", "visible_hand",
           "visible_other_hand", "visible_trump"]
