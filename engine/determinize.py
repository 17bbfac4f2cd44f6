"""Determinizations: whole deals consistent with one seat's observation, for search strategies.

A seat sees its own hand, the cards played in the tricks it may look back at, the trump card and the
bids; the other hands are hidden. Search strategies (``strategies.players.pimc``,
``strategies.players.ismcts`` and the bidding of ``strategies.players.ev``) guess them through the
public API ``resample(observation, rng)`` or, drawing many guesses of one position, a
``Determinizer``.

The guess is honest: the hidden cards are dealt from every card the seat has not seen (the other
hands, the stock and the tricks it may not look back at alike), never only from the cards really
in play, and it honours what the play has shown:

- a card played to a trick rules out every card whose presence would have made it illegal
  (``engine.core.rules.cards_ruled_out``, asked of the same follow rule the engine plays by): the
  led suit after a discard, the trumps after a discard where trumping is obligatory, the higher
  cards of a suit demanded "highest" by a Joker (lower after "lowest"); a Joker shows nothing
  of its player's hand, whatever it was declared as (``joker.as_card``: any card of the deck may
  be named, ``engine.core.rules.nameable_cards``), though led or setting the led suit as a card
  it makes the others follow that card's suit;
- the trump card shown as the dealer's last card (a deal of the whole deck) is in the dealer's hand
  until played (with full memory), and a card turned up from the stock is in nobody's hand; where
  the players draw after each trick (``play.draw_after_trick``, 002) it lies under the stock,
  drawn last, and then is in the hand of the seat that drew it (``Observation.turned_holder``)
  until played; the stock left is guessed from the unseen cards nobody holds;
- what the observation shows of the other hands (``other_hands``: every hand while bidding a
  forehead deal, the card each seat showed in a lobovaya deal read as one card each) stays in
  its holder's hand.

``Game.from_observation`` builds the search game of the current deal, mid-way, with the deal's own
number and the seats' pass streaks (``engine.deals.observed_deal`` writes its state); it ends when
the deal is scored.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from .cards import ABOVE, BELOW, JOKER, JOKER_MASK, JOKERS, is_joker, popcount, suit_of
from .core import rules as core
from .core.codes import (
    CALL_NAMES,
    CARD_OPTION,
    OPTION_CALL,
    OPTION_SUIT,
    TRUMP_CIRCULAR,
    TRUMP_FIXED,
    TRUMP_LAST_DEALT,
    TRUMP_NAMED,
    TRUMP_NONE,
    call_value,
)
from .core.deal import sample_hands
from .core.plan import rule_plan
from .game import Game, Phase, TrickCard
from .observation import Observation
from .variant import Variant

__all__ = [
    "ABOVE", "BELOW", "Determinizer", "HandSampler", "deck_mask", "determinize", "inferred_voids",
    "named_choices", "play_options", "remaining_counts", "sample_hidden_hands",
    "shown_card_is_dealt",
]

NO_TRUMP = -1


def deck_mask(variant: Variant) -> int:
    """The deck of ``variant`` as a mask (``Variant.deck_mask``)."""
    return variant.deck_mask


def shown_card_is_dealt(variant: Variant, hand_size: int, players_in_deal: int) -> bool:
    """Whether the card shown for trump is the dealer's last card (a deal of the whole deck), as
    opposed to a card turned up from the stock, which is in nobody's hand (RULES §4)."""
    return rule_plan(variant, players_in_deal).shown_card_is_dealt(hand_size, players_in_deal)


def draws_made(observation: Observation) -> int:
    """Rounds drawn from the stock so far (``play.draw_after_trick``: one after each trick while
    the stock lasts, ``Observation.deal_tricks`` less the hand in all)."""
    rounds = observation.deal_tricks - observation.hand_size
    return min(sum(observation.taken), rounds) if rounds else 0


def stock_left(observation: Observation) -> int:
    """Cards left in the stock to draw (``play.draw_after_trick``; the turned card included while
    it lies under the stock), 0 where nobody draws."""
    rounds = observation.deal_tricks - observation.hand_size
    if not rounds:
        return 0
    participants = len(observation.order)
    stock = len(observation.variant.deck_cards) - observation.hand_size * participants
    return stock - participants * draws_made(observation)


def remaining_counts(observation: Observation) -> list[int]:
    """How many cards each seat holds now (0 for a seat that sits this deal out)."""
    counts = [0] * observation.players
    if observation.phase in (Phase.PLAY, Phase.KEEP):
        done = sum(observation.taken)
        drawn = draws_made(observation)
        in_trick = {entry.seat for entry in observation.trick}
        for seat in observation.order:
            counts[seat] = observation.hand_size + drawn - done - (seat in in_trick)
    elif observation.phase in (Phase.TRUMP, Phase.BID):
        for seat in observation.order:
            counts[seat] = observation.hand_size
    return counts


def _trick_constraints(cards: Sequence[TrickCard], trick_trump: int, must_trump: bool,
                       candidates: int, forbidden: list[int]) -> None:
    """Add to ``forbidden[seat]`` the cards that the plays of one trick rule out for that seat."""
    if not cards:
        return
    lead = cards[0]
    lead_call = call_value(lead.call, lead.suit, lead.rank)
    led = -1 if is_joker(lead.card) else suit_of(lead.card)
    if is_joker(lead.card):
        led = lead.suit
    for entry in cards[1:]:
        if is_joker(entry.card):  # a Joker is always legal; declared as a card it may lead
            if led < 0 and entry.rank:  # the suit as that card would (``led_suit_after``)
                led = entry.suit
            continue
        forbidden[entry.seat] |= core.cards_ruled_out(entry.card, candidates, lead.card,
                                                      lead_call, lead.suit, led, trick_trump,
                                                      must_trump)
        if led < 0:  # this card set the led suit after a Joker led without one; it showed only
            led = suit_of(entry.card)  # what a demand of any suit rules out


def inferred_voids(observation: Observation) -> list[int]:
    """Per seat, the mask of cards the observing seat can tell that seat does not hold."""
    forbidden = [0] * observation.players
    must_trump = observation.variant.play.must_trump
    candidates = (1 << JOKER) - 1  # every ordinary card: a void is the whole suit, dealt or not
    for trick in observation.tricks:
        _trick_constraints(trick.cards, trick.trump, must_trump, candidates, forbidden)
    _trick_constraints(observation.trick, observation.trick_trump, must_trump, candidates,
                       forbidden)
    return forbidden


class HandSampler:
    """Deals the cards one seat cannot see, consistently with its observation.

    Build it once per decision (it works out the unseen cards, the seats' card counts and the
    inferred voids) and call ``sample`` for each determinization; the deal itself is the core's
    (``engine.core.deal.sample_hands``), which ``strategies.players.mc`` also calls for many guesses
    at once from these same fields (``known``, ``missing``, ``forbidden``, ``pool``, ``rest``). A
    seat's own hand is kept as it is, except where it is hidden (dark bidding, lobovaya), when it is
    dealt like the others.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        players = observation.players
        seat = observation.seat
        variant = observation.variant
        self.deck = deck_mask(variant)
        counts = remaining_counts(observation)
        known = [0] * players
        if not observation.hand_hidden:
            known[seat] = observation.hand
        for other, hand in enumerate(observation.other_hands):
            if hand is not None and other != seat:
                known[other] = hand
        out = observation.played
        trump_card = observation.trump_card
        #: the turned card while it lies under the stock, drawn last (002, draw_after_trick)
        self.turned_under = None
        self.stock_size = stock_left(observation)
        if trump_card is not None and not observation.played >> trump_card & 1:
            holder = observation.turned_holder
            if holder >= 0:  # drawn from under the stock, face up: everyone saw who took it
                if variant.play.memory == "full":  # else it may be in a trick not looked back at
                    known[holder] |= 1 << trump_card
            elif not shown_card_is_dealt(variant, observation.hand_size, len(observation.order)):
                out |= 1 << trump_card  # turned up from the stock: in nobody's hand
                if self.stock_size:
                    self.turned_under = trump_card
            elif (observation.dealer != seat and counts[observation.dealer] > 0
                  and (variant.play.memory == "full" or not sum(observation.taken))):
                known[observation.dealer] |= 1 << trump_card
        for hand in known:
            out |= hand
        self.known = known
        self.missing = [max(0, counts[s] - popcount(known[s])) for s in range(players)]
        pool_mask = self.deck & ~out
        self.pool = [card for card in range(54) if pool_mask >> card & 1]
        self.rest = len(self.pool) - sum(self.missing)
        if self.rest < 0:  # cannot happen in a consistent observation; deal what there is
            self.rest = 0
        forbidden = inferred_voids(observation)
        forbidden[seat] = 0
        self.forbidden = [forbidden[s] & pool_mask if self.missing[s] else 0
                          for s in range(players)]
        self._arrays: tuple[np.ndarray, ...] | None = None

    def sample_stock(self, hands: Sequence[int], rng: random.Random) -> list[int]:
        """A guess of the stock left, in drawing order, given a guess of every hand
        (``play.draw_after_trick``): the unseen cards nobody holds, at random, the turned card
        last while it lies under the stock; empty where nobody draws."""
        size = self.stock_size
        if not size:
            return []
        held = 0
        for hand in hands:
            held |= hand
        free = [card for card in self.pool if not held >> card & 1]
        under = self.turned_under
        count = size - (under is not None)
        stock = rng.sample(free, min(count, len(free)))
        if under is not None:
            stock.append(under)
        return stock

    def sample(self, rng: random.Random) -> list[int]:
        """One guess of every seat's hand (masks); the seat's known cards are always in it. The
        deal is the core's (``engine.core.deal.sample_hands``: the most constrained cards first,
        each to a place with chance in proportion to the room left there), its generator seeded
        from ``rng``."""
        arrays = self._arrays
        if arrays is None:
            arrays = self._arrays = (
                np.array(self.known, dtype=np.int64), np.array(self.missing, dtype=np.int64),
                np.array(self.forbidden, dtype=np.int64), np.array(self.pool, dtype=np.int64),
                np.empty((1, len(self.known)), dtype=np.int64))
        known, missing, forbidden, pool, hands = arrays
        sample_hands(known, missing, forbidden, pool, self.rest, rng.getrandbits(63), 1, hands)
        return [int(hand) for hand in hands[0]]


def sample_hidden_hands(observation: Observation, rng: random.Random) -> list[int]:
    """One guess of every hand consistent with ``observation`` (see ``HandSampler``)."""
    return HandSampler(observation).sample(rng)


class Determinizer:
    """Builds search games of the current deal from an observation and guessed hands.

    The position is built once (``Game.from_observation``); each ``game(hands)`` is a copy of it
    dealt with those hands.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.template = Game.from_observation(observation, [0] * observation.players)
        self.deck = deck_mask(observation.variant)
        self._sampler: HandSampler | None = None

    @property
    def sampler(self) -> HandSampler:
        """The ``HandSampler`` of the observation (built on first use)."""
        if self._sampler is None:
            self._sampler = HandSampler(self.observation)
        return self._sampler

    def game(self, hands: Sequence[int], trump: tuple[int, int | None, str] | None = None) -> Game:
        """A search game of the current deal with these hands (and, when the observation hides
        the trump, the guessed ``trump``: suit, card shown, how; see ``guess_trump``). Where the
        players draw after each trick the stock is guessed too (``HandSampler.sample_stock``),
        from a generator seeded by the hands, so the same hands give the same game."""
        stock = None
        if self.observation.deal_tricks != self.observation.hand_size:
            stock = self.sampler.sample_stock(hands, random.Random(hash(tuple(hands))))
        return self.template.with_hands(hands, trump, stock)

    def guess_trump(
        self, hands: Sequence[int], rng: random.Random
    ) -> tuple[int, int | None, str] | None:
        """For an observation that hides the trump (dark bidding: the bids come before the deal),
        a trump drawn as the engine chooses it (``RulePlan.trump_rule``) from these hands and the
        rest of the deck: the card turned from the stock, or the dealer's last card in a deal of
        the whole deck (a Joker shown means no trump, or the dealer names one: guessed at random).
        None when the trump is not hidden."""
        observation = self.observation
        if not observation.trump_hidden:
            return None
        plan = self.template.plan
        rule = plan.trump_rule(observation.hand_size, plan.variant.kinds[observation.kind],
                               len(observation.order))
        if rule == TRUMP_CIRCULAR:
            return NO_TRUMP, None, "circular"
        if rule == TRUMP_FIXED:
            return plan.fixed_suit, None, "fixed"
        if rule in (TRUMP_NONE, TRUMP_NAMED):
            return NO_TRUMP, None, "none"
        dealt = 0
        for hand in hands:
            dealt |= hand
        if rule == TRUMP_LAST_DEALT:
            cards = [card for card in range(54) if hands[observation.dealer] >> card & 1]
            how = "last dealt"
        else:
            stock = self.deck & ~dealt
            cards = [card for card in range(54) if stock >> card & 1]
            how = "turned"
        if not cards:
            return NO_TRUMP, None, "none"
        card = cards[rng.randrange(len(cards))]
        if is_joker(card):
            return NO_TRUMP, card, "joker: none"
        return suit_of(card), card, how

    def draw(self, rng: random.Random) -> tuple[list[int], tuple[int, int | None, str] | None]:
        """A guess of the hidden cards: (every hand, the trump when hidden)."""
        hands = self.sampler.sample(rng)
        return hands, self.guess_trump(hands, rng)

    def sample(self, rng: random.Random) -> Game:
        """A search game with freshly guessed hands."""
        hands, trump = self.draw(rng)
        return self.game(hands, trump)


def resample(observation: Observation, rng: random.Random) -> Game:
    """A game of the current deal consistent with ``observation``, the hidden cards guessed
    (OpenSpiel's ``ResampleFromInfostate``): dealt at random from every card the seat has not
    seen, honouring the voids the play has shown, the Joker's demands and the card shown for
    trump. It ends when the deal is scored (``Game.from_observation``). Also
    ``raspis.engine.resample``."""
    return Determinizer(observation).sample(rng)


def determinize(observation: Observation, hands: Sequence[int]) -> Game:
    """A ``Game`` of the current deal only, mid-way, with ``hands`` as every seat's cards
    (``Game.from_observation``)."""
    return Game.from_observation(observation, hands)


def named_choices(nameable: int) -> tuple[int, ...]:
    """The few cards a search strategy tries declaring a Joker as (``joker.as_card``), of the
    ``nameable`` cards: the highest and the lowest of each suit, to take or to lose a trick of
    that suit (the cards between rarely differ, and every one of them is a legal action)."""
    named: list[int] = []
    for suit in range(4):
        suited = nameable & (8191 << 13 * suit)
        if suited:
            named.append(suited.bit_length() - 1)
            lowest = (suited & -suited).bit_length() - 1
            if lowest != named[-1]:
                named.append(lowest)
    return tuple(named)


def play_options(game: Game) -> tuple[int, tuple[tuple[int, str, int, int], ...]]:
    """The legal plays of the seat to move, cheaply: (mask of ordinary cards, Joker plays as
    (card, call, suit, rank)), from ``Game.legal_play_options``, in ``Game.legal_actions`` order;
    of the Joker declared as a card (``joker.as_card``) only the ``named_choices``, as (card,
    "card", the named card's suit, its rank)."""
    cards, calls = game.legal_play_options()
    jokers = cards & JOKER_MASK
    if not jokers:
        return cards, ()
    options = [option for option in game.plan.call_order(not game.trick) if calls >> option & 1]
    plays = []
    for joker in JOKERS:
        if jokers >> joker & 1:
            for option in options:
                if option == CARD_OPTION:
                    plays.extend((joker, "card", named // 13, named % 13 + 2)
                                 for named in named_choices(game.plan.nameable))
                else:
                    plays.append((joker, CALL_NAMES[OPTION_CALL[option]],
                                  int(OPTION_SUIT[option]), 0))
    return cards & ~JOKER_MASK, tuple(plays)
