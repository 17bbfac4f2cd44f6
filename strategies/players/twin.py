"""Scalar twins of compiled policies: an ``engine.Game`` strategy that runs the batch engine's
compiled function itself, so both engines play the very same games from one copy of the rules.

A twin asks the compiled policy (``strategies.policies.compiled.decide``) for the action of the seat
to move, on the state of the game the observation was taken from (``Observation`` carries it). Where
an observation carries no state (a strategy in its own process, or seated in the batch engine's
numpy lockstep loop), the twin rebuilds the deal from the observation with the hidden hands guessed
(``engine.determinize.resample``): the compiled policies read only what the seat may see, but such a
rebuilt deal knows nothing of a premium span and of tricks the memory rule hides.
"""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
from raspis.engine import Action, Bid, Keep, NameTrump, Observation, Play, Variant
from raspis.engine.cards import is_joker
from raspis.engine.core import machine as m
from raspis.engine.core.codes import CALL_NAMES
from raspis.engine.determinize import resample
from raspis.engine.game import Game, Phase

from ..base import Strategy
from ..policies import compiled


def action_of(code: int, phase: Phase) -> Action:
    """The ``Action`` of a machine action code (``machine.action_code``) in ``phase``."""
    if phase == Phase.PLAY:
        card, call, suit, rank = _PLAY_FIELDS(code)
        if not is_joker(card):
            return Play(card)
        return Play(card, CALL_NAMES[call], suit, rank)  # type: ignore[arg-type]
    if phase == Phase.BID:
        return Bid(code)
    if phase == Phase.KEEP:
        return Keep(code != 0)
    return NameTrump(code - 1)


def policy_code(game: Game, state: np.ndarray, policy: int, model: bool = True,
                net: bool = True, bid_model: bool = True) -> int:
    """The action code ``policy`` (``compiled.FAST_HEURISTIC``, ``compiled.STRONG``, ...) chooses
    for the seat to move in ``state``, a state of ``game``'s machine; ``model``: ``strong`` with
    its fitted card model (``compiled.policy_table``'s ``cards_on``), ``net``: with the model's
    nonlinear part (``net_on``), ``bid_model``: with its fitted bid model (``bids_on``)."""
    table = compiled.policy_table(game.tables, game.plan, strong_on=policy == compiled.STRONG,
                                  cards_on=model, net_on=net, bids_on=bid_model)
    return compiled.decide_policy(state, game.tables.plan, table, policy)


class CompiledTwin(Strategy):
    """A scalar strategy that plays the compiled policy ``policy`` (see the module docstring)."""

    policy: ClassVar[int]
    #: with ``strong``'s fitted card model (``strong``'s parameter ``model``; the other policies
    #: have none)
    model: bool = True
    #: with the card model's nonlinear part (``strong``'s parameter ``net``)
    net: bool = True
    #: with the fitted bid model (``strong``'s parameter ``bid_model``)
    bid_model: bool = True

    def start_game(self, variant: Variant, seat: int, players: int,
                   rng: random.Random) -> None:
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
            game = resample(observation, self._guess)
            state = game.state
        action = action_of(policy_code(game, state, self.policy, self.model, self.net,
                                       self.bid_model),
                           observation.phase)
        for legal in actions:
            if legal == action:
                return legal
        raise RuntimeError(f"{self.name} chose {action}, not a legal action")  # pragma: no cover


#: ``machine.play_fields`` uncompiled (a decision's action code read back in Python)
_PLAY_FIELDS = m.play_fields.py_func

__all__ = ["CompiledTwin", "action_of", "policy_code"]
