"""The event log of a game: one frozen record per thing that happened, printable as a line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Action, Bid, Keep, Play
from .cards import SUIT_SYMBOLS, card_str, mask_str
from .core import machine as m
from .tricks import finished_trick

if TYPE_CHECKING:
    from .game import Game


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


_new_tuple = tuple.__new__


def deal_opened(game: Game, trump_known: bool) -> list[Event]:
    """The events a deal opens with in ``game`` (standing at its start): the deal and its hands,
    the cards each seat shows where the deal's kind has them shown, and, ``trump_known``, how
    the trump was chosen."""
    spec = game.deal
    opened: list[Event] = [DealStarted(spec.number, spec.hand_size, spec.kind, game.view.dealer,
                                       tuple(game.view.hands))]
    if game.view.deal.shown:
        opened.append(CardsShown(tuple(game.view.shown)))
    if trump_known:
        opened.append(TrumpChosen(game.view.trump, game.trump_card, game.trump_how))
    return opened


def step_logged(game: Game, seat: int, action: Action, events: int, done: int) -> list[Event]:
    """The events of ``seat``'s ``action`` in ``game`` (just applied: ``events``, the flags
    ``machine.step`` returned; ``done``, the tricks finished before it): the action (a play as a
    copy: the log keeps no object a strategy was shown), then whatever it set off, a trick won, the
    deal scored, the next deal opened, its trump chosen, the game's end."""
    logged: list[Event] = []
    if type(action) is Play:
        logged.append(CardPlayed(seat, _new_tuple(Play, action)))  # type: ignore[arg-type]
    elif type(action) is Bid:
        logged.append(BidMade(seat, action.tricks))
    elif type(action) is Keep:
        logged.append(TrickKept(seat, action.keep))
    if events & m.EV_TRICK:
        logged.append(TrickWon(finished_trick(game.view, done).winner, done + 1))
    if events & m.EV_DEAL_SCORED:
        result = game.results[-1]
        logged.append(DealScored(result.number, result.points, result.premiums, result.totals))
    if events & m.EV_DEAL_STARTED:
        logged += deal_opened(game, False)
    if events & m.EV_TRUMP_CHOSEN:
        logged.append(TrumpChosen(game.view.trump, game.trump_card, game.trump_how))
    if events & m.EV_GAME_OVER:
        logged.append(GameEnded(tuple(game.scores), tuple(game.places())))
    return logged
