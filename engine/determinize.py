"""Determinizations: whole deals consistent with one seat's observation, for search strategies.

A seat sees its own hand, the cards played in the tricks it may look back at, the trump card and
the bids; the other hands are hidden. Search strategies (``strategies.pimc``,
``strategies.ismcts`` and the bidding of ``strategies.ev``) guess them: ``HandSampler`` deals the
unseen cards to the other seats at random, honouring what the seat can infer from the play
(RULES §1, §5):

- a player who did not follow the led suit holds none of it, and where trumping is obligatory
  (``play.must_trump``) one who neither followed nor trumped holds no trump either;
- after a Joker led "highest <suit>" ("по старшим") a player who played a card of the suit holds no
  higher one of it (and after "lowest" no lower one); after "highest trumps" no higher trump;
- the trump card shown as the dealer's last card (a deal of the whole deck, whatever the card) is
  in the dealer's hand until played (with full memory), and a card turned up from the stock is in
  nobody's hand.

``determinize`` then builds a ``Game`` of the current deal only, mid-way (hands, trump, bids so far,
tricks taken, the current trick, led suit and trick trump, dealer and order, phase), that ends as
soon as this deal is scored: play it on with ``apply_unchecked`` and read the seat's points from
``game.results[0].points``. ``play_options`` is the cheap form of the legal plays that playouts use
(masks instead of ``Play`` records; the same rules as ``Game.legal_actions``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import JOKER_MASK, SUIT_MASKS, is_joker, popcount, suit_of
from .core.codes import CALL_NAMES, OPTION_CALL, OPTION_SUIT
from .game import Game, Phase, Trick, TrickCard
from .observation import Observation
from .schedule import DealSpec
from .variant import Variant

#: Mask of the cards of the same suit ranked above / below each card (empty for the Jokers).
NO_TRUMP = -1

ABOVE: tuple[int, ...] = tuple(
    SUIT_MASKS[card // 13] & ~((2 << card) - 1) if card < 52 else 0 for card in range(54)
)
BELOW: tuple[int, ...] = tuple(
    SUIT_MASKS[card // 13] & ((1 << card) - 1) if card < 52 else 0 for card in range(54)
)

_SEARCH_VARIANTS: dict[int, tuple[Variant, Variant]] = {}


def search_variant(variant: Variant) -> Variant:
    """``variant`` for a one-deal search game: a tie at the end is shared (no extra golden deal),
    so that the game ends when the deal is scored."""
    cached = _SEARCH_VARIANTS.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    searched = variant
    if variant.end.tie != "shared":
        end = variant.end.model_copy(update={"tie": "shared"})
        searched = variant.model_copy(update={"end": end})
    _SEARCH_VARIANTS[id(variant)] = (variant, searched)
    return searched


def deck_mask(variant: Variant) -> int:
    """The deck of ``variant`` as a mask."""
    mask = 0
    for card in variant.deck_cards:
        mask |= 1 << card
    return mask


def shown_card_is_dealt(variant: Variant, hand_size: int, players_in_deal: int) -> bool:
    """Whether the card shown for trump is the dealer's last card (a deal of the whole deck), as
    opposed to a card turned up from the stock, which is in nobody's hand (RULES §4)."""
    return variant.deck_size - hand_size * players_in_deal <= variant.trump.unturned_leftover


def remaining_counts(observation: Observation) -> list[int]:
    """How many cards each seat holds now (0 for a seat that sits this deal out)."""
    counts = [0] * observation.players
    if observation.phase == Phase.PLAY:
        done = sum(observation.taken)
        in_trick = {entry.seat for entry in observation.trick}
        for seat in observation.order:
            counts[seat] = observation.hand_size - done - (seat in in_trick)
    elif observation.phase in (Phase.TRUMP, Phase.BID):
        for seat in observation.order:
            counts[seat] = observation.hand_size
    return counts


def _trick_constraints(
    cards: Sequence[TrickCard], trick_trump: int, must_trump: bool, forbidden: list[int]
) -> None:
    """Add to ``forbidden[seat]`` the cards a trick shows that seat cannot hold."""
    if not cards:
        return
    lead = cards[0]
    led = -1
    if is_joker(lead.card):
        if lead.call in ("highest", "lowest") and lead.suit >= 0:
            demanded = lead.suit
            for entry in cards[1:]:
                if is_joker(entry.card):
                    continue
                suit = suit_of(entry.card)
                if suit == demanded:
                    shown = ABOVE if lead.call == "highest" else BELOW
                    forbidden[entry.seat] |= shown[entry.card]
                else:
                    forbidden[entry.seat] |= SUIT_MASKS[demanded]
                    if must_trump and trick_trump >= 0 and suit != trick_trump:
                        forbidden[entry.seat] |= SUIT_MASKS[trick_trump]
            return
        if lead.call == "trumps":
            if trick_trump >= 0:
                for entry in cards[1:]:
                    if is_joker(entry.card):
                        continue
                    if suit_of(entry.card) == trick_trump:
                        forbidden[entry.seat] |= ABOVE[entry.card]
                    else:
                        forbidden[entry.seat] |= SUIT_MASKS[trick_trump]
            return
        led = lead.suit
    else:
        led = suit_of(lead.card)
    for entry in cards[1:]:
        if is_joker(entry.card):
            continue
        suit = suit_of(entry.card)
        if led < 0:  # this card set the led suit after a Joker led without one
            led = suit
            continue
        if suit != led:
            forbidden[entry.seat] |= SUIT_MASKS[led]
            if must_trump and trick_trump >= 0 and suit != trick_trump:
                forbidden[entry.seat] |= SUIT_MASKS[trick_trump]


def inferred_voids(observation: Observation) -> list[int]:
    """Per seat, the mask of cards the observing seat can tell that seat does not hold."""
    forbidden = [0] * observation.players
    must_trump = observation.variant.play.must_trump
    for trick in observation.tricks:
        _trick_constraints(trick.cards, trick.trump, must_trump, forbidden)
    _trick_constraints(observation.trick, observation.trick_trump, must_trump, forbidden)
    return forbidden


class HandSampler:
    """Deals the cards one seat cannot see, consistently with its observation.

    Build it once per decision (it works out the unseen cards, the seats' card counts and the
    inferred voids) and call ``sample`` for each determinization. A seat's own hand is kept as it
    is, except where it is hidden (dark bidding, lobovaya), when it is dealt like the others.
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
        if trump_card is not None and not observation.played >> trump_card & 1:
            if not shown_card_is_dealt(variant, observation.hand_size, len(observation.order)):
                out |= 1 << trump_card  # turned up from the stock: in nobody's hand
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
        self.constrained = any(self.forbidden)
        self.seats = [s for s in range(players) if self.missing[s]]

    def sample(self, rng: random.Random) -> list[int]:
        """One guess of every seat's hand (masks); the seat's known cards are always in it."""
        hands = list(self.known)
        pool = self.pool[:]
        rng.shuffle(pool)
        if self.constrained:
            for _ in range(20):
                dealt = self._deal_constrained(pool, rng)
                if dealt is not None:
                    for seat, cards in zip(self.seats, dealt, strict=True):
                        hands[seat] |= cards
                    return hands
                rng.shuffle(pool)
        position = 0
        for seat in self.seats:
            for card in pool[position:position + self.missing[seat]]:
                hands[seat] |= 1 << card
            position += self.missing[seat]
        return hands

    def _deal_constrained(self, pool: list[int], rng: random.Random) -> list[int] | None:
        """Deal ``pool`` (shuffled) so that no seat gets a card it cannot hold; None on a dead end.

        The most constrained cards go first; each card goes to a seat (or to the unseen rest) with
        probability proportional to the room left there, which for unconstrained cards is a
        uniform deal.
        """
        seats = self.seats
        forbidden = [self.forbidden[s] for s in seats]
        room = [self.missing[s] for s in seats]
        rest = self.rest
        dealt = [0] * len(seats)
        order = sorted(pool, key=lambda card: sum(f >> card & 1 for f in forbidden))
        for card in reversed(order):
            bit = 1 << card
            total = rest
            for index, f in enumerate(forbidden):
                if room[index] and not f & bit:
                    total += room[index]
            if total == 0:
                return None
            pick = rng.randrange(total)
            if pick < rest:
                rest -= 1
                continue
            pick -= rest
            for index, f in enumerate(forbidden):
                if room[index] and not f & bit:
                    if pick < room[index]:
                        room[index] -= 1
                        dealt[index] |= bit
                        break
                    pick -= room[index]
        return dealt


def sample_hidden_hands(observation: Observation, rng: random.Random) -> list[int]:
    """One guess of every hand consistent with ``observation`` (see ``HandSampler``)."""
    return HandSampler(observation).sample(rng)


class Determinizer:
    """Builds search games of the current deal from an observation and guessed hands.

    The template game is built once; each ``game(hands)`` is a clone of it with the hands set.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.template = _template(observation)
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
        the trump, the guessed ``trump``: suit, card shown, how; see ``guess_trump``)."""
        game = self.template.clone()
        game.hands = list(hands)
        game.first_cards = list(hands)
        if trump is not None:
            game.trump, game.trump_card, game.trump_how = trump
            game.trick_trump = trump[0]
        return game

    def guess_trump(
        self, hands: Sequence[int], rng: random.Random
    ) -> tuple[int, int | None, str] | None:
        """For an observation that hides the trump (dark bidding: the bids come before the deal),
        a trump drawn as the engine would choose it from these hands and the rest of the deck: the
        card turned from the stock, or the dealer's last card in a deal of the whole deck (a Joker
        shown means no trump). None when the trump is not hidden."""
        observation = self.observation
        if not observation.trump_hidden:
            return None
        variant = observation.variant
        options = variant.trump
        kind = variant.kinds[observation.kind]
        if kind.trump != "default" or options.mode in ("none", "circular"):
            return (NO_TRUMP, None, "circular" if self.template._circular else "none")
        if options.mode == "fixed":
            return variant.fixed_suit_index(), None, "fixed"
        dealt = 0
        for hand in hands:
            dealt |= hand
        stock = self.deck & ~dealt
        if stock.bit_count() <= options.unturned_leftover:
            if options.full_deal != "last_dealt":
                return NO_TRUMP, None, "none"
            cards = [card for card in range(54) if hands[observation.dealer] >> card & 1]
            how = "last dealt"
        else:
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


def _template(observation: Observation) -> Game:
    variant = search_variant(observation.variant)
    players = observation.players
    game = Game.single_deal(variant, [0] * players, observation.trump, dealer=observation.dealer,
                            kind=observation.kind, trump_card=observation.trump_card, log=False)
    spec = DealSpec(0, observation.hand_size, observation.kind, -1)
    game.deals = [spec]
    game._deal = spec
    game.order = list(observation.order)
    game.trump_how = observation.trump_how
    game._circular = (variant.trump.mode == "circular"
                      and variant.kinds[observation.kind].trump == "default")
    game.bids = list(observation.bids)
    game.taken = list(observation.taken)
    game.trick = list(observation.trick)
    completed = sum(observation.taken)
    tricks = list(observation.tricks)
    if len(tricks) < completed:  # tricks the seat may not look back at: placeholders
        tricks = [Trick((), observation.trump, -1)] * (completed - len(tricks)) + tricks
    game.tricks = tricks
    fine = variant.joker.lead_fine
    if fine:  # fines already incurred this deal, where the tricks are there to see
        for index, trick in enumerate([*tricks, Trick(tuple(observation.trick), -1, -1)]):
            if (trick.cards and is_joker(trick.cards[0].card)
                    and index < observation.hand_size - 1):
                game.fines[trick.cards[0].seat] += fine
    game.led_suit = observation.led_suit
    game.trick_trump = observation.trick_trump
    game.phase = observation.phase
    game.to_move = observation.to_move
    game.namer = observation.to_move if observation.phase == Phase.TRUMP else -1
    # The cards the seat has seen played (all of this deal's under full memory).
    game.played = observation.played
    return game


def determinize(observation: Observation, hands: Sequence[int]) -> Game:
    """A ``Game`` of the current deal only, mid-way, with ``hands`` as every seat's cards.

    The game stands where the observation stands (phase, seat to move, bids, tricks taken, the
    current trick) and ends when the deal is scored; ``game.results[0].points`` then holds each
    seat's points for the deal (fines included, no premiums).
    """
    return Determinizer(observation).game(hands)


def play_options(game: Game) -> tuple[int, tuple[tuple[int, str, int], ...]]:
    """The legal plays of the seat to move, cheaply: (mask of ordinary cards, Joker plays as
    (card, call, suit)), from ``Game.legal_play_options``, in the order of ``Game.legal_actions``."""
    cards, calls = game.legal_play_options()
    jokers = cards & JOKER_MASK
    if not jokers:
        return cards, ()
    options = [option for option in game.plan.call_order(not game.trick) if calls >> option & 1]
    plays = []
    for joker in (52, 53):
        if jokers >> joker & 1:
            plays.extend((joker, CALL_NAMES[OPTION_CALL[option]], int(OPTION_SUIT[option]))
                         for option in options)
    return cards & ~JOKER_MASK, tuple(plays)
