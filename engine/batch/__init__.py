"""The batch engine: thousands of games of one variant, each a state of the rules core's machine.

All games of a batch share the variant, the player count and so the deal schedule. Each game is
one state vector of ``engine.core.machine`` (a row of one matrix), moved by the machine's own
``step``, so every rule, chance event and bookkeeping step is the reference engine's
(``engine.game`` drives the same machine for one game) and the same seeds give the same games.
Where every seat is a compiled policy (``engine.batch.compiled``), whole games are played in one
compiled loop; otherwise ``engine.batch.game`` plays in lockstep: the compiled seats inside numba,
and the numpy batch strategies (``strategies.batch``) asked for many games at once through a
``BatchObservation`` (``uint64`` card masks, legal actions as masks). A scalar strategy plays
through an adapter that hands it the reference ``Observation`` of the game's state.

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
from .rules import BatchRules

__all__ = [
    "BatchGame", "BatchLog", "BatchMatchResult", "BatchObservation", "BatchResult", "BatchRules",
    "play_batch", "play_batch_matches",
]
