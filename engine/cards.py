"""Cards as small integers, hands as bitmasks.

A card is an ``int``: ``suit * 13 + (rank - 2)`` for the 52 ordinary cards (ranks 2..14, the ace is
14) and ``52`` / ``53`` for the first and second Joker. A set of cards (a hand, a deck, the cards
played so far) is an ``int`` bitmask with bit ``card`` set for each card in it, so legal moves
are mask arithmetic and ``popcount`` counts cards.

Suits are numbered in the order of the circular-trump cycle of the seed texts (000, 002):
spades -> clubs -> diamonds -> hearts -> spades, so ``(suit + 1) % 4`` is the next suit.

A designated Joker (the 7♠ or 6♠ of a 36-card deck) is removed from the deck and replaced by a Joker
card id; the variant remembers which ordinary card it stands for, for display.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
SUITS: tuple[int, ...] = (SPADES, CLUBS, DIAMONDS, HEARTS)
SUIT_SYMBOLS = "♠♣♦♥"
SUIT_LETTERS = "scdh"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
RANK_LETTERS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
                11: "J", 12: "Q", 13: "K", 14: "A"}

JOKER = 52
JOKER2 = 53
JOKERS: tuple[int, int] = (JOKER, JOKER2)
JOKER_MASK = (1 << JOKER) | (1 << JOKER2)
CARD_COUNT = 54

#: Bitmask of all 13 cards of each suit.
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * suit) for suit in SUITS)

#: Masks of the cards of the same suit ranked above / below each card id (empty for the Jokers).
ABOVE: tuple[int, ...] = tuple(
    SUIT_MASKS[card // 13] & ~((2 << card) - 1) if card < JOKER else 0 for card in range(CARD_COUNT)
)
BELOW: tuple[int, ...] = tuple(
    SUIT_MASKS[card // 13] & ((1 << card) - 1) if card < JOKER else 0 for card in range(CARD_COUNT)
)

SUIT_BY_TEXT = {"s": SPADES, "♠": SPADES, "c": CLUBS, "♣": CLUBS, "d": DIAMONDS, "♦": DIAMONDS,
                "h": HEARTS, "♥": HEARTS, "♤": SPADES, "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS}
_PARSE_RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "t": 10,
                "j": 11, "q": 12, "k": 13, "a": 14,
                # Russian letters as printed on Soviet decks: В(алет) Д(ама) К(ороль) Т(уз)
                "в": 11, "д": 12, "к": 13, "т": 14}


def make_card(rank: int, suit: int) -> int:
    """The card id of ``rank`` (2..14) of ``suit`` (0..3)."""
    if not 2 <= rank <= 14 or suit not in SUITS:
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return suit * 13 + rank - 2


def is_joker(card: int) -> bool:
    """True for the two Joker ids."""
    return card >= JOKER


def suit_of(card: int) -> int:
    """The suit of an ordinary card (a Joker has none: -1)."""
    return card // 13 if card < JOKER else -1


def rank_of(card: int) -> int:
    """The rank 2..14 of an ordinary card (a Joker: 15)."""
    return card % 13 + 2 if card < JOKER else 15


def card_str(card: int, ascii_only: bool = False) -> str:
    """``7♠``, ``10♥``, ``A♦``, ``JK``; with ``ascii_only`` ``7s``, ``Th``, ``Ad``, ``JK``."""
    if card == JOKER:
        return "JK"
    if card == JOKER2:
        return "JK2"
    rank = rank_of(card)
    suit = suit_of(card)
    if ascii_only:
        return ("T" if rank == 10 else RANK_LETTERS[rank]) + SUIT_LETTERS[suit]
    return RANK_LETTERS[rank] + SUIT_SYMBOLS[suit]


def parse_card(text: str) -> int:
    """Parse ``7♠``, ``7s``, ``10♥``, ``Th``, ``JK`` (``JK1``, ``JK2``) into a card id.

    Raises ``ValueError`` naming the text and the accepted forms.
    """
    cleaned = text.strip().lower()
    if cleaned in ("jk", "jk1", "joker", "джокер"):
        return JOKER
    if cleaned in ("jk2", "joker2"):
        return JOKER2
    if len(cleaned) >= 2 and cleaned[-1] in SUIT_BY_TEXT and cleaned[:-1] in _PARSE_RANKS:
        return make_card(_PARSE_RANKS[cleaned[:-1]], SUIT_BY_TEXT[cleaned[-1]])
    raise ValueError(
        f"cannot read {text!r} as a card: write rank then suit, e.g. '7♠', '7s', '10♥', 'Th', "
        "'Ad', or 'JK'/'JK2' for a Joker"
    )


def parse_cards(text: str | Iterable[str]) -> int:
    """Parse a space- or comma-separated list of cards into a mask."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    mask = 0
    for item in items:
        mask |= 1 << parse_card(item)
    return mask


def cards_of(mask: int) -> Iterator[int]:
    """The card ids in ``mask``, lowest first (python-chess's ``scan_forward``)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: int) -> list[int]:
    """The card ids in ``mask`` as a list, lowest first."""
    return list(cards_of(mask))


def popcount(mask: int) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


def highest(mask: int) -> int:
    """The highest card id in a non-empty mask (within one suit: the highest rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest card id in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def mask_str(mask: int, ascii_only: bool = False) -> str:
    """Cards of a mask for display, grouped by suit, highest first within a suit."""
    parts = []
    for card in sorted(cards_of(mask), key=lambda c: (c < JOKER, suit_of(c), -rank_of(c))):
        parts.append(card_str(card, ascii_only))
    return " ".join(parts)
