"""A variant compiled for the batch engine: the core's ``RulePlan`` and one ``DealPlan`` per deal.

``BatchRules`` is ``engine.core.plan.RulePlan`` (every option read once, the per-deal rules) with
what the lockstep loop adds: one ``DealPlan`` per deal of the schedule (hand size, kind, hook, how
trump is chosen, how many tricks with ``draw_after_trick``, the points table ``points[bid + 1,
taken]`` of ``engine.scoring``, the Joker's lead calls as option masks). The codes of Joker calls
and options are those of ``engine.core.codes``, re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
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
from raspis.engine.core.plan import RulePlan, shown_cards
from raspis.engine.errors import VariantError
from raspis.engine.options import KindOptions
from raspis.engine.variant import Variant

__all__ = [
    "CALL_CODES", "CALL_HIGH", "CALL_HIGHEST", "CALL_LOW", "CALL_LOWEST", "CALL_NAMES",
    "CALL_NONE", "CALL_TRUMPS", "HIGH_OPTION", "HOOK_NAMES", "HOOK_NONE",
    "HOOK_NO_EQUAL", "HOOK_OVERBID", "LOW_OPTION", "OPTIONS", "OPTION_CALL",
    "OPTION_INDEX", "OPTION_SUIT", "TRUMPS_OPTION", "TRUMP_CIRCULAR", "TRUMP_FIXED",
    "TRUMP_LAST_DEALT", "TRUMP_NAMED", "TRUMP_NONE", "TRUMP_TURNED", "BatchRules", "DealPlan",
]


@dataclass(frozen=True)
class DealPlan:
    """Everything about one deal that is the same in every game of a batch."""

    number: int
    hand_size: int
    kind_name: str
    kind: KindOptions
    block: int
    participants: int
    #: 'open', 'dark' or 'none'
    bidding: str
    hook: int
    min_bid: int
    #: legal bids before the hook and the pass limit: bits min(min_bid, hand)..hand
    bid_mask: int
    trump_rule: int
    #: cards left in the stock once dealt and the trump card turned
    stock: int
    #: draw rounds (``play.draw_after_trick``): after tricks 0..draws-1 everyone draws a card
    draws: int
    tricks: int
    #: ``points[bid + 1, taken]``: deal points before fines (row 0: no bid)
    points: np.ndarray
    #: first deal of a premium scope (reset the running made-every-bid flags)
    premium_opens: bool
    #: last deal of a premium scope (award the premium)
    premium_closes: bool
    #: legal Joker lead calls (mask over OPTIONS) on the first trick / on later tricks, without and
    #: with a trump (``RulePlan.lead_calls_mask``)
    lead_first: tuple[int, int]
    lead_later: tuple[int, int]


class BatchRules(RulePlan):
    """A resolved variant at a player count, compiled for the batch engine."""

    def __init__(self, variant: Variant, players: int) -> None:
        super().__init__(variant, players)
        shown = sorted({spec.kind for spec in self.schedule
                        if shown_cards(self.variant.kinds[spec.kind])})
        if shown:
            # the lockstep loop deals and observes on its own and has no shown cards: it would
            # hide them from every observation; the compiled loop plays them (the rules core)
            raise VariantError(
                f"variant {self.variant.name!r}: the deal kinds {shown} show a card of each hand "
                "(view = 'forehead_card'), which the numpy lockstep batch engine does not play; "
                "play them with the reference engine (raspis.engine.Game) or with compiled batch "
                "strategies (lowest, fastrandom, fastheuristic, strong: engine.batch.compiled)"
            )
        self._plans: dict[tuple[int, int, str, int, int], DealPlan] = {}

    @cached_property
    def plans(self) -> list[DealPlan]:
        """The plans of the deals of the schedule, in order."""
        return [self.plan(spec.number, spec.hand_size, spec.kind, spec.block, self.players)
                for spec in self.schedule]

    def plan(self, number: int, hand_size: int, kind_name: str, block: int,
             participants: int) -> DealPlan:
        """The plan of one deal (cached)."""
        key = (number, hand_size, kind_name, block, participants)
        cached = self._plans.get(key)
        if cached is not None:
            return cached
        kind = self.variant.kinds[kind_name]
        trump_rule = self.trump_rule(hand_size, kind, participants)
        stock = self.deck_size - hand_size * participants - (trump_rule == TRUMP_TURNED)
        draws = stock // participants if self.draw_after_trick else 0
        tricks = hand_size + draws
        opens, closes = self.premium_window(number, block)
        lowest = min(kind.min_bid, hand_size)
        lead_first = {has_trump: self.lead_calls_mask(self.demands_allowed(number, 0), has_trump)
                      for has_trump in (False, True)}
        lead_later = {has_trump: self.lead_calls_mask(self.demands_allowed(number, 1), has_trump)
                      for has_trump in (False, True)}
        plan = DealPlan(
            number=number, hand_size=hand_size, kind_name=kind_name, kind=kind, block=block,
            participants=participants, bidding=kind.bidding, hook=self.hook_rule(number, kind),
            min_bid=kind.min_bid, bid_mask=((1 << (hand_size + 1)) - 1) ^ ((1 << lowest) - 1),
            trump_rule=trump_rule, stock=stock, draws=draws, tricks=tricks,
            points=self.points_table(hand_size, kind, tricks), premium_opens=opens,
            premium_closes=closes, lead_first=(lead_first[False], lead_first[True]),
            lead_later=(lead_later[False], lead_later[True]),
        )
        self._plans[key] = plan
        return plan
