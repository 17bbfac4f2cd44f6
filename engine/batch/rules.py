"""The rules' codes for batch strategies: ``BatchRules`` and the codes of ``engine.core.codes``.

``BatchRules`` is ``engine.core.plan.RulePlan`` (every option read once, the per-deal rules, the
order of Joker calls) of a variant at a player count. The codes of Joker calls and options
(``OPTIONS``, ``OPTION_CALL``, ``OPTION_SUIT``, ``CALL_*``) are those of ``engine.core.codes``,
re-exported here for the batch strategies' numpy code. The batch engine itself plays on the
rules core's state machine (``engine.batch.game``).
"""

from __future__ import annotations

from raspis.engine.core.codes import (
    CALL_CODES,
    CALL_HIGH,
    CALL_HIGHEST,
    CALL_LOW,
    CALL_LOWEST,
    CALL_NAMES,
    CALL_NONE,
    CALL_TRUMPS,
    HIGH_OPTION,
    HOOK_NAMES,
    HOOK_NO_EQUAL,
    HOOK_NONE,
    HOOK_OVERBID,
    LOW_OPTION,
    OPTION_CALL,
    OPTION_INDEX,
    OPTION_SUIT,
    OPTIONS,
    TRUMP_CIRCULAR,
    TRUMP_FIXED,
    TRUMP_LAST_DEALT,
    TRUMP_NAMED,
    TRUMP_NONE,
    TRUMP_TURNED,
    TRUMPS_OPTION,
)
from raspis.engine.core.plan import RulePlan
from raspis.engine.errors import VariantError
from raspis.engine.variant import Variant

__all__ = [
    "CALL_CODES", "CALL_HIGH", "CALL_HIGHEST", "CALL_LOW", "CALL_LOWEST", "CALL_NAMES",
    "CALL_NONE", "CALL_TRUMPS", "HIGH_OPTION", "HOOK_NAMES", "HOOK_NONE",
    "HOOK_NO_EQUAL", "HOOK_OVERBID", "LOW_OPTION", "OPTIONS", "OPTION_CALL",
    "OPTION_INDEX", "OPTION_SUIT", "TRUMPS_OPTION", "TRUMP_CIRCULAR", "TRUMP_FIXED",
    "TRUMP_LAST_DEALT", "TRUMP_NAMED", "TRUMP_NONE", "TRUMP_TURNED", "BatchRules",
]


class BatchRules(RulePlan):
    """A resolved variant at a player count, as the batch strategies read it (the core's
    ``RulePlan``: every option read once, the per-deal rules, the order of Joker calls)."""

    def __init__(self, variant: Variant, players: int) -> None:
        super().__init__(variant, players)
        refusal = self.lockstep_refusal()
        if refusal:
            raise VariantError(refusal)
