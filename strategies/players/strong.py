"""``strong``: the heuristic's rules as a compiled policy of the batch engine, and its scalar twin.

``BatchStrong`` (batch spec ``strong``) is a compiled policy (``strategies.policies.strong``, code
``compiled.STRONG``): when every seat of a batch is compiled, whole games are played in one numba
loop (``engine.batch.compiled``), at millions of decisions a second. What it plays is described
in ``strategies.policies.strong``: the scalar ``heuristic``'s bidding (card chances, calibrated, the
bid with the best expected points under the deal's own score table) and card play (keepers,
cheapest holding winner, ducking with the most dangerous loser, the Joker kept for when it
counts), plus the premium of a span kept in reach (002; as ``heuristic:premium=true``).

``StrongStrategy`` (scalar spec ``strong``) is its twin in ``engine.Game``
(``strategies.players.twin.CompiledTwin``): it runs the same compiled function on the state of the
game the observation was taken from, so the two engines play the very same games. Where an
observation carries no state (a strategy in its own process, or seated in the numpy lockstep loop),
the twin rebuilds the deal from the observation with the hidden hands guessed: the policy never
reads them, but such a rebuilt deal knows nothing of the premium span and of tricks the memory rule
hides, so there the twin plays as ``strong`` without the premium.
"""

from __future__ import annotations

import numpy as np
from raspis.engine.core.plan import MachineTables, RulePlan

from ..base import Parameter
from ..batch import BatchStrategy, ScalarAdapter
from ..policies import compiled
from .twin import CompiledTwin, action_of


def policy_table(tables: MachineTables, plan: RulePlan, fitted: bool = True) -> np.ndarray:
    """The policies' table with ``strong``'s section (``compiled.policy_table``, made once);
    ``fitted``: with the shipped fitted bid outcomes."""
    return compiled.policy_table(tables, plan, fitted)


class StrongStrategy(CompiledTwin):
    """The heuristic's rules, compiled (``strategies.policies.strong``); twin of batch ``strong``
    (``strategies.players.twin``: the same compiled function on the observation's game)."""

    name = "strong"
    description = ("the heuristic's bidding and card play compiled on the rules core, with the "
                   "premium kept in reach (twin of the batch engine's compiled strong)")
    policy = compiled.STRONG
    parameters = {
        "model": Parameter(bool, True, "play cards with the fitted card model where the "
                           "variant's table has one (strategies.fitting.distil); false: the card "
                           "play's rules alone (to measure what the model adds)"),
        "net": Parameter(bool, True, "with the card model's nonlinear part where the table has "
                         "one (strategies.fitting.net); false: its linear part alone"),
        "bid_model": Parameter(bool, True, "bid with the fitted bid model where the variant's "
                               "table has one (strategies.fitting.bid_values); false: the bid of "
                               "the best expected points (to measure what the model adds)"),
    }


class BatchStrong(BatchStrategy):
    """``strong`` in the batch engine: a compiled policy (whole games in one numba loop); in the
    numpy lockstep loop (seated with strategies that are not compiled) it plays through its
    scalar twin."""

    name = StrongStrategy.name
    description = ("the heuristic's rules compiled on the rules core, with the premium in reach "
                   "(batch engine; twin: scalar strong)")
    scalar_twin = StrongStrategy.name
    compiled_policy = compiled.STRONG
    compiled_runner = staticmethod(compiled.run_games)
    needs_history = True

    def start(self, variant, players: int, seeds: np.ndarray) -> None:  # noqa: ANN001
        """Start the scalar path too (used only in the lockstep loop)."""
        super().start(variant, players, seeds)
        self._adapter = ScalarAdapter(StrongStrategy.name)
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


__all__ = ["BatchStrong", "StrongStrategy", "action_of", "policy_table"]
