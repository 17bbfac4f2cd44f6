"""Actions as small frozen records that print like the score sheet and parse back.

A player's choices are a ``Bid`` (0 is the pass, "пас"), a ``NameTrump`` (a suit, or -1 for no
trump), a ``Play`` of a card and, under ``joker.lead_choice``, a ``Keep``: the player who led the
Joker keeps the trick or declines it (000). Playing a Joker carries a ``call``: how the Joker
counts.

Joker calls, on the lead (RULES §5):

- ``high``: the Joker beats everything; the next ordinary card sets the led suit (002 Joker-52);
- ``high`` with a ``suit``: the Joker is the highest card of the named suit, which is led (003);
- ``low`` / ``low`` with a ``suit``: the Joker is the lowest card ("за младшую"); the highest
  card of the led suit or a trump takes the trick, and if nobody follows or trumps the Joker still
  takes it (003);
- ``highest`` with a ``suit``: "по старшим пикам": everyone must play their highest card of that
  suit, failing that a trump (where trumping is obligatory), failing that anything (000, 003);
- ``lowest`` with a ``suit``: everyone must play their lowest card of that suit (002), and the Joker
  counts as low;
- ``trumps``: "по старшим козырям": everyone plays their highest trump (000);
- ``highest_card`` / ``lowest_card``: «самой старшей картой любой масти», «по младшей карте»:
  everyone plays a card of the highest (lowest) rank they hold, in any suit (000);
- ``lowest_trump``: «по младшему козырю»: everyone plays their lowest trump (000);
- ``twos`` .. ``aces``: a named rank, «карту определённого номинала, например туза»: everyone
  plays a card of that rank if they hold one (003).

After each of the last four the Joker takes the trick (``engine.core.rules.is_high_call``).

Not on the lead a Joker is ``high`` (takes the trick) or ``low`` (gives it away), whatever was led.

Led or not, where ``joker.as_card`` allows it, ``card`` with a ``suit`` and a ``rank`` (2..14)
declares the Joker as that card (000: «джокер может быть выдан за любую карту: любого ранга и
масти»; 002): it holds the trick as the card would and, led, leads its suit. It prints and reads
as ``JK card A♥``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from .cards import (
    SUIT_BY_TEXT,
    SUIT_SYMBOLS,
    card_str,
    is_joker,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)

JokerCall = Literal["high", "low", "highest", "lowest", "trumps", "highest_card", "lowest_card",
                    "lowest_trump", "twos", "threes", "fours", "fives", "sixes", "sevens",
                    "eights", "nines", "tens", "jacks", "queens", "kings", "aces", "card"]
JOKER_CALLS: tuple[str, ...] = get_args(JokerCall)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``tricks`` tricks; 0 is the pass."""

    tricks: int

    def __str__(self) -> str:
        return "pass" if self.tricks == 0 else f"bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """Naming the trump suit (0..3), or -1 for no trump."""

    suit: int

    def __str__(self) -> str:
        return "trump none" if self.suit < 0 else f"trump {SUIT_SYMBOLS[self.suit]}"


@dataclass(frozen=True, slots=True)
class Play:
    """Playing ``card``; a Joker carries its ``call`` and, where the call names one, a ``suit``;
    declared as a card (``call`` "card") the card's ``suit`` and ``rank`` (2..14; 0 otherwise)."""

    card: int
    call: JokerCall | None = None
    suit: int = -1
    rank: int = 0

    @classmethod
    def declared(cls, joker: int, named: int) -> Play:
        """The Joker ``joker`` declared as the ordinary card ``named`` (``joker.as_card``)."""
        return cls(joker, "card", suit_of(named), rank_of(named))

    @property
    def named(self) -> int:
        """The card a Joker declared as a card stands for (-1 for any other play)."""
        return make_card(self.rank, self.suit) if self.rank else -1

    def __str__(self) -> str:
        text = card_str(self.card)
        if self.rank:
            return f"{text} {self.call} {card_str(self.named)}"
        if self.call is not None:
            text += f" {self.call}"
        if self.suit >= 0:
            text += f" {SUIT_SYMBOLS[self.suit]}"
        return text


@dataclass(frozen=True, slots=True)
class Keep:
    """The player who led the Joker keeps the trick (``True``) or declines it (``False``: the best
    of the other cards takes it; 000 «Походивший с джокера может забрать взятку, либо отказаться от
    нее»)."""

    keep: bool

    def __str__(self) -> str:
        return "keep" if self.keep else "decline"


Action = Bid | NameTrump | Play | Keep


def parse_action(text: str) -> Action:
    """Read an action as printed: ``pass``, ``bid 2``, ``2``, ``trump ♠``, ``trump none``,
    ``keep``, ``decline``,
    ``7♠``, ``Th``, ``JK high``, ``JK highest s``, ``JK low ♥``, ``JK trumps``,
    ``JK lowest_trump``, ``JK aces``, ``JK card A♥`` (``JK card Ah``)."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action")
    if words == ["pass"] or words == ["пас"]:
        return Bid(0)
    if words in (["keep"], ["decline"]):
        return Keep(words[0] == "keep")
    if words[0] == "bid" and len(words) == 2 and words[1].isdigit():
        return Bid(int(words[1]))
    if len(words) == 1 and words[0].isdigit():
        return Bid(int(words[0]))
    if words[0] == "trump" and len(words) == 2:
        if words[1] in ("none", "no", "-"):
            return NameTrump(-1)
        if words[1] in SUIT_BY_TEXT:
            return NameTrump(SUIT_BY_TEXT[words[1]])
    card = parse_card(words[0])
    if len(words) == 1:
        return Play(card)
    if not is_joker(card) or words[1] not in JOKER_CALLS or len(words) > 3:
        raise ValueError(f"cannot read {text!r} as an action")
    if words[1] == "card":
        named = parse_card(words[2]) if len(words) == 3 else -1
        if is_joker(named) or named < 0:
            raise ValueError(f"cannot read {text!r}: 'card' names an ordinary card, e.g. "
                             "'JK card Ah'")
        return Play.declared(card, named)
    suit = -1
    if len(words) == 3:
        if words[2] not in SUIT_BY_TEXT:
            raise ValueError(f"cannot read {text!r}: {words[2]!r} is not a suit")
        suit = SUIT_BY_TEXT[words[2]]
    return Play(card, words[1], suit)  # type: ignore[arg-type]
