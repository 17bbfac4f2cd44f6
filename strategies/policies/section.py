"""``strong``'s section of the policy table: what it holds, where, and how it is built.

The policy table (``policies.compiled.policy_table``) ends with this section, an int64 vector that
``strong``'s compiled policy reads at ``at`` (``compiled.T_STRONG_AT``): a header (``X_*``: the
largest hand, the players, the deck, where the fitted bid outcomes, the card model and the bid
model start, 0 for none), then the calibration scale of the card chances for every
(participants, hand size, trump or not) the plan can deal (``scale_slot``, in ``SCALE_UNIT``ths),
then the card model's weights (``CARD_MODELS`` rows of ``CARD_FEATURES``, in
``WEIGHT_UNIT``ths), then the bid model's (``BID_MODELS`` rows of ``BID_FEATURES``, in
``WEIGHT_UNIT``ths), then the fitted bid outcomes (one block a hand size, ``fit_buckets`` x bid x
tricks taken: deals counted).
``strong_section`` builds it. The card model's block: the linear weights, then the hidden units a
row of its nonlinear part (0: none), then each row's hidden weights (``CARD_FEATURES`` x hidden,
by feature), biases and output weights (``CardModel``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from raspis.engine.core import fields
from raspis.engine.core.compiling import jit
from raspis.engine.core.view import PlanView

from .chances import PlayRules, calibrate

#: the section's header: the largest hand, the players, the deck, where the fitted bid outcomes,
#: the card model and the bid model start (0: none), then the scales
(X_MAX_HAND, X_PLAYERS, X_DECK, X_FIT, X_CARDS, X_BIDS, X_SCALES) = range(7)
#: the unit of the calibration scales
SCALE_UNIT = 1_000_000
#: the fitted table's buckets: a trick of expected tricks counts ``BUCKETS`` buckets, and the
#: bids made before the seat's fall in ``PRESSURES`` (below, about or above their share)
BUCKETS = 4
PRESSURES = 3
#: the card model (``policies.model``, fitted by ``strategies.fitting.distil``): what it reads of
#: every plain card the seat may play (``CARD_FEATURES``), its weight rows (``CARD_MODELS``: a
#: lead, then a follow, each for a seat that wants tricks and one that wants none) and the unit
#: the weights are kept in in the table
CARD_FEATURES = 16
CARD_MODELS = 4
WEIGHT_UNIT = 1_000_000
#: the bid model (``policies.bids.bid_features``, fitted by ``strategies.fitting.bid_values``):
#: what it reads of every bid the seat may make, and its weight rows (``bids.bid_row``: a hand of
#: up to ``SMALL_HAND`` cards, a larger one)
BID_FEATURES = 18
BID_MODELS = 2


@dataclass(frozen=True, eq=False)
class CardModel:
    """``strong``'s card model (``policies.model``): a card's score is ``weights[row] @ x`` (its
    features ``x``) plus, with a nonlinear part, ``output[row] @ relu(x @ hidden[row] +
    biases[row])`` (``relu``: ``max(a, 0)``): ``hidden`` is ``CARD_MODELS`` x ``CARD_FEATURES``
    x H, ``biases`` and ``output`` ``CARD_MODELS`` x H (``strategies.fitting.net`` fits it on
    top of the linear weights)."""

    weights: np.ndarray
    hidden: np.ndarray | None = None
    biases: np.ndarray | None = None
    output: np.ndarray | None = None

    @property
    def units(self) -> int:
        """The hidden units a row (0: linear alone)."""
        return 0 if self.hidden is None else int(self.hidden.shape[2])

    def without_net(self) -> CardModel:
        """The linear part alone."""
        return CardModel(self.weights)


def card_block(model: CardModel) -> np.ndarray:
    """The card model's block of the section (module doc): weights in ``WEIGHT_UNIT``ths, and
    the hidden units a row as they are."""
    parts = [in_weight_units(model.weights), np.array([model.units], dtype=np.int64)]
    if model.units:
        assert model.hidden is not None and model.biases is not None and model.output is not None
        for row in range(CARD_MODELS):
            parts += [in_weight_units(model.hidden[row]), in_weight_units(model.biases[row]),
                      in_weight_units(model.output[row])]
    return np.concatenate(parts)


def in_weight_units(values: np.ndarray) -> np.ndarray:
    """A model's weights as the section keeps them: flat, in ``WEIGHT_UNIT``ths, rounded."""
    return np.round(np.asarray(values, dtype=np.float64).reshape(-1) * WEIGHT_UNIT
                    ).astype(np.int64)


@jit()
def fit_buckets(hand_size: int) -> int:
    """The fitted table's buckets at a hand size: ``PRESSURES`` x the expected tricks'."""
    return PRESSURES * (BUCKETS * hand_size + 1)


@jit()
def scale_slot(max_hand: int, players: int, hand_size: int, trumped: int) -> int:
    """Where the calibration scale of (``players`` taking part, ``hand_size``, a trump or not)
    lies in the section."""
    return X_SCALES + (players * (max_hand + 1) + hand_size) * 2 + trumped


def strong_section(plan_vector: np.ndarray, deck_cards: tuple[int, ...],
                   circular: bool, fitted: dict[int, np.ndarray] | None = None,
                   card_model: CardModel | None = None,
                   bid_model: np.ndarray | None = None) -> np.ndarray:
    """The section: the calibration scale for every (participants, hand size, trump or not) the
    plan can deal, in millionths; then, where ``fitted`` has them, each hand size's fitted
    outcomes (``fitted[hand_size][bucket, bid, taken]``: deals counted) for the plan's player
    count; ``card_model``: the card model (``card_block``); ``bid_model``: the bid model's
    weights (``BID_MODELS`` x ``BID_FEATURES``)."""
    options = PlanView(plan_vector)
    players = options.players
    max_hand = options.max_tricks
    play_rules = PlayRules(bool(circular), bool(options.must_trump), int(options.two_jokers),
                           int(fields.plan_lead_fine(plan_vector)),
                           int(fields.plan_nameable(plan_vector)))
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
                scale = calibrate(cards, participants, hand_size, trump == 1, play_rules,
                                  participants * 1000 + hand_size * 2 + trump)
                index = scale_slot(max_hand, participants, hand_size, trump)
                section[index] = round(scale * SCALE_UNIT)
    if card_model is not None:
        section[X_CARDS] = len(section)
        section = np.concatenate([section, card_block(card_model)])
    if bid_model is not None:
        section[X_BIDS] = len(section)
        section = np.concatenate([section, in_weight_units(bid_model)])
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


__all__ = ["BID_FEATURES", "BID_MODELS", "BUCKETS", "CARD_FEATURES", "CARD_MODELS", "PRESSURES",
           "SCALE_UNIT", "WEIGHT_UNIT", "X_BIDS", "X_CARDS", "X_DECK", "X_FIT", "X_MAX_HAND",
           "X_PLAYERS", "X_SCALES", "CardModel", "card_block", "fit_buckets", "in_weight_units",
           "scale_slot", "strong_section"]
