"""Card play in lockstep: the legal cards, one card per game, and the trick's running winner.

Every rule comes from ``engine.core.rules`` through the compiled loops of ``engine.batch.kernels``:
the legal cards (follow suit, must trump, every Joker demand, the Joker's lock) are
``rules.legal_cards``, a following Joker's calls ``rules.follow_calls``, the lead calls the plan's
``lead_calls_mask``, and the trick goes to the greatest ``rules.card_key``, kept as a running
maximum as the cards fall (the earliest among equal keys). This module only moves the arrays:
whose turn it is, what was played, the led suit once set, and the draw from the stock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .bits import BIT, SUIT_MASK_OR_NONE, SUIT_OF
from .deal import DealState
from .kernels import (
    as_int64,
    beats_many,
    follow_calls_many,
    lead_fines_many,
    legal_cards_many,
    take_trick_lead,
)
from .observation import BatchObservation
from .rules import OPTION_INDEX

if TYPE_CHECKING:
    from .game import BatchGame

U0 = np.uint64(0)
#: the circular trump of a led suit (index led + 1; -1 for none)
NEXT_SUIT = np.array([-1, 1, 2, 3, 0], dtype=np.int64)


def start_tricks(game: BatchGame, state: DealState) -> None:
    """Set up the arrays of card play once the leader of the first trick is known."""
    count, participants = state.count, state.participants
    state.trump_mask = SUIT_MASK_OR_NONE[state.trump + 1]
    state.no_led = np.full(count, -1, dtype=np.int64)
    state.led = state.no_led.copy()
    state.led_mask = np.zeros(count, dtype=np.uint64)
    state.beats = np.zeros(count, dtype=np.bool_)
    state.first_call = np.full(count, -1, dtype=np.int64)
    state.trick_cards_t = np.full((participants, count), -1, dtype=np.int64)
    state.trick_calls_t = np.zeros((participants, count), dtype=np.int64)
    state.trick_suits_t = np.full((participants, count), -1, dtype=np.int64)
    state.best_key = np.zeros(count, dtype=np.int64)
    begin_trick(state)


def begin_trick(state: DealState) -> None:
    """Positions to move at each step of the trick, from its leader."""
    participants = state.participants
    steps = np.arange(participants, dtype=np.int64)[:, None]
    positions = state.leader[None, :] + steps
    positions -= participants * (positions >= participants)
    state.positions_t = positions
    state.flat_t = positions + state.base[None, :]
    state.step = 0


def lead_call_masks(game: BatchGame, state: DealState) -> tuple[np.ndarray, np.ndarray]:
    """The legal lead calls of each game (``RulePlan.lead_calls_mask``: the demands allowed in
    this deal, "highest trumps" only with a trump) on the first trick and on later tricks."""
    plan = state.plan
    has_trump = state.trump >= 0
    first = np.where(has_trump, plan.lead_first[1], plan.lead_first[0]).astype(np.int64)
    later = np.where(has_trump, plan.lead_later[1], plan.lead_later[0]).astype(np.int64)
    return first, later


def play_step(game: BatchGame, state: DealState, lead_calls: np.ndarray | None) -> None:
    """Every game's player to move plays a card (``rules.legal_cards``, then ``apply_play``)."""
    rules = game.rules
    step = state.step
    position = state.positions_t[step]
    flat = state.flat_t[step]
    hands = state.hands.ravel()
    hand = hands[flat]
    legal = np.empty(state.count, dtype=np.uint64)
    legal_cards_many(as_int64(hand), step, state.trick_cards_t[0], state.trick_calls_t[0],
                     state.trick_suits_t[0], state.led, state.trick_trump, rules.must_trump,
                     rules.lock_card, as_int64(state.played), as_int64(legal))
    values = {"flat": flat}
    calls = None
    if rules.has_jokers:
        if step == 0:
            calls = lead_calls
        else:
            calls = np.empty(state.count, dtype=np.int64)
            follow_calls_many(rules.two_jokers, state.first_call, calls)
        values["legal_calls"] = calls
    values["legal_cards"] = legal
    observation = BatchObservation(game, state, "play", position, values,
                                   trick_index=state.trick_index, trick_position=step)
    card, call, suit = game.decide("play", observation)
    card = answered = np.asarray(card, dtype=np.int64)
    try:
        bit = BIT[card]  # a card below 0 reads a bit no hand has; beyond 63 raises
        bad = (legal & bit) == U0
    except IndexError:
        bad = (card < 0) | (card > 63)
        card = np.where(bad, 0, card)
        bit = BIT[card]
        bad |= (legal & bit) == U0
    jokers_played = None
    if rules.has_jokers:
        joker = card >= 52
        if joker.any():
            jokers_played = np.flatnonzero(joker)
            call = np.broadcast_to(np.asarray(call, dtype=np.int64), card.shape)
            suit = np.broadcast_to(np.asarray(suit, dtype=np.int64), card.shape)
            joker_call, joker_suit = call[jokers_played], suit[jokers_played]
            option = OPTION_INDEX[np.clip(joker_call, 0, len(OPTION_INDEX) - 1),
                                  np.clip(joker_suit + 1, 0, 4)]
            assert calls is not None
            allowed = (option >= 0) & (((calls[jokers_played] >> np.maximum(option, 0)) & 1) == 1)
            bad[jokers_played] |= ~allowed
    if bad.any():
        rows = np.flatnonzero(bad)
        calls_shown = np.broadcast_to(np.asarray(call), card.shape)
        suits_shown = np.broadcast_to(np.asarray(suit), card.shape)
        texts = [f"card {c} call {k} suit {s}" for c, k, s in
                 zip(answered[rows], calls_shown[rows], suits_shown[rows], strict=True)]
        game.illegal(state, observation, rows, texts)
        card, call, suit = game.fallback_play(legal, calls, card, call, suit, bad,
                                              lead=step == 0)
        bit = BIT[card]
        joker = card >= 52
        jokers_played = np.flatnonzero(joker) if joker.any() else None
        call = np.broadcast_to(np.asarray(call, dtype=np.int64), card.shape)
        suit = np.broadcast_to(np.asarray(suit, dtype=np.int64), card.shape)
    apply_play(game, state, position, flat, hand, card, bit, call, suit, jokers_played)
    if game.decisions is not None:
        game.count_decisions(state, None, state.order.ravel()[flat])
    state.step = step + 1


def apply_play(game: BatchGame, state: DealState, position: np.ndarray, flat: np.ndarray,
               hand: np.ndarray, card: np.ndarray, bit: np.ndarray, call: np.ndarray,
               suit: np.ndarray, jokers: np.ndarray | None) -> None:
    """Apply one card per game and update the trick's running winner (``jokers``: the rows that
    played a Joker, with ``call`` and ``suit`` per row; None when none did)."""
    rules = game.rules
    step = state.step
    state.hands.ravel()[flat] = hand ^ bit
    state.played |= bit
    state.trick_mask |= bit
    state.trick_cards_t[step] = card
    calls = state.trick_calls_t[step]
    if jokers is not None:
        joker_call, joker_suit = call[jokers], suit[jokers]
        calls[jokers] = joker_call
        state.trick_suits_t[step, jokers] = joker_suit
    if state.history:
        trick = state.trick_index
        state.history_cards[:, trick, step] = card
        state.history_positions[:, trick, step] = position
        if jokers is not None:
            state.history_calls[jokers, trick, step] = joker_call
            state.history_suits[jokers, trick, step] = joker_suit
    if step == 0:
        led = SUIT_OF[card]
        state.joker_leads = jokers
        if jokers is not None:
            led[jokers] = joker_suit
            if rules.lead_fine:
                fines = np.empty(len(jokers), dtype=np.int64)
                lead_fines_many(card[jokers], as_int64(hand[jokers]), rules.lead_fine, fines)
                state.fines.ravel()[flat[jokers]] += fines
        state.led = led
        state.led_mask = SUIT_MASK_OR_NONE[led + 1]
        if state.circular:
            state.trick_trump = NEXT_SUIT[led + 1]
            state.trump_mask = SUIT_MASK_OR_NONE[state.trick_trump + 1]
        if jokers is not None and rules.trump_wins:
            beats_many(state.trick_cards_t[0], state.trick_calls_t[0], state.trick_suits_t[0],
                       state.trick_trump, rules.trump_wins, state.beats)
        state.first_call = np.where(card >= 52, calls, -1)
    else:
        if state.joker_leads is not None:  # a Joker led without a suit: this card may set it
            newly = np.flatnonzero((state.led < 0) & (card < 52))
            if len(newly):
                led = SUIT_OF[card[newly]]
                state.led[newly] = led
                state.led_mask[newly] = SUIT_MASK_OR_NONE[led + 1]
                if state.circular:
                    trick_trump = NEXT_SUIT[led + 1]
                    state.trick_trump[newly] = trick_trump
                    state.trump_mask[newly] = SUIT_MASK_OR_NONE[trick_trump + 1]
        if jokers is not None:
            fresh = jokers[state.first_call[jokers] < 0]
            state.first_call[fresh] = calls[fresh]
    if step == 0:  # fresh arrays each trick: the last trick's winners stay as they were
        state.best_key = np.empty(state.count, dtype=np.int64)
        state.best_position = np.empty(state.count, dtype=np.int64)
    take_trick_lead(card, calls, step, state.led, state.trick_trump, state.beats,
                    rules.two_jokers, position, state.best_key, state.best_position)


def end_trick(game: BatchGame, state: DealState) -> None:
    """The trick is complete: count it, remember it, reset, and draw from the stock."""
    winner = state.best_position
    state.taken.ravel()[state.base + winner] += 1
    state.last_trick = state.trick_mask
    if state.won is not None:
        state.won.ravel()[state.base + winner] |= state.trick_mask
    if state.history:
        state.history_winners[:, state.trick_index] = winner
        state.history_trumps[:, state.trick_index] = state.trick_trump
    state.leader = winner
    state.trick_mask = np.zeros(state.count, dtype=np.uint64)
    state.led = state.no_led.copy()
    state.led_mask = np.zeros(state.count, dtype=np.uint64)
    state.beats = np.zeros(state.count, dtype=np.bool_)
    if state.circular:
        state.trick_trump = state.trump.copy()
        state.trump_mask = SUIT_MASK_OR_NONE[state.trump + 1]
    state.joker_leads = None
    state.trick_cards_t.fill(-1)
    if game.rules.has_jokers:
        state.trick_calls_t.fill(0)
        state.trick_suits_t.fill(-1)
    if state.trick_index < state.plan.draws:
        assert state.stock is not None
        hands = state.hands.ravel()
        participants = state.participants
        for offset in range(participants):
            position = winner + offset
            position = np.where(position >= participants, position - participants, position)
            hands[state.base + position] |= BIT[state.stock[:, state.stock_used + offset]]
        state.stock_used += participants
    state.trick_index += 1
    begin_trick(state)
