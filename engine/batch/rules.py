"""The rules for batch strategies: ``BatchRules``.

``BatchRules`` is ``engine.core.plan.RulePlan`` (every option read once, the per-deal rules, the
order of Joker calls) of a variant at a player count, refused where the lockstep loop cannot play
it. The codes of Joker calls and options (``OPTIONS``, ``OPTION_CALL``, ``OPTION_SUIT``,
``CALL_*``) are ``engine.core.codes``'s, imported from there. The batch engine itself plays on
the rules core's state machine (``engine.batch.game``).
"""

from __future__ import annotations

from raspis.engine.core.plan import RulePlan
from raspis.engine.errors import VariantError
from raspis.engine.variant import Variant

__all__ = ["BatchRules"]


class BatchRules(RulePlan):
    """A resolved variant at a player count, as the batch strategies read it (the core's
    ``RulePlan``: every option read once, the per-deal rules, the order of Joker calls)."""

    def __init__(self, variant: Variant, players: int) -> None:
        super().__init__(variant, players)
        refusal = self.lockstep_refusal()
        if refusal:
            raise VariantError(refusal)
