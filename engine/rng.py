"""Seeded, counter-based randomness for the engine.

Every chance event of a game (the lot for the first dealer, each deal's shuffle) is a pure function
of the game seed and the event's identity, computed with the SplitMix64 mixer. Nothing depends on a
global generator, on the order in which games run, or on the platform: the same seed gives the same
deals on any machine, worker count or executor. The mixer is written once, compiled, in the rules
core (``engine.core.deal.splitmix64``); this module calls it on Python ints, ``engine.batch.rng``
on arrays of seeds, and compiled code inlines it.

A shuffle sorts the deck by ``mix(key, card)``: a permutation chosen uniformly at random up to the
(negligible) chance of two equal 64-bit keys, which are then ordered by card id.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .core import deal as _core

MASK64 = (1 << 64) - 1
GOLDEN = int(_core.GOLDEN)


def splitmix64(value: int) -> int:
    """One SplitMix64 output for the 64-bit input ``value`` (taken modulo 2**64): the core's
    mixer (``engine.core.deal.splitmix64``, the one definition) called on a Python int."""
    return int(_core.splitmix64(np.uint64(value & MASK64)))


def mix(*parts: int) -> int:
    """Hash a sequence of integers into one 64-bit key (order matters)."""
    key = 0
    for part in parts:
        key = splitmix64(key ^ (part & MASK64))
    return key


#: Event tags, so that the lot and the deals never share a key.
LOT = 1
DEAL = 2
STRATEGY = 3
#: the cards shown at a lobovaya deal read as one card each (``KindOptions.view``)
FOREHEAD = 4


def shuffled(cards: Sequence[int], key: int) -> list[int]:
    """``cards`` in the random order given by ``key``."""
    return sorted(cards, key=lambda card: (splitmix64(key ^ (card * GOLDEN & MASK64)), card))


def deal_key(seed: int, deal_number: int) -> int:
    """The shuffle key of deal ``deal_number`` (0-based) of the game with ``seed``."""
    return mix(seed, DEAL, deal_number)


def forehead_key(seed: int, deal_number: int) -> int:
    """The key that draws the cards shown at deal ``deal_number`` (0-based) of a lobovaya deal
    read as one card each: each seat shows the first of its cards in the order of ``shuffled``
    with this key (``engine.core.deal.forehead_cards``)."""
    return mix(seed, FOREHEAD, deal_number)


def lot_key(seed: int) -> int:
    """The shuffle key of the draw for the first dealer."""
    return mix(seed, LOT)
