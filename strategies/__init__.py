"""Strategies: the players of raspis, built in and pluggable.

``Strategy`` is the protocol (``base.py``); ``load_strategy("ismcts:iterations=2000")`` finds one by
spec string (``registry.py``); ``play_game`` plays a game between strategies and records a failing
strategy instead of crashing (``play.py``).

The names are loaded on first use, so that reading a spec (``strategies.spec``) does not load the
compiled core: ``raspis play`` decides from the specs whether to run the core compiled or
interpreted (``engine.warmth``) before the core is imported.
"""

from typing import TYPE_CHECKING

from raspis.engine.lazy import lazy_names

if TYPE_CHECKING:
    from .base import Parameter, RandomStrategy, Strategy
    from .play import GameRecord, StrategyFault, play_game
    from .registry import StrategySpecError, available_strategies, load_strategy

_LAZY = {"Parameter": "base", "RandomStrategy": "base", "Strategy": "base",
         "GameRecord": "play", "StrategyFault": "play", "play_game": "play",
         "StrategySpecError": "registry", "available_strategies": "registry",
         "load_strategy": "registry"}

__getattr__ = lazy_names(__name__, _LAZY)

__all__ = [
    "GameRecord", "Parameter", "RandomStrategy", "Strategy", "StrategyFault", "StrategySpecError",
    "available_strategies", "load_strategy", "play_game",
]
