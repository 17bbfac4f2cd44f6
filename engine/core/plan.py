"""A variant compiled into a rule plan: every option read once, as small integers and tables.

``RulePlan(variant, players)`` (cached: ``rule_plan``) is what both engines read instead of the
pydantic ``Variant``: the options as codes for the compiled rules of ``engine.core.rules``, and the
rules that depend only on the deal (its hook, how its trump is chosen, which Joker calls a lead
may make, when the premium is judged, the tie-break deal's hand) as one function each. A rule of
the game is decided here or in ``engine.core.rules``, and nowhere else.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..cards import JOKER, parse_card
from ..options import KindOptions
from ..schedule import DealSpec
from ..variant import Variant
from . import machine
from .codes import (
    CARD_OPTION,
    DEMAND_CALLS,
    HOOK_NO_EQUAL,
    HOOK_NONE,
    HOOK_OVERBID,
    LEAD_OPTIONS,
    RANK_OPTION,
    TRUMP_CALLS,
    TRUMP_CIRCULAR,
    TRUMP_FIXED,
    TRUMP_LAST_DEALT,
    TRUMP_NAMED,
    TRUMP_NONE,
    TRUMP_TURNED,
    WINNING_LEADS,
)
from .deal import FIRST_DEALER_CODES, deal_tricks
from .rules import (
    MEMORY_CODES,
    TWO_JOKERS_FIRST_WINS,
    TWO_JOKERS_OPPOSITE,
    TWO_JOKERS_SECOND_WINS,
    nameable_cards,
)
from .scoring import (
    PREMIUM_CODES,
    PREMIUM_OTHERS_CODES,
    PREMIUM_SEVERAL_CODES,
    points_table,
    premium_window,
)

TWO_JOKERS_CODES = {"second_wins": TWO_JOKERS_SECOND_WINS, "first_wins": TWO_JOKERS_FIRST_WINS,
                    "opposite": TWO_JOKERS_OPPOSITE}


def bidding_view(kind: KindOptions) -> tuple[bool, bool, bool]:
    """(own hand hidden, trump hidden, other hands shown) while bidding a deal of ``kind``: dark
    bids come before the deal (000, 003 «в тёмную»): neither the hand nor the trump is seen;
    blind bids come after it without looking (000, 002 «либо после, но не глядя в свои карты»):
    the trump is seen, the hand is not; a forehead deal (lobovaya, 000 fifth article) shows every
    hand but one's own; lobovaya read as one card each (000 second article, 002, 003) hides the
    hand and shows the others' shown cards only (``shown_cards``).
    """
    if kind.bidding == "dark":
        return True, True, False
    if kind.bidding == "blind":
        return True, False, False
    if kind.view == "forehead":
        return True, False, True
    if kind.view == "forehead_card":  # the others' shown cards: ``shown_cards``
        return True, False, False
    return False, False, False


def shown_cards(kind: KindOptions) -> int:
    """How many cards of its hand each seat shows the others at a deal of ``kind``, drawn at
    random without looking (``engine.core.deal.forehead_cards``): one in a lobovaya deal read as
    000's second article, 002 and 003 do (``view = "forehead_card"``: «Покеристы наугад выбирают
    одну карту и клеят ее себе на лоб»), else none. The others see them until they are played
    (``machine.visible_other_hand``)."""
    return 1 if kind.view == "forehead_card" else 0


class RulePlan:
    """A resolved variant at a player count, as the rules core reads it."""

    def __init__(self, variant: Variant, players: int, *, resolve: bool = True) -> None:
        if resolve:
            variant = variant.for_player_count(players)
        self.variant = variant
        self.players = players
        self.deck_cards = np.array(variant.deck_cards, dtype=np.int64)
        self.deck_size = len(variant.deck_cards)
        self.deck_mask = variant.deck_mask
        self.jokers_in_deck = tuple(card for card in variant.deck_cards if card >= JOKER)
        self.first_dealer = FIRST_DEALER_CODES[variant.table.first_dealer]
        self.has_jokers = bool(self.jokers_in_deck)
        trump = variant.trump
        self.fixed_suit = variant.fixed_suit_index() if trump.mode == "fixed" else -1
        self.dealer_names_on_joker = trump.joker_turned == "dealer_names"
        self.named_after_cards = trump.named_after_cards
        self.naming_allows_no_trump = trump.naming_allows_no_trump
        joker = variant.joker
        self.lead_calls = tuple(joker.lead_calls)
        self.two_jokers = TWO_JOKERS_CODES[joker.two_jokers]
        self.trump_wins = joker.demand_trumped == "trump_wins"
        self.lead_fine = joker.lead_fine
        self.lock_card = parse_card(joker.locked_until) if joker.locked_until else -1
        self.as_card = joker.as_card
        #: the cards a Joker may be declared as (``rules.nameable_cards``; 0: ``as_card`` off)
        self.nameable = nameable_cards(self.deck_mask) if joker.as_card else 0
        self.lead_choice = joker.lead_choice
        play = variant.play
        self.must_trump = play.must_trump
        self.dealer_leads = play.first_lead == "dealer"
        self.draw_after_trick = play.draw_after_trick
        self.memory = play.memory
        limit = variant.bidding.max_consecutive_passes
        self.pass_limit = -1 if limit is None else limit
        scoring = variant.scoring
        self.premium = scoring.premium
        self.premium_mode = PREMIUM_CODES[scoring.premium]
        self.premium_points = scoring.premium_points
        self.premium_scope = scoring.premium_scope
        self.premium_others = PREMIUM_OTHERS_CODES[scoring.premium_others]
        self.premium_several = PREMIUM_SEVERAL_CODES[scoring.premium_several]
        self.premium_last_excluded = scoring.premium_last_deal == "excluded"
        end = variant.end
        golden = end.tie == "golden_deal" and "golden" in variant.kinds
        self.tie_deals = end.tie_deals if golden else 0
        self.double_loss = end.negative_total == "double_loss"
        #: lead options in the order of the legal actions (the variant's ``lead_calls`` order)
        order: list[int] = []
        for name in self.lead_calls:
            order.extend(option for option in self.lead_options(name) if option not in order)
        self.lead_option_order = tuple(order)
        self._lead_masks: dict[tuple[bool, bool], int] = {}
        #: a memo for the engines' faces (e.g. legal-action records by mask), per plan
        self.memo: dict[object, object] = {}
        self._machines: dict[object, MachineTables] = {}
        self.kind_names = tuple(variant.kinds)

    def lockstep_refusal(self) -> str | None:
        """Why a numpy batch strategy (a seat of ``engine.batch.BatchGame`` decided in numpy, or
        through a scalar adapter) cannot play this variant, or None. Its ``BatchObservation``
        and its action columns carry no shown card (``view = "forehead_card"``), no named card
        (``joker.as_card``), no keep-or-decline decision (``joker.lead_choice``) and no stock
        drawn after each trick (``play.draw_after_trick``); the state machine plays them all, so
        ``engine.Game`` and batches of compiled strategies do. The one list of these options:
        ``engine.batch.rules.BatchRules`` raises it, and the tournament runner asks it to pick
        the scalar engine instead."""
        shown = sorted({spec.kind for spec in self.schedule
                        if shown_cards(self.variant.kinds[spec.kind])})
        named = [name for name, on in (
            ("joker.as_card (the Joker declared as any card)", self.as_card),
            ("joker.lead_choice (keep or decline the trick after a Joker lead)",
             self.lead_choice),
            ("play.draw_after_trick (a draw from the stock after each trick)",
             self.draw_after_trick),
            (f"view = 'forehead_card' (one card of each hand shown, deal kinds {shown})",
             bool(shown))) if on]
        if not named:
            return None
        return (f"variant {self.variant.name!r}: {'; '.join(named)}: a numpy batch strategy "
                "of the lockstep batch engine cannot play it, its batch observation does not "
                "show it. Play the variant with compiled batch strategies (lowest, random, "
                "fastrandom, fastheuristic, strong) or with the reference engine (engine.Game, "
                "--engine scalar)")

    @cached_property
    def schedule(self) -> list[DealSpec]:
        """The deals of the schedule at this player count."""
        return self.variant.deal_schedule(self.players)

    @property
    def schedule_length(self) -> int:
        """Deals in the schedule (tie-break deals not counted)."""
        return len(self.schedule)

    # -- per deal -------------------------------------------------------------------------------

    def hook_rule(self, number: int, kind: KindOptions) -> int:
        """The hook of deal ``number`` (0-based) of ``kind``: none, no_equal or overbid (000: «не
        сходимся»; 003: off for beginners, from the fourth deal, only in the special deals, and
        the overbid of the dark deals)."""
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
        """How a deal's trump is chosen (RULES §4): none, named, fixed, circular, the dealer's last
        card (a deal of the whole deck, 000 «без остатка»; 003's unturned odd card counts as one),
        or the card turned after the deal."""
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

    def shown_card_is_dealt(self, hand_size: int, participants: int) -> bool:
        """Whether the card shown for trump is the dealer's last card (a deal of the whole deck)
        rather than a card turned up from the stock, which is in nobody's hand (RULES §4)."""
        return self.deck_size - hand_size * participants <= self.variant.trump.unturned_leftover

    def demands_allowed(self, number: int, trick: int) -> bool:
        """Whether a Joker may lead with a demand in trick ``trick`` of deal ``number`` (002, 003:
        only on the first trick of a deal; 000: only in the first deals of the game)."""
        joker = self.variant.joker
        if joker.demands_first_trick_only and trick > 0:
            return False
        return not (joker.demands_until_deal is not None and number + 1 > joker.demands_until_deal)

    def lead_options(self, name: str) -> tuple[int, ...]:
        """The options over ``codes.OPTIONS`` of the ``joker.lead_calls`` entry ``name``; a named
        rank (003: «карту определённого номинала, например туза») only for the ranks of the deck
        (a 36-card deck names six to ace)."""
        options = LEAD_OPTIONS[name]
        if name != "named_rank":
            return options
        ranks = {card % 13 for card in self.variant.deck_cards if card < JOKER}
        return tuple(option for option in options if option - RANK_OPTION in ranks)

    def lead_calls_mask(self, demands: bool, has_trump: bool) -> int:
        """The calls a Joker may lead with, as options over ``codes.OPTIONS``: the variant's
        ``lead_calls`` less the demands where they are barred and "highest trumps" and "lowest
        trump" without a trump.
        Where the variant lets the Joker be led to take the trick (it beats everything, RULES §5)
        and the calls that do are barred here (classic's ``low`` alone once its demands are
        barred, or "highest trumps" in a no-trump deal), plain "high" is added; where no call is
        left at all, plain "high" too."""
        key = (demands, has_trump)
        cached = self._lead_masks.get(key)
        if cached is not None:
            return cached
        mask = 0
        for name in self.lead_calls:
            if name in DEMAND_CALLS and not demands:
                continue
            if name in TRUMP_CALLS and not has_trump:
                continue
            for option in self.lead_options(name):
                mask |= 1 << option
        if not any(mask >> option & 1 for option in WINNING_LEADS) and (
                mask == 0 or any(option in WINNING_LEADS for option in self.lead_option_order)):
            mask |= 1 << 0
        if self.as_card:  # the Joker declared as a card (000, 002), never barred as a demand
            mask |= 1 << CARD_OPTION
        self._lead_masks[key] = mask
        return mask

    def call_order(self, lead: bool) -> tuple[int, ...]:
        """Joker call options in the order of the legal actions: on a lead the variant's
        ``lead_calls`` order, then the fallback "high"; otherwise high, low; then, with
        ``as_card``, the Joker declared as a card (one play per card of ``nameable``)."""
        named = (CARD_OPTION,) if self.as_card else ()
        if not lead:
            return (0, 1, *named)
        return (self.lead_option_order + ((0,) if 0 not in self.lead_option_order else ())
                + named)

    def premium_window(self, number: int, block: int,
                       schedule: list[DealSpec] | None = None) -> tuple[bool, bool]:
        """(opens, closes): whether deal ``number`` of ``block`` starts and ends the span over
        which the premium is judged (``scoring.premium_window``); the deals are the variant's
        schedule unless another is given (a single deal set up by hand)."""
        deals = self.schedule if schedule is None else schedule
        return premium_window(self.premium, self.premium_scope, number, block,
                              [spec.block for spec in deals])

    def tie_hand_size(self, tied: int) -> int:
        """The hand of an extra golden deal between ``tied`` players (003): as many cards as the
        deck gives each, capped by the schedule's ``max_hand``."""
        hand = self.deck_size // tied
        cap = self.variant.schedule.max_hand
        return min(hand, cap) if cap else hand

    def deal_tricks(self, hand_size: int, participants: int) -> int:
        """Tricks a deal of ``hand_size`` cards between ``participants`` plays
        (``deal.deal_tricks``): the hand, and with the draw after each trick (002) one trick more
        for each round the stock gives, the turned trump card counted in the stock (it lies under
        it, drawn last)."""
        return int(deal_tricks(hand_size, participants, self.deck_size - hand_size * participants,
                               self.draw_after_trick))

    def machine(self, schedule: tuple[DealSpec, ...] | None = None,
                tie_deals: int | None = None, participants: int | None = None) -> MachineTables:
        """The plan as the compiled state machine reads it (``engine.core.machine``), for the
        variant's schedule or another one (a deal set up by hand, dealt to ``participants``
        seats: all of them unless given, fewer for a tie-break deal of the tied players), cached."""
        key = (schedule, tie_deals, participants)
        cached = self._machines.get(key)
        if cached is None:
            cached = self._machines[key] = MachineTables(self, schedule, tie_deals, participants)
        return cached

    def points_table(self, hand_size: int, kind: KindOptions, tricks: int) -> np.ndarray:
        """``table[bid + 1, taken]``: a seat's deal points before fines (row 0: no bid): the
        variant's ``scoring.points_table``; bids and tricks range over the deal's ``tricks``
        (the hand, and the rounds drawn with ``play.draw_after_trick``: its "all tricks" rows
        are those of the whole deal)."""
        return points_table(kind, tricks, self.variant.scoring)

    @cached_property
    def swing_bounds(self) -> np.ndarray:
        """Per deal of the schedule, a bound on how much that deal can change the gap between two
        seats' totals: the range of its score table (the most a seat can score minus the least),
        two Joker lead fines (``joker.lead_fine``, as ``Variant``'s own bound counts them), and
        where the deal closes the span of a premium (``premium_window``) twice the most the
        premium can move one total (``scoring.span_premiums``: the fixed points or the best
        deal of the span earned again, and a best deal cancelled). The outcome measures read it:
        a game whose leader is ahead by more than what its remaining deals can swing is decided
        (``engine.batch.result.drama_of``)."""
        deals = self.schedule
        kinds = self.variant.kinds
        ranges = np.zeros(len(deals), dtype=np.int64)
        largest = np.zeros(len(deals), dtype=np.int64)
        for index, spec in enumerate(deals):
            kind = kinds[spec.kind]
            tricks = self.deal_tricks(spec.hand_size, self.players)
            table = self.points_table(spec.hand_size, kind, tricks)
            cells = table[:1] if kind.bidding == "none" else table[1:]
            ranges[index] = int(cells.max()) - int(cells.min()) + 2 * abs(self.lead_fine)
            largest[index] = int(np.abs(cells).max()) + abs(self.lead_fine)
        if self.premium != "none":
            span_start = 0
            for index, spec in enumerate(deals):
                opens, closes = self.premium_window(spec.number, spec.block)
                if opens:
                    span_start = index
                if closes:  # a premium (at most the best deal, or the fixed points) and a
                    # cancelled best deal move one total by at most their sum
                    fixed = abs(self.premium_points) if self.premium == "fixed" else 0
                    ranges[index] += 2 * (fixed + int(largest[span_start:index + 1].max()))
        return ranges


class MachineTables:
    """A ``RulePlan`` compiled for ``engine.core.machine``: ``plan``, one vector with the options as
    codes, the state's layout, the deck, the deal table (``deals``, also kept as a matrix: one
    row per deal the game may play, the schedule's, then the tie-break deals by extra deal and
    number of tied players) and every row's score table; ``length``: entries of a game's
    state."""

    def __init__(self, rules: RulePlan, schedule: tuple[DealSpec, ...] | None,
                 tie_deals: int | None, participants: int | None = None) -> None:
        deals = list(rules.schedule if schedule is None else schedule)
        self.schedule = tuple(deals)
        players = rules.players
        ties = rules.tie_deals if tie_deals is None else tie_deals
        kinds = rules.variant.kinds
        # the tricks of a deal with the draw after each trick depend on who is dealt in
        dealt_in = players if participants is None else participants
        specs: list[tuple[DealSpec, int]] = [(spec, dealt_in) for spec in deals]
        for extra in range(ties):
            for tied in range(2, players + 1):
                number = len(deals) + extra
                specs.append((DealSpec(number, rules.tie_hand_size(tied), "golden", -1), tied))
        table = np.zeros((len(specs), machine.D_WIDTH), dtype=np.int64)
        points: list[np.ndarray] = []
        at = 0
        most_tricks = 1
        for row, (spec, participants) in enumerate(specs):
            kind = kinds[spec.kind]
            rule = rules.trump_rule(spec.hand_size, kind, participants)
            tricks = rules.deal_tricks(spec.hand_size, participants)
            most_tricks = max(most_tricks, tricks)
            opens, closes = rules.premium_window(spec.number, spec.block, deals) if (
                spec.number < len(deals)) else (False, False)
            first = rules.demands_allowed(spec.number, 0)
            later = rules.demands_allowed(spec.number, 1)
            scores = rules.points_table(spec.hand_size, kind, tricks)
            view = bidding_view(kind)
            table[row] = 0
            values = {
                machine.D_NUMBER: spec.number, machine.D_HAND: spec.hand_size,
                machine.D_KIND: rules.kind_names.index(spec.kind), machine.D_BLOCK: spec.block,
                machine.D_HOOK: rules.hook_rule(spec.number, kind), machine.D_TRUMP_RULE: rule,
                machine.D_DEMANDS_FIRST: first, machine.D_DEMANDS_LATER: later,
                machine.D_CALLS_NN: rules.lead_calls_mask(False, False),
                machine.D_CALLS_NT: rules.lead_calls_mask(False, True),
                machine.D_CALLS_DN: rules.lead_calls_mask(True, False),
                machine.D_CALLS_DT: rules.lead_calls_mask(True, True),
                machine.D_OPENS: opens, machine.D_CLOSES: closes, machine.D_MIN_BID: kind.min_bid,
                machine.D_BIDDING: kind.bidding != "none",
                machine.D_HOLDER_LEADS: kind.joker_holder_leads, machine.D_TRICKS: tricks,
                machine.D_POINTS_AT: at, machine.D_POINTS_WIDTH: scores.shape[1],
                machine.D_PARTICIPANTS: participants, machine.D_SPECIAL: kind.special,
                machine.D_HAND_HIDDEN: view[0], machine.D_TRUMP_HIDDEN: view[1],
                machine.D_OTHERS_SHOWN: view[2], machine.D_SHOWN: shown_cards(kind),
            }
            for column, value in values.items():
                table[row, column] = int(value)
            points.append(scores.ravel())
            at += scores.size
        self.deals = table
        #: whether some deal shows a card of each hand (``shown_cards``), seen all deal long
        self.shows_cards = bool(table[:, machine.D_SHOWN].any())
        flat_points = np.concatenate(points) if points else np.zeros(1, dtype=np.int64)
        results = len(deals) + ties
        offsets = machine.layout(players, rules.deck_size, most_tricks, results)
        deals_at = machine.P_LENGTH + rules.deck_size
        points_at = deals_at + table.size
        plan = np.zeros(points_at + flat_points.size, dtype=np.int64)
        options = {
            machine.P_PLAYERS: players, machine.P_DECK: rules.deck_size,
            machine.P_MUST_TRUMP: rules.must_trump, machine.P_LOCK: rules.lock_card,
            machine.P_TWO_JOKERS: rules.two_jokers, machine.P_TRUMP_WINS: rules.trump_wins,
            machine.P_LEAD_FINE: rules.lead_fine, machine.P_DRAW: rules.draw_after_trick,
            machine.P_PASS_LIMIT: rules.pass_limit, machine.P_PREMIUM_MODE: rules.premium_mode,
            machine.P_PREMIUM_POINTS: rules.premium_points, machine.P_TIE_DEALS: ties,
            machine.P_SCHEDULE: len(deals), machine.P_FIXED_SUIT: rules.fixed_suit,
            machine.P_DEALER_NAMES: rules.dealer_names_on_joker,
            machine.P_NAMED_AFTER: rules.named_after_cards or 0,
            machine.P_DEALER_LEADS: rules.dealer_leads, machine.P_FIRST_DEALER: rules.first_dealer,
            machine.P_NO_TRUMP_NAMING: rules.naming_allows_no_trump,
            machine.P_ROWS: len(specs), machine.P_MAX_TRICKS: most_tricks,
            machine.P_MAX_RESULTS: results, machine.P_SIZE: offsets["length"],
            machine.P_MEMORY: MEMORY_CODES[rules.memory],
            machine.P_PREMIUM_OTHERS: rules.premium_others,
            machine.P_PREMIUM_SEVERAL: rules.premium_several,
            machine.P_PREMIUM_LAST_EXCLUDED: rules.premium_last_excluded,
            machine.P_NAMEABLE: rules.nameable,
            machine.P_KEEP: rules.lead_choice,
            machine.O_DECK: machine.P_LENGTH, machine.O_DEALS: deals_at,
            machine.O_POINTS: points_at,
        }
        for name, value in offsets.items():
            if name != "length":
                options[getattr(machine, name)] = value
        for column, value in options.items():
            plan[column] = int(value)
        plan[machine.P_LENGTH:deals_at] = rules.deck_cards
        plan[deals_at:points_at] = table.ravel()
        plan[points_at:] = flat_points
        self.plan = plan
        self.length = offsets["length"]
        self.players = players
        self.max_tricks = most_tricks
        self.max_results = results


_PLANS: dict[tuple[int, int], tuple[Variant, RulePlan]] = {}


def rule_plan(variant: Variant, players: int) -> RulePlan:
    """The cached ``RulePlan`` of ``variant`` (already resolved for ``players``: see
    ``Variant.for_player_count``) at ``players``."""
    key = (id(variant), players)
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is variant:
        return cached[1]
    plan = RulePlan(variant, players, resolve=False)
    _PLANS[key] = (variant, plan)
    return plan


__all__ = ["TWO_JOKERS_CODES", "MachineTables", "RulePlan", "bidding_view",
           "rule_plan", "shown_cards"]
