"""Card masks as numpy ``uint64`` arrays: the lookup tables and bit tricks of the batch engine.

The batch engine keeps every hand, trick and set of played cards as a ``uint64`` bitmask with the
card ids of ``engine.cards`` (bit ``suit * 13 + rank - 2``, Jokers 52 and 53), one element per game.
Everything here is a table built once at import and a handful of vectorised helpers built on them:
popcount (``np.bitwise_count``), the lowest card of a mask (the low bit's residue modulo 67 is
unique for the 64 powers of two), the highest or lowest card of one suit (13-bit tables), the card
of lowest or highest rank across suits, and the ``r``-th card of a mask (for uniform choices).
"""

from __future__ import annotations

import numpy as np
from raspis.engine.cards import JOKER, JOKER2

U64 = np.uint64
ONE = U64(1)
ZERO = U64(0)

#: ``BIT[i]`` is ``1 << i`` for i in 0..63.
BIT = np.array([1 << i for i in range(64)], dtype=np.uint64)
#: ``BELOW[i]`` is the mask of bits 0..i-1 (``BELOW[0] == 0``), for i in 0..64.
BELOW = np.array([(1 << i) - 1 for i in range(65)], dtype=np.uint64)
JOKER_BITS = U64((1 << JOKER) | (1 << JOKER2))
NOT_JOKERS = U64(((1 << 64) - 1) ^ ((1 << JOKER) | (1 << JOKER2)))
ORDINARY = U64((1 << JOKER) - 1)
SUIT_MASK = np.array([((1 << 13) - 1) << (13 * suit) for suit in range(4)], dtype=np.uint64)
#: ``SUIT_MASK_OR_NONE[suit + 1]``: the suit's mask, and 0 for suit -1 (no suit).
SUIT_MASK_OR_NONE = np.array([0, *SUIT_MASK.tolist()], dtype=np.uint64)
#: Suit of each card id 0..63: 0..3, and 4 for the Jokers (and unused ids).
SUIT_OF = np.array([card // 13 if card < JOKER else 4 for card in range(64)], dtype=np.int64)
#: Rank index 0..12 (2..A) of each card id; 13 for the Jokers.
RANK_OF = np.array([card % 13 if card < JOKER else 13 for card in range(64)], dtype=np.int64)
#: The mask of all cards of each rank index 0..12 (one bit per suit).
RANK_MASK = np.array([sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13)],
                     dtype=np.uint64)

_MOD67 = np.full(67, -1, dtype=np.int64)
for _bit in range(64):
    _MOD67[(1 << _bit) % 67] = _bit

#: Highest / lowest set bit index (0..12) of a 13-bit value; -1 / 13 for zero.
HIGH13 = np.full(1 << 13, -1, dtype=np.int64)
LOW13 = np.full(1 << 13, 13, dtype=np.int64)
for _value in range(1, 1 << 13):
    HIGH13[_value] = _value.bit_length() - 1
    LOW13[_value] = (_value & -_value).bit_length() - 1

#: ``_SELECT8[byte, i]``: the position of the i-th set bit of a byte (-1 beyond its popcount).
_SELECT8 = np.full((256, 8), -1, dtype=np.int64)
for _value in range(256):
    for _index, _position in enumerate(p for p in range(8) if _value >> p & 1):
        _SELECT8[_value, _index] = _position

popcount = np.bitwise_count


def lowest_bit(mask: np.ndarray) -> np.ndarray:
    """The lowest set bit of each mask as a mask (0 for 0)."""
    return mask & (~mask + ONE)


def lowest_card(mask: np.ndarray) -> np.ndarray:
    """The lowest card id in each mask (-1 for an empty mask)."""
    return _MOD67[(lowest_bit(mask) % U64(67)).astype(np.int64)]


def suit_bits(mask: np.ndarray, suit: np.ndarray | int) -> np.ndarray:
    """The 13-bit rank pattern of ``suit`` in each mask, as int64 (``suit`` 0..3)."""
    shift = (np.asarray(suit, dtype=np.int64) * 13).astype(np.uint64)
    return ((mask >> shift) & U64(8191)).astype(np.int64)


def highest_in_suit(mask: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """The highest card of ``suit`` in each mask (-1 when it has none)."""
    top = HIGH13[suit_bits(mask, suit)]
    return np.where(top >= 0, top + 13 * suit, -1)


def lowest_in_suit(mask: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """The lowest card of ``suit`` in each mask (-1 when it has none)."""
    low = LOW13[suit_bits(mask, suit)]
    return np.where(low < 13, low + 13 * suit, -1)


def lowest_rank_card(mask: np.ndarray) -> np.ndarray:
    """The ordinary card of lowest rank in each mask, ties to the lowest suit (-1 when none)."""
    best = np.full(mask.shape, 13 * 4 + 4, dtype=np.int64)
    for suit in range(4):
        low = LOW13[((mask >> U64(13 * suit)) & U64(8191)).astype(np.int64)]
        np.minimum(best, low * 4 + suit, out=best)
    rank = best >> 2
    return np.where(rank < 13, (best & 3) * 13 + rank, -1)


def highest_rank_card(mask: np.ndarray) -> np.ndarray:
    """The ordinary card of highest rank in each mask, ties to the lowest suit (-1 when none)."""
    best = np.full(mask.shape, -1, dtype=np.int64)
    for suit in range(4):
        high = HIGH13[((mask >> U64(13 * suit)) & U64(8191)).astype(np.int64)]
        np.maximum(best, np.where(high >= 0, high * 4 + (3 - suit), -1), out=best)
    return np.where(best >= 0, (3 - (best & 3)) * 13 + (best >> 2), -1)


def select_bit(mask: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The position of the ``index``-th (0-based, lowest first) set bit of each mask.

    ``index`` must be below the mask's popcount. Narrows down in 16-bit then 8-bit steps with
    popcounts, then reads a 256 x 8 table. Up to ``_SMALL`` masks (the lockstep loop's small
    batches, where numpy's cost per call dominates), each with an index in range, are read bit by
    bit in Python instead: the same positions, several times faster there.
    """
    if (mask.size <= _SMALL and mask.ndim == 1 and mask.dtype == U64
            and mask.shape == np.shape(index) and np.asarray(index).dtype.kind in "iu"):
        found = []
        for bits, rank in zip(mask.tolist(), index.tolist(), strict=True):
            if not 0 <= rank < bits.bit_count():
                break  # out of range: the vectorised path's answer, whatever it is
            for _ in range(rank):
                bits &= bits - 1
            found.append((bits & -bits).bit_length() - 1)
        else:
            return np.array(found, dtype=np.int64)
    return _select_bit_vectorised(mask, index)


#: at most this many masks go through ``select_bit``'s Python path
_SMALL = 32


def _select_bit_vectorised(mask: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``select_bit`` in numpy operations on whole arrays."""
    index = index.astype(np.int64).copy()
    position = np.zeros(mask.shape, dtype=np.int64)
    remaining = mask.copy()
    for width, low_mask, steps in ((16, U64(0xFFFF), 3), (8, U64(0xFF), 1)):
        for _ in range(steps):
            count = popcount(remaining & low_mask).astype(np.int64)
            move = index >= count
            index -= np.where(move, count, 0)
            position += np.where(move, width, 0)
            remaining = np.where(move, remaining >> U64(width), remaining)
    byte = (remaining & U64(0xFF)).astype(np.int64)
    return position + _SELECT8[byte, np.minimum(index, 7)]


def cards_of(mask: int) -> list[int]:
    """The card ids of one Python-int mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards
