"""The card model's nonlinear part (``policies.section.CardModel``): a hidden layer of rectified
linear units (``max(a, 0)``) a weight row, whose output is added to the linear score, fitted to
``mc``'s values of the cards. Rectified units found more of ``mc``'s value on held-out cards than
softsign or tanh units of the same width (docs/strength.md) and cost a comparison each.

The linear model (``fitting.distil.fit_cards``) scores a card by a weighted sum of its features;
it cannot weigh one feature by another (a trump's worth when the seat still wants tricks and
the others want none). The net adds ``output @ relu(x @ hidden + biases)`` to that score, the
linear weights held as they are (so ``strong:net=false`` plays the linear model the net was
fitted on: what the net adds is measured against it), its weights starting small and random
from ``seed``, fitted to the same objective as the linear fit's second step
(``distil._value_loss``): ``mc``'s mean value of the card, each card weighed by its chance under
the model's conditional logit, with a ridge on the net's weights. Each weight row is fitted on
its own samples, by L-BFGS with the exact gradient.

Deterministic: the same samples, linear weights, units, ridge and seed give the same model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from raspis.engine.cards import JOKER
from scipy.optimize import minimize

from ..policies.section import CARD_FEATURES, CARD_MODELS, CardModel

#: the ridge on the net's weights (per sample)
RIDGE = 1e-3
#: hidden units a row
UNITS = 8
#: the spread of the hidden weights at the start
START_SCALE = 0.1


@dataclass(frozen=True)
class _Row:
    """One weight row's samples, the legal cards of all of them one after the other: their
    features (cards x ``CARD_FEATURES``), each card's sample, where each sample starts, and each
    card's value less its sample's best, in units of the mean spread of a sample's values."""

    features: np.ndarray
    sample: np.ndarray
    starts: np.ndarray
    lost: np.ndarray

    @staticmethod
    def of(features: np.ndarray, legal: np.ndarray, values: np.ndarray) -> _Row:
        """From samples x ``JOKER`` arrays (``legal`` a boolean mask)."""
        sample, card = np.nonzero(legal)
        best = np.nanmax(np.where(legal, values, np.nan), axis=1)
        spread = float(np.mean(best - np.nanmin(np.where(legal, values, np.nan), axis=1))) or 1.0
        counts = legal.sum(axis=1)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return _Row(features[sample, card], sample, starts,
                    (values[sample, card] - best[sample]) / spread)


def _unpack(flat: np.ndarray, units: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hidden weights, biases, output weights) of a row's parameter vector."""
    hidden = flat[:CARD_FEATURES * units].reshape(CARD_FEATURES, units)
    rest = flat[CARD_FEATURES * units:]
    return hidden, rest[:units], rest[units:]


def scores(features: np.ndarray, linear: np.ndarray, hidden: np.ndarray, biases: np.ndarray,
           output: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each card's score and its hidden units' values (cards x units)."""
    units = relu(features @ hidden + biases)
    return features @ linear + units @ output, units


def relu(values: np.ndarray) -> np.ndarray:
    """The hidden units' activation, ``max(a, 0)`` (``policies.model.model_card`` too)."""
    return np.maximum(values, 0.0)


def _loss(row: _Row, linear: np.ndarray, units: int, ridge: float
          ) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """Minus the mean over samples of the chance-weighed loss of the model's card (its linear
    weights ``linear``), plus the ridge; with its gradient."""
    count = len(row.starts)

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        hidden, biases, output = _unpack(flat, units)
        score, unit = scores(row.features, linear, hidden, biases, output)
        top = np.maximum.reduceat(score, row.starts)
        exp = np.exp(score - top[row.sample])
        chance = exp / np.add.reduceat(exp, row.starts)[row.sample]
        mean = np.add.reduceat(chance * row.lost, row.starts)
        step = -chance * (row.lost - mean[row.sample]) / count  # d loss / d score
        value = -float(np.mean(mean)) + ridge * float(flat @ flat)
        inner = np.outer(step, output) * (unit > 0.0)  # the unit's slope: 1 where it is on
        gradient = np.concatenate([(row.features.T @ inner).ravel(), inner.sum(axis=0),
                                   unit.T @ step])
        return value, gradient + 2 * ridge * flat

    return loss


def fit_net(features: np.ndarray, legal: np.ndarray, values: np.ndarray, model: np.ndarray,
            weights: np.ndarray, units: int = UNITS, ridge: float = RIDGE,
            seed: int = 1) -> CardModel:
    """The card model: the linear ``weights`` and a nonlinear part fitted on top of them to
    samples (``features``: samples x ``JOKER`` x ``CARD_FEATURES``; ``legal``: samples x
    ``JOKER``, boolean; ``values``: ``mc``'s values, samples x ``JOKER``; ``model``: each
    sample's weight row; see the module's docstring). A row without samples gets a net of
    zeros."""
    generator = np.random.default_rng(seed)
    linear = np.array(weights, dtype=np.float64)
    hidden = np.zeros((CARD_MODELS, CARD_FEATURES, units))
    biases = np.zeros((CARD_MODELS, units))
    output = np.zeros((CARD_MODELS, units))
    for index in range(CARD_MODELS):
        start = np.concatenate([generator.normal(scale=START_SCALE, size=CARD_FEATURES * units),
                                np.zeros(units), generator.normal(scale=START_SCALE, size=units)])
        rows = (model == index) & (legal.sum(axis=1) >= 2)
        if not rows.any():
            continue
        row = _Row.of(features[rows], legal[rows], values[rows])
        flat = minimize(_loss(row, linear[index], units, ridge), start, jac=True,
                        method="L-BFGS-B").x
        hidden[index], biases[index], output[index] = _unpack(flat, units)
    return CardModel(linear, hidden, biases, output)


def picks(features: np.ndarray, legal: np.ndarray, model: np.ndarray,
          card_model: CardModel) -> np.ndarray:
    """The card the model plays at each sample, as ``policies.model.model_card`` picks (ties to
    the lower rank; samples x ``JOKER`` in, one card a sample out)."""
    score = np.einsum("scf,sf->sc", features, card_model.weights[model])
    if card_model.units:
        assert card_model.hidden is not None and card_model.biases is not None
        assert card_model.output is not None
        units = relu(np.einsum("scf,sfu->scu", features, card_model.hidden[model])
                     + card_model.biases[model][:, None, :])
        score = score + np.einsum("scu,su->sc", units, card_model.output[model])
    score = np.where(legal, score - 1e-9 * (np.arange(JOKER) % 13), -np.inf)
    return score.argmax(axis=1)


__all__ = ["RIDGE", "UNITS", "fit_net", "picks", "relu", "scores"]
