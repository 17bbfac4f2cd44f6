"""A variant compiled for the batch engine: every rule option read once, as flags and small tables.

``BatchRules`` turns a resolved ``Variant`` and a player count into what the lockstep loop needs:
one ``DealPlan`` per deal of the schedule (hand size, kind, hook, how trump is chosen, how many
tricks with ``draw_after_trick``, a points table ``points[bid + 1, taken]`` filled by the reference
``engine.scoring.deal_points`` so scores agree by construction) and the Joker's calls as bitmasks.

Joker calls are small ints: ``CALL_NONE`` (an ordinary card), ``CALL_HIGH``, ``CALL_LOW``,
``CALL_HIGHEST``, ``CALL_LOWEST``, ``CALL_TRUMPS``; a play is ``(card, call, suit)``. The legal
calls of a Joker are a bitmask over the 19 ``OPTIONS`` (call, suit) pairs below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from raspis.engine.cards import JOKER, parse_card
from raspis.engine.options import KindOptions
from raspis.engine.schedule import DealSpec
from raspis.engine.scoring import deal_points
from raspis.engine.variant import Variant

CALL_NONE, CALL_HIGH, CALL_LOW, CALL_HIGHEST, CALL_LOWEST, CALL_TRUMPS = range(6)
#: Call codes by the names of ``engine.actions`` (and back).
CALL_CODES: dict[str | None, int] = {None: CALL_NONE, "high": CALL_HIGH, "low": CALL_LOW,
                                     "highest": CALL_HIGHEST, "lowest": CALL_LOWEST,
                                     "trumps": CALL_TRUMPS}
CALL_NAMES: tuple[str | None, ...] = (None, "high", "low", "highest", "lowest", "trumps")

#: The (call, suit) pairs a Joker may be played with; bit ``i`` of a legal-calls mask is OPTIONS[i].
OPTIONS: tuple[tuple[int, int], ...] = (
    (CALL_HIGH, -1), (CALL_LOW, -1),
    *((CALL_HIGH, suit) for suit in range(4)),
    *((CALL_LOW, suit) for suit in range(4)),
    *((CALL_HIGHEST, suit) for suit in range(4)),
    *((CALL_LOWEST, suit) for suit in range(4)),
    (CALL_TRUMPS, -1),
)
OPTION_CALL = np.array([call for call, _ in OPTIONS], dtype=np.int64)
OPTION_SUIT = np.array([suit for _, suit in OPTIONS], dtype=np.int64)
#: ``OPTION_INDEX[call, suit + 1]``: the option's bit, or -1 for a pair that is no option.
OPTION_INDEX = np.full((6, 5), -1, dtype=np.int64)
for _index, (_call, _suit) in enumerate(OPTIONS):
    OPTION_INDEX[_call, _suit + 1] = _index
HIGH_OPTION = 1 << 0
LOW_OPTION = 1 << 1
TRUMPS_OPTION = 1 << 18
#: Calls that make a Joker take the trick (``Game._trick_winner``'s "high" list).
HIGH_CALLS = (CALL_HIGH, CALL_HIGHEST, CALL_TRUMPS)
IS_HIGH_CALL = np.array([call in HIGH_CALLS for call in range(6)])

_LEAD_OPTIONS: dict[str, list[int]] = {
    "high": [0], "low": [1],
    "high_suit": [2, 3, 4, 5], "low_suit": [6, 7, 8, 9],
    "highest_suit": [10, 11, 12, 13], "lowest_suit": [14, 15, 16, 17],
    "highest_trumps": [18],
}
_DEMANDS = ("highest_suit", "lowest_suit", "highest_trumps")

#: Trump rules of a deal: how ``Game._choose_trump`` decides, known before the cards are seen.
TRUMP_NONE, TRUMP_NAMED, TRUMP_FIXED, TRUMP_CIRCULAR, TRUMP_LAST_DEALT, TRUMP_TURNED = range(6)
HOOK_NONE, HOOK_NO_EQUAL, HOOK_OVERBID = range(3)
HOOK_NAMES = ("none", "no_equal", "overbid")


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
    #: legal Joker lead calls (mask over OPTIONS) on the first trick / on later tricks, not counting
    #: "highest trumps", which needs a trump (``trumps_first`` / ``trumps_later``)
    lead_first: int
    lead_later: int
    trumps_first: bool
    trumps_later: bool


class BatchRules:
    """A resolved variant at a player count, compiled for the batch engine."""

    def __init__(self, variant: Variant, players: int) -> None:
        variant = variant.for_player_count(players)
        self.variant = variant
        self.players = players
        self.deck_cards = np.array(variant.deck_cards, dtype=np.int64)
        self.deck_size = len(variant.deck_cards)
        self.jokers_in_deck = tuple(card for card in variant.deck_cards if card >= JOKER)
        self.has_jokers = bool(self.jokers_in_deck)
        trump = variant.trump
        self.trump_mode = trump.mode
        self.fixed_suit = variant.fixed_suit_index() if trump.mode == "fixed" else -1
        self.dealer_names_on_joker = trump.joker_turned == "dealer_names"
        self.named_after_cards = trump.named_after_cards
        self.naming_allows_no_trump = trump.naming_allows_no_trump
        joker = variant.joker
        self.lead_calls = tuple(joker.lead_calls)
        self.two_jokers = joker.two_jokers
        self.trumps_beat_demands = joker.demand_trumped == "trump_wins"
        self.lead_fine = joker.lead_fine
        self.lock_card = parse_card(joker.locked_until) if joker.locked_until else -1
        play = variant.play
        self.must_trump = play.must_trump
        self.dealer_leads = play.first_lead == "dealer"
        self.draw_after_trick = play.draw_after_trick
        self.memory = play.memory
        self.pass_limit = variant.bidding.max_consecutive_passes
        scoring = variant.scoring
        self.premium = scoring.premium
        self.premium_points = scoring.premium_points
        self.premium_scope = scoring.premium_scope
        end = variant.end
        golden = end.tie == "golden_deal" and "golden" in variant.kinds
        self.tie_deals = end.tie_deals if golden else 0
        self.double_loss = end.negative_total == "double_loss"
        self.schedule: list[DealSpec] = variant.deal_schedule(players)
        self.schedule_length = len(self.schedule)
        #: the order of lead options in the reference's legal-action list (variant order)
        order: list[int] = []
        for name in self.lead_calls:
            order.extend(option for option in _LEAD_OPTIONS[name] if option not in order)
        self.lead_option_order = tuple(order)
        self._plans: dict[tuple[int, int, str, int, int], DealPlan] = {}

    def call_order(self, lead: bool) -> tuple[int, ...]:
        """Joker call options in the order of the reference's legal actions (on a lead: the
        variant's ``lead_calls`` order, then the fallback "high"; otherwise high, low)."""
        if not lead:
            return (0, 1)
        return self.lead_option_order + ((0,) if 0 not in self.lead_option_order else ())

    @cached_property
    def plans(self) -> list[DealPlan]:
        """The plans of the deals of the schedule, in order."""
        return [self.plan(spec.number, spec.hand_size, spec.kind, spec.block, self.players)
                for spec in self.schedule]

    def tie_hand_size(self, tied: int) -> int:
        """The hand of an extra golden deal between ``tied`` players (``Game._next_deal``)."""
        hand = self.deck_size // tied
        cap = self.variant.schedule.max_hand
        return min(hand, cap) if cap else hand

    def hook_rule(self, number: int, kind: KindOptions) -> int:
        """``Game.hook_rule`` of a deal."""
        if kind.hook != "variant":
            return {"always": HOOK_NO_EQUAL, "off": HOOK_NONE, "overbid": HOOK_OVERBID}[kind.hook]
        bidding = self.variant.bidding
        if bidding.hook == "always":
            return HOOK_NO_EQUAL
        if bidding.hook == "from_deal":
            return HOOK_NO_EQUAL if number + 1 >= bidding.hook_from_deal else HOOK_NONE
        if bidding.hook == "specials_only":
            return HOOK_NO_EQUAL if kind.special else HOOK_NONE
        if bidding.hook == "overbid":
            return HOOK_OVERBID
        return HOOK_NONE

    def trump_rule(self, hand_size: int, kind: KindOptions, participants: int) -> int:
        """How ``Game._choose_trump`` decides the trump of a deal."""
        trump = self.variant.trump
        if kind.trump == "none" or trump.mode == "none":
            return TRUMP_NONE
        if kind.trump == "named":
            return TRUMP_NAMED
        if trump.mode == "fixed":
            return TRUMP_FIXED
        if trump.mode == "circular":
            return TRUMP_CIRCULAR
        stock = self.deck_size - hand_size * participants
        if stock <= trump.unturned_leftover:
            return {"no_trump": TRUMP_NONE, "named": TRUMP_NAMED,
                    "last_dealt": TRUMP_LAST_DEALT}[trump.full_deal]
        return TRUMP_TURNED

    def _lead_mask(self, demands: bool) -> tuple[int, bool]:
        mask = 0
        trumps = False
        for name in self.lead_calls:
            if name in _DEMANDS and not demands:
                continue
            if name == "highest_trumps":
                trumps = True
                continue
            for option in _LEAD_OPTIONS[name]:
                mask |= 1 << option
        return mask, trumps

    def demands_allowed(self, number: int, trick: int) -> bool:
        """``Game._demands_allowed`` for a deal number and trick index."""
        joker = self.variant.joker
        if joker.demands_first_trick_only and trick > 0:
            return False
        return not (joker.demands_until_deal is not None and number + 1 > joker.demands_until_deal)

    def plan(self, number: int, hand_size: int, kind_name: str, block: int,
             participants: int) -> DealPlan:
        """The plan of one deal (cached)."""
        key = (number, hand_size, kind_name, block, participants)
        cached = self._plans.get(key)
        if cached is not None:
            return cached
        variant = self.variant
        kind = variant.kinds[kind_name]
        trump_rule = self.trump_rule(hand_size, kind, participants)
        stock = self.deck_size - hand_size * participants - (trump_rule == TRUMP_TURNED)
        draws = stock // participants if self.draw_after_trick else 0
        tricks = hand_size + draws
        points = np.zeros((hand_size + 2, tricks + 1), dtype=np.int64)
        for taken in range(tricks + 1):
            if kind.bidding == "none":
                points[0, taken] = deal_points(None, taken, hand_size, kind, variant.scoring)
            else:
                for bid in range(hand_size + 1):
                    points[bid + 1, taken] = deal_points(bid, taken, hand_size, kind,
                                                         variant.scoring)
        opens = closes = False
        if self.premium != "none" and block >= 0:
            if self.premium_scope == "game":
                opens = number == 0
                closes = number == self.schedule_length - 1
            else:
                opens = number == 0 or self.schedule[number - 1].block != block
                closes = (number + 1 >= self.schedule_length
                          or self.schedule[number + 1].block != block)
        lowest = min(kind.min_bid, hand_size)
        lead_first, trumps_first = self._lead_mask(self.demands_allowed(number, 0))
        lead_later, trumps_later = self._lead_mask(self.demands_allowed(number, 1))
        plan = DealPlan(
            number=number, hand_size=hand_size, kind_name=kind_name, kind=kind, block=block,
            participants=participants, bidding=kind.bidding, hook=self.hook_rule(number, kind),
            min_bid=kind.min_bid, bid_mask=((1 << (hand_size + 1)) - 1) ^ ((1 << lowest) - 1),
            trump_rule=trump_rule, stock=stock, draws=draws, tricks=tricks, points=points,
            premium_opens=opens, premium_closes=closes, lead_first=lead_first,
            lead_later=lead_later, trumps_first=trumps_first, trumps_later=trumps_later,
        )
        self._plans[key] = plan
        return plan
