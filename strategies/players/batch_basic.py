"""Simple batch strategies: uniformly random, always the first legal action, and ``fastheuristic``.

``BatchRandom`` (specs ``random`` and ``fastrandom``) picks uniformly among the legal actions with
a counter-based hash: for the seat's ``i``-th decision of a game, ``splitmix64(key ^ i)`` modulo
the number of legal actions indexes the legal actions in the reference engine's order. The
per-game, per-seat ``key`` is the first 64 bits of the generator ``play_game`` gives a strategy
(``random.Random(mix(seed, STRATEGY, seat)).getrandbits(64)``), so its draws depend only on the
game seed, the seat and the decision index (never on the batch size), and the scalar
``strategies.players.fast.HashRandomStrategy`` (``fastrandom``) plays the very same games in
``engine.Game``. It is not the stream of the scalar ``random`` (Python's ``random``), only the
same distribution.

``BatchLowest`` (``lowest``) takes the first legal action of the reference's list: the lowest bid,
the lowest card id, a Joker's first call; its twin is ``strategies.players.fast.LowestStrategy``.

Both are also compiled policies (``strategies.policies.compiled``): the batch engine decides them
inside its compiled loops, and uses their numpy methods only when asked to (``play_batch(...,
compiled=False)``). ``BatchFastHeuristic`` (``fastheuristic``) is a compiled policy only
(``compiled.fast_heuristic``; the rules of thumb are described in ``strategies.players.fast``, its
scalar twin ``FastHeuristicStrategy`` plays the very same games): the engine decides its seats
inside the compiled loop whatever the other seats are, so it has no numpy methods.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from raspis.engine import Variant
from raspis.engine import rng as chance
from raspis.engine.batch.bits import JOKER_BITS, NOT_JOKERS, lowest_card, popcount, select_bit
from raspis.engine.batch.observation import BatchObservation
from raspis.engine.batch.rng import mix, python_random_bits64, splitmix64
from raspis.engine.core.codes import OPTION_CALL, OPTION_SUIT
from raspis.engine.core.plan import RulePlan

from ..base import RandomStrategy
from ..batch import BatchStrategy, first_option
from ..policies import compiled
from .fast import FastHeuristicStrategy, HashRandomStrategy, LowestStrategy


def _call_orders(variant: Variant, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    rules = RulePlan(variant, players)  # not the lockstep's ``BatchRules``: the compiled runner
    return rules.call_order(True), rules.call_order(False)  # plays what it refuses


def _reorder(calls: np.ndarray, order: tuple[int, ...]) -> np.ndarray:
    """The call mask with bit i meaning ``order[i]``."""
    packed = np.zeros(calls.shape, dtype=np.uint64)
    for index, option in enumerate(order):
        packed |= (((calls >> option) & 1).astype(np.uint64)) << np.uint64(index)
    return packed


class BatchRandom(BatchStrategy):
    """Uniform over the legal actions, drawn from a counter-based hash (see the module)."""

    name = RandomStrategy.name
    description = "uniformly random legal actions from a counter-based hash (twin: fastrandom)"
    needs_decision_index = True
    scalar_twin = HashRandomStrategy.name
    compiled_policy = compiled.RANDOM
    compiled_runner = staticmethod(compiled.run_games)

    def start(self, variant: Variant, players: int, seeds: np.ndarray) -> None:
        """Derive every game's and seat's key."""
        super().start(variant, players, seeds)
        self.keys = np.stack(
            [python_random_bits64(mix(seeds, chance.STRATEGY, seat)) for seat in range(players)],
            axis=1)
        self.lead_order, self.follow_order = _call_orders(variant, players)

    def _draw(self, observation: BatchObservation, count: np.ndarray) -> np.ndarray:
        key = self.keys[observation.games, observation.seat]
        index = observation.decision_index.astype(np.uint64)
        return (splitmix64(key ^ index) % np.maximum(count, 1).astype(np.uint64)).astype(np.int64)

    def name_trump(self, observation: BatchObservation) -> np.ndarray:
        """A random legal suit (or no trump)."""
        legal = observation.legal_trumps
        choices = [suit for suit in range(4) if legal >> suit & 1]
        choices += [-1] if legal >> 4 & 1 else []
        table = np.array(choices, dtype=np.int64)
        return table[self._draw(observation, np.full(observation.count, len(choices)))]

    def bid(self, observation: BatchObservation) -> np.ndarray:
        """A random legal bid."""
        legal = observation.legal_bids
        return select_bit(legal, self._draw(observation, popcount(legal).astype(np.int64)))

    def play(self, observation: BatchObservation) -> tuple[np.ndarray, Any, Any]:
        """A random legal play, Joker calls counted as separate actions."""
        legal = observation.legal_cards
        ordinary = legal & NOT_JOKERS
        plain = popcount(ordinary).astype(np.int64)
        jokers = legal & JOKER_BITS
        if not jokers.any():
            return select_bit(ordinary, self._draw(observation, plain)), 0, -1
        order = self.lead_order if observation.trick_position == 0 else self.follow_order
        calls = _reorder(observation.legal_calls, order)
        per_joker = popcount(calls).astype(np.int64)
        total = plain + popcount(jokers).astype(np.int64) * per_joker
        index = self._draw(observation, total)
        is_plain = index < plain
        rest = np.where(is_plain, 0, index - plain)
        per = np.maximum(per_joker, 1)
        joker = select_bit(jokers, np.where(is_plain, 0, rest // per))
        card = np.where(is_plain, select_bit(ordinary, np.minimum(index, np.maximum(plain - 1, 0))),
                        joker)
        position = select_bit(calls, np.where(is_plain, 0, rest % per))
        option = np.asarray(order, dtype=np.int64)[np.clip(position, 0, len(order) - 1)]
        return (card, np.where(is_plain, 0, OPTION_CALL[option]),
                np.where(is_plain, -1, OPTION_SUIT[option]))


class BatchLowest(BatchStrategy):
    """The first legal action of the reference engine's list."""

    name = LowestStrategy.name
    description = "always the first legal action: lowest bid, lowest card, first Joker call"
    scalar_twin = LowestStrategy.name
    compiled_policy = compiled.LOWEST
    compiled_runner = staticmethod(compiled.run_games)

    def start(self, variant: Variant, players: int, seeds: np.ndarray) -> None:
        """Learn the variant's order of Joker calls."""
        super().start(variant, players, seeds)
        self.lead_order, self.follow_order = _call_orders(variant, players)

    def name_trump(self, observation: BatchObservation) -> np.ndarray:
        """Spades when legal (the first suit)."""
        legal = observation.legal_trumps
        first = next((suit for suit in range(4) if legal >> suit & 1), -1)
        return np.full(observation.count, first, dtype=np.int64)

    def bid(self, observation: BatchObservation) -> np.ndarray:
        """The lowest legal bid."""
        return lowest_card(observation.legal_bids)

    def play(self, observation: BatchObservation) -> tuple[np.ndarray, Any, Any]:
        """The lowest legal card; a Joker with its first legal call."""
        legal = observation.legal_cards
        card = lowest_card(legal)
        if not (legal & JOKER_BITS).any():
            return card, 0, -1
        order = self.lead_order if observation.trick_position == 0 else self.follow_order
        option = first_option(observation.legal_calls, order)
        joker = card >= 52
        return (card, np.where(joker, OPTION_CALL[option], 0),
                np.where(joker, OPTION_SUIT[option], -1))


class BatchFastHeuristic(BatchStrategy):
    """``fastheuristic``: rules of thumb, a compiled policy (``compiled.fast_heuristic``); twin:
    the scalar ``fastheuristic`` (``strategies.players.fast.FastHeuristicStrategy``)."""

    name = FastHeuristicStrategy.name
    description = "fast rules of thumb, compiled (batch engine); the same as scalar fastheuristic"
    scalar_twin = FastHeuristicStrategy.name
    compiled_policy = compiled.FAST_HEURISTIC
    compiled_runner = staticmethod(compiled.run_games)
    #: decided inside the engine's compiled loop only (``engine.batch.game``)
    numpy_decisions = False

    def bid(self, observation: BatchObservation) -> np.ndarray:
        """Not asked: the engine decides this policy in its compiled loop."""
        raise NotImplementedError(f"{self.name} is decided inside the batch engine's compiled "
                                  "loop (a compiled policy)")

    def play(self, observation: BatchObservation) -> tuple[np.ndarray, Any, Any]:
        """Not asked: the engine decides this policy in its compiled loop."""
        raise NotImplementedError(f"{self.name} is decided inside the batch engine's compiled "
                                  "loop (a compiled policy)")
