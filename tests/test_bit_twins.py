"""The interpreted core's bit instructions equal the compiled ones.

The rules core counts bits with the processor's instructions (``engine.core.rules``: ``ctpop``,
``cttz``, ``ctlz`` through LLVM, 64 for a zero mask). When numba's JIT is off (the interpreted
core of ``engine.warmth.interpret_core``, ``raspis play`` on a cold cache) the same counts come
from Python twins (``rules._PYTHON_BITS``). The golden replays of ``test_interpreted.py`` exercise
them only on the masks real games make, so an edge case of a twin (``cttz(0)`` giving 63 instead
of 64) passed every test. This module pins them, table-driven, on the edge values (0, all bits,
the int64 minimum and maximum, every single bit, alternating bits) against counts written out by
hand, and on random masks against the compiled instructions.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core import config
from raspis.engine.core import rules

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
#: the names of the bit instructions, in the order of ``COUNTS`` rows
NAMES = ("ctpop", "cttz", "ctlz")


def expected_counts(mask: int) -> tuple[int, int, int]:
    """(set bits, zeros below the lowest set bit, zeros above the highest) of ``mask`` as 64
    bits, 64 for both zero counts of 0, counted one bit at a time."""
    bits = [(mask >> position) & 1 for position in range(64)]  # Python's >> sign-extends
    low = next((position for position in range(64) if bits[position]), 64)
    high = next((63 - position for position in range(63, -1, -1) if bits[position]), 64)
    return sum(bits), low, high


#: (mask, set bits, trailing zeros, leading zeros) for the edge values, written out by hand
EDGES = [
    (0, 0, 64, 64),
    (-1, 64, 0, 0),
    (INT64_MIN, 1, 63, 0),
    (INT64_MAX, 63, 0, 1),
    (1, 1, 0, 63),
    (2, 1, 1, 62),
    (3, 2, 0, 62),
    (INT64_MIN + 1, 2, 0, 0),
    (0x5555555555555555, 32, 0, 1),
    (0xAAAAAAAAAAAAAAAA - 2**64, 32, 1, 0),  # as an int64
    (0x00FF000000000000, 8, 48, 8),
    ((1 << 54) - 1, 54, 0, 10),  # the 54 cards of a deck with two Jokers
    (-2, 63, 1, 0),
    (-(2**62), 2, 62, 0),
] + [((1 << position) - (2**64 if position == 63 else 0), 1, position, 63 - position)
     for position in range(64)]


@pytest.fixture(scope="module")
def compiled_counts():  # noqa: ANN201
    """A compiled function giving, for an int64 array of masks, the compiled ``ctpop``, ``cttz``
    and ``ctlz`` of each (one row a mask)."""
    if config.DISABLE_JIT:
        pytest.skip("numba's JIT is off: there are no compiled instructions to compare with")
    ctpop, cttz, ctlz = rules._ctpop, rules._cttz, rules._ctlz

    @njit
    def counts(masks):  # noqa: ANN001, ANN202
        out = np.empty((len(masks), 3), dtype=np.int64)
        for index in range(len(masks)):
            out[index, 0] = ctpop(masks[index])
            out[index, 1] = cttz(masks[index])
            out[index, 2] = ctlz(masks[index])
        return out

    return lambda masks: counts(np.asarray(masks, dtype=np.int64))


def test_the_edge_table_is_what_counting_bit_by_bit_gives() -> None:
    """The hand-written table agrees with a bit-by-bit count (so a typo in it would show)."""
    for mask, *counts in EDGES:
        assert expected_counts(mask) == tuple(counts), hex(mask)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("mask", "set_bits", "trailing", "leading"), EDGES,
                         ids=[hex(row[0] & (2**64 - 1)) for row in EDGES])
def test_the_python_twins_give_the_edge_counts(name: str, mask: int, set_bits: int,
                                               trailing: int, leading: int) -> None:
    """Each Python twin gives the table's count of each edge value, as a Python int and as the
    numpy int64 the interpreted core passes."""
    expected = {"ctpop": set_bits, "cttz": trailing, "ctlz": leading}[name]
    twin = rules._PYTHON_BITS[name]
    assert twin(mask) == expected
    assert twin(np.int64(mask)) == expected


def test_the_compiled_instructions_give_the_edge_counts(compiled_counts) -> None:  # noqa: ANN001
    """The compiled instructions give the table's counts (64 for a zero mask: LLVM's
    ``zero_undefined`` is off)."""
    found = compiled_counts([mask for mask, *_ in EDGES])
    assert [tuple(row) for row in found.tolist()] == [tuple(counts) for _, *counts in EDGES]


def test_the_twins_equal_the_compiled_instructions_on_random_masks(  # noqa: ANN001
        compiled_counts) -> None:
    """On the edge values and 20,000 random int64 masks (uniform, sparse, dense, and single runs
    of bits) each twin gives the compiled instruction's count."""
    generator = np.random.default_rng(42)
    uniform = generator.integers(INT64_MIN, INT64_MAX, 5000, dtype=np.int64, endpoint=True)
    sparse = uniform & generator.integers(INT64_MIN, INT64_MAX, 5000, dtype=np.int64,
                                          endpoint=True) & generator.integers(
        INT64_MIN, INT64_MAX, 5000, dtype=np.int64, endpoint=True)
    dense = ~sparse
    starts = generator.integers(0, 64, 5000)
    lengths = generator.integers(1, 65, 5000)
    runs = np.array([(((1 << int(length)) - 1) << int(start)) & (2**64 - 1)
                     for start, length in zip(starts, lengths, strict=True)], dtype=np.uint64)
    edges = np.array([mask for mask, *_ in EDGES], dtype=np.int64)
    masks = np.concatenate([edges, uniform, sparse, dense, runs.view(np.int64)])
    found = compiled_counts(masks)
    for column, name in enumerate(NAMES):
        twin = rules._PYTHON_BITS[name]
        differ = [(hex(int(mask) & (2**64 - 1)), twin(int(mask)), int(found[row, column]))
                  for row, mask in enumerate(masks) if twin(int(mask)) != found[row, column]]
        assert not differ, f"{name}: (mask, twin, compiled) {differ[:5]}"


@pytest.mark.parametrize("name", NAMES)
def test_the_interpreted_core_counts_with_the_twins(name: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba's JIT off, the core's bit instruction is the twin tested here."""
    monkeypatch.setattr(config, "DISABLE_JIT", True)
    assert rules._bit_instruction(name) is rules._PYTHON_BITS[name]
