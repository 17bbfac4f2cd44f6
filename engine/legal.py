"""The legal actions of a decision as records (``engine.actions``), from the masks the rules core
leaves in the state (``machine.step`` returns them; ``Game`` keeps them).

The records are immutable tuples, so the tuples built here are shared between equal positions,
seats and games: the plays of each suit's cards, the plays of a whole mask (the masks met
first), the bids of a mask of legal bids, and per ``RulePlan`` the plays of its Jokers with
each legal call (``RulePlan.memo``). The order is the engine's: ordinary cards by card id, then
each Joker with each legal call in the plan's call order (a Joker declared as a card: one play
per nameable card, lowest card id first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, Bid, Keep, NameTrump, Play
from .cards import JOKER_MASK, card_list
from .core.codes import CALL_NAMES, CARD_OPTION, OPTION_CALL, OPTION_SUIT
from .phase import Phase
from .tricks import NO_SUIT

if TYPE_CHECKING:
    from .core.plan import RulePlan

_TRUMP, _BID, _PLAY, _KEEP = int(Phase.TRUMP), int(Phase.BID), int(Phase.PLAY), int(Phase.KEEP)
#: the legal actions of a ``KEEP`` decision, keeping first
KEEP_ACTIONS = (Keep(True), Keep(False))

#: the plays of one suit's cards, by ``suit << 13 | pattern`` (at most 4 x 8,192 entries)
_SUIT_PLAYS: dict[int, tuple[Play, ...]] = {}
#: the same by the whole mask, for the masks met first (bounded: a long run meets millions)
_PLAIN_PLAYS: dict[int, tuple[Action, ...]] = {}
_PLAIN_LIMIT = 1 << 16
#: the ``Bid`` records of a mask of legal bids (a range, less a bid the hook or a rule forbids:
#: few masks; bounded all the same)
_BIDS: dict[int, tuple[Action, ...]] = {}


def plain_plays(cards: int) -> tuple[Action, ...]:
    """``Play`` records of the ordinary ``cards``, lowest card id first (suit by suit)."""
    plays = _PLAIN_PLAYS.get(cards)
    if plays is not None:
        return plays
    plays = ()
    for suit in range(4):
        pattern = cards >> (13 * suit) & 8191
        if pattern:
            key = suit << 13 | pattern
            found = _SUIT_PLAYS.get(key)
            if found is None:
                found = _SUIT_PLAYS[key] = tuple(
                    Play(13 * suit + rank) for rank in range(13) if pattern >> rank & 1)
            plays += found
    if len(_PLAIN_PLAYS) < _PLAIN_LIMIT:
        _PLAIN_PLAYS[cards] = plays
    return plays


def joker_plays(plan: RulePlan, cards: int, calls: int, lead: bool) -> list[Action]:
    """The plays of the Jokers of ``cards``, each with each legal call of ``calls`` (a mask over
    ``codes.OPTIONS``), in the plan's order; the card option (``joker.as_card``) as one play per
    card of the plan's ``nameable``, lowest card id first."""
    actions: list[Action] = []
    options = [option for option in plan.call_order(lead) if calls >> option & 1]
    named = card_list(plan.nameable)
    for joker in card_list(cards & JOKER_MASK):
        for option in options:
            if option == CARD_OPTION:
                actions.extend(Play.declared(joker, card) for card in named)
            else:
                actions.append(Play(joker, CALL_NAMES[OPTION_CALL[option]],  # type: ignore[arg-type]
                                    int(OPTION_SUIT[option])))
    return actions


def legal_records(phase: int, legal: tuple[int, int], lead: bool,
                  plan: RulePlan) -> tuple[Action, ...]:
    """The legal actions of a decision in ``phase`` (an ``int`` of ``Phase``), from the core's two
    legal masks ``legal`` (``PLAY``: the cards, the Joker's calls; ``BID``: the bids; ``TRUMP``:
    whether no trump may be named); ``lead``: the play leads a trick."""
    if phase == _PLAY:
        cards, calls = legal
        if not calls:  # no Joker to play: the plays of the mask met before, most often
            found = _PLAIN_PLAYS.get(cards)
            return found if found is not None else plain_plays(cards & ~JOKER_MASK)
        memo = plan.memo
        key = (cards & JOKER_MASK, calls, lead)
        jokers = memo.get(key)
        if jokers is None:
            jokers = memo[key] = tuple(joker_plays(plan, cards, calls, lead))
        return plain_plays(cards & ~JOKER_MASK) + jokers  # type: ignore[operator]
    if phase == _BID:
        mask = legal[0]
        found = _BIDS.get(mask)
        if found is None:
            found = tuple(Bid(bid) for bid in range(mask.bit_length()) if mask >> bid & 1)
            if len(_BIDS) < _PLAIN_LIMIT:
                _BIDS[mask] = found
        return found
    if phase == _KEEP:
        return KEEP_ACTIONS
    if phase == _TRUMP:
        return tuple(NameTrump(suit) for suit in (0, 1, 2, 3, NO_SUIT)[:4 + legal[0]])
    return ()
