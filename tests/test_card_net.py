"""The card model's nonlinear part: its gradient, the compiled policy reading it as the fit does,
and a fit that finds what a linear score cannot."""

from __future__ import annotations

import numpy as np
from raspis.engine.cards import JOKER
from raspis.strategies.fitting import net
from raspis.strategies.fitting.distil import CardSamples, fit_cards
from raspis.strategies.policies.model import model_card, model_rows
from raspis.strategies.policies.section import (
    CARD_FEATURES,
    CARD_MODELS,
    CardModel,
    card_block,
)


def _samples(count: int, seed: int, value) -> tuple[np.ndarray, ...]:  # noqa: ANN001
    """Random features of 2-6 legal cards a sample, valued by ``value(features)``."""
    generator = np.random.default_rng(seed)
    features = np.zeros((count, JOKER, CARD_FEATURES))
    legal = np.zeros((count, JOKER), dtype=bool)
    values = np.full((count, JOKER), np.nan)
    for index in range(count):
        for card in generator.choice(JOKER, size=int(generator.integers(2, 7)), replace=False):
            features[index, card] = generator.normal(size=CARD_FEATURES)
            legal[index, card] = True
            values[index, card] = value(features[index, card])
    model = generator.integers(0, CARD_MODELS, count)
    return features, legal, values, model


def test_the_gradient_is_the_losss_slope() -> None:
    features, legal, values, _ = _samples(40, 1, lambda x: float(np.sin(x[0]) + x[1]))
    row = net._Row.of(features, legal, values)
    units = 3
    generator = np.random.default_rng(2)
    linear = generator.normal(size=CARD_FEATURES)
    loss = net._loss(row, linear, units, 1e-3)
    point = generator.normal(scale=0.3, size=CARD_FEATURES * units + 2 * units)
    _, gradient = loss(point)
    step = 1e-6
    for index in range(point.size):
        moved = np.zeros_like(point)
        moved[index] = step
        slope = (loss(point + moved)[0] - loss(point - moved)[0]) / (2 * step)
        assert abs(slope - gradient[index]) < 1e-7


def test_the_compiled_policy_picks_the_card_the_fit_scores_best() -> None:
    """``model_card`` on the section's block (integers, ``WEIGHT_UNIT``ths) picks the card
    ``net.picks`` does from the floating-point model."""
    generator = np.random.default_rng(3)
    units = 5
    card_model = CardModel(generator.normal(size=(CARD_MODELS, CARD_FEATURES)),
                           generator.normal(size=(CARD_MODELS, CARD_FEATURES, units)),
                           generator.normal(size=(CARD_MODELS, units)),
                           generator.normal(size=(CARD_MODELS, units)) * 3)
    table = card_block(card_model)
    features, legal, _, model = _samples(300, 4, lambda x: 0.0)
    expected = net.picks(features, legal, model, card_model)
    bits = 1 << np.arange(JOKER, dtype=np.int64)
    for index in range(len(features)):
        weights, at, found_units = model_rows(table, 0, int(model[index]))
        assert found_units == units
        mask = int((bits * legal[index]).sum())
        assert model_card(mask, features[index], table, weights, at, units) == expected[index]
    linear = card_block(card_model.without_net())
    weights, at, found_units = model_rows(linear, 0, 1)
    assert found_units == 0 and weights == CARD_FEATURES


def test_the_net_learns_what_the_linear_score_cannot() -> None:
    """Values that hang on a product of two features (worth taking only with both): the linear
    model's regret stays, the net's falls on samples it was not fitted on."""
    def value(x: np.ndarray) -> float:
        return float(x[0] * x[1] + 0.3 * x[2])

    features, legal, values, model = _samples(3000, 5, value)
    held = _samples(1000, 6, value)
    bits = 1 << np.arange(JOKER, dtype=np.int64)

    def samples(arrays: tuple[np.ndarray, ...]) -> CardSamples:
        feats, allowed, vals, rows = arrays
        best = np.nanargmax(np.where(allowed, vals, -np.inf), axis=1)
        masks = (bits * allowed).sum(axis=1)
        return CardSamples(feats, masks, 1 << best, best, rows, vals)

    linear = fit_cards(samples((features, legal, values, model)))
    fitted = net.fit_net(features, legal, values, model, linear, units=8, seed=1)

    def regret(card_model: CardModel) -> float:
        feats, allowed, vals, rows = held
        chosen = net.picks(feats, allowed, rows, card_model)
        best = np.nanmax(np.where(allowed, vals, np.nan), axis=1)
        return float(np.mean(best - vals[np.arange(len(vals)), chosen]))

    assert np.array_equal(fitted.weights, linear)  # held: net=false plays the linear model
    assert regret(fitted) < 0.6 * regret(CardModel(linear))


def test_kept_samples_read_back_as_they_were(tmp_path) -> None:  # noqa: ANN001
    features, legal, values, model = _samples(30, 8, lambda x: float(x[0]))
    bits = 1 << np.arange(JOKER, dtype=np.int64)
    masks = (bits * legal).sum(axis=1)
    best = np.nanargmax(np.where(legal, values, -np.inf), axis=1)
    samples = CardSamples(features, masks, 1 << best, best, model, values)
    samples.save(tmp_path / "kept.npz")
    again = CardSamples.load(tmp_path / "kept.npz")
    for name in ("features", "legal", "target", "base", "model", "value"):
        assert np.array_equal(getattr(again, name), getattr(samples, name), equal_nan=True)
