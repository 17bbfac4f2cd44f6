"""Actions as small immutable records that print like the score sheet and parse back.

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
- ``one_trump``: «скинули по одному козырю»: everyone plays a trump of their choice (000 l.84);
- ``twos`` .. ``aces``: a named rank, «карту определённого номинала, например туза»: everyone
  plays a card of that rank if they hold one (003).

After each of the last five the Joker takes the trick (``engine.core.rules.is_high_call``).

Not on the lead a Joker is ``high`` (takes the trick) or ``low`` (gives it away), whatever was led.

Led or not, where ``joker.as_card`` allows it, ``card`` with a ``suit`` and a ``rank`` (2..14)
declares the Joker as that card (000: «джокер может быть выдан за любую карту: любого ранга и
масти»; 002): it holds the trick as the card would and, led, leads its suit. It prints and reads
as ``JK card A♥``.

The records are named tuples, immutable in C: their fields cannot be written, deleted or added to
(``object.__setattr__`` included), so the engine shares one record between positions, seats and
games (``Game.legal_action_tuple``), and a strategy cannot rewrite what the others are shown or
what the engine applies. They keep a dataclass's manners: equal only to a record of the same
class with the same values (``Bid(3) != NameTrump(3)``, ``Bid(3) != (3,)``), hashed as the tuple
of their values, not ordered (``<`` raises ``TypeError``); ``repr`` is ``Bid(tricks=3)``.

The one write a tuple allows is its class: ``object.__setattr__(record, "__class__", Other)``
swaps it for another tuple class of the same layout. The engine applies only a record of exactly
the class its phase expects (``Game.apply_unchecked``) and reads its fields through that class,
so a swapped record is refused, never misread; a strategy later shown that record is misled by it
(in-process strategies are trusted code: they can reach the game itself; isolated ones are shown
pickled copies).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, get_args

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
                    "lowest_trump", "one_trump", "twos", "threes", "fours", "fives", "sixes",
                    "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces",
                    "card"]
JOKER_CALLS: tuple[str, ...] = get_args(JokerCall)


_tuple_eq = tuple.__eq__


def record_eq(self: tuple[Any, ...], other: object) -> Any:
    """Equal to a record of exactly the same class with the same values (a dataclass's ``==``:
    never to a plain tuple or a record of another class with the same values)."""
    if type(other) is type(self):
        return _tuple_eq(self, other)
    return False if isinstance(other, tuple) else NotImplemented


def record_ne(self: tuple[Any, ...], other: object) -> Any:
    """``not ==`` (tuple's own ``!=`` would compare the values only)."""
    if type(other) is type(self):
        return not _tuple_eq(self, other)
    return True if isinstance(other, tuple) else NotImplemented


def record_unordered(self: tuple[Any, ...], other: object) -> Any:
    """Records are not ordered (as a dataclass without ``order``): ``<`` between two raises."""
    return NotImplemented


class Bid(NamedTuple):
    """A bid of ``tricks`` tricks; 0 is the pass."""

    tricks: int

    def __str__(self) -> str:
        return "pass" if self.tricks == 0 else f"bid {self.tricks}"

    __eq__ = record_eq  # type: ignore[assignment]
    __ne__ = record_ne  # type: ignore[assignment]
    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = record_unordered  # type: ignore[assignment]


class NameTrump(NamedTuple):
    """Naming the trump suit (0..3), or -1 for no trump."""

    suit: int

    def __str__(self) -> str:
        return "trump none" if self.suit < 0 else f"trump {SUIT_SYMBOLS[self.suit]}"

    __eq__ = record_eq  # type: ignore[assignment]
    __ne__ = record_ne  # type: ignore[assignment]
    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = record_unordered  # type: ignore[assignment]


class Play(NamedTuple):
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

    __eq__ = record_eq  # type: ignore[assignment]
    __ne__ = record_ne  # type: ignore[assignment]
    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = record_unordered  # type: ignore[assignment]


class Keep(NamedTuple):
    """The player who led the Joker keeps the trick (``True``) or declines it (``False``: the best
    of the other cards takes it; 000 «Походивший с джокера может забрать взятку, либо отказаться от
    нее»)."""

    keep: bool

    def __str__(self) -> str:
        return "keep" if self.keep else "decline"

    __eq__ = record_eq  # type: ignore[assignment]
    __ne__ = record_ne  # type: ignore[assignment]
    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = record_unordered  # type: ignore[assignment]


Action = Bid | NameTrump | Play | Keep


def action_text(action: object) -> str:
    """``str(action)`` for a message, never raising: a record that cannot print itself (one built
    short with ``tuple.__new__``, or one whose class was swapped) shows as ``<its class>``."""
    try:
        return str(action)
    except Exception:  # noqa: BLE001
        try:
            return f"<{type.__dict__['__name__'].__get__(type(action))}>"
        except Exception:  # noqa: BLE001
            return "<an object>"


def parse_action(text: str) -> Action:
    """Read an action as printed: ``pass``, ``bid 2``, ``2``, ``trump ♠``, ``trump none``,
    ``keep``, ``decline``,
    ``7♠``, ``Th``, ``JK high``, ``JK highest s``, ``JK low ♥``, ``JK trumps``,
    ``JK lowest_trump``, ``JK one_trump``, ``JK aces``, ``JK card A♥`` (``JK card Ah``)."""
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
