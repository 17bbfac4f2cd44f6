"""The rules core: every rule of the game written once, compiled, under both engines.

- ``engine.core.codes``: the integer codes of Joker calls, call options, hooks and trump rules
  (their one home: import them from there);
- ``engine.core.rules``: the rules of play as compiled ``numba`` functions (``compiling.jit``) over
  plain integers (legal bids, legal cards, must-trump, every Joker demand and call, the trick's card
  key);
- ``engine.core.scoring``: every scoring rule in one place: the score table, the multipliers and
  fines, a seat's score of a deal, and the premium (its span, its judge, its reference readings);
- ``engine.core.plan``: a variant compiled into a ``RulePlan`` of codes and tables, with the rules
  that depend only on the deal (hook, trump choice, lead calls, premium span, tie-break hand).

- ``engine.core.cache``: the compiled functions are cached in a folder named after a hash of
  their sources, so a changed rule is never served from a stale cache;
- ``engine.core.inliner``: numba's inliner without its wasted copies (the first run's compile).

``engine.Game`` (one game) and ``engine.batch`` (thousands in lockstep) both call these; so do the
strategies, for their reasoning about tricks. A new play rule costs ``engine.options``, the core
and its tests.
"""

from . import (
    cache,  # noqa: F401  (first: the compiled cache is keyed by the core's source)
    inliner,  # noqa: F401  (before anything compiles)
)
from .plan import RulePlan, rule_plan

__all__ = ["RulePlan", "rule_plan"]
