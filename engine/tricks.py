"""Tricks as records: one card in a trick (``TrickCard``) and a finished trick (``Trick``), read
from the compiled state of ``engine.core.machine`` for ``Game`` and its observations.

The records are named tuples, immutable in C like the actions (``engine.actions``): their fields
cannot be written, deleted or added to, ``object.__setattr__`` included. The game reads each
finished trick once a deal and shows that one record to every seat that may look back at it
(``Game._finished``), so a strategy cannot rewrite what the other seats see of the tricks. They
keep a dataclass's manners, as the actions do: equal only to a record of the same class with the
same values (never to a plain tuple), hashed as the tuple of their values, not ordered; ``repr``
is ``TrickCard(seat=0, card=5, call=None, suit=-1, rank=0)``. As for the actions, the one write a
tuple allows is its class (``object.__setattr__(record, "__class__", ...)``); in-process strategies
are trusted code, which can reach the game itself; isolated ones are shown pickled copies.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import record_eq, record_ne, record_unordered
from .core.codes import CALL_CARD, CALL_NAMES, NAMED_SHIFT
from .core.view import StateView

NO_SUIT = -1


class TrickCard(NamedTuple):
    """One card in a trick: who played it and how (a Joker's call and suit; declared as a card,
    ``call`` "card" and the card's suit and ``rank``, as ``engine.actions.Play``)."""

    seat: int
    card: int
    call: str | None = None
    suit: int = NO_SUIT
    rank: int = 0

    @property
    def named(self) -> int:
        """The card a Joker declared as a card stands for (-1 for any other play)."""
        return 13 * self.suit + self.rank - 2 if self.rank else -1

    __eq__ = record_eq  # type: ignore[assignment]
    __ne__ = record_ne  # type: ignore[assignment]
    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = record_unordered  # type: ignore[assignment]


def _entry(seat: int, card: int, call: int, suit: int) -> TrickCard:
    """A trick entry from the state's (seat, card, call code, suit)."""
    if call >= CALL_CARD:
        return TrickCard(seat, card, "card", suit, (call >> NAMED_SHIFT) % 13 + 2)
    return TrickCard(seat, card, CALL_NAMES[call], suit)


class Trick(NamedTuple):
    """A finished trick: its cards in order of play, its trump and its winner."""

    cards: tuple[TrickCard, ...]
    trump: int
    winner: int

    __eq__ = record_eq  # type: ignore[assignment]
    __ne__ = record_ne  # type: ignore[assignment]
    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = record_unordered  # type: ignore[assignment]


def current_trick(fields: StateView) -> tuple[TrickCard, ...]:
    """The trick under way in the state ``fields`` reads."""
    return tuple(_entry(*entry) for entry in fields.trick_cards())


def finished_trick(fields: StateView, index: int) -> Trick:
    """Finished trick ``index`` (0-based) of the deal in the state ``fields`` reads."""
    cards, trump, winner = fields.finished_trick(index)
    return Trick(tuple(_entry(*entry) for entry in cards), trump, winner)
