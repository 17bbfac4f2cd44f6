"""The event log of a game: one frozen record per thing that happened, printable as a line."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Play
from .cards import SUIT_SYMBOLS, card_str, mask_str


def _suit(suit: int) -> str:
    return SUIT_SYMBOLS[suit] if suit >= 0 else "none"


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A deal was dealt: its number (0-based), hand size, kind, dealer and every hand."""

    number: int
    hand_size: int
    kind: str
    dealer: int
    hands: tuple[int, ...]

    def __str__(self) -> str:
        hands = " | ".join(f"{seat}: {mask_str(hand)}" for seat, hand in enumerate(self.hands))
        return (f"deal {self.number + 1}: {self.hand_size} cards, {self.kind}, dealer {self.dealer}"
                f" -- {hands}")


@dataclass(frozen=True, slots=True)
class CardsShown:
    """The cards each seat showed the others at the deal without looking (lobovaya read as one
    card each: 000 «клеят ее себе на лоб», 002, 003), as masks (0: none)."""

    shown: tuple[int, ...]

    def __str__(self) -> str:
        cards = " | ".join(f"{seat}: {mask_str(cards)}" for seat, cards in enumerate(self.shown))
        return f"  shown -- {cards}"


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    """The deal's trump suit (-1 none), the card that showed it, and how it was chosen."""

    suit: int
    card: int | None
    how: str

    def __str__(self) -> str:
        shown = f" ({card_str(self.card)})" if self.card is not None else ""
        return f"  trump {_suit(self.suit)}{shown}, {self.how}"


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat's bid (0 = pass)."""

    seat: int
    bid: int

    def __str__(self) -> str:
        return f"  seat {self.seat} {'pass' if self.bid == 0 else f'bids {self.bid}'}"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a card (with a Joker's call)."""

    seat: int
    play: Play

    def __str__(self) -> str:
        return f"  seat {self.seat} plays {self.play}"


@dataclass(frozen=True, slots=True)
class TrickKept:
    """The seat that led the Joker kept the trick or declined it (``joker.lead_choice``, 000)."""

    seat: int
    keep: bool

    def __str__(self) -> str:
        return f"  seat {self.seat} {'keeps' if self.keep else 'declines'} the trick"


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A seat took trick number ``trick`` (1-based) of the deal."""

    seat: int
    trick: int

    def __str__(self) -> str:
        return f"  trick {self.trick} to seat {self.seat}"


@dataclass(frozen=True, slots=True)
class DealScored:
    """Points of the deal per seat, premiums, and running totals."""

    number: int
    points: tuple[int, ...]
    premiums: tuple[int, ...]
    totals: tuple[int, ...]

    def __str__(self) -> str:
        premium = f" premiums {list(self.premiums)}" if any(self.premiums) else ""
        return f"  points {list(self.points)}{premium} totals {list(self.totals)}"


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Final totals and places."""

    totals: tuple[int, ...]
    places: tuple[int, ...]

    def __str__(self) -> str:
        return f"game over: totals {list(self.totals)} places {list(self.places)}"


Event = (DealStarted | CardsShown | TrumpChosen | BidMade | CardPlayed | TrickKept | TrickWon
         | DealScored | GameEnded)
