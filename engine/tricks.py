"""Tricks as records: one card in a trick (``TrickCard``) and a finished trick (``Trick``), read
from the compiled state of ``engine.core.machine`` for ``Game`` and its observations."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import machine
from .core.codes import CALL_CARD, CALL_NAMES, NAMED_SHIFT

NO_SUIT = -1


@dataclass(frozen=True, slots=True)
class TrickCard:
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


def _entry(seat: int, card: int, call: int, suit: int) -> TrickCard:
    """A trick entry from the state's (seat, card, call code, suit)."""
    if call >= CALL_CARD:
        return TrickCard(seat, card, "card", suit, (call >> NAMED_SHIFT) % 13 + 2)
    return TrickCard(seat, card, CALL_NAMES[call], suit)


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its cards in order of play, its trump and its winner."""

    cards: tuple[TrickCard, ...]
    trump: int
    winner: int


def current_trick(state: np.ndarray, plan: np.ndarray) -> tuple[TrickCard, ...]:
    """The trick under way in ``state``."""
    length = int(state[machine.S_TRICK_LEN])
    if not length:
        return ()
    seats = plan[machine.O_TSEAT]
    return tuple(
        _entry(int(state[seats + i]), int(state[plan[machine.O_TCARD] + i]),
               int(state[plan[machine.O_TCALL] + i]), int(state[plan[machine.O_TSUIT] + i]))
        for i in range(length))


def finished_trick(state: np.ndarray, plan: np.ndarray, index: int) -> Trick:
    """Finished trick ``index`` (0-based) of the deal in ``state``."""
    players = int(plan[machine.P_PLAYERS])
    at = int(plan[machine.O_HIST]) + index * machine.hist_width(players)
    row = state[at:at + machine.hist_width(players)].tolist()
    count = row[machine.H_COUNT]
    base = machine.H_CARDS
    cards = tuple(
        _entry(row[base + i], row[base + players + i], row[base + 2 * players + i],
               row[base + 3 * players + i])
        for i in range(count))
    return Trick(cards, row[machine.H_TRUMP], row[machine.H_WINNER])
