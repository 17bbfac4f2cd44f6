"""The decisions before the cards are played, one lockstep step at a time: naming trump, bidding.

Each step asks the batch's strategies for one decision in every game (``BatchGame.decide``) and
applies it with array operations. The rules are those of ``engine.game`` in the same shape:
``legal_bids`` is ``Game._legal_bids`` (the hook, the overbid rule, the pass limit) and
``bid_step`` is ``Game._apply_bid``; card play is in ``engine.batch.trick``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .bits import BELOW, BIT, popcount
from .deal import HOW_NAMED, DealState
from .observation import BatchObservation
from .rules import (
    HOOK_NO_EQUAL,
    HOOK_NONE,
    HOOK_OVERBID,
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
