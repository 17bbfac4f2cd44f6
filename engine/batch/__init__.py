"""The batch engine: thousands of games of one variant played in lockstep with numpy.

All games of a batch share the variant, the player count and so the deal schedule; only the seeds
(the cards, the first dealer), who leads each trick and what each player chooses differ, and masks
handle those. Hands are ``uint64`` bitmasks (54 cards fit in 64 bits); one array operation moves
every game one step. The rules are those of the reference engine ``engine.game`` for every option
and preset, and the same seeds give the same deals (the shuffles are the reference's SplitMix64
keys computed with numpy). Decisions go to batch strategies (``strategies.batch``); a scalar
strategy plays through an adapter.

    >>> from raspis.engine import load_variant
    >>> from raspis.engine.batch import play_batch
    >>> from raspis.strategies.batch import load_batch_strategy  # the layer above provides players
    >>> result = play_batch(load_variant("classic"), 4, seeds=range(10_000),
    ...                     strategies=[load_batch_strategy("fastheuristic")] * 4)
    result.scores          # (10000, 4) final totals

``play_batch_matches`` plays best-of-N matches (``[match]``) as ``strategies.match.play_match``.
The tournament layer builds on it (``tournament.frames`` turns a ``BatchResult`` into the tables,
``tournament.batch_shard`` plays a shard); the engine imports nothing from the layers above it.
"""

from .game import BatchGame, play_batch
from .match import BatchMatchResult, play_batch_matches
from .observation import BatchObservation
from .result import BatchLog, BatchResult
from .rules import (
    CALL_HIGH,
    CALL_HIGHEST,
    CALL_LOW,
    CALL_LOWEST,
    CALL_NONE,
    CALL_TRUMPS,
    OPTION_CALL,
    OPTION_SUIT,
    OPTIONS,
    BatchRules,
)

__all__ = [
    "CALL_HIGH", "CALL_HIGHEST", "CALL_LOW", "CALL_LOWEST", "CALL_NONE", "CALL_TRUMPS",
    "OPTIONS", "OPTION_CALL", "OPTION_SUIT", "BatchGame", "BatchLog", "BatchMatchResult",
    "BatchObservation", "BatchResult", "BatchRules", "play_batch", "play_batch_matches",
]
