"""``strong``'s card model (``policies.model.card_features``, ``model_card``) and its fitting
(``strategies.fitting.distil``): the model is consulted where the table holds one and plays what its
weights say; weights on the rules' card alone play the rules; the fit recovers the weights that
made the choices; the shipped files keep their bid outcomes; the labels are what ``mc`` chose."""

from __future__ import annotations

import numpy as np
import pytest
from raspis.engine import Game, load_variant
from raspis.engine.cards import JOKER
from raspis.engine.variant import preset_names
from raspis.strategies.fitting.distil import (
    LABEL_SPEC,
    CardSamples,
    agreement,
    fit_cards,
    label_cards,
    save_cards,
)
from raspis.strategies.players.twin import action_of
from raspis.strategies.policies import compiled
from raspis.strategies.policies.fitted import find_fit, fit_path, rules_hash
from raspis.strategies.policies.model import BASE_FEATURE, card_position
from raspis.strategies.policies.section import (
    CARD_FEATURES,
    CARD_MODELS,
    WEIGHT_UNIT,
    X_CARDS,
    CardModel,
)
from raspis.strategies.policies.strong import decide_strong

from tests.strong_tables import table_with

#: the rank feature of a follow and of a lead (``card_features``' docstrings)
RANK = 10


def _table_with(game: Game, weights: np.ndarray | None) -> np.ndarray:
    """``game``'s policy table with ``weights`` as its card model (None: none)."""
    return table_with(game, None if weights is None else CardModel(weights), None)


def _play_out(name: str, seed: int, weights: np.ndarray | None) -> tuple[list[int], list[tuple]]:
    """The action codes of a game of four ``strong`` seats with ``weights`` as the card model,
    and at every card the rules play as a plain card with a choice: (legal plain cards, the
    rules' card, the card played)."""
    game = Game(load_variant(name), 4, seed, log=False)
    table = _table_with(game, weights)
    at = int(table[compiled.T_STRONG_AT])
    plan = game.tables.plan
    codes, cards = [], []
    features = np.zeros((JOKER, CARD_FEATURES))
    while not game.is_over():
        code = int(decide_strong(game.state, plan, table, at))
        if game.phase.name == "PLAY":
            legal, base, _ = (int(v) for v in card_position(game.state, plan, table, at,
                                                            features))
            if base < JOKER and legal & (legal - 1):
                cards.append((legal, base, code))
        codes.append(code)
        game.apply_unchecked(action_of(code, game.phase))
    return codes, cards


@pytest.mark.parametrize("name", ["classic", "joker", "oh-hell"])
def test_weights_on_the_rules_card_alone_play_the_rules(name: str) -> None:
    only_base = np.zeros((CARD_MODELS, CARD_FEATURES))
    only_base[:, BASE_FEATURE] = 1.0
    for seed in (1, 2):
        assert _play_out(name, seed, only_base)[0] == _play_out(name, seed, None)[0]


@pytest.mark.parametrize("name", ["classic", "joker"])
def test_the_model_plays_the_card_its_weights_prefer(name: str) -> None:
    # weights on the rank alone, negative: the model plays the lowest-ranked plain legal card
    lowest = np.zeros((CARD_MODELS, CARD_FEATURES))
    lowest[:, RANK] = -1.0
    _, cards = _play_out(name, 3, lowest)
    assert len(cards) > 20
    for legal, _, played in cards:
        ranks = [card % 13 for card in range(JOKER) if legal >> card & 1]
        assert played < JOKER and legal >> played & 1
        assert played % 13 == min(ranks)
    assert any(base != played for _, base, played in cards)  # not the rules' card throughout


def test_the_table_keeps_the_weights_in_millionths() -> None:
    game = Game(load_variant("classic"), 4, 1, log=False)
    weights = np.arange(CARD_MODELS * CARD_FEATURES, dtype=np.float64).reshape(
        CARD_MODELS, CARD_FEATURES) / 7.0
    table = _table_with(game, weights)
    at = int(table[compiled.T_STRONG_AT])
    start = at + int(table[at + X_CARDS])
    kept = table[start:start + CARD_MODELS * CARD_FEATURES].reshape(CARD_MODELS, CARD_FEATURES)
    assert np.allclose(kept / WEIGHT_UNIT, weights, atol=1e-6)


def _synthetic(weights: np.ndarray, count: int, seed: int) -> CardSamples:
    """Samples whose target is the card ``weights`` score highest, on random features."""
    generator = np.random.default_rng(seed)
    features = np.zeros((count, JOKER, CARD_FEATURES))
    legal = np.zeros(count, dtype=np.int64)
    target = np.zeros(count, dtype=np.int64)
    model = generator.integers(0, CARD_MODELS, count)
    value = np.full((count, JOKER), np.nan)
    for index in range(count):
        cards = generator.choice(JOKER, size=int(generator.integers(2, 8)), replace=False)
        for card in cards:
            features[index, card] = generator.normal(size=CARD_FEATURES)
            legal[index] |= 1 << int(card)
            value[index, card] = features[index, card] @ weights[model[index]]
        target[index] = 1 << int(cards[np.argmax(value[index, cards])])
    base = np.array([int(np.log2(t)) for t in target])  # no feature marks it: unused here
    return CardSamples(features, legal, target, base, model, value)


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    truth = np.random.default_rng(5).normal(size=(CARD_MODELS, CARD_FEATURES))
    fitted = fit_cards(_synthetic(truth, 4000, 6))
    held_out = _synthetic(truth, 1000, 7)
    assert agreement(held_out, fitted)[0] > 0.9
    for row in range(CARD_MODELS):  # the same direction
        cosine = fitted[row] @ truth[row] / np.linalg.norm(fitted[row]) / np.linalg.norm(truth[row])
        assert cosine > 0.95


def test_saving_a_model_keeps_the_bid_outcomes_and_the_same_bytes(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    import raspis.strategies.fitting.distil as distil

    source = fit_path("oh-hell", 4)
    copy = tmp_path / source.name
    copy.write_bytes(source.read_bytes())
    monkeypatch.setattr(distil, "fit_path", lambda name, players: copy)
    weights = np.ones((CARD_MODELS, CARD_FEATURES))
    save_cards("oh-hell", 4, CardModel(weights), {"seed": 1})
    first = copy.read_bytes()
    save_cards("oh-hell", 4, CardModel(weights), {"seed": 1})
    assert copy.read_bytes() == first
    with np.load(copy) as saved, np.load(source) as shipped:
        counts = [key for key in shipped.files if key.startswith("n")]
        assert all(np.array_equal(saved[key], shipped[key]) for key in counts)
        assert np.array_equal(saved["cards"], weights) and int(saved["cards_seed"]) == 1
    save_cards("oh-hell", 4, None, {})
    with np.load(copy) as saved:
        assert not any(key.startswith("cards") for key in saved.files)


def test_the_labels_are_the_searchs_choices_among_the_legal_cards() -> None:
    samples = label_cards(load_variant("oh-hell"), 4, 1, seed=3,
                          spec="mc:samples=6,objective=relative")
    assert len(samples) > 20
    for index in range(len(samples)):
        legal, target = int(samples.legal[index]), int(samples.target[index])
        assert target and target & ~legal == 0 and legal >> int(samples.base[index]) & 1
        cards = [card for card in range(JOKER) if legal >> card & 1]
        values = samples.value[index]
        assert np.isfinite(values[cards]).all()
        assert np.isnan(np.delete(values, cards)).all()
        # mc plays a class of best mean value (ties to its policy's card)
        chosen = [card for card in cards if target >> card & 1]
        assert values[chosen[0]] >= np.max(values[cards]) - 1e-9


@pytest.mark.parametrize("name", preset_names())
def test_every_presets_table_carries_its_card_model(name: str) -> None:
    variant = load_variant(name)
    for players in variant.player_counts():
        fit = find_fit(variant, players)
        assert fit.kind == "shipped" and fit.cards is not None and fit.cards_source is None
        with np.load(fit.path) as data:  # fitted for this preset's rules, by the refit command
            fitted_at = int(data["cards_players"])
            assert str(data["cards_rules"]) == rules_hash(variant.for_player_count(fitted_at))
            assert str(data["cards_spec"]) == LABEL_SPEC


def test_strong_without_its_model_plays_through_its_scalar_strategy_in_a_batch() -> None:
    from raspis.strategies.batch import ScalarAdapter, has_batch_implementation, load_batch_strategy
    from raspis.strategies.spec import StrategySpecError

    assert has_batch_implementation("strong") and not has_batch_implementation("strong:model=false")
    assert isinstance(load_batch_strategy("strong:model=false"), ScalarAdapter)
    with pytest.raises(StrategySpecError, match="foo"):  # a parameter neither has
        load_batch_strategy("strong:foo=1")
