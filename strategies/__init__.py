"""Strategies: the players of raspis, built in and pluggable.

``Strategy`` is the protocol (``base.py``); ``load_strategy("ismcts:iterations=2000")`` finds one by
spec string (``registry.py``); ``play_game`` plays a game between strategies and records a failing
strategy instead of crashing (``play.py``).
"""

from .base import Parameter, RandomStrategy, Strategy
from .play import GameRecord, StrategyFault, play_game
from .registry import StrategySpecError, available_strategies, load_strategy

__all__ = [
    "GameRecord", "Parameter", "RandomStrategy", "Strategy", "StrategyFault", "StrategySpecError",
    "available_strategies", "load_strategy", "play_game",
]
