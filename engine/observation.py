"""What one seat may know: the observation a strategy decides from.

An observation holds exactly what the seat may see under the variant: its own hand (hidden while
bidding a dark deal; while naming trump only the first cards dealt), the other hands only in a
"lobovaya" deal while bidding, the trump and the turned card, the bids, the tricks taken, the
current trick, and the finished tricks that the variant's memory rule lets it look back at
(``play.memory``: all, its own and the last, the last, none, or its own). Legal actions come with
it when the seat is to move, like an action mask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .core.plan import bidding_view
from .core.rules import MEMORY_CODES, trick_visible
from .phase import Phase

if TYPE_CHECKING:
    from .game import Game, Trick, TrickCard
    from .variant import Variant


class Observation(NamedTuple):
    """One seat's view of the game. Masks are card bitmasks (see ``engine.cards``).

    A named tuple: immutable and cheap to build, since one is made for every decision.
    """

    variant: Variant
    seat: int
    players: int
    phase: Phase
    deal_number: int
    hand_size: int
    kind: str
    dealer: int
    order: tuple[int, ...]
    to_move: int
    hand: int
    hand_hidden: bool
    other_hands: tuple[int | None, ...]
    trump: int
    trump_card: int | None
    trump_how: str
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    trick: tuple[TrickCard, ...]
    led_suit: int
    trick_trump: int
    tricks: tuple[Trick, ...]
    played: int
    scores: tuple[int, ...]
    hook_rule: str
    legal_actions: tuple[Action, ...]
    #: True while bidding a dark deal: bids come before the deal, so the trump is not known yet
    #: (``trump`` is then -1 and ``trump_card`` None whatever they will be).
    trump_hidden: bool = False
    #: Each seat's passes in a row so far (public: every bid is seen), for the pass limit.
    passes_in_row: tuple[int, ...] = ()

    def resample(self, rng: random.Random) -> Game:
        """A game of the current deal consistent with this observation, the hidden cards guessed
        (OpenSpiel's ``ResampleFromInfostate``): dealt at random from every card the seat has not
        seen, honouring the voids the play has shown, the Joker's demands and the card shown for
        trump (``engine.determinize``). It ends when the deal is scored (``Game.from_observation``).
        """
        from .determinize import Determinizer

        return Determinizer(self).sample(rng)


_NO_HANDS: dict[int, tuple[None, ...]] = {}


def visible_tricks(memory: str, finished: Sequence[Trick], seat: int) -> tuple[Trick, ...]:
    """The finished tricks of the deal that ``seat`` may look back at under the memory rule
    (``play.memory``; the rule is ``engine.core.rules.trick_visible``)."""
    if memory == "full":
        return tuple(finished)
    code = MEMORY_CODES[memory]
    last = len(finished) - 1
    return tuple(trick for index, trick in enumerate(finished)
                 if trick_visible(code, trick.winner == seat, index == last))


def cards_seen(visible: Sequence[Trick], current: Sequence[TrickCard]) -> int:
    """The cards of the visible tricks and of the trick under way, as a mask."""
    played = 0
    for trick in visible:
        for entry in trick.cards:
            played |= 1 << entry.card
    for entry in current:
        played |= 1 << entry.card
    return played


def observe(game: Game, seat: int) -> Observation:
    """Build ``seat``'s observation of ``game``."""
    phase = game.phase
    kind = game._kind
    deal = game._deal
    hand = game.hands[seat]
    hidden = trump_hidden = False
    players = game.players
    others = _NO_HANDS.get(players)
    if others is None:
        others = _NO_HANDS[players] = (None,) * players
    if phase == Phase.BID:
        hidden, trump_hidden, shown = bidding_view(kind)
        if hidden:
            hand = 0
        if shown:
            others = tuple(game.hands[other] if other != seat else None
                           for other in range(players))
    elif phase == Phase.TRUMP and game.trump_how == "named" and game.trump_card is None:
        # Named after the first cards (002); a dealer naming after a turned Joker saw every card.
        hand = game.first_cards[seat]
    memory = game.plan.memory
    visible = visible_tricks(memory, game.tricks, seat)
    played = game.played if memory == "full" else cards_seen(visible, game.trick)
    to_move = game.to_move if phase != Phase.GAME_OVER else -1
    return _make((  # the named tuple's own fast constructor: one tuple, no keyword parsing
        game.variant, seat, players, phase, deal.number, deal.hand_size, deal.kind, game.dealer,
        tuple(game.order), to_move, hand, hidden, others,
        -1 if trump_hidden else game.trump,
        None if trump_hidden else game.trump_card,
        "unknown" if trump_hidden else game.trump_how, tuple(game.bids), tuple(game.taken),
        tuple(game.trick), game.led_suit, -1 if trump_hidden else game.trick_trump, visible,
        played, tuple(game.scores), game.hook_rule() if phase == Phase.BID else "none",
        game.legal_action_tuple() if to_move == seat else (), trump_hidden,
        tuple(game.passes_in_row),
    ))


_make = Observation._make
