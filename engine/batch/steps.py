"""The player phases of a deal, one lockstep step at a time: naming trump, bidding, card play.

Each step asks the batch's strategies for one decision in every game (``BatchGame.decide``) and
applies it with array operations. The rules are those of ``engine.game`` and live here in the same
shape: ``legal_bids`` is ``Game._legal_bids`` (the hook, the overbid rule, the pass limit),
``follow_mask`` is ``Game._follow_mask`` (follow suit, must trump, every Joker demand), the Joker's
calls are ``Game._lead_calls`` and the two-Joker rule, and the trick's winner is kept as a running
maximum of a card key equivalent to ``Game._trick_winner``:

- a trump: 200 + card (2000 + card when a trump beats a "highest" Joker demand);
- a card of the led suit: 100 + card; any other ordinary card or a low Joker: -1;
- a high Joker (high, highest, trumps): 1000 + its index in the trick (1000 - index when the
  first of two high Jokers wins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .bits import BELOW, BIT, HIGH13, JOKER_BITS, NOT_JOKERS, SUIT_MASK_OR_NONE, SUIT_OF, popcount
from .deal import HOW_NAMED, DealState
from .observation import BatchObservation
from .rules import (
    CALL_HIGHEST,
    CALL_LOWEST,
    CALL_TRUMPS,
    HIGH_OPTION,
    HOOK_NO_EQUAL,
    HOOK_NONE,
    HOOK_OVERBID,
    IS_HIGH_CALL,
    LOW_OPTION,
    OPTION_INDEX,
    TRUMPS_OPTION,
)

if TYPE_CHECKING:
    from .game import BatchGame

U1 = np.uint64(1)
U0 = np.uint64(0)


# -- TRUMP -------------------------------------------------------------------------------------


def name_trump(game: BatchGame, state: DealState) -> None:
    """Games with ``state.namer >= 0`` name their trump (``Game._apply_trump``)."""
    rows = np.flatnonzero(state.namer >= 0)
    if len(rows) == 0:
        return
    legal = 0b1111 | (0b10000 if game.rules.naming_allows_no_trump else 0)
    namer = state.namer
    position = state.position_of_seat(namer)
    observation = BatchObservation(game, state, "trump", position, {"seat": namer},
                                   legal_trumps=legal)
    sub = observation.take(rows)
    suits = np.asarray(game.decide("trump", sub), dtype=np.int64)
    bit = np.where(suits == -1, 4, np.clip(suits, 0, 63))
    bad = ((suits < -1) | (((legal >> bit) & 1) == 0))
    if bad.any():
        game.illegal(state, sub, np.flatnonzero(bad), [f"trump {s}" for s in suits[bad]])
        suits = np.where(bad, 0, suits)
    state.trump[rows] = suits
    state.trick_trump[rows] = suits
    state.trump_how[rows] = HOW_NAMED
    game.count_decisions(state, rows, namer[rows])


# -- BID ---------------------------------------------------------------------------------------


def legal_bids(game: BatchGame, state: DealState, position: int) -> np.ndarray:
    """``Game._legal_bids`` for every game, for the bidder at ``position``, as bid masks."""
    plan = state.plan
    count = state.count
    mask = np.full(count, plan.bid_mask, dtype=np.uint64)
    hand = plan.hand_size
    if position == state.participants - 1 and plan.hook != HOOK_NONE:
        others = state.bid_sum
        if plan.hook == HOOK_NO_EQUAL:
            forbidden = hand - others
            hooked = mask & ~np.where(forbidden >= 0, BIT[np.maximum(forbidden, 0)], U0)
            mask = np.where(hooked != 0, hooked, mask)
        elif plan.hook == HOOK_OVERBID:
            # Bids must exceed the tricks; where no bid can, they must at least not meet.
            over = mask & ~BELOW[np.clip(hand - others + 1, 0, 64)]
            forbidden = hand - others
            hooked = mask & ~np.where(forbidden >= 0, BIT[np.maximum(forbidden, 0)], U0)
            mask = np.where(over != 0, over, np.where(hooked != 0, hooked, mask))
    if game.passes is not None:
        seat = state.order[:, position]
        tired = game.passes[state.games, seat] >= game.rules.pass_limit
        drop = tired & (popcount(mask) > 1) & ((mask & U1) != 0)
        mask = np.where(drop, mask & ~U1, mask)
    return mask


def bid_step(game: BatchGame, state: DealState, position: int) -> None:
    """Every game's bidder at ``position`` bids (``Game._apply_bid``)."""
    plan = state.plan
    legal = legal_bids(game, state, position)
    positions = np.full(state.count, position, dtype=np.int64)
    observation = BatchObservation(game, state, "bid", positions, {"legal_bids": legal},
                                   hook=plan.hook)
    bids = np.asarray(game.decide("bid", observation), dtype=np.int64)
    bad = (bids < 0) | (bids > 63) | (((legal >> np.clip(bids, 0, 63).astype(np.uint64)) & U1) == 0)
    if bad.any():
        rows = np.flatnonzero(bad)
        game.illegal(state, observation, rows, [f"bid {b}" for b in bids[rows]])
        bids = np.where(bad, _lowest_bit_index(legal), bids)
    if position == state.participants - 1 and plan.hook == HOOK_NO_EQUAL:
        forbidden = plan.hand_size - state.bid_sum
        state.hook_forced = min(plan.min_bid, plan.hand_size) <= forbidden
    state.bids[:, position] = bids
    state.bid_sum += bids
    seat = state.order[:, position]
    if game.passes is not None:
        flat = state.games * game.players + seat
        passes = game.passes.ravel()
        passes[flat] = np.where(bids == 0, passes[flat] + 1, 0)
    game.count_decisions(state, None, seat)


def _lowest_bit_index(mask: np.ndarray) -> np.ndarray:
    from .bits import lowest_card

    return lowest_card(mask)


# -- PLAY --------------------------------------------------------------------------------------


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
    suited = ordinary & SUIT_MASK_OR_NONE[state.led + 1]
    if game.rules.must_trump:
        trumps = ordinary & SUIT_MASK_OR_NONE[state.trick_trump + 1]
        other = np.where(trumps != 0, trumps, ordinary)
    else:
        other = ordinary
    legal = np.where(suited != 0, suited, other)
    if not state.any_joker_led:
        return legal
    call = state.lead_call
    # A Joker led without a suit, no ordinary card yet: anything.
    legal = np.where(state.led < 0, ordinary, legal)
    demand = (call == CALL_HIGHEST) | (call == CALL_LOWEST)
    if demand.any():
        led = np.maximum(state.led, 0)
        shift = (led * 13).astype(np.uint64)
        pattern = ((suited >> shift) & np.uint64(8191)).astype(np.int64)
        highest = BIT[np.maximum(HIGH13[pattern], 0) + 13 * led]
        lowest = suited & (~suited + U1)
        pick = np.where(call == CALL_HIGHEST, highest, lowest)
        legal = np.where(demand & (suited != 0), pick, legal)
    trumps_call = call == CALL_TRUMPS
    if trumps_call.any():
        suit = np.maximum(state.trick_trump, 0)
        trumps = ordinary & SUIT_MASK_OR_NONE[state.trick_trump + 1]
        shift = (suit * 13).astype(np.uint64)
        pattern = ((trumps >> shift) & np.uint64(8191)).astype(np.int64)
        top = BIT[np.maximum(HIGH13[pattern], 0) + 13 * suit]
        legal = np.where(trumps_call, np.where(trumps != 0, top, ordinary), legal)
    return legal


def play_step(game: BatchGame, state: DealState, lead_calls: np.ndarray | None) -> None:
    """Every game's player to move plays a card (``Game._legal_play`` and ``_apply_play``)."""
    rules = game.rules
    step = state.step
    participants = state.participants
    if step == 0:
        position = state.leader
    else:
        position = state.leader + step
        position = np.where(position >= participants, position - participants, position)
    flat = state.base + position
    hands = state.hands.ravel()
    hand = hands[flat]
    ordinary = hand & NOT_JOKERS
    legal = ordinary if step == 0 else follow_mask(game, state, ordinary)
    values = {}
    calls = None
    if rules.has_jokers:
        jokers = hand & JOKER_BITS
        if rules.lock_card >= 0:
            pending = ((state.played >> np.uint64(rules.lock_card)) & U1) == 0
            jokers = np.where(pending & (legal != 0), U0, jokers)
        legal = legal | jokers
        if step == 0:
            calls = lead_calls
        elif rules.two_jokers == "opposite":
            calls = np.where(state.first_joker < 0, HIGH_OPTION | LOW_OPTION,
                             np.where(state.first_joker == 1, LOW_OPTION, HIGH_OPTION))
        else:
            calls = np.full(state.count, HIGH_OPTION | LOW_OPTION, dtype=np.int64)
        values["legal_calls"] = calls
    values["legal_cards"] = legal
    observation = BatchObservation(game, state, "play", position, values,
                                   trick_index=state.trick_index, trick_position=step)
    card, call, suit = game.decide("play", observation)
    card = np.asarray(card, dtype=np.int64)
    bad = (card < 0) | (card > 63)
    bad |= ((legal >> np.clip(card, 0, 63).astype(np.uint64)) & U1) == 0
    joker = card >= 52
    any_joker = False
    if rules.has_jokers:
        any_joker = bool(joker.any())
        if any_joker:
            call = np.asarray(call, dtype=np.int64)
            suit = np.asarray(suit, dtype=np.int64)
            option = OPTION_INDEX[np.clip(call, 0, 5), np.clip(suit + 1, 0, 4)]
            assert calls is not None
            legal_option = (option >= 0) & (((calls >> np.maximum(option, 0)) & 1) == 1)
            bad |= joker & ~legal_option
    if bad.any():
        rows = np.flatnonzero(bad)
        texts = [f"card {c} call {k} suit {s}" for c, k, s in
                 zip(card[rows], np.broadcast_to(call, card.shape)[rows],
                     np.broadcast_to(suit, card.shape)[rows], strict=True)]
        game.illegal(state, observation, rows, texts)
        card, call, suit = game.fallback_play(legal, calls, card, call, suit, bad,
                                              lead=step == 0)
        joker = card >= 52
        any_joker = bool(joker.any())
    apply_play(game, state, position, flat, hand, card, call, suit, joker, any_joker)
    game.count_decisions(state, None, state.order.ravel()[flat] if game.decisions is not None
                         else None)


def apply_play(game: BatchGame, state: DealState, position: np.ndarray, flat: np.ndarray,
               hand: np.ndarray, card: np.ndarray, call: object, suit: object,
               joker: np.ndarray, any_joker: bool) -> None:
    """Apply one card per game and update the trick's running winner."""
    rules = game.rules
    step = state.step
    bit = BIT[card]
    state.hands.ravel()[flat] = hand ^ bit
    state.played |= bit
    state.trick_mask |= bit
    card_suit = SUIT_OF[card]
    if any_joker:
        call = np.where(joker, call, 0)
        suit = np.where(joker, suit, -1)
    if step == 0:
        state.trick_cards.fill(-1)
        state.trick_calls.fill(0)
        state.trick_suits.fill(-1)
    state.trick_cards[:, step] = card
    state.trick_positions[:, step] = position
    if any_joker:
        state.trick_calls[:, step] = call
        state.trick_suits[:, step] = suit
    if state.history:
        state.history_cards[:, state.trick_index, step] = card
        state.history_positions[:, state.trick_index, step] = position
        if any_joker:
            state.history_calls[:, state.trick_index, step] = call
            state.history_suits[:, state.trick_index, step] = suit
    if step == 0:
        if any_joker:
            call_array = np.asarray(call)
            suit_array = np.asarray(suit)
            state.led = np.where(joker, suit_array, card_suit)
            state.lead_call = call_array.copy()
            state.any_joker_led = True
            if rules.lead_fine:
                fined = joker & (popcount(hand) > 1)
                state.fines.ravel()[flat] += np.where(fined, rules.lead_fine, 0)
        else:
            state.led = card_suit
            state.any_joker_led = False
        if state.circular:
            state.trick_trump = np.where(state.led >= 0, (state.led + 1) % 4, -1)
        if any_joker and rules.trumps_beat_demands:
            beat = (joker & (np.asarray(call) == CALL_HIGHEST) & (state.trick_trump >= 0)
                    & (state.trick_trump != state.led))
            state.trump_bonus = np.where(beat, 2000, 200)
            state.bonus_changed = True
        if rules.two_jokers == "opposite":
            state.first_joker = (np.where(joker, IS_HIGH_CALL[np.asarray(call)], -1)
                                 if any_joker else np.full(state.count, -1, dtype=np.int64))
    else:
        if state.any_joker_led:
            newly = (state.led < 0) & ~joker
            if newly.any():
                state.led = np.where(newly, card_suit, state.led)
                if state.circular:
                    state.trick_trump = np.where(newly, (state.led + 1) % 4, state.trick_trump)
        if any_joker and rules.two_jokers == "opposite":
            first = (state.first_joker < 0) & joker
            state.first_joker = np.where(first, IS_HIGH_CALL[np.asarray(call)], state.first_joker)
    key = np.where(card_suit == state.trick_trump, state.trump_bonus + card,
                   np.where(card_suit == state.led, 100 + card, -1))
    if any_joker:
        high = 1000 - step if rules.two_jokers == "first_wins" else 1000 + step
        key = np.where(joker, np.where(IS_HIGH_CALL[np.asarray(call)], high, -1), key)
    if step == 0:
        state.best_key = key
        state.best_position = position
    else:
        better = key > state.best_key
        state.best_key = np.where(better, key, state.best_key)
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
    state.led = np.full(state.count, -1, dtype=np.int64)
    if state.circular:
        state.trick_trump = state.trump.copy()
    if getattr(state, "bonus_changed", False):
        state.trump_bonus = np.full(state.count, 200, dtype=np.int64)
        state.bonus_changed = False
    state.any_joker_led = False
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
    state.step = 0
