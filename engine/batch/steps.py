"""The decisions before the cards are played, one lockstep step at a time: naming trump, bidding.

Each step asks the batch's strategies for one decision in every game (``BatchGame.decide``) and
applies it with array operations. The rules are the core's:
``legal_bids`` asks ``engine.core.rules.legal_bids`` (the hook, the overbid rule, the pass limit)
for every game; card play is in ``engine.batch.trick``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .deal import HOW_NAMED, DealState
from .kernels import hook_binds_many, legal_bids_many
from .observation import BatchObservation
from .rules import HOOK_NO_EQUAL

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
    """``core.rules.legal_bids`` for every game's bidder at ``position``, as bid masks."""
    plan = state.plan
    rules = game.rules
    if game.passes is not None:
        passes = game.passes[state.games, state.order[:, position]]
    else:
        passes = np.zeros(state.count, dtype=np.int64)
    mask = np.empty(state.count, dtype=np.int64)
    legal_bids_many(plan.hand_size, plan.min_bid, plan.hook, position == state.participants - 1,
                    state.bid_sum, passes, rules.pass_limit, mask)
    return mask.view(np.uint64)


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
        hook_binds_many(plan.hand_size, plan.min_bid, state.bid_sum, state.hook_forced)
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
