"""The compiled state machine under ``Game`` (``engine.core.machine``): what the golden corpus does
not cover on its own. The corpus (``tests/test_golden.py``) checks that the machine plays every
recorded game as the engine before it did; here: seeds beyond 63 bits, observations kept while the
game moves on, clones, and the state's bounds on the longest schedules.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from raspis.engine import Game, load_variant, rng
from raspis.engine.variant import preset_names


def _first_deal_by_hand(variant_name: str, players: int, seed: int, dealer: int) -> list[int]:
    """Each seat's first hand, dealt by hand from ``engine.rng`` (the Python reference of the
    shuffle): cards one at a time from the dealer's left, from the deck in shuffled order."""
    variant = load_variant(variant_name).for_player_count(players)
    deck = rng.shuffled(variant.deck_cards, rng.deal_key(seed, 0))
    size = variant.deal_schedule(players)[0].hand_size
    hands = [0] * players
    for index in range(size * players):
        seat = (dealer + 1 + index % players) % players
        hands[seat] |= 1 << deck[index]
    return hands


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 2**63, 2**64 - 1, -1, -(2**63), 10**30])
def test_any_integer_seed_deals_what_the_python_shuffle_deals(seed: int) -> None:
    game = Game(load_variant("classic"), 4, seed)
    view = game.view
    assert view.hands == _first_deal_by_hand("classic", 4, seed & (2**64 - 1), view.dealer)


def test_seeds_equal_modulo_two_to_the_64_give_the_same_game() -> None:
    one, other = Game(load_variant("joker"), 4, 5), Game(load_variant("joker"), 4, 5 + 2**64)
    while not one.is_over():
        assert one.view.hands == other.view.hands
        action = one.legal_actions()[-1]
        one.apply(action)
        other.apply(action)
    assert one.scores == other.scores


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 60), name=st.sampled_from(preset_names()))
def test_an_observation_kept_unread_shows_the_game_as_it_was(seed: int, steps: int,
                                                             name: str) -> None:
    """An observation is a lazy view: read after the game moved on, it must show the moment it
    was made, as a twin game's observation read at once does."""
    variant = load_variant(name)
    players = variant.player_counts()[0]
    game = Game(variant, players, seed)
    twin = Game(variant, players, seed)
    choose = random.Random(seed)
    kept = []
    for _ in range(steps):
        if game.is_over():
            break
        seat = game.to_move
        kept.append((game.observation(seat), twin.observation(seat)._asdict(),
                     game.observation((seat + 1) % players), twin.observation(
                         (seat + 1) % players)._asdict()))
        action = choose.choice(game.legal_actions())
        game.apply(action)
        twin.apply(action)
    for view, read_at_once, other_view, other_read in kept:
        assert view._asdict() == read_at_once
        assert other_view._asdict() == other_read


def test_a_clone_plays_on_without_touching_the_original() -> None:
    game = Game(load_variant("classic"), 4, 3)
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    before = (game.view.hands, game.scores, game.trick, game.tricks, game.bids, len(game.results))
    copy = game.clone()
    while not copy.is_over():
        copy.apply(copy.legal_actions()[-1])
    assert (game.view.hands, game.scores, game.trick, game.tricks, game.bids,
            len(game.results)) == before
    assert len(copy.results) == game.schedule_length or copy.is_over()


@pytest.mark.parametrize("name", ["classic", "joker-52", "odessa"])
def test_the_longest_games_fit_the_state(name: str) -> None:
    """Every deal's tricks and every deal's result row fit the state's bounds, with tie-break
    deals at the end (scores forced equal by always passing where the hook allows)."""
    variant = load_variant(name)
    for players in variant.player_counts():
        game = Game(variant, players, 11)
        while not game.is_over():
            game.apply(game.legal_actions()[0])
        assert len(game.results) >= game.schedule_length
        assert game.results[-1].totals == tuple(game.scores)
        assert sum(game.results[-1].taken) == game.results[-1].hand_size or (
            variant.play.draw_after_trick)
