"""``engine.core.view``: the state read and written by field name. The values come from the
position set up by hand (``Game.single_deal``: given hands, trump, dealer and bids), not from
the code under test."""

from __future__ import annotations

import numpy as np
import pytest
from raspis.engine import Game
from raspis.engine.cards import parse_card, parse_cards
from raspis.engine.core.view import StateView, scalar_column

HANDS = [parse_cards("As Ks"), parse_cards("Ah Kh"), parse_cards("Ad Kd"), parse_cards("Ac Kc")]


def test_a_position_set_by_hand_reads_back_by_name() -> None:
    # dealer 3: the bidding starts at seat 0, so the bids land on seats 0, 1, 2, 3 in order
    game = Game.single_deal("classic", HANDS, trump=2, dealer=3, bids=[1, 0, 2, 0])
    view = StateView(game.state, game.tables)
    assert view.hands == HANDS and view.first_cards == HANDS
    assert view.trump == 2 and view.trick_trump == 2 and view.dealer == 3
    assert view.bids == [1, 0, 2, 0] and view.taken == [0, 0, 0, 0]
    assert view.deal.hand_size == 2 and view.deal.tricks == 2
    assert view.order == [0, 1, 2, 3] and view.to_move == 0
    assert view.trick_cards() == [] and view.tricks_done == 0
    view.taken = [1, 0, 0, 0]  # written by name, read by the game
    assert game.view.taken == [1, 0, 0, 0]


def test_a_finished_trick_and_a_scored_deal_read_by_name() -> None:
    game = Game.single_deal("classic", HANDS, trump=2, dealer=3, bids=[1, 0, 2, 0])
    view = StateView(game.state, game.tables)
    for card in ("As", "Ah", "Ad", "Ac"):  # seat 2 holds the trump suit: its ace takes it
        game.apply(next(a for a in game.legal_actions() if a.card == parse_card(card)))
    cards, trump, winner = view.finished_trick(0)
    assert [seat for seat, *_ in cards] == [0, 1, 2, 3] and cards[0][1] == parse_card("As")
    assert trump == 2 and winner == 2 and view.taken == [0, 0, 1, 0]


def test_scalar_columns_of_a_state_matrix() -> None:
    games = [Game("classic", 4, seed=seed) for seed in (1, 2, 3)]
    states = np.stack([game.state for game in games])
    assert scalar_column(states, "dealer").tolist() == [game.view.dealer for game in games]
    with pytest.raises(KeyError, match="not a scalar"):
        scalar_column(states, "bids")
