"""Card play in lockstep: the legal cards, one card per game, and the trick's running winner.

The rules are those of ``engine.game`` in the same shape: ``follow_mask`` is ``Game._follow_mask``
(follow suit, must trump, every Joker demand), the Joker's calls are ``Game._lead_calls`` and the
two-Joker rule, ``play_step`` is ``Game._legal_play`` and ``_apply_play``. The trick's winner is
kept as a running maximum of a card key equivalent to ``Game._trick_winner``:

- a trump: 200 + card (2000 + card when a trump beats a "highest" Joker demand);
- a card of the led suit: 100 + card; any other ordinary card or a low Joker: -1;
- a high Joker (high, highest, trumps): 1000 + its index in the trick (1000 - index when the
  first of two high Jokers wins).

An ordinary card's key is read from ``KEYS[context + card]``, where a game's ``context`` encodes the
led suit, the trick's trump and whether trumps beat a Joker demand; it changes once a trick, so a
card costs one lookup. Positions to move are worked out for the whole trick when it starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .bits import BIT, HIGH13, JOKER_BITS, NOT_JOKERS, SUIT_MASK_OR_NONE, SUIT_OF, popcount
from .deal import DealState
from .observation import BatchObservation
from .rules import (
    CALL_HIGHEST,
    CALL_LOWEST,
    CALL_TRUMPS,
    HIGH_OPTION,
    IS_HIGH_CALL,
    LOW_OPTION,
    OPTION_INDEX,
    TRUMPS_OPTION,
)

if TYPE_CHECKING:
    from .game import BatchGame

U1 = np.uint64(1)
U0 = np.uint64(0)
#: context = BEATS * flag + LED * (led + 1) + TRUMP * (trump + 1), then + card
BEATS, LED, TRUMP = 1600, 320, 64


def _keys() -> np.ndarray:
    table = np.full(2 * 5 * 5 * 64, -1, dtype=np.int64)
    for flag in (0, 1):
        for led in range(-1, 4):
            for trump in range(-1, 4):
                base = BEATS * flag + LED * (led + 1) + TRUMP * (trump + 1)
                for card in range(52):
                    suit = card // 13
                    if suit == trump:
                        table[base + card] = (2000 if flag else 200) + card
                    elif suit == led:
                        table[base + card] = 100 + card
    return table


KEYS = _keys()
#: the circular trump of a led suit (index led + 1; -1 for none)
NEXT_SUIT = np.array([-1, 1, 2, 3, 0], dtype=np.int64)


def start_tricks(game: BatchGame, state: DealState) -> None:
    """Set up the arrays of card play once the leader of the first trick is known."""
    count, participants = state.count, state.participants
    state.trump_mask = SUIT_MASK_OR_NONE[state.trump + 1]
    state.trump_context = TRUMP * (state.trump + 1)
    state.no_led = np.full(count, -1, dtype=np.int64)
    state.led = state.no_led
    state.led_mask = np.zeros(count, dtype=np.uint64)
    state.context = LED * 0 + state.trump_context
    state.trick_cards_t = np.full((participants, count), -1, dtype=np.int64)
    state.trick_calls_t = np.zeros((participants, count), dtype=np.int64)
    state.trick_suits_t = np.full((participants, count), -1, dtype=np.int64)
    state.pair_calls = np.full(count, HIGH_OPTION | LOW_OPTION, dtype=np.int64)
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
    """The legal lead calls of each game on the first trick and on later tricks."""
    plan = state.plan
    has_trump = state.trump >= 0
    masks = []
    for base, trumps in ((plan.lead_first, plan.trumps_first),
                         (plan.lead_later, plan.trumps_later)):
        mask = np.full(state.count, base, dtype=np.int64)
        if trumps:
            mask = np.where(has_trump, mask | TRUMPS_OPTION, mask)
        masks.append(np.where(mask == 0, HIGH_OPTION, mask))
    return masks[0], masks[1]


def follow_mask(game: BatchGame, state: DealState, ordinary: np.ndarray) -> np.ndarray:
    """``Game._follow_mask``: the ordinary cards each mover may play to a trick under way."""
    suited = ordinary & state.led_mask
    if game.rules.must_trump:
        trumps = ordinary & state.trump_mask
        other = np.where(trumps != U0, trumps, ordinary)
    else:
        other = ordinary
    legal = np.where(suited != U0, suited, other)
    rows = state.joker_leads
    if rows is None:
        return legal
    # Tricks led by a Joker: demands, and no led suit yet.
    ordinary = ordinary[rows]
    suited = suited[rows]
    special = legal[rows]
    led = state.led[rows]
    call = state.lead_call[rows]
    special = np.where(led < 0, ordinary, special)
    demand = (call == CALL_HIGHEST) | (call == CALL_LOWEST)
    if demand.any():
        suit = np.maximum(led, 0)
        pattern = ((suited >> (suit * 13).astype(np.uint64)) & np.uint64(8191)).astype(np.int64)
        highest = BIT[np.maximum(HIGH13[pattern], 0) + 13 * suit]
        lowest = suited & (~suited + U1)
        pick = np.where(call == CALL_HIGHEST, highest, lowest)
        special = np.where(demand & (suited != U0), pick, special)
    trumps_call = call == CALL_TRUMPS
    if trumps_call.any():
        trick_trump = state.trick_trump[rows]
        suit = np.maximum(trick_trump, 0)
        trumps = ordinary & state.trump_mask[rows]
        pattern = ((trumps >> (suit * 13).astype(np.uint64)) & np.uint64(8191)).astype(np.int64)
        top = BIT[np.maximum(HIGH13[pattern], 0) + 13 * suit]
        special = np.where(trumps_call, np.where(trumps != U0, top, ordinary), special)
    legal[rows] = special
    return legal


def play_step(game: BatchGame, state: DealState, lead_calls: np.ndarray | None) -> None:
    """Every game's player to move plays a card (``Game._legal_play`` and ``_apply_play``)."""
    rules = game.rules
    step = state.step
    position = state.positions_t[step]
    flat = state.flat_t[step]
    hands = state.hands.ravel()
    hand = hands[flat]
    ordinary = hand & NOT_JOKERS if rules.has_jokers else hand
    legal = ordinary if step == 0 else follow_mask(game, state, ordinary)
    values = {"flat": flat}
    calls = None
    if rules.has_jokers:
        jokers = hand & JOKER_BITS
        if rules.lock_card >= 0:
            pending = ((state.played >> np.uint64(rules.lock_card)) & U1) == 0
            jokers = np.where(pending & (legal != U0), U0, jokers)
        legal = legal | jokers
        if step == 0:
            calls = lead_calls
        elif rules.two_jokers == "opposite":
            calls = np.where(state.first_joker < 0, HIGH_OPTION | LOW_OPTION,
                             np.where(state.first_joker == 1, LOW_OPTION, HIGH_OPTION))
        else:
            calls = state.pair_calls
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
            option = OPTION_INDEX[np.clip(joker_call, 0, 5), np.clip(joker_suit + 1, 0, 4)]
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
    if jokers is not None:
        joker_call, joker_suit = call[jokers], suit[jokers]
        state.trick_calls_t[step, jokers] = joker_call
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
            lead_call = np.zeros(state.count, dtype=np.int64)
            lead_call[jokers] = joker_call
            state.lead_call = lead_call
            if rules.lead_fine:
                fined = popcount(hand[jokers]) > 1
                state.fines.ravel()[flat[jokers]] += np.where(fined, rules.lead_fine, 0)
        state.led = led
        state.led_mask = SUIT_MASK_OR_NONE[led + 1]
        if state.circular:
            state.trick_trump = NEXT_SUIT[led + 1]
            state.trump_mask = SUIT_MASK_OR_NONE[state.trick_trump + 1]
            state.trump_context = TRUMP * (state.trick_trump + 1)
        context = LED * (led + 1) + state.trump_context
        if jokers is not None and rules.trumps_beat_demands:
            trick_trump = state.trick_trump[jokers]
            beats = ((joker_call == CALL_HIGHEST) & (trick_trump >= 0)
                     & (trick_trump != led[jokers]))
            context[jokers] += BEATS * beats
        state.context = context
        if rules.two_jokers == "opposite":
            first = np.full(state.count, -1, dtype=np.int64)
            if jokers is not None:
                first[jokers] = IS_HIGH_CALL[joker_call]
            state.first_joker = first
        key = KEYS[context + card]
    else:
        if state.joker_leads is not None:
            rows = state.joker_leads
            newly = rows[(state.led[rows] < 0) & (card[rows] < 52)]
            if len(newly):
                led = SUIT_OF[card[newly]]
                state.led[newly] = led
                state.led_mask[newly] = SUIT_MASK_OR_NONE[led + 1]
                if state.circular:
                    trick_trump = NEXT_SUIT[led + 1]
                    state.trick_trump[newly] = trick_trump
                    state.trump_mask[newly] = SUIT_MASK_OR_NONE[trick_trump + 1]
                    state.trump_context[newly] = TRUMP * (trick_trump + 1)
                state.context[newly] = LED * (led + 1) + state.trump_context[newly]
        if jokers is not None and rules.two_jokers == "opposite":
            first = state.first_joker
            fresh = first[jokers] < 0
            first[jokers[fresh]] = IS_HIGH_CALL[joker_call[fresh]]
        key = KEYS[state.context + card]
    if jokers is not None:
        high = 1000 - step if rules.two_jokers == "first_wins" else 1000 + step
        key[jokers] = np.where(IS_HIGH_CALL[joker_call], high, -1)
    if step == 0:
        state.best_key = key
        state.best_position = position
    else:
        better = key > state.best_key
        state.best_key = np.maximum(key, state.best_key)
        state.best_position = np.where(better, position, state.best_position)


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
    state.led = state.no_led
    state.led_mask = np.zeros(state.count, dtype=np.uint64)
    if state.circular:
        state.trick_trump = state.trump
        state.trump_mask = SUIT_MASK_OR_NONE[state.trump + 1]
        state.trump_context = TRUMP * (state.trump + 1)
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
