"""Scalar twins of the batch strategies: they play exactly the batch strategies' games.

Each class here is an ordinary ``Strategy`` for ``engine.Game`` whose decisions equal, game for
game, those of its batch twin in ``engine.batch`` (``strategies.players.batch_basic``, and the
compiled policies of ``strategies.policies.compiled``). They exist so the two engines can be
compared like for like, and so a tournament may mix engines without changing what a strategy does.

- ``lowest``: the first legal action (twin of ``BatchLowest``);
- ``fastrandom``: uniform over the legal actions from a counter-based hash (twin of
  ``BatchRandom``);
- ``fastheuristic``: a simple rule-based player, the compiled policy itself run on the
  observation's game (``strategies.players.twin.CompiledTwin``; twin of ``BatchFastHeuristic``).
"""

from __future__ import annotations

import random

from raspis.engine import Action, Observation, Variant
from raspis.engine.rng import splitmix64

from ..base import Strategy
from ..policies.compiled import FAST_HEURISTIC
from .twin import CompiledTwin


class LowestStrategy(Strategy):
    """The first legal action: the lowest bid, the lowest card, a Joker's first call."""

    name = "lowest"
    description = "always the first legal action (twin of the batch 'lowest')"

    def act(self, observation: Observation) -> Action:
        """The first of the legal actions."""
        return observation.legal_actions[0]


class HashRandomStrategy(Strategy):
    """Uniform over the legal actions: ``splitmix64(key ^ i) % len(legal)`` for the ``i``-th
    decision, ``key`` the first 64 bits of the strategy's generator (twin of the batch random)."""

    name = "fastrandom"
    description = "uniformly random legal actions from a counter-based hash (twin of batch random)"

    def start_game(self, variant: Variant, seat: int, players: int, rng: random.Random) -> None:
        """Take the game's key and reset the decision counter."""
        super().start_game(variant, seat, players, rng)
        self.key = rng.getrandbits(64)
        self.decision = 0

    def act(self, observation: Observation) -> Action:
        """The hashed choice among the legal actions."""
        actions = observation.legal_actions
        draw = splitmix64(self.key ^ self.decision)
        self.decision += 1
        return actions[draw % len(actions)]


class FastHeuristicStrategy(CompiledTwin):
    """Simple rules of thumb with integer arithmetic and shared tables: the compiled
    ``fastheuristic`` (``strategies.policies.compiled.fast_heuristic``, where its rules are
    described), run on the observation's game (``strategies.players.twin``); twin of the batch
    ``fastheuristic``."""

    name = "fastheuristic"
    description = "fast rules of thumb (twin of the compiled batch fastheuristic)"
    policy = FAST_HEURISTIC
