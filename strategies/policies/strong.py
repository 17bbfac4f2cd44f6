"""The compiled policy of ``strong``: the heuristic's rules, compiled on the state machine, with
bids chosen by the deal's own score table; ``decide_strong`` is its entry point.

``decide_strong(state, plan, table, at)`` is a numba function of the rules core's state vector
(``engine.core.machine``), called by ``policies.compiled.decide`` for every seat whose policy is
``STRONG``; ``at`` is where its section of the policy table starts (``policies.section``). It reads
only what the seat to move may see: its own visible hand (``machine.visible_hand``), the trump as
visible (``machine.visible_trump``), the bids, the tricks taken, the trick under way, the cards the
memory rule lets it look back at (``machine.seen_cards``), the public premium span (who has made
every bid of it so far, and each seat's best deal: what every seat works out from the bids, the
tricks and the totals) and the deal's score table in the plan.

The policy is split by what it decides, each module the one copy of its reasoning (the scalar
``heuristic`` calls the same functions through ``players.tactics``, plain values in and out):

- ``policies.chances``: each card's chance of a trick, the trick distribution, the calibration,
  the chance a card holds;
- ``policies.bids``: the bid with the best expected points under the deal's table (fitted bid
  outcomes blended in), the suit to name;
- ``policies.cards``: the card play (keepers, cheapest holding winner, ducking, the Joker), and
  what a seat plays for;
- ``policies.model``: the card model fitted to ``mc``'s play, which picks among the plain cards;
- ``policies.section``: the section of the policy table all of them read.

Everything is integer masks and a few floating-point chances per card: a decision takes a
fraction of a microsecond to a few microseconds.
"""

from __future__ import annotations

import numpy as np
from raspis.engine.cards import JOKER
from raspis.engine.core import fields, rules
from raspis.engine.core import machine as m
from raspis.engine.core.compiling import jit

from .bids import choose_bid, name_trump_suit
from .cards import play_with, position_of
from .chances import JOKERS
from .keep import keep_code
from .model import card_features, card_row, model_card, model_rows
from .section import CARD_FEATURES, X_CARDS


@jit()
def play_card(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
              hand: int) -> int:
    """The card of the seat to move: the card play's rules (``cards.play_with``), and where they
    play a plain card and the table holds a card model, the model's card."""
    legal_all = fields.legal_first(state)
    calls = fields.legal_second(state)
    jokers = legal_all & JOKERS
    if legal_all & (legal_all - 1) == 0 and (jokers == 0 or calls & (calls - 1) == 0):
        return m.play_code(rules.bit_index(legal_all), rules.bit_index(calls) if calls else 0)
    position = position_of(state, plan, table, at, seat, hand)
    win = np.zeros(54, dtype=np.float64)
    code = play_with(position, win)
    model = table[at + X_CARDS]
    plain = legal_all & ~JOKERS
    if model <= 0 or code >= JOKER or plain & (plain - 1) == 0:
        return code
    # every feature of a legal card is written, and only those rows are read
    features = np.empty((JOKER, CARD_FEATURES), dtype=np.float64)
    legal = card_features(state, plan, position, code, win, features)
    row = card_row(position.trick.length == 0, position.aims.need)
    weights, net, units = model_rows(table, at + model, row)
    return model_card(legal, features, table, weights, net, units)


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
        return choose_bid(state, plan, table, at, seat, hand)
    return play_card(state, plan, table, at, seat, hand)


__all__ = ["decide_strong", "play_card"]
