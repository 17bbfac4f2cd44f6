"""The game: a state machine with explicit phases, one legal-actions and one apply function each.

Phases (``Phase``): ``DEAL`` (chance: shuffle, deal, turn the trump card), ``TRUMP`` (a player names
trump), ``BID``, ``PLAY``, ``SCORE`` (chance-free bookkeeping at the end of a deal) and
``GAME_OVER``. The chance phases run by themselves, so a caller only ever sees a player to move in
``TRUMP``, ``BID`` or ``PLAY``, or the end. Each player phase has one ``_legal_*`` and one
``_apply_*`` function, dispatched in ``legal_actions`` and ``apply``; the rule for "must trump"
is asked of the rules core (``engine.core``): the legal cards in ``legal_play_options``, the
hook in ``legal_bid_mask``, the trick's winner in ``_trick_winner``; this class keeps the state.

Seats are numbered 0..n-1 clockwise; "left of the dealer" is the next seat. All chance comes from
``engine.rng`` keyed by the game seed: the same seed and the same choices give the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import rng
from .actions import Action, Bid, NameTrump, Play
from .cards import (
    JOKER_MASK,
    card_list,
    is_joker,
    popcount,
    suit_of,
)
from .core import deal as chance
from .core import rules as core
from .core.codes import (
    CALL_CODES,
    CALL_NAMES,
    HOOK_NAMES,
    HOOK_NO_EQUAL,
    OPTION_CALL,
    OPTION_SUIT,
    TRUMP_CIRCULAR,
    TRUMP_TURNED,
)
from .core.plan import rule_plan
from .errors import IllegalActionError, RaspisError
from .events import (
    BidMade,
    CardPlayed,
    DealScored,
    DealStarted,
    Event,
    GameEnded,
    TrickWon,
    TrumpChosen,
)
from .observation import Observation, observe
from .options import KindOptions
from .phase import Phase
from .schedule import DealSpec
from .scoring import deal_points
from .variant import Variant, load_variant

NO_SUIT = -1


@dataclass(frozen=True, slots=True)
class TrickCard:
    """One card in a trick: who played it and how (a Joker's call and suit)."""

    seat: int
    card: int
    call: str | None = None
    suit: int = NO_SUIT


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its cards in order of play, its trump and its winner."""

    cards: tuple[TrickCard, ...]
    trump: int
    winner: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal, one entry per seat (``None`` bid: no bidding, or sat out)."""

    number: int
    hand_size: int
    kind: str
    dealer: int
    trump: int
    trump_card: int | None
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    fines: tuple[int, ...]
    premiums: tuple[int, ...]
    totals: tuple[int, ...]
    hook_forced: bool
    jokers_held: tuple[int, ...]


_ONE_DEAL_VARIANTS: dict[int, tuple[Variant, Variant]] = {}


def _one_deal_variant(variant: Variant) -> Variant:
    """``variant`` for a game of one deal: a tie at the end is shared (no extra golden deal)."""
    cached = _ONE_DEAL_VARIANTS.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    single = variant
    if variant.end.tie != "shared":
        shared = variant.end.model_copy(update={"tie": "shared"})
        single = variant.model_copy(update={"end": shared})
    _ONE_DEAL_VARIANTS[id(variant)] = (variant, single)
    return single


class Game:
    """One game of a variant between ``players`` seats.

    >>> game = Game(load_variant("classic"), players=4, seed=7)
    >>> while not game.is_over():
    ...     game.apply(game.legal_actions()[0])
    """

    __slots__ = (
        "variant", "players", "seed", "deals", "deal_index", "dealer", "first_dealer", "phase",
        "hands", "first_cards", "stock", "trump", "trump_card", "trump_how", "namer", "bids",
        "taken", "to_move", "order", "trick", "led_suit", "trick_trump", "tricks", "played",
        "scores", "results", "passes_in_row", "fines", "log", "logging", "hook_forced",
        "jokers_held", "schedule_length", "plan", "_kind", "_deal", "_circular",
    )

    def __init__(self, variant: Variant | str, players: int, seed: int = 0, *, log: bool = True):
        if isinstance(variant, str):
            variant = load_variant(variant)
        self.variant = variant.for_player_count(players)
        self.plan = rule_plan(self.variant, players)
        self.players = players
        self.seed = seed
        self.deals: list[DealSpec] = self.variant.deal_schedule(players)
        self.logging = log
        self.log: list[Event] = []
        self.scores = [0] * players
        self.results: list[DealResult] = []
        self.passes_in_row = [0] * players
        self.first_dealer = self._draw_first_dealer()
        self.dealer = self.first_dealer
        self.deal_index = 0
        self.schedule_length = len(self.deals)
        self._start_deal()

    # -- construction helpers -------------------------------------------------------------------

    @classmethod
    def single_deal(
        cls,
        variant: Variant | str,
        hands: Sequence[int],
        trump: int,
        *,
        dealer: int = 0,
        kind: str = "normal",
        trump_card: int | None = None,
        bids: Sequence[int] | None = None,
        log: bool = True,
    ) -> Game:
        """A game of one deal from given hands (masks), trump (0..3 or -1) and dealer.

        For tests and analysts setting up exact positions. With ``bids`` the bidding is applied
        too (in bidding order, starting left of the dealer), so the game starts in ``PLAY``. Under
        circular trumps each trick's trump follows its led suit (give ``trump=-1``).
        """
        if isinstance(variant, str):
            variant = load_variant(variant)
        players = len(hands)
        sizes = {popcount(hand) for hand in hands}
        if len(sizes) != 1:
            raise RaspisError(f"every hand must have the same number of cards, got {sorted(sizes)}")
        if variant.kinds.get(kind) is None:
            raise RaspisError(f"unknown deal kind {kind!r}: known {', '.join(variant.kinds)}")
        game = cls.__new__(cls)
        game.variant = variant
        game.plan = rule_plan(variant, players)
        game.players = players
        game.seed = 0
        game.deals = [DealSpec(0, sizes.pop(), kind, 0)]
        game.logging = log
        game.log = []
        game.scores = [0] * players
        game.results = []
        game.passes_in_row = [0] * players
        game.first_dealer = game.dealer = dealer
        game.deal_index = 0
        game.schedule_length = 1
        game.order = game._order_from(dealer, list(range(players)))
        circular = variant.trump.mode == "circular" and variant.kinds[kind].trump == "default"
        game._begin_deal(game.deals[0], list(hands), trump, trump_card, list(hands), [],
                         how="circular" if circular else "given")
        if bids is not None:
            for bid in bids:
                game.apply(Bid(bid))
        return game

    @classmethod
    def from_observation(cls, observation: Observation, hands: Sequence[int],
                         trump: tuple[int, int | None, str] | None = None) -> Game:
        """A game of the current deal only, standing where ``observation`` stands, with ``hands``
        as every seat's cards: for search (``Observation.resample`` draws the hands).

        The phase, the seat to move, the bids, the tricks taken, the current trick, the deal's
        number (for the hook's ``from_deal`` and ``demands_until_deal``) and the seats' passes in
        a row (the pass limit) are the observation's; ``trump`` (suit, card shown, how) replaces
        a trump the observation hides (dark bidding). The game ends when the deal is scored:
        ``results[0]`` then holds each seat's points for it (fines included, no premiums); a tie
        is shared, never broken by an extra deal.
        """
        variant = _one_deal_variant(observation.variant)
        players = observation.players
        suit, card, how = ((observation.trump, observation.trump_card, observation.trump_how)
                           if trump is None else trump)
        game = cls.single_deal(variant, [0] * players, suit, dealer=observation.dealer,
                               kind=observation.kind, trump_card=card, log=False)
        spec = DealSpec(observation.deal_number, observation.hand_size, observation.kind, -1)
        game.deals = [spec]
        game._deal = spec
        game.order = list(observation.order)
        game.trump_how = how
        game._circular = game.plan.trump_rule(spec.hand_size, game._kind,
                                              len(game.order)) == TRUMP_CIRCULAR
        game.bids = list(observation.bids)
        game.taken = list(observation.taken)
        game.trick = list(observation.trick)
        game.passes_in_row = list(observation.passes_in_row)
        completed = sum(observation.taken)
        tricks = list(observation.tricks)
        if len(tricks) < completed:  # tricks the seat may not look back at: placeholders
            tricks = [Trick((), observation.trump, -1)] * (completed - len(tricks)) + tricks
        game.tricks = tricks
        fine = game.plan.lead_fine
        if fine:  # fines already incurred this deal, where the tricks are there to see
            for index, shown in enumerate([*tricks, Trick(tuple(observation.trick), -1, -1)]):
                if (shown.cards and is_joker(shown.cards[0].card)
                        and index < observation.hand_size - 1):
                    game.fines[shown.cards[0].seat] += fine
        game.led_suit = observation.led_suit
        game.trick_trump = observation.trick_trump if trump is None else suit
        game.phase = observation.phase
        game.to_move = observation.to_move
        game.namer = observation.to_move if observation.phase == Phase.TRUMP else -1
        game.played = observation.played
        game.hands = list(hands)
        game.first_cards = list(hands)
        return game

    def with_hands(self, hands: Sequence[int],
                   trump: tuple[int, int | None, str] | None = None) -> Game:
        """A copy of this game with other hands (and, given, another trump: suit, card, how), for
        search: the same position dealt differently."""
        game = self.clone()
        game.hands = list(hands)
        game.first_cards = list(hands)
        if trump is not None:
            game.trump, game.trump_card, game.trump_how = trump
            game.trick_trump = trump[0]
        return game

    def clone(self, log: bool = False) -> Game:
        """A copy that can be played on independently (the log is dropped unless ``log``)."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands.copy()
        other.bids = self.bids.copy()
        other.taken = self.taken.copy()
        other.trick = self.trick.copy()
        other.tricks = self.tricks.copy()
        other.scores = self.scores.copy()
        other.results = self.results.copy()
        other.passes_in_row = self.passes_in_row.copy()
        other.fines = self.fines.copy()
        other.stock = self.stock.copy()
        other.deals = self.deals.copy()
        other.logging = log
        other.log = self.log.copy() if log else []
        return other

    # -- public queries -------------------------------------------------------------------------

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == Phase.GAME_OVER

    @property
    def deal(self) -> DealSpec:
        """The current deal of the schedule."""
        return self._deal

    @property
    def kind(self) -> KindOptions:
        """Options of the current deal's kind."""
        return self._kind

    def current_player(self) -> int:
        """The seat to move, or -1 when the game is over."""
        return -1 if self.phase == Phase.GAME_OVER else self.to_move

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move (empty when the game is over)."""
        return list(self.legal_action_tuple())

    def legal_action_tuple(self) -> tuple[Action, ...]:
        """``legal_actions`` as a tuple, shared between equal positions (records are frozen)."""
        phase = self.phase
        memo = self.plan.memo
        if phase == Phase.PLAY:
            cards, calls = self.legal_play_options()
            key = (cards, calls, not self.trick)
            found = memo.get(key)
            if found is None:
                found = memo[key] = tuple(self._play_actions(cards, calls, not self.trick))
            return found  # type: ignore[return-value]
        if phase == Phase.BID:
            mask = self.legal_bid_mask()
            found = memo.get(mask)
            if found is None:
                found = memo[mask] = tuple(
                    Bid(bid) for bid in range(self._deal.hand_size + 1) if mask >> bid & 1)
            return found  # type: ignore[return-value]
        if phase == Phase.TRUMP:
            return tuple(self._legal_trump())
        return ()

    def apply(self, action: Action) -> None:
        """Apply the action of the seat to move; ``IllegalActionError`` if it is not legal."""
        legal = self.legal_action_tuple()
        if action not in legal:
            shown = ", ".join(map(str, legal))
            where = f"seat {self.to_move}, deal {self.deal_index + 1}, {self.phase.name.lower()}"
            if self.phase == Phase.GAME_OVER:
                raise IllegalActionError(f"the game is over: no action is legal, got {action}")
            raise IllegalActionError(f"illegal action {action} ({where}); legal: {shown}")
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (for search strategies): no legality check."""
        if self.phase == Phase.TRUMP:
            self._apply_trump(action)  # type: ignore[arg-type]
        elif self.phase == Phase.BID:
            self._apply_bid(action)  # type: ignore[arg-type]
        else:
            self._apply_play(action)  # type: ignore[arg-type]

    def places(self) -> list[int]:
        """Final places, 1 = best; equal totals share a place (after any tie-break deals)."""
        return [1 + sum(1 for other in self.scores if other > score) for score in self.scores]

    def double_losses(self) -> list[bool]:
        """Which seats end with a negative total that counts as a double loss (003, 004)."""
        if self.variant.end.negative_total != "double_loss":
            return [False] * self.players
        return [score < 0 for score in self.scores]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now under the variant's rules (see ``engine.observation``)."""
        return observe(self, seat)

    def score_sheet(self, names: Sequence[str] | None = None) -> str:
        """The game so far as the traditional score sheet ("расписка")."""
        from .sheet import render_sheet

        return render_sheet(self, names)

    def trace(self) -> str:
        """The full event log as text, one event a line."""
        return "\n".join(str(event) for event in self.log)

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the current deal's order (clockwise)."""
        order = self.order
        return order[(order.index(seat) + 1) % len(order)]

    # -- chance: the first dealer and the deal ----------------------------------------------------

    def _draw_first_dealer(self) -> int:
        plan = self.plan
        deck = np.empty(plan.deck_size, dtype=np.int64)
        chance.shuffle(plan.deck_cards, np.uint64(rng.lot_key(self.seed)), deck)
        return chance.first_dealer(deck, self.players, plan.first_dealer)

    def _start_deal(self) -> None:
        spec = self.deals[self.deal_index]
        kind = self.variant.kinds[spec.kind]
        plan = self.plan
        order = self._order_from(self.dealer, self._participants(spec))
        deck = np.empty(plan.deck_size, dtype=np.int64)
        chance.shuffle(plan.deck_cards, np.uint64(rng.deal_key(self.seed, spec.number)), deck)
        dealt = np.empty(len(order), dtype=np.int64)
        first_dealt = np.empty(len(order), dtype=np.int64)
        chance.deal_hands(deck, spec.hand_size, len(order), plan.named_after_cards, dealt,
                          first_dealt)
        hands = [0] * self.players
        first = [0] * self.players
        for position, seat in enumerate(order):
            hands[seat] = int(dealt[position])
            first[seat] = int(first_dealt[position])
        used = spec.hand_size * len(order)
        stock = deck[used:].tolist()
        self.order = order
        rule = plan.trump_rule(spec.hand_size, kind, len(order))
        trump, card, how, namer = chance.trump_of_deal(
            rule, int(deck[used - 1]), stock[0] if stock else -1, plan.fixed_suit,
            plan.dealer_names_on_joker)
        if rule == TRUMP_TURNED:  # the card turned from the stock lies face up, out of play
            stock.pop(0)
        namer_seat = (-1, order[0], self.dealer)[namer]
        self._begin_deal(spec, hands, trump, None if card < 0 else card, first, stock,
                         how=chance.HOW_TEXT[how], namer=namer_seat)

    def _participants(self, spec: DealSpec) -> list[int]:
        if spec.number < self.schedule_length:
            return list(range(self.players))
        top = max(self.scores)
        return [seat for seat in range(self.players) if self.scores[seat] == top]

    def _order_from(self, dealer: int, participants: list[int]) -> list[int]:
        start = (dealer + 1) % self.players
        ordered = [(seat - start) % self.players for seat in participants]
        return [participants[i] for i in sorted(range(len(participants)), key=ordered.__getitem__)]

    def _begin_deal(
        self,
        spec: DealSpec,
        hands: list[int],
        trump: int,
        trump_card: int | None,
        first: list[int],
        stock: list[int],
        *,
        how: str = "given",
        namer: int = -1,
    ) -> None:
        self._deal = spec
        self._kind = self.variant.kinds[spec.kind]
        self.hands = hands
        self.first_cards = first
        self.stock = stock
        self.trump = trump
        self.trump_card = trump_card
        self.trump_how = how
        self._circular = how == "circular"
        self.namer = namer
        self.bids = [None] * self.players
        self.taken = [0] * self.players
        self.fines = [0] * self.players
        self.trick = []
        self.tricks = []
        self.led_suit = NO_SUIT
        self.trick_trump = trump
        self.played = 0
        self.hook_forced = False
        self.jokers_held = tuple(
            next((seat for seat in range(self.players) if hands[seat] >> joker & 1), -1)
            for joker in (52, 53)
            if joker in self.variant.deck_cards
        )
        if self.logging:
            self.log.append(DealStarted(spec.number, spec.hand_size, spec.kind, self.dealer,
                                        tuple(hands)))
        if namer >= 0:
            self.phase = Phase.TRUMP
            self.to_move = namer
            return
        self._trump_decided()

    def _trump_decided(self) -> None:
        if self.logging:
            self.log.append(TrumpChosen(self.trump, self.trump_card, self.trump_how))
        self.trick_trump = self.trump
        if self._kind.bidding == "none":
            self._start_play()
        else:
            self.phase = Phase.BID
            self.to_move = self.order[0]

    # -- TRUMP: naming the trump suit -----------------------------------------------------------

    def _legal_trump(self) -> list[Action]:
        choices = [NameTrump(suit) for suit in range(4)]
        if self.variant.trump.naming_allows_no_trump:
            choices.append(NameTrump(NO_SUIT))
        return choices

    def _apply_trump(self, action: NameTrump) -> None:
        self.trump = action.suit
        self.trump_how = f"named by seat {self.to_move}"
        self._trump_decided()

    # -- BID -------------------------------------------------------------------------------------

    def hook_rule(self) -> str:
        """The hook in the current deal: 'none', 'no_equal' (the dealer's hook) or 'overbid'."""
        return HOOK_NAMES[self.plan.hook_rule(self._deal.number, self._kind)]

    def legal_bid_mask(self) -> int:
        """The legal bids of the seat to move as a mask (bit ``b``: bid ``b``), in ``BID``."""
        seat = self.to_move
        others = sum(bid for bid in self.bids if bid is not None)
        return core.legal_bids(self._deal.hand_size, self._kind.min_bid,
                               self.plan.hook_rule(self._deal.number, self._kind),
                               seat == self.order[-1], others, self.passes_in_row[seat],
                               self.plan.pass_limit)

    def legal_bids(self) -> list[int]:
        """The legal bids of the seat to move, lowest first, in ``BID``."""
        mask = self.legal_bid_mask()
        return [bid for bid in range(self._deal.hand_size + 1) if mask >> bid & 1]

    def _apply_bid(self, action: Bid) -> None:
        seat = self.to_move
        if (seat == self.order[-1]
                and self.plan.hook_rule(self._deal.number, self._kind) == HOOK_NO_EQUAL):
            others = sum(bid for bid in self.bids if bid is not None)
            self.hook_forced = core.hook_binds(self._deal.hand_size, self._kind.min_bid, others)
        self.bids[seat] = action.tricks
        self.passes_in_row[seat] = self.passes_in_row[seat] + 1 if action.tricks == 0 else 0
        if self.logging:
            self.log.append(BidMade(seat, action.tricks))
        if seat == self.order[-1]:
            self._start_play()
        else:
            self.to_move = self.next_seat(seat)

    # -- PLAY ------------------------------------------------------------------------------------

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        order = self.order
        hands = np.array([self.hands[seat] for seat in order], dtype=np.int64)
        dealer = order.index(self.dealer) if self.dealer in order else -1
        position = chance.first_leader(hands, len(order), dealer, self.plan.dealer_leads,
                                       self._kind.joker_holder_leads)
        self.to_move = order[position]

    def legal_play_options(self) -> tuple[int, int]:
        """The legal plays of the seat to move, cheaply, in ``PLAY``: (mask of the cards that may
        be played, the Jokers' bits included; mask of the calls a Joker may be played with, over
        ``engine.core.codes.OPTIONS``). ``legal_actions`` lists the same plays as records."""
        hand = self.hands[self.to_move]
        trick = self.trick
        if trick:
            lead = trick[0]
            cards = core.legal_cards(hand, len(trick), lead.card, CALL_CODES[lead.call],
                                     lead.suit, self.led_suit, self.trick_trump,
                                     self.plan.must_trump, self.plan.lock_card, self.played)
        else:
            cards = core.legal_cards(hand, 0, -1, 0, -1, -1, self.trick_trump,
                                     self.plan.must_trump, self.plan.lock_card, self.played)
        if not cards & JOKER_MASK:
            return cards, 0
        return cards, self.joker_calls()

    def joker_calls(self) -> int:
        """The calls a Joker played now may make, as options over ``codes.OPTIONS``."""
        plan = self.plan
        if not self.trick:
            number = self._deal.number
            return plan.lead_calls_mask(plan.demands_allowed(number, len(self.tricks)),
                                        self.trump >= 0)
        first = -1
        for entry in self.trick:
            if entry.card >= 52:
                first = CALL_CODES[entry.call]
                break
        return core.follow_calls(plan.two_jokers, first)

    def _play_actions(self, cards: int, calls: int, lead: bool) -> list[Action]:
        actions: list[Action] = [Play(card) for card in card_list(cards & ~JOKER_MASK)]
        if not calls:
            return actions
        options = [option for option in self.plan.call_order(lead) if calls >> option & 1]
        for joker in card_list(cards & JOKER_MASK):
            actions.extend(Play(joker, CALL_NAMES[OPTION_CALL[option]],  # type: ignore[arg-type]
                                int(OPTION_SUIT[option])) for option in options)
        return actions

    def _apply_play(self, action: Play) -> None:
        seat = self.to_move
        card = action.card
        hand = self.hands[seat]
        if not self.trick and self.plan.lead_fine:
            self.fines[seat] += chance.lead_fine(card, popcount(hand), self.plan.lead_fine)
        self.hands[seat] = hand & ~(1 << card)
        self.played |= 1 << card
        self.trick.append(TrickCard(seat, card, action.call, action.suit))
        if self.led_suit < 0:
            if not is_joker(card):
                self.led_suit = suit_of(card)
            elif len(self.trick) == 1 and action.suit >= 0:
                self.led_suit = action.suit
            if self.led_suit >= 0 and self._circular:
                self.trick_trump = (self.led_suit + 1) % 4
        if self.logging:
            self.log.append(CardPlayed(seat, action))
        if len(self.trick) < len(self.order):
            self.to_move = self.next_seat(seat)
            return
        winner = self.trick[self._trick_winner()].seat
        self.taken[winner] += 1
        self.tricks.append(Trick(tuple(self.trick), self.trick_trump, winner))
        if self.logging:
            self.log.append(TrickWon(winner, len(self.tricks)))
        self.trick = []
        self.led_suit = NO_SUIT
        self.trick_trump = self.trump
        self.to_move = winner
        if self.variant.play.draw_after_trick and len(self.stock) >= len(self.order):
            seat_to_draw = winner
            for _ in self.order:
                self.hands[seat_to_draw] |= 1 << self.stock.pop(0)
                seat_to_draw = self.next_seat(seat_to_draw)
        if not self.hands[winner]:
            self._score_deal()

    def _trick_winner(self) -> int:
        """Index in the trick of the card that takes it: the greatest ``core.card_key``, the
        earliest among equals."""
        trick = self.trick
        lead = trick[0]
        plan = self.plan
        led, trump = self.led_suit, self.trick_trump
        beats = core.trumps_beat_demand(lead.card, CALL_CODES[lead.call], lead.suit, trump,
                                        plan.trump_wins)
        best, best_key = 0, -2
        for index, entry in enumerate(trick):
            key = core.card_key(entry.card, CALL_CODES[entry.call], index, led, trump, beats,
                                plan.two_jokers)
            if key > best_key:
                best, best_key = index, key
        return best

    # -- SCORE -----------------------------------------------------------------------------------

    def _score_deal(self) -> None:
        self.phase = Phase.SCORE
        spec = self._deal
        points = [0] * self.players
        for seat in self.order:
            bid = self.bids[seat]
            points[seat] = deal_points(bid, self.taken[seat], spec.hand_size, self._kind,
                                       self.variant.scoring) + self.fines[seat]
        premiums = self._premiums(points)
        for seat in range(self.players):
            self.scores[seat] += points[seat] + premiums[seat]
        result = DealResult(
            number=spec.number, hand_size=spec.hand_size, kind=spec.kind, dealer=self.dealer,
            trump=self.trump, trump_card=self.trump_card, bids=tuple(self.bids),
            taken=tuple(self.taken), points=tuple(points), fines=tuple(self.fines),
            premiums=tuple(premiums), totals=tuple(self.scores), hook_forced=self.hook_forced,
            jokers_held=self.jokers_held,
        )
        self.results.append(result)
        if self.logging:
            self.log.append(DealScored(spec.number, tuple(points), tuple(premiums),
                                       tuple(self.scores)))
        self._next_deal()

    def _premiums(self, points: list[int]) -> list[int]:
        """Premiums for making every bid of the game, or of the block this deal closes (002)."""
        table = self.variant.scoring
        premiums = [0] * self.players
        spec = self._deal
        _, closes = self.plan.premium_window(spec.number, spec.block,
                                             self.deals[:self.schedule_length])
        if not closes:
            return premiums
        if table.premium_scope == "game":
            earlier = self.results
        else:
            earlier = [r for r in self.results if self.deals[r.number].block == spec.block]
        for seat in self.order:
            outcomes = [(r.bids[seat], r.taken[seat]) for r in earlier]
            outcomes.append((self.bids[seat], self.taken[seat]))
            made = all(core.bid_made(-1 if bid is None else bid, taken)
                       for bid, taken in outcomes)
            best = max([r.points[seat] for r in earlier] + [points[seat]])
            premiums[seat] = core.premium(self.plan.premium_mode, made, best,
                                          table.premium_points)
        return premiums

    def _next_deal(self) -> None:
        self.deal_index += 1
        self.dealer = (self.dealer + 1) % self.players
        if self.deal_index < len(self.deals):
            self._start_deal()
            return
        top = max(self.scores)
        tied = [seat for seat in range(self.players) if self.scores[seat] == top]
        extra = len(self.deals) - self.schedule_length
        if len(tied) > 1 and extra < self.plan.tie_deals:
            hand = self.plan.tie_hand_size(len(tied))
            self.deals.append(DealSpec(len(self.deals), hand, "golden", -1))
            self._start_deal()
            return
        self.phase = Phase.GAME_OVER
        self.to_move = -1
        if self.logging:
            self.log.append(GameEnded(tuple(self.scores), tuple(self.places())))
