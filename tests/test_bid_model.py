"""``strong``'s bid model (``policies.bids.bid_features``, ``choose_bid``) and its fitting
(``strategies.fitting.bid_values``): the model is consulted where the table holds one and bids
what its weights say; weights on the table's own bid alone bid as the table does; the features
read what the rules text says a bid faces (the bids before, the hand size); the fit finds the
bids a known value prefers; the archive keeps the weights."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from raspis.engine import Game, load_variant
from raspis.strategies.fitting.bid_values import fit_bids, held_out, picks, regret
from raspis.strategies.fitting.distil import CardSamples
from raspis.strategies.players.twin import action_of
from raspis.strategies.policies import compiled
from raspis.strategies.policies.bids import BASE_BID_FEATURE, bid_position, bid_row
from raspis.strategies.policies.fitted import find_fit, fit_bid_model, write_archive
from raspis.strategies.policies.section import (
    BID_FEATURES,
    BID_MODELS,
    WEIGHT_UNIT,
    X_BIDS,
    X_MAX_HAND,
)
from raspis.strategies.policies.strong import decide_strong

from tests.strong_tables import table_with

#: ``bid_features``' columns named in its docstring: a bid of none, the bid as a share of the hand
NONE, SHARE = 6, 13


def _table_with(game: Game, weights: np.ndarray | None) -> np.ndarray:
    """``game``'s policy table with ``weights`` as its bid model (None: none)."""
    return table_with(game, find_fit(game.variant, game.players).cards, weights)


def _bids(name: str, seed: int, weights: np.ndarray | None
          ) -> tuple[list[int], list[tuple[int, int, int, np.ndarray, int]]]:
    """The action codes of a game of four ``strong`` seats with ``weights`` as the bid model, and
    at every bid with a choice: (legal bids, the table's bid, the bid made, the features, the
    hand size)."""
    game = Game(load_variant(name), 4, seed, log=False)
    table = _table_with(game, weights)
    at = int(table[compiled.T_STRONG_AT])
    plan = game.tables.plan
    width = int(table[at + X_MAX_HAND]) + 1
    codes, bids = [], []
    while not game.is_over():
        code = int(decide_strong(game.state, plan, table, at))
        if game.phase.name == "BID":
            features = np.zeros((width, BID_FEATURES))
            legal, base, _ = (int(v) for v in bid_position(game.state, plan, table, at,
                                                           features))
            if legal & (legal - 1):
                bids.append((legal, base, code, features, game.deal.hand_size))
        codes.append(code)
        game.apply_unchecked(action_of(code, game.phase))
    return codes, bids


@pytest.mark.parametrize("name", ["classic", "oh-hell"])
def test_weights_on_the_tables_bid_alone_bid_as_the_table(name: str) -> None:
    only_base = np.zeros((BID_MODELS, BID_FEATURES))
    only_base[:, BASE_BID_FEATURE] = 1.0
    for seed in (1, 2):
        codes, bids = _bids(name, seed, only_base)
        assert codes == _bids(name, seed, None)[0]
        assert all(made == base for _, base, made, _, _ in bids)


def test_weights_on_a_bid_of_none_bid_none_wherever_it_is_legal() -> None:
    nothing = np.zeros((BID_MODELS, BID_FEATURES))
    nothing[:, NONE] = 1.0
    _, bids = _bids("oh-hell", 4, nothing)
    assert any(base != 0 for _, base, _, _, _ in bids)  # the table bids more somewhere
    for legal, _, made, _, _ in bids:
        # every other bid scores 0: 0 where legal, else a tie, which goes to the lowest bid
        assert made == (legal & -legal).bit_length() - 1


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 10**6), st.integers(0, 2**32 - 1))
def test_the_model_bids_the_legal_bid_its_weights_score_highest(seed: int, draw: int) -> None:
    weights = np.random.default_rng(draw).normal(size=(BID_MODELS, BID_FEATURES))
    _, bids = _bids("oh-hell", seed % 50 + 1, weights)
    assert bids
    kept = np.round(weights * WEIGHT_UNIT)  # the table keeps the weights in millionths
    for legal, _, made, features, hand_size in bids:
        allowed = [bid for bid in range(len(features)) if legal >> bid & 1 and bid <= hand_size]
        scores = [features[bid] @ kept[bid_row(hand_size)] for bid in allowed]
        assert legal >> made & 1
        assert made == allowed[int(np.argmax(scores))]


def test_the_features_read_the_bids_before_and_the_hand() -> None:
    # oh-hell deals 1 to 13 cards (docs/rules.md): a bid of b is b / hand size of the hand, a bid
    # of none marks itself, and the table's bid is marked once
    game = Game(load_variant("oh-hell"), 4, 3, log=False)
    table = compiled.policy_table(game.tables, game.plan)
    at = int(table[compiled.T_STRONG_AT])
    plan = game.tables.plan
    seen = 0
    while not game.is_over():
        if game.phase.name == "BID":
            hand_size = game.deal.hand_size
            features = np.zeros((int(table[at + X_MAX_HAND]) + 1, BID_FEATURES))
            legal, base, _ = (int(v) for v in bid_position(game.state, plan, table, at,
                                                           features))
            if legal & (legal - 1):
                seen += 1
                allowed = [bid for bid in range(hand_size + 1) if legal >> bid & 1]
                assert features[allowed, BASE_BID_FEATURE].sum() == 1.0
                assert features[base, BASE_BID_FEATURE] == 1.0
                for bid in allowed:
                    assert features[bid, SHARE] == pytest.approx(bid / hand_size)
                    assert features[bid, NONE] == (bid == 0)
                    # the excess of the bids' total with this one over the tricks (a share)
                    before = sum(b for b in game.view.bids if b >= 0)
                    assert features[bid, 7] == pytest.approx((before + bid - hand_size)
                                                             / hand_size)
        game.apply_unchecked(action_of(int(decide_strong(game.state, plan, table, at)),
                                       game.phase))
    assert seen > 20


def _synthetic(truth: np.ndarray, count: int, seed: int) -> CardSamples:
    """Bids whose value is ``truth``'s score of their random features; mc's choice the best."""
    generator = np.random.default_rng(seed)
    width = 6
    features = generator.normal(size=(count, width, BID_FEATURES))
    legal = generator.integers(3, 2**width, count)
    model = generator.integers(0, BID_MODELS, count)
    value = np.einsum("sbf,sf->sb", features, truth[model])
    allowed = (legal[:, None] >> np.arange(width) & 1).astype(bool)
    value = np.where(allowed, value, np.nan)
    best = np.nanargmax(value, axis=1)
    base = np.array([int(np.flatnonzero(row)[0]) for row in allowed])  # the lowest legal bid
    return CardSamples(features, legal, 1 << best, base, model, value)


def test_the_fit_finds_the_bids_a_known_value_prefers() -> None:
    truth = np.random.default_rng(3).normal(size=(BID_MODELS, BID_FEATURES))
    weights = fit_bids(_synthetic(truth, 3000, 4))
    held_out = _synthetic(truth, 1000, 5)
    assert regret(held_out, weights) < 0.1 * regret(held_out, None)
    assert (picks(held_out, truth) == np.log2(held_out.target).astype(int)).all()


def test_held_out_tells_a_model_that_finds_value_from_one_that_does_not() -> None:
    truth = np.random.default_rng(8).normal(size=(BID_MODELS, BID_FEATURES))
    found = _synthetic(truth, 2000, 9)  # the value lies in the features: the model finds it
    table, model = held_out(found)
    assert model < 0.1 * table
    # the table's bid is mc's best everywhere: nothing for the model to find
    nothing = _synthetic(truth, 2000, 10)
    nothing.value = np.where(np.isnan(nothing.value), np.nan, 0.0)
    nothing.value[np.arange(len(nothing)), nothing.base] = 1.0
    table, model = held_out(nothing)
    assert table == 0.0 and not model < table


def test_the_archive_keeps_the_bid_model(tmp_path) -> None:  # noqa: ANN001
    weights = np.arange(BID_MODELS * BID_FEATURES, dtype=np.float64).reshape(
        BID_MODELS, BID_FEATURES) / 3.0
    path = tmp_path / "table.npz"
    write_archive(path, {"bids": weights})
    with np.load(path) as data:
        assert np.array_equal(fit_bid_model(data), weights)
    write_archive(path, {"bids": weights[:, :3]})  # another shape: not this model's
    with np.load(path) as data:
        assert fit_bid_model(data) is None
    game = Game(load_variant("classic"), 4, 1, log=False)
    table = _table_with(game, weights)
    at = int(table[compiled.T_STRONG_AT])
    start = at + int(table[at + X_BIDS])
    kept = table[start:start + BID_MODELS * BID_FEATURES].reshape(BID_MODELS, BID_FEATURES)
    assert np.allclose(kept / WEIGHT_UNIT, weights, atol=1e-6)


def test_the_hand_features_read_the_jokers_trumps_and_the_lead_of_the_seat() -> None:
    # joker deals 36 cards with two Jokers (docs/rules.md); the player on the dealer's left
    # leads the first trick: the distance from the expected tricks times each of these
    from raspis.engine.cards import JOKER, JOKER2

    game = Game(load_variant("joker"), 4, 5, log=False)
    table = compiled.policy_table(game.tables, game.plan)
    at = int(table[compiled.T_STRONG_AT])
    plan = game.tables.plan
    seen = {"jokers": 0, "leads": 0}
    while not game.is_over():
        if game.phase.name == "BID" and game.deal.hand_size > 1:
            hand_size = game.deal.hand_size
            seat = game.to_move
            hand = game.view.hands[seat]
            features = np.zeros((int(table[at + X_MAX_HAND]) + 1, BID_FEATURES))
            legal, _, _ = (int(v) for v in bid_position(game.state, plan, table, at, features))
            jokers = (hand >> JOKER & 1) + (hand >> JOKER2 & 1)
            trump = game.view.trump
            trumps = (bin(hand >> 13 * trump & 0x1FFF).count("1") / hand_size
                      if 0 <= trump < 4 else 0.0)
            leads = seat == game.view.order[0]
            seen["jokers"] += jokers > 0
            seen["leads"] += leads
            for bid in range(hand_size + 1):
                if legal >> bid & 1:
                    off = features[bid, 3]
                    assert features[bid, 14] == pytest.approx(jokers * off)
                    assert features[bid, 15] == pytest.approx(jokers * abs(off))
                    assert features[bid, 16] == pytest.approx(trumps * off)
                    assert features[bid, 17] == pytest.approx(off if leads else 0.0)
        game.apply_unchecked(action_of(int(decide_strong(game.state, plan, table, at)),
                                       game.phase))
    assert seen["jokers"] > 3 and seen["leads"] > 3


def test_mcs_playouts_leave_out_what_strong_learned_on_request() -> None:
    from raspis.strategies.players.mc import Position
    from raspis.strategies.policies.model import model_rows
    from raspis.strategies.policies.section import X_CARDS

    game = Game(load_variant("joker"), 4, 1, log=False)  # joker's 4-player table: net, bid model
    observation = game.observation(game.to_move)
    tables = {learned: Position(observation, compiled.STRONG, learned=learned).table
              for learned in (True, False)}
    for learned, table in tables.items():
        at = int(table[compiled.T_STRONG_AT])
        units = model_rows(table, at + int(table[at + X_CARDS]), 0)[2]
        assert (int(table[at + X_BIDS]) > 0) == learned
        assert (units > 0) == learned
