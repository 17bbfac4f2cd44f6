"""``strong`` (``strategies.players.strong``, ``strategies.policies.strong``): the compiled policy
plays legal games on every preset, its scalar twin plays the very same games in ``engine.Game``, the
same seeds give the same games, and a decision never depends on the hidden hands."""

from __future__ import annotations

import random

import numpy as np
import pytest
from raspis.engine import Game, load_variant
from raspis.engine.batch import play_batch
from raspis.engine.core.plan import MachineTables
from raspis.engine.core.view import StateView
from raspis.engine.variant import preset_names
from raspis.strategies import load_strategy, play_game
from raspis.strategies.batch import load_batch_strategy, plays_like_scalar
from raspis.strategies.players.twin import policy_code
from raspis.strategies.policies import compiled


@pytest.mark.parametrize("name", preset_names())
def test_strong_plays_legal_games_the_same_in_both_engines(name: str) -> None:
    variant = load_variant(name)
    players = variant.player_counts()[0]
    seeds = [3, 11]
    batch = play_batch(variant, players, np.array(seeds, dtype=np.uint64),
                       [load_batch_strategy("strong")])
    assert not batch.errored.any()
    for index, seed in enumerate(seeds):
        # play_game checks every action against the legal ones and records a fault otherwise
        record = play_game(variant, players, seed,
                           [load_strategy("strong") for _ in range(players)])
        assert record.fault is None, record.fault
        assert list(record.game.scores) == batch.scores[index].tolist()


def test_strong_is_deterministic_and_a_twin() -> None:
    variant = load_variant("joker")
    seeds = np.arange(16, dtype=np.uint64) + 40
    first = play_batch(variant, 4, seeds, [load_batch_strategy("strong")])
    again = play_batch(variant, 4, seeds, [load_batch_strategy("strong")])
    assert np.array_equal(first.scores, again.scores)
    assert np.array_equal(first.bid, again.bid)
    assert plays_like_scalar("strong")


def _shuffled_others(state: np.ndarray, tables: MachineTables, seat: int,
                     generator: random.Random) -> np.ndarray:
    """A copy of ``state`` with the cards of every other seat dealt anew among them, each keeping
    its hand's size."""
    other = state.copy()
    view = StateView(other, tables)
    seats = [s for s in range(view.players) if s != seat]
    hands = [view.hand(s) for s in seats]
    cards = [card for hand in hands for card in range(54) if hand >> card & 1]
    generator.shuffle(cards)
    dealt, first = view.hands, view.first_cards
    at = 0
    for s, hand in zip(seats, hands, strict=True):
        size = hand.bit_count()
        dealt[s] = first[s] = sum(1 << card for card in cards[at:at + size])
        at += size
    view.hands, view.first_cards = dealt, first
    return other


@pytest.mark.parametrize("policy", ["strong", "fastheuristic"])
@pytest.mark.parametrize("name", ["classic", "joker"])
def test_strong_never_reads_the_hidden_hands(name: str, policy: str) -> None:
    """Neither compiled policy that a scalar twin runs (``strategies.players.twin``) reads another
    seat's hand: dealing the others' cards anew never changes a decision (so a twin may decide on a
    deal rebuilt from its observation)."""
    code_of = {"strong": compiled.STRONG, "fastheuristic": compiled.FAST_HEURISTIC}[policy]
    generator = random.Random(5)
    decisions = changed = 0
    for seed in (1, 2):
        game = Game(load_variant(name), 4, seed, log=False)
        strategy = load_strategy(policy)
        strategy.start_game(game.variant, 0, 4, random.Random(seed))
        while not game.is_over():
            seat = game.to_move
            state = game.state
            code = policy_code(game, state, code_of)
            for _ in range(3):
                other = _shuffled_others(state, game.tables, seat, generator)
                changed += not np.array_equal(other, state)
                assert policy_code(game, other, code_of) == code
            decisions += 1
            game.apply(strategy.act(game.observation(seat)))
    assert decisions > 100 and changed > 100


def test_strong_plays_its_own_games_in_the_lockstep_loop() -> None:
    # in the lockstep loop (record=True keeps the batch out of the whole-game compiled loop) the
    # compiled seats are still decided by their compiled policy on the game's state: the games
    # are the compiled loop's, with a numpy seat beside them or not
    variant = load_variant("classic")
    seeds = np.arange(3, 9, dtype=np.uint64)
    result = play_batch(variant, 4, seeds, [load_batch_strategy("strong")], record=True)
    assert not result.errored.any()
    compiled = play_batch(variant, 4, seeds, [load_batch_strategy("strong")])
    assert np.array_equal(result.scores, compiled.scores)
    assert np.array_equal(result.bid, compiled.bid)
