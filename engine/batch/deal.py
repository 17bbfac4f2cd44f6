"""One deal of many games at once: the arrays of its state, the shuffle and deal, and the trump.

A ``DealState`` holds one deal of ``G`` games that play it in lockstep (all games of a batch for a
scheduled deal; the tied games of a batch for a tie-break deal). Players are indexed by *position*
in the deal's order, 0 = left of the dealer (the first to bid) up to ``m - 1``; ``order[g, k]`` is
the seat at position ``k`` in game ``g``. Hands are ``uint64`` masks. ``start_deal`` shuffles,
deals and settles the trump with the core's functions (``engine.core.deal``), leaving the games
that must name a trump with ``namer`` >= 0.
"""

from __future__ import annotations

import numpy as np
from raspis.engine.core.deal import HOW_NAMED, HOW_NONE, HOW_TEXT

from .kernels import deal_many, first_leader_many, shuffle_many, trump_many
from .rng import deal_keys
from .rules import TRUMP_CIRCULAR, TRUMP_TURNED, BatchRules, DealPlan

#: How the trump was chosen: ``engine.core.deal.HOW_*`` (``HOW_TEXT``; NAMED prints as "named by
#: seat N").
__all__ = ["HOW_NAMED", "HOW_NONE", "HOW_TEXT", "DealState", "order_from", "start_deal",
           "start_play"]


class DealState:
    """The arrays of one deal of ``G`` games; see the module docstring for the layout."""

    def __init__(self, plan: DealPlan, games: np.ndarray, order: np.ndarray, dealer: np.ndarray,
                 history: bool) -> None:
        count, participants = order.shape
        self.plan = plan
        self.games = games
        self.count = count
        self.participants = participants
        self.order = order
        self.dealer = dealer
        self.base = np.arange(count, dtype=np.int64) * participants
        self.hands = np.zeros((count, participants), dtype=np.uint64)
        self.first_cards: np.ndarray | None = None
        self.stock: np.ndarray | None = None
        self.stock_used = 0
        self.trump = np.full(count, -1, dtype=np.int64)
        self.trump_card = np.full(count, -1, dtype=np.int64)
        self.trump_how = np.full(count, HOW_NONE, dtype=np.int64)
        self.namer = np.full(count, -1, dtype=np.int64)
        self.circular = False
        self.bids = np.full((count, participants), -1, dtype=np.int64)
        self.bid_sum = np.zeros(count, dtype=np.int64)
        self.taken = np.zeros((count, participants), dtype=np.int64)
        self.fines = np.zeros((count, participants), dtype=np.int64)
        self.hook_forced = np.zeros(count, dtype=bool)
        self.joker_holders = np.full((count, 2), -1, dtype=np.int64)
        # play (``engine.batch.trick`` sets up the per-trick arrays)
        self.played = np.zeros(count, dtype=np.uint64)
        self.trick_mask = np.zeros(count, dtype=np.uint64)
        self.last_trick = np.zeros(count, dtype=np.uint64)
        self.won: np.ndarray | None = None
        self.leader = np.zeros(count, dtype=np.int64)
        self.trick_index = 0
        self.step = 0
        self.led = np.full(count, -1, dtype=np.int64)
        self.trick_trump = self.trump
        #: the trick's greatest ``core.rules.card_key`` so far, and who played it
        self.best_key = np.zeros(count, dtype=np.int64)
        self.best_position = np.zeros(count, dtype=np.int64)
        #: the trick's first Joker call (-1: no Joker played yet)
        self.first_call = np.full(count, -1, dtype=np.int64)
        #: trumps beat the leading Joker's demand in this trick (``core.rules.trumps_beat_demand``)
        self.beats = np.zeros(count, dtype=np.bool_)
        #: rows whose trick was led by a Joker (None: no such row in this trick)
        self.joker_leads: np.ndarray | None = None
        self.led_mask = np.zeros(count, dtype=np.uint64)
        self.trump_mask = np.zeros(count, dtype=np.uint64)
        self.no_led = self.led
        #: (participants, count): the current trick by step, and who plays at each step
        self.trick_cards_t = np.full((participants, count), -1, dtype=np.int64)
        self.trick_calls_t = np.zeros((participants, count), dtype=np.int64)
        self.trick_suits_t = np.full((participants, count), -1, dtype=np.int64)
        self.positions_t = np.zeros((participants, count), dtype=np.int64)
        self.flat_t = np.zeros((participants, count), dtype=np.int64)
        self.history = history
        if history:
            shape = (count, plan.tricks, participants)
            self.history_cards = np.full(shape, -1, dtype=np.int64)
            self.history_calls = np.zeros(shape, dtype=np.int64)
            self.history_suits = np.full(shape, -1, dtype=np.int64)
            self.history_positions = np.zeros(shape, dtype=np.int64)
            self.history_trumps = np.full((count, plan.tricks), -1, dtype=np.int64)
            self.history_winners = np.full((count, plan.tricks), -1, dtype=np.int64)

    def seats_of(self, positions: np.ndarray) -> np.ndarray:
        """The seats at ``positions`` (one per game)."""
        return self.order.ravel()[self.base + positions]

    def position_of_seat(self, seat: np.ndarray) -> np.ndarray:
        """The position of ``seat`` in each game's order (-1 where it does not play)."""
        match = self.order == seat[:, None]
        return np.where(match.any(axis=1), np.argmax(match, axis=1), -1)


def order_from(dealer: np.ndarray, participants: np.ndarray, players: int) -> np.ndarray:
    """``Game._order_from``: the participating seats (a bool mask per game, the same count in
    every row) clockwise from the left of the dealer."""
    count = len(dealer)
    seats = np.arange(players)[None, :]
    distance = (seats - dealer[:, None] - 1) % players
    distance = np.where(participants, distance, players + distance)
    ranked = np.argsort(distance, axis=1, kind="stable")
    number = int(participants[0].sum()) if count else 0
    return ranked[:, :number]


def start_deal(rules: BatchRules, state: DealState, seeds: np.ndarray) -> None:
    """Shuffle, deal and settle the trump (``engine.core.deal``: the shuffle, ``deal_hands``,
    ``trump_of_deal``); games that must name one get ``state.namer`` >= 0."""
    plan = state.plan
    hand, participants = plan.hand_size, state.participants
    deck = np.empty((state.count, rules.deck_size), dtype=np.int64)
    shuffle_many(rules.deck_cards, deal_keys(seeds, plan.number), deck)
    hands = np.empty((state.count, participants), dtype=np.int64)
    first = np.empty((state.count, participants), dtype=np.int64)
    deal_many(deck, hand, participants, rules.named_after_cards, hands, first)
    state.hands = hands.view(np.uint64)
    if rules.has_jokers:
        for index, joker in enumerate(rules.jokers_in_deck):
            holds = (state.hands >> np.uint64(joker)) & np.uint64(1)
            position = np.argmax(holds, axis=1)
            state.joker_holders[:, index] = np.where(holds.any(axis=1),
                                                     state.seats_of(position), -1)
    used = hand * participants
    namer = np.empty(state.count, dtype=np.int64)
    trump_many(plan.trump_rule, deck, used, rules.fixed_suit, rules.dealer_names_on_joker,
               state.trump, state.trump_card, state.trump_how, namer)
    state.circular = plan.trump_rule == TRUMP_CIRCULAR
    state.namer = np.where(namer == 1, state.order[:, 0], np.where(namer == 2, state.dealer, -1))
    if (state.namer >= 0).any():
        state.first_cards = first.view(np.uint64)
    if plan.draws:
        state.stock = deck[:, used + (plan.trump_rule == TRUMP_TURNED):]
    state.trick_trump = state.trump.copy()


def start_play(rules: BatchRules, state: DealState) -> None:
    """Who leads the first trick (``engine.core.deal.first_leader``)."""
    leader = np.empty(state.count, dtype=np.int64)
    first_leader_many(state.hands.view(np.int64), state.position_of_seat(state.dealer),
                      rules.dealer_leads, state.plan.kind.joker_holder_leads, leader)
    state.leader = leader
    if rules.memory in ("own_and_last", "own"):  # each seat's own tricks, for the memory rule
        state.won = np.zeros((state.count, state.participants), dtype=np.uint64)
