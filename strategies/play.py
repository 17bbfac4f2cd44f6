"""Playing a game between strategies, safely.

``play_game`` seats strategies, feeds each its observations and applies its answers. A strategy that
raises, returns an action that is not legal, or runs past its per-decision time budget does not take
the program down: the game stops there and comes back marked as errored, naming the seat, the
strategy, the decision and the message. The caller decides what to do (a tournament records the
game as errored and goes on).
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from raspis.engine import Game, Variant
from raspis.engine import rng as chance

from .base import Strategy


class DecisionTimeout(Exception):
    """A strategy ran past its time budget for one decision."""


@dataclass(frozen=True)
class StrategyFault:
    """Why a game stopped early: which seat's strategy failed, where, and how."""

    seat: int
    strategy: str
    kind: str  # "raised", "illegal" or "timeout"
    deal_number: int
    phase: str
    message: str

    def __str__(self) -> str:
        return (f"seat {self.seat} ({self.strategy}) {self.kind} in deal {self.deal_number + 1}, "
                f"{self.phase}: {self.message}")


@dataclass
class GameRecord:
    """A played game and, if it stopped early, the fault."""

    game: Game
    fault: StrategyFault | None = None

    @property
    def errored(self) -> bool:
        """True when a strategy failed and the game did not finish."""
        return self.fault is not None


def strategy_rng(seed: int, seat: int) -> random.Random:
    """The generator a strategy gets for the game with ``seed`` at ``seat``."""
    return random.Random(chance.mix(seed, chance.STRATEGY, seat))


def _alarm(signum: int, frame: object) -> None:
    raise DecisionTimeout()


def _decide(strategy: Strategy, observation, budget: float | None):  # noqa: ANN001, ANN202
    if budget is None:
        return strategy.act(observation)
    use_signal = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not use_signal:
        started = time.perf_counter()
        action = strategy.act(observation)
        if time.perf_counter() - started > budget:
            raise DecisionTimeout()
        return action
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        return strategy.act(observation)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def play_game(
    variant: Variant,
    players: int,
    seed: int,
    strategies: Sequence[Strategy],
    *,
    decision_seconds: float | None = None,
    log: bool = False,
) -> GameRecord:
    """Play one game with ``strategies[seat]`` at each seat; never raises for a strategy's fault."""
    if len(strategies) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(strategies)}")
    game = Game(variant, players, seed, log=log)
    for seat, strategy in enumerate(strategies):
        strategy.start_game(game.variant, seat, players, strategy_rng(seed, seat))
    while not game.is_over():
        seat = game.current_player()
        strategy = strategies[seat]
        observation = game.observation(seat)
        try:
            action = _decide(strategy, observation, decision_seconds)
        except DecisionTimeout:
            return GameRecord(game, _fault(game, seat, strategy, "timeout",
                                           f"no decision within {decision_seconds} s"))
        except Exception as error:  # the strategy's own bug: record it, do not crash
            return GameRecord(game, _fault(game, seat, strategy, "raised",
                                           f"{type(error).__name__}: {error}"))
        if action not in observation.legal_actions:
            legal = ", ".join(map(str, observation.legal_actions))
            return GameRecord(game, _fault(game, seat, strategy, "illegal",
                                           f"returned {action!r}; legal: {legal}"))
        game.apply_unchecked(action)
    return GameRecord(game)


def _fault(game: Game, seat: int, strategy: Strategy, kind: str, message: str) -> StrategyFault:
    return StrategyFault(seat, strategy.spec(), kind, game.deal.number, game.phase.name.lower(),
                         message)
