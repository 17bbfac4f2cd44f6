"""Deals set up by hand: the state of a game of one deal, built from given hands or from what one
seat observes, for exact positions and for search.

``Game``'s constructors for such games stand on these functions: ``Game.single_deal`` (a deal
from given hands, trump and dealer: ``given_deal``) and ``Game.from_observation`` (the current
deal, mid-way, as a seat sees it, every hand given: ``observed_deal``; the search game of
``engine.determinize``, which ``Game.with_hands`` copies with other hands for each guess). Each
writes a machine state through ``engine.core.view.StateView`` and leaves it as the compiled
machine would (the legal masks set: ``machine.begin_deal``, ``machine.set_legal``); the ``Game``
then reads it as it reads any other state.

This module builds states, not games: it stands below ``engine.game``, which imports it, so
``Game`` keeps its public constructors without an import circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .cards import is_joker, popcount
from .core import deal as chance
from .core import machine as m
from .core.codes import TRUMP_CIRCULAR, call_value
from .core.plan import rule_plan
from .core.view import StateView
from .errors import RaspisError
from .phase import Phase
from .schedule import DealSpec
from .tricks import Trick
from .variant import Variant

if TYPE_CHECKING:
    from .observation import Observation

__all__ = ["Observed", "given_deal", "observed_deal", "one_deal", "one_deal_variant"]


class Observed(NamedTuple):
    """The current deal as a seat observes it, set up (``observed_deal``): the variant it plays
    under (``one_deal_variant``), its state, and what a ``Game`` keeps beside the state: how the
    trump was chosen, as text, and the deal's finished tricks as the seat saw them
    (``Game._finished``; placeholders for those it may not look back at)."""

    variant: Variant
    fields: StateView
    how: str
    tricks: tuple[Trick, ...]


_ONE_DEAL_VARIANTS: dict[int, tuple[Variant, Variant]] = {}


def one_deal_variant(variant: Variant) -> Variant:
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


def one_deal(variant: Variant, players: int, spec: DealSpec, ties: int | None, dealer: int,
             hands: Sequence[int], order: Sequence[int] | None = None) -> StateView:
    """The state of a game whose schedule is ``spec`` alone, the hands in place, before its
    trump (``ties``: the tie-break deals, as ``RulePlan.machine``), dealt to the seats of
    ``order`` (all of them when None; a tie-break deal's tied players: its tricks, with the
    draw after each trick, count the stock rounds for them)."""
    participants = None if order is None or len(order) == players else len(order)
    tables = rule_plan(variant, players).machine((spec,), ties, participants)
    fields = StateView(np.zeros(tables.length, dtype=np.int64), tables)
    fields.schedule = 1
    fields.dealer = fields.first_dealer = dealer
    if order is None:
        m.order_from(fields.state, fields.plan, (1 << players) - 1)
    else:
        fields.order = order
        m.link_order(fields.state, fields.plan)
    fields.hands = fields.first_cards = hands
    return fields


def given_deal(variant: Variant, hands: Sequence[int], trump: int, *, dealer: int, kind: str,
               trump_card: int | None, shown: Sequence[int] | None) -> StateView:
    """A deal from given hands (masks), trump (0..3 or -1) and dealer, begun (``Game.single_deal``
    says what each argument does)."""
    players = len(hands)
    sizes = {popcount(hand) for hand in hands}
    if len(sizes) != 1:
        raise RaspisError(f"every hand must have the same number of cards, got {sorted(sizes)}")
    if variant.kinds.get(kind) is None:
        raise RaspisError(f"unknown deal kind {kind!r}: known {', '.join(variant.kinds)}")
    circular = variant.trump.mode == "circular" and variant.kinds[kind].trump == "default"
    fields = one_deal(variant, players, DealSpec(0, sizes.pop(), kind, 0), None, dealer, hands)
    how = chance.HOW_CIRCULAR if circular else m.HOW_GIVEN
    m.begin_deal(fields.state, fields.plan, 0, trump, -1 if trump_card is None else trump_card,
                 how, -1)
    if shown is not None:
        if len(shown) != players or any(cards & ~hand for cards, hand in zip(shown, hands,
                                                                             strict=True)):
            raise RaspisError("shown needs one mask per seat, each within the seat's hand")
        fields.shown = shown
    return fields


def observed_deal(observation: Observation, hands: Sequence[int],
                  trump: tuple[int, int | None, str] | None = None,
                  stock: Sequence[int] = ()) -> Observed:
    """The current deal only, standing where ``observation`` stands, with ``hands`` as every
    seat's cards (``Game.from_observation`` says what is taken from the observation)."""
    variant = one_deal_variant(observation.variant)
    players = observation.players
    suit, card, how = ((observation.trump, observation.trump_card, observation.trump_how)
                       if trump is None else trump)
    spec = DealSpec(observation.deal_number, observation.hand_size, observation.kind, -1)
    fields = one_deal(variant, players, spec, 0, observation.dealer, hands, observation.order)
    plan = rule_plan(variant, players)
    kind = variant.kinds[observation.kind]
    circular = plan.trump_rule(spec.hand_size, kind, len(observation.order))
    fields.row = 0
    fields.trump = suit
    fields.trump_card = -1 if card is None else card
    fields.circular = circular == TRUMP_CIRCULAR
    fields.set_joker_holders(-1)
    if fields.deal.shown:  # the cards the others showed, as the seat saw them
        fields.shown = [0 if cards is None else cards for cards in observation.other_hands]
    fields.bids = [-1 if bid is None else bid for bid in observation.bids]
    fields.taken = observation.taken
    fields.passes = observation.passes_in_row
    trick = observation.trick
    fields.set_trick([(entry.seat, entry.card, call_value(entry.call, entry.suit, entry.rank),
                       entry.suit) for entry in trick])
    completed = sum(observation.taken)
    tricks = tuple(observation.tricks)
    if len(tricks) < completed:  # tricks the seat may not look back at: placeholders
        tricks = (Trick((), observation.trump, -1),) * (completed - len(tricks)) + tricks
    fields.tricks_done = completed
    fine = plan.lead_fine
    if fine:  # fines already incurred this deal, where the tricks are there to see
        last = fields.deal.tricks - 1
        for index, shown in enumerate([*tricks, Trick(tuple(trick), -1, -1)]):
            if (shown.cards and is_joker(shown.cards[0].card)
                    and index < last):
                fields.add_fine(shown.cards[0].seat, fine)
    fields.led_suit = observation.led_suit
    fields.trick_trump = observation.trick_trump if trump is None else suit
    phase = observation.phase
    fields.phase = int(phase)
    fields.to_move = observation.to_move
    fields.namer = observation.to_move if phase == Phase.TRUMP else -1
    fields.played = observation.played
    fields.turned_holder = observation.turned_holder
    fields.stock = stock
    if phase == Phase.TRUMP:
        fields.legal_first = fields.no_trump_naming
    m.set_legal(fields.state, fields.plan)
    return Observed(variant, fields, how, tricks)

