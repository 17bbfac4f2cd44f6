"""The strategy protocol: what a player of raspis is.

A strategy is told the variant, its seat and the number of players at the start of each game, gets
its own seeded random generator, and then answers observations (``engine.Observation``: only what
its seat may know, with the legal actions) with actions: a bid, a card with a Joker's call, or a
trump suit. That is all; a strategy never sees the game state itself.

Write your own by subclassing ``Strategy`` and implementing ``act``::

    class Greedy(Strategy):
        name = "greedy"
        description = "plays its highest legal card"

        def act(self, observation):
            return max(observation.legal_actions, key=str)

Parameters are keyword arguments of ``__init__`` declared in ``parameters`` so that the loader can
convert ``"ismcts:iterations=2000"`` and ``raspis strategies list`` can document them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from raspis.engine import Action, Observation, Variant


@dataclass(frozen=True)
class Parameter:
    """A documented strategy parameter: its type, default and meaning."""

    type: type
    default: Any
    help: str


def spec_string(name: str, options: dict[str, Any], parameters: dict[str, Parameter]) -> str:
    """``name``, with ``:key=value,...`` for every option that differs from its default."""
    changed = {k: v for k, v in options.items() if v != parameters[k].default}
    if not changed:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in sorted(changed.items()))


class Strategy:
    """Base class of strategies. Override ``act``; ``start_game`` is optional."""

    name: ClassVar[str] = "strategy"
    description: ClassVar[str] = ""
    parameters: ClassVar[dict[str, Parameter]] = {}
    #: True when the strategy is deterministic given its seed (all built-ins are).
    deterministic: ClassVar[bool] = True

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(self.parameters)
        if unknown:
            known = ", ".join(sorted(self.parameters)) or "none"
            raise ValueError(
                f"strategy {self.name!r} has no parameter {', '.join(sorted(unknown))}; "
                f"its parameters: {known}"
            )
        for key, parameter in self.parameters.items():
            setattr(self, key, options.get(key, parameter.default))
        self.options = {key: getattr(self, key) for key in self.parameters}
        self.rng = random.Random(0)
        self.variant: Variant | None = None
        self.seat = 0
        self.players = 0

    def start_game(self, variant: Variant, seat: int, players: int, rng: random.Random) -> None:
        """Called before each game with the variant (resolved for ``players``), the seat and a
        generator seeded from the game seed and the seat."""
        self.variant = variant
        self.seat = seat
        self.players = players
        self.rng = rng

    def act(self, observation: Observation) -> Action:
        """Return one of ``observation.legal_actions``."""
        raise NotImplementedError

    def spec(self) -> str:
        """The spec string that recreates this strategy, e.g. ``ismcts:iterations=2000``."""
        return spec_string(self.name, self.options, self.parameters)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec()}>"


class RandomStrategy(Strategy):
    """Uniform over the legal actions."""

    name = "random"
    description = "uniformly random legal actions (a baseline)"

    def act(self, observation: Observation) -> Action:
        """A legal action chosen uniformly with the strategy's own generator."""
        actions = observation.legal_actions
        return actions[self.rng.randrange(len(actions))]
