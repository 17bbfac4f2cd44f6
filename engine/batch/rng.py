"""The engine's counter-based chance (``engine.rng``), vectorised over games with ``uint64`` numpy.

The mixer is the core's (``engine.core.deal.splitmix64``, run over an array by
``splitmix64_each``), so for a whole array of game seeds this computes exactly the keys the
reference engine computes one game at a time: the key of the first dealer's lot and of every
deal's shuffle. The shuffles themselves are the core's (``engine.core.deal``,
looped over games by ``engine.batch.kernels``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from raspis.engine import rng as reference
from raspis.engine.core.deal import splitmix64_each

U64 = np.uint64
GOLDEN = U64(reference.GOLDEN)


def splitmix64(value: np.ndarray) -> np.ndarray:
    """SplitMix64 of every element of a ``uint64`` array, of any shape: the core's mixer
    (``engine.core.deal.splitmix64``) over a copy."""
    result = np.array(value, dtype=np.uint64, copy=True, order="C")
    splitmix64_each(result.reshape(-1))
    return result


def as_seeds(seeds: Sequence[int] | np.ndarray) -> np.ndarray:
    """Game seeds as a ``uint64`` array (Python ints are taken modulo 2**64, like ``mix``)."""
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return seeds
    return np.array([int(seed) & reference.MASK64 for seed in seeds], dtype=np.uint64)


def mix(seeds: np.ndarray, *parts: int | np.ndarray) -> np.ndarray:
    """``engine.rng.mix(seed, *parts)`` for every seed of a ``uint64`` array."""
    key = splitmix64(seeds)
    for part in parts:
        value = U64(part & reference.MASK64) if isinstance(part, int) else part.astype(np.uint64)
        key = splitmix64(key ^ value)
    return key


def deal_keys(seeds: np.ndarray, deal_number: int) -> np.ndarray:
    """``engine.rng.deal_key`` of deal ``deal_number`` for every seed."""
    return mix(seeds, reference.DEAL, deal_number)


def lot_keys(seeds: np.ndarray) -> np.ndarray:
    """``engine.rng.lot_key`` for every seed."""
    return mix(seeds, reference.LOT)


# -- Python's random.Random, the first 64 bits, vectorised ---------------------------------------

_MT_N, _MT_M = 624, 397
#: up to this many keys, ``python_random_bits64`` asks ``random.Random`` key by key (faster)
SCALAR_KEYS = 128


def _mt_initial() -> np.ndarray:
    state = [19650218]
    for index in range(1, _MT_N):
        previous = state[-1]
        state.append((1812433253 * (previous ^ (previous >> 30)) + index) & 0xFFFFFFFF)
    return np.array(state, dtype=np.uint32)


_MT_START = _mt_initial()


def python_random_bits64(keys: np.ndarray) -> np.ndarray:
    """``random.Random(key).getrandbits(64)`` for every ``uint64`` key (CPython's MT19937).

    A strategy's generator in ``play_game`` is ``random.Random(mix(seed, STRATEGY, seat))``; its
    first 64 bits are how a scalar strategy and its batch twin agree on a per-game, per-seat key.
    Vectorised over the keys: the seeding loops run once for all of them (about 3 ms whatever the
    count); a few keys are seeded one by one by ``random.Random`` itself (about 15 us each).
    """
    keys = keys.astype(np.uint64)
    count = len(keys)
    if count <= SCALAR_KEYS:
        return np.array([random.Random(key).getrandbits(64) for key in keys.tolist()],
                        dtype=np.uint64)
    low = (keys & U64(0xFFFFFFFF)).astype(np.uint32)
    high = (keys >> U64(32)).astype(np.uint32)
    one_word = high == 0
    state = np.repeat(_MT_START[:, None], count, axis=1)
    adds = (low, np.where(one_word, low, high + np.uint32(1)))
    scratch = np.empty(count, dtype=np.uint32)
    with np.errstate(over="ignore"):
        index, word = 1, 0
        for _ in range(_MT_N):  # init_by_array, first loop (a key of one or two 32-bit words)
            previous, row = state[index - 1], state[index]
            np.right_shift(previous, 30, out=scratch)
            np.bitwise_xor(scratch, previous, out=scratch)
            np.multiply(scratch, np.uint32(1664525), out=scratch)
            np.bitwise_xor(row, scratch, out=row)
            np.add(row, adds[word], out=row)
            index += 1
            word ^= 1
            if index >= _MT_N:
                state[0] = state[_MT_N - 1]
                index = 1
        for _ in range(_MT_N - 1):
            previous, row = state[index - 1], state[index]
            np.right_shift(previous, 30, out=scratch)
            np.bitwise_xor(scratch, previous, out=scratch)
            np.multiply(scratch, np.uint32(1566083941), out=scratch)
            np.bitwise_xor(row, scratch, out=row)
            np.subtract(row, np.uint32(index), out=row)
            index += 1
            if index >= _MT_N:
                state[0] = state[_MT_N - 1]
                index = 1
    state[0] = np.uint32(0x80000000)
    outputs = []
    for position in (0, 1):  # the first twist, for the two words needed
        y = ((state[position] & np.uint32(0x80000000))
             | (state[position + 1] & np.uint32(0x7FFFFFFF)))
        value = state[position + _MT_M] ^ (y >> np.uint32(1)) ^ np.where(
            (y & np.uint32(1)) == 1, np.uint32(0x9908B0DF), np.uint32(0))
        value = value ^ (value >> np.uint32(11))
        value = value ^ ((value << np.uint32(7)) & np.uint32(0x9D2C5680))
        value = value ^ ((value << np.uint32(15)) & np.uint32(0xEFC60000))
        value = value ^ (value >> np.uint32(18))
        outputs.append(value.astype(np.uint64))
    return outputs[0] | (outputs[1] << U64(32))
