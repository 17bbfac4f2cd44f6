"""The heuristic strategy: fast rules of thumb, and the playout policy of the search strategies.

Bidding counts the tricks the hand should take (``tactics.estimate_tricks``: Jokers, top trumps and
aces nearly whole, lower cards by the chance that the unseen higher ones fall, side suits discounted
for ruffs, spare trumps for ruffing; one-card deals by the exact chance of the single card) and bids
the legal bid nearest that count, so the dealer caught by the hook takes the nearest bid allowed. In
a dark deal it bids the share of the tricks a seat takes on average; in a lobovaya deal, the tricks
the visible hands leave over. Naming trump, it names the longest suit among its first cards.

Card play (``tactics.choose_play``) aims at the number of tricks that scores best under the deal's
own table (the bid while short of it, none once it is made, all of them in a golden deal, none in a
misère) and follows the rules of thumb described in ``strategies.players.tactics``.

Where the variant has a premium for making every bid of a span (002's «премия», the game or a
pulka: ``scoring.premium``), a ``PremiumTracker`` follows, deal by deal, which seats have made every
bid of the span so far (from the bids, the tricks taken and the totals every seat sees) and their
best deal of it. For such a seat, making this deal's bid is worth its points plus the premium it
keeps in reach (``tactics.premium_stake``: the best deal of the span, or the fixed points, times
``premium_odds`` for each later bid of the span), and missing it loses that: the bid is chosen under
the table with the stake added. The heuristic, ``ev`` and ``ismcts`` do so unless told
``premium=false`` (the play from before, with which the games of ``tests/golden`` were recorded).

``policy_action(game)`` is the same strategy reading a ``Game`` directly, without building an
observation: the search strategies use it for every seat in their playouts.
"""

from __future__ import annotations

import random

from raspis.engine import Action, Bid, NameTrump, Observation, Play
from raspis.engine.cards import JOKER_MASK
from raspis.engine.core.deal import seated_leader
from raspis.engine.core.plan import bidding_view, rule_plan
from raspis.engine.determinize import draws_made, play_options, shown_card_is_dealt
from raspis.engine.game import Game, Phase
from raspis.engine.variant import Variant

from ..base import Parameter, Strategy
from ..policies.cards import Aims, seat_aims
from ..policies.chances import Holding
from ..policies.keep import keep_from_game, settled_action
from .tactics import (
    PLAYS,
    Rules,
    best_bid,
    card_chances,
    choose_play,
    estimate_tricks,
    name_trump_suit,
    nearest_bid,
    premium_stake,
    rules_for,
    staked_table,
    trick_distribution,
    trick_view,
)


def premium_parameters(default: bool) -> dict[str, Parameter]:
    """The premium parameters of the built-in strategies that play for it (heuristic, ev, ismcts);
    ``default``: whether they play for it unless told (all three do: docs/strength.md measured it
    worth 13 to 17 points a game to the heuristic on joker-pagat)."""
    return {
        "premium": Parameter(bool, default, "play for the premium of a span (002; "
                             "scoring.premium) when the variant has one: a made bid is worth "
                             "the premium kept in reach (false: the deal's points only)"),
        "premium_odds": Parameter(float, 1.0, "weight of each bid of the span still to come on "
                                  "the premium's stake: the premium times this to the power of "
                                  "those bids (1: the whole premium; 0.4 to 1 measured, 1 best: "
                                  "docs/strength.md)"),
    }


#: The premium parameters as the heuristic, ev, ismcts and pimc take them (on by default).
PREMIUM_PARAMETERS = premium_parameters(True)


def expected_first_leader(dealer_leads: bool, dealer: int,
                          order: tuple[int, ...] | list[int]) -> int:
    """The seat a bidder expects to lead the first trick: the core's rule by the seating alone
    (``engine.core.deal.seated_leader``; ``dealer_leads``: ``play.first_lead = "dealer"``). A
    bidder's expectation, not the whole rule (``engine.core.deal.first_leader``): in 000's
    no-trump deals the Joker's holder leads, which a bidder cannot know."""
    position = order.index(dealer) if dealer in order else -1
    return order[int(seated_leader(position, dealer_leads))]


def bid_distribution(
    rules: Rules,
    seat: int,
    hand: int | None,
    other_hands: list[int | None] | tuple[int | None, ...],
    trump: int,
    hand_size: int,
    order: tuple[int, ...] | list[int],
    dealer: int,
    out: int,
    calibrate: bool = True,
) -> list[float]:
    """The chance of taking 0..hand_size tricks for ``seat`` bidding: from its ``hand``; without
    it (``None``), from the tricks the visible other hands leave over (lobovaya: a hand seen in
    part, as the one card each seat shows, counts its seen cards' chances and the average share
    for the rest), else from the average share of the tricks (dark). ``out`` holds cards known to
    be in no hand."""
    players = len(order)
    scale = rules.scale(players, hand_size, trump >= 0 or rules.circular) if calibrate else 1.0
    first = expected_first_leader(rules.dealer_leads, dealer, order)
    if hand is not None:
        chances = card_chances(Holding(hand, trump, hand_size, players, first == seat,
                                       rules.deck & ~hand & ~out, rules.play))
        return trick_distribution(chances, hand_size, scale)
    expected = hand_size / players
    visible = [(other, cards) for other, cards in enumerate(other_hands)
               if cards is not None and other != seat and other in order]
    if visible:
        others = 0.0
        for other, cards in visible:
            others += scale * estimate_tricks(Holding(cards, trump, hand_size, players,
                                                      first == other, rules.deck & ~cards & ~out,
                                                      rules.play))
            others += max(0, hand_size - cards.bit_count()) / players  # the cards not seen
        expected = 0.5 * max(0.0, hand_size - others) + 0.5 * expected
    return trick_distribution([min(1.0, expected / hand_size)] * hand_size, hand_size)


def choose_bid(
    rules: Rules,
    kind: str,
    tricks: int,
    legal: list[int] | tuple[int, ...],
    distribution: list[float],
    by_table: bool = True,
    table: list[list[float]] | None = None,
) -> int:
    """The bid with the best expected points under the deal's table (``by_table``; ``table``: that
    table with the premium's stake added, ``PremiumOutlook.table``), or the legal bid nearest the
    expected trick count. ``tricks``: the deal's (``Observation.deal_tricks``), which the bids
    range over."""
    if by_table:
        return best_bid(distribution, legal, table or rules.points(kind, tricks))[0]
    expected = sum(count * chance for count, chance in enumerate(distribution))
    return nearest_bid(expected, legal)


def _turned_out(trump_card: int | None, dealt: bool) -> int:
    """The trump card when it lies face up outside every hand (not the dealer's last card)."""
    if trump_card is None or dealt:
        return 0
    return 1 << trump_card


def observation_out(observation: Observation) -> int:
    """Cards an observing seat knows to be in no hand: the card turned up from the stock."""
    return _turned_out(observation.trump_card, shown_card_is_dealt(
        observation.variant, observation.hand_size, len(observation.order)))


def game_out(game: Game) -> int:
    """The same as ``observation_out`` for a game's current deal."""
    return _turned_out(game.trump_card, shown_card_is_dealt(
        game.variant, game.deal.hand_size, len(game.view.order)))


class PremiumOutlook:
    """The premium in reach in the current deal: per seat whether it has made every bid of the
    span so far (``live``) and its best deal of the span (``best``, None before its first deal),
    and how many bids of the span are still to come after this deal (``later_bids``)."""

    __slots__ = ("live", "best", "later_bids", "odds")

    def __init__(self, live: list[bool], best: list[int | None], later_bids: int,
                 odds: float) -> None:
        self.live = live
        self.best = best
        self.later_bids = later_bids
        self.odds = odds

    def stake(self, rules: Rules, kind: str, hand_size: int, seat: int, bid: int | None) -> float:
        """What making ``bid`` adds for ``seat`` on top of the deal's points (0: nothing in
        reach, or a deal without bids, which counts as made whatever happens)."""
        if bid is None or not self.live[seat] or rules.kinds[kind].scoring == "per_trick":
            return 0.0
        made = rules.points(kind, hand_size)[bid][bid]
        return premium_stake(rules, self.best[seat], made, self.later_bids, self.odds)

    def table(self, rules: Rules, kind: str, hand_size: int, seat: int) -> list[list[float]]:
        """The deal's table ``[bid][taken]`` for ``seat`` with the stake added to each made bid."""
        stakes = [self.stake(rules, kind, hand_size, seat, bid) for bid in range(hand_size + 1)]
        return staked_table(rules.points(kind, hand_size), stakes)


class PremiumTracker:
    """Follows the premium span (002; ``RulePlan.premium_window``) from one seat's observations.

    At each new deal it settles the one before from what every seat saw: the bids, the tricks
    taken at the seat's last decision (the seat plays to every trick, so each seat's final count
    is that or one more) and the change of the totals, which is the deal's points (fines included)
    until the span closes. A seat made its bid when only the made count explains the change.
    """

    def __init__(self, variant: Variant, players: int, odds: float) -> None:
        self.rules = rules_for(variant)
        self.plan = rule_plan(variant, players)
        self.on = variant.scoring.premium != "none"
        self.players = players
        self.odds = odds
        self.number = -1
        self.live = [False] * players
        self.best: list[int | None] = [None] * players
        self.closes = True
        self.later_bids = 0
        self.kind = "normal"
        self.hand_size = 0
        self.order: tuple[int, ...] = ()
        self.bids: tuple[int | None, ...] = ()
        self.taken: tuple[int, ...] = ()
        self.scores: tuple[int, ...] = ()

    def observe(self, observation: Observation) -> PremiumOutlook | None:
        """The outlook for the deal of ``observation`` (None: no premium in reach for anyone)."""
        if not self.on:
            return None
        number = observation.deal_number
        if number != self.number:
            if number == self.number + 1 and not self.closes:
                self._settle(observation.scores)
            else:
                self.live = [False] * self.players  # a game starts, or a deal went unseen
            self._open(number)
            self.kind, self.hand_size = observation.kind, observation.deal_tricks
            self.order = observation.order
            self.scores = observation.scores
        self.bids, self.taken = observation.bids, observation.taken
        if not any(self.live):
            return None
        return PremiumOutlook(self.live, self.best, self.later_bids, self.odds)

    def _open(self, number: int) -> None:
        self.number = number
        schedule = self.plan.schedule
        if number >= len(schedule):  # a tie-break deal: no premium
            self.live = [False] * self.players
            self.closes = True
            return
        opens, self.closes = self.plan.premium_window(number, schedule[number].block)
        if opens:
            self.live = [True] * self.players
            self.best = [None] * self.players
        later = 0
        closes = self.closes
        following = number
        while not closes:
            following += 1
            closes = self.plan.premium_window(following, schedule[following].block)[1]
            later += self.rules.kinds[schedule[following].kind].bidding != "none"
        self.later_bids = later

    def _settle(self, scores: tuple[int, ...]) -> None:
        table = self.rules.points(self.kind, self.hand_size)
        fine = self.rules.lead_fine
        for seat in self.order:
            if not self.live[seat]:
                continue
            points = scores[seat] - self.scores[seat]
            bid = self.bids[seat] if seat < len(self.bids) else None
            if bid is not None:
                seen = self.taken[seat]
                fits = [taken for taken in (seen, seen + 1) if taken < len(table[bid])
                        and _explains(points - table[bid][taken], fine)]
                self.live[seat] = fits == [bid]
            best = self.best[seat]
            self.best[seat] = points if best is None else max(best, points)


def _explains(rest: int, fine: int) -> bool:
    """Whether ``rest`` points are a whole number (0 or more) of Joker lead fines of ``fine``."""
    if fine == 0:
        return rest == 0
    return rest % fine == 0 and rest // fine >= 0


class HeuristicStrategy(Strategy):
    """Fast rules of thumb (tens of microseconds a decision); no parameters.

    Bids the expected trick count of the hand (nearest legal bid, so hook-aware); plays to take
    exactly the tricks that score best under the variant's table; handles Jokers and all their
    calls, dark, golden, misère, no-trump, lobovaya, circular-trump and named-trump deals.
    """

    name = "heuristic"
    description = "fast rules of thumb: counts sure tricks to bid, takes or ducks to make the bid"
    parameters = {
        "by_table": Parameter(bool, True, "bid the best expectation under the deal's score table "
                              "(else the legal bid nearest the expected tricks)"),
        "calibrate": Parameter(bool, True, "scale the trick estimate so that a deal's estimates "
                               "add up to its tricks on average"),
        **premium_parameters(True),
    }

    def start_game(self, variant: Variant, seat: int, players: int,
                   rng: random.Random) -> None:
        """Start a game: the premium span is followed afresh."""
        super().start_game(variant, seat, players, rng)
        self._tracker: PremiumTracker | None = None

    def premium_outlook(self, observation: Observation) -> PremiumOutlook | None:
        """Follow the premium span with ``observation`` (call it at every decision) and return
        what is in reach this deal; None without a premium or with ``premium`` = false."""
        if not getattr(self, "premium", False):
            return None
        tracker = getattr(self, "_tracker", None)
        if (tracker is None or tracker.plan.variant is not observation.variant
                or tracker.players != observation.players
                or observation.deal_number < tracker.number):
            tracker = self._tracker = PremiumTracker(observation.variant, observation.players,
                                                     self.premium_odds)
        return tracker.observe(observation)

    def act(self, observation: Observation) -> Action:
        """The action for ``observation``: the premium span followed at every decision, a
        settled action (``keep.settled_action``) taken as it is, else ``choose``. The search
        strategies built on the heuristic keep this and override the phase they decide
        otherwise (``bid_action``, ``trump_action``, ``play_action``) or ``choose``."""
        outlook = self.premium_outlook(observation)
        settled = settled_action(observation)
        if settled is not None:
            return settled
        return self.choose(observation, outlook)

    def choose(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """A decision with a real choice, by phase."""
        phase = observation.phase
        if phase == Phase.PLAY:
            return self.play_action(observation, outlook)
        if phase == Phase.BID:
            return self.bid_action(observation, outlook)
        return self.trump_action(observation)

    def play_action(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """The card the heuristic plays (``tactics.choose_play`` through the observation)."""
        return play_from_observation(rules_for(observation.variant), observation, outlook)

    def bid_action(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """The heuristic's bid."""
        return Bid(bid_from_observation(rules_for(observation.variant), observation,
                                        self.by_table, self.calibrate, outlook))

    def trump_action(self, observation: Observation) -> Action:
        """The suit the heuristic names (``tactics.name_trump_suit``)."""
        return NameTrump(name_trump_suit(observation.hand))


def bid_from_observation(
    rules: Rules, observation: Observation, by_table: bool = True, calibrate: bool = True,
    outlook: PremiumOutlook | None = None,
) -> int:
    """The heuristic bid for an observation in the ``BID`` phase (``outlook``: the premium in
    reach, whose stake is added to each made bid's points)."""
    hand = None if observation.hand_hidden else observation.hand
    distribution = bid_distribution(
        rules, observation.seat, hand, observation.other_hands, observation.trump,
        observation.hand_size, observation.order, observation.dealer,
        observation_out(observation), calibrate,
    )
    legal = [action.tricks for action in observation.legal_actions]  # type: ignore[union-attr]
    table = None if outlook is None else outlook.table(
        rules, observation.kind, observation.deal_tricks, observation.seat)
    return choose_bid(rules, observation.kind, observation.deal_tricks, legal, distribution,
                      by_table, table)


def play_from_observation(rules: Rules, observation: Observation,
                          outlook: PremiumOutlook | None = None) -> Play:
    """The heuristic card for an observation in the ``PLAY`` phase (``outlook``: the premium in
    reach; with a stake on its bid the seat aims at exactly its bid while it can still make it)."""
    legal = 0
    jokers = []
    for action in observation.legal_actions:
        card = action.card  # type: ignore[union-attr]
        if card >= 52:
            jokers.append((card, action.call, action.suit, action.rank))  # type: ignore[union-attr]
        else:
            legal |= 1 << card
    seat = observation.seat
    hand = observation.hand
    remaining = hand.bit_count()
    bid = observation.bids[seat]
    tricks = observation.deal_tricks
    staked = (outlook is not None and bid is not None
              and outlook.stake(rules, observation.kind, tricks, seat, bid) > 0)
    aims = rules.aims(observation.kind, tricks, observation.order, observation.bids,
                      observation.taken, seat, remaining, staked)
    unseen = (rules.deck & ~hand & ~observation.played
              & ~observation_out(observation))
    for other, cards in enumerate(observation.other_hands):
        if cards is not None and other != seat:
            unseen &= ~cards
    done = sum(observation.taken)
    in_trick = len(observation.trick)
    drawn = draws_made(observation)  # rounds drawn from the stock (002)
    others = (len(observation.order) - 1) * (observation.hand_size + drawn - done) - in_trick
    trick = trick_view(rules, observation.trick, observation.led_suit, observation.trick_trump)
    return choose_play(rules, hand, legal, tuple(jokers), trick, observation.trump,
                       len(observation.order), aims, unseen, others)


def policy_action(game: Game, rules: Rules) -> Action:
    """The heuristic's action for the seat to move in ``game``, read from the game directly (the
    seat uses only what it could see: its hand, the played cards, the bids)."""
    phase = game.phase
    seat = game.to_move
    if phase == Phase.PLAY:
        # the game's state is read once for each record (each property reads it afresh into a
        # new list; nothing changes it in between)
        hands = game.view.hands
        hand = hands[seat]
        legal, jokers = play_options(game)
        if not jokers and legal & (legal - 1) == 0:
            return PLAYS[legal.bit_length() - 1]
        order = game.view.order
        remaining = hand.bit_count()
        aims = Aims(*seat_aims(game.state, game.tables.plan, seat, remaining, False))
        unseen = rules.deck & ~hand & ~game.view.played & ~game_out(game)
        others = 0
        for other in order:
            others += hands[other].bit_count()
        view = game.view
        trick = trick_view(rules, game.trick, view.led_suit, view.trick_trump)
        return choose_play(rules, hand, legal, jokers, trick, view.trump, len(order), aims, unseen,
                           others - remaining)
    if phase == Phase.BID:
        return Bid(policy_bid(game, rules, seat))
    if phase == Phase.TRUMP:
        view = game.view
        first = view.first_cards[seat] if view.first_cards else view.hands[seat]
        return NameTrump(name_trump_suit(first & ~JOKER_MASK or view.hands[seat]))
    if phase == Phase.KEEP:
        return keep_from_game(game)
    raise ValueError(f"no action in phase {phase.name}")


def policy_bid(game: Game, rules: Rules, seat: int) -> int:
    """The heuristic bid of ``seat`` in a game in the ``BID`` phase, seeing what it may see."""
    kind = game.kind
    hand: int | None = game.view.hands[seat]
    hidden, _, _ = bidding_view(kind)
    if hidden:
        hand = None
    others = game.visible_other_hands(seat)
    distribution = bid_distribution(rules, seat, hand, others, game.view.trump, game.deal.hand_size,
                                    game.view.order, game.view.dealer,
                                    game_out(game))
    deal = game.deal
    return choose_bid(rules, deal.kind, game.view.deal.tricks, game.legal_bids(), distribution)
