"""``strong``: the heuristic's rules as a compiled policy of the batch engine, and its scalar twin.

``BatchStrong`` (batch spec ``strong``) is a compiled policy (``strategies.strong_policy``, code
``compiled.STRONG``): when every seat of a batch is compiled, whole games are played in one numba
loop (``engine.batch.compiled``), at millions of decisions a second. What it plays is described
in ``strategies.strong_policy``: the scalar ``heuristic``'s bidding (card chances, calibrated, the
bid with the best expected points under the deal's own score table) and card play (keepers,
cheapest holding winner, ducking with the most dangerous loser, the Joker kept for when it
counts), plus the premium of a span kept in reach (002; as ``heuristic:premium=true``).

``StrongStrategy`` (scalar spec ``strong``) is its twin in ``engine.Game``: it runs the same
compiled function on the state of the game the observation was taken from (``Observation``
carries it), so the two engines play the very same games. Where an observation carries no state
(a strategy in its own process, or seated in the batch engine's numpy lockstep loop), the twin
rebuilds the deal from the observation with the hidden hands guessed (``Observation.resample``):
the policy never reads them, but such a rebuilt deal knows nothing of the premium span and of
tricks the memory rule hides, so there the twin plays as ``strong`` without the premium.
"""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np
from raspis.engine import Action, Bid, NameTrump, Observation, Play
from raspis.engine.core import machine as m
from raspis.engine.core.codes import CALL_NAMES
from raspis.engine.core.plan import MachineTables, RulePlan
from raspis.engine.game import Game, Phase

from . import compiled
from .base import Strategy
from .batch import BatchStrategy, ScalarAdapter
from .strong_policy import decide_strong


@lru_cache(maxsize=32)
def _table(tables: MachineTables, plan: RulePlan) -> np.ndarray:
    return compiled._policy_table(tables, plan)


def action_of(code: int, phase: Phase) -> Action:
    """The ``Action`` of a machine action code (``machine.action_code``) in ``phase``."""
    if phase == Phase.PLAY:
        card = code & 63
        if card < 52:
            return Play(card)
        call = code >> m.CALL_SHIFT & 7
        return Play(card, CALL_NAMES[call], (code >> m.SUIT_SHIFT) - 1)  # type: ignore[arg-type]
    if phase == Phase.BID:
        return Bid(code)
    return NameTrump(code - 1)


def decide(game: Game, state: np.ndarray) -> int:
    """``strong``'s action code for the seat to move in ``state`` (a state of ``game``'s
    machine)."""
    table = _table(game.tables, game.plan)
    return int(decide_strong(state, game.tables.plan, table, int(table[compiled.T_STRONG_AT])))


class StrongStrategy(Strategy):
    """The heuristic's rules, compiled (``strategies.strong_policy``); twin of batch ``strong``."""

    name = "strong"
    description = ("the heuristic's bidding and card play compiled on the rules core, with the "
                   "premium kept in reach (twin of the batch engine's compiled strong)")

    def start_game(self, variant, seat, players, rng: random.Random) -> None:  # noqa: ANN001
        """Keep a generator for the rare rebuilt deal (see the module docstring)."""
        super().start_game(variant, seat, players, rng)
        self._guess = random.Random(rng.getrandbits(64))

    def act(self, observation: Observation) -> Action:
        """The compiled policy's action."""
        actions = observation.legal_actions
        if len(actions) == 1:
            return actions[0]
        try:
            source = object.__getattribute__(observation, "_source")
        except AttributeError:
            source = None
        if source is not None:
            state, game = source[0], source[1]
        else:
            game = observation.resample(self._guess)
            state = game.state
        action = action_of(decide(game, state), observation.phase)
        for legal in actions:
            if legal == action:
                return legal
        raise RuntimeError(f"strong chose {action}, not a legal action")  # pragma: no cover


class BatchStrong(BatchStrategy):
    """``strong`` in the batch engine: a compiled policy (whole games in one numba loop); in the
    numpy lockstep loop (seated with strategies that are not compiled) it plays through its
    scalar twin."""

    name = "strong"
    description = ("the heuristic's rules compiled on the rules core, with the premium in reach "
                   "(batch engine; twin: scalar strong)")
    scalar_twin = "strong"
    compiled_policy = compiled.STRONG
    compiled_runner = staticmethod(compiled.run_games)
    needs_history = True

    def start(self, variant, players: int, seeds: np.ndarray) -> None:  # noqa: ANN001
        """Start the scalar path too (used only in the lockstep loop)."""
        super().start(variant, players, seeds)
        self._adapter = ScalarAdapter("strong")
        self._adapter.start(variant, players, seeds)

    def name_trump(self, observation):  # noqa: ANN001, ANN201
        """Through the scalar twin."""
        return self._adapter.name_trump(observation)

    def bid(self, observation):  # noqa: ANN001, ANN201
        """Through the scalar twin."""
        return self._adapter.bid(observation)

    def play(self, observation):  # noqa: ANN001, ANN201
        """Through the scalar twin."""
        return self._adapter.play(observation)


__all__ = ["BatchStrong", "StrongStrategy", "action_of", "decide"]
