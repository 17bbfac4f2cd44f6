"""The compiled batch (``engine.batch.compiled``, ``strategies.policies.compiled``) against the
lockstep loop (``engine.batch.game``) with the numpy batch strategies: both drive the rules core's
state machine, but the whole-game loop decides every seat in numba and records each game as it ends,
while the lockstep loop (``compiled=False``) asks ``lowest`` and ``random`` through their numpy
methods and ``BatchObservation`` (``fastheuristic`` is a compiled policy only, decided inside the
lockstep's compiled stepper) and records the games from the final states. They must give the same
``BatchResult`` array for array, on every preset at every allowed player count and on the golden
corpus's option mixes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from raspis.engine import load_variant, variant_from_dict
from raspis.engine.batch import play_batch
from raspis.engine.errors import VariantError
from raspis.engine.variant import preset_names
from raspis.strategies.batch import ScalarAdapter, load_batch_strategy

_PATH = Path(__file__).parent / "golden_corpus.py"
_SPEC = importlib.util.spec_from_file_location("golden_corpus", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
golden_corpus = sys.modules.get("golden_corpus") or importlib.util.module_from_spec(_SPEC)
if "golden_corpus" not in sys.modules:
    sys.modules["golden_corpus"] = golden_corpus
    _SPEC.loader.exec_module(golden_corpus)

FIELDS = ("first_dealer", "scores", "places", "double_loss", "deals_played", "lead_changes",
          "errored", "deal_played", "deal_kind", "deal_block", "deal_special", "hand_size",
          "dealer", "trump", "hook_forced", "joker_holder", "participated", "bid", "tricks",
          "points", "premium")
MIX = ("fastheuristic", "lowest", "random", "random", "lowest", "fastheuristic")


def assert_same_games(variant, players: int, lineup: list[str], games: int = 48) -> None:  # noqa: ANN001
    seeds = np.arange(games, dtype=np.uint64) * 7919 + 5
    lockstep = play_batch(variant, players, seeds, [load_batch_strategy(s) for s in lineup],
                          compiled=False)
    compiled = play_batch(variant, players, seeds, [load_batch_strategy(s) for s in lineup])
    assert compiled.extra == lockstep.extra
    for name in FIELDS:
        mine, theirs = getattr(compiled, name), getattr(lockstep, name)
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, name
        assert np.array_equal(mine, theirs), (name, np.argwhere(mine != theirs)[:5])
    assert compiled.decisions == lockstep.decisions


CASES = [(name, players) for name in preset_names()
         for players in load_variant(name).player_counts()]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_compiled_batch_plays_the_lockstep_games(name: str, players: int) -> None:
    variant = load_variant(name)
    if any(kind.view == "forehead_card" for kind in variant.kinds.values()):
        # lobovaya read as one card each: a numpy seat is refused (its observations have no
        # shown cards); compiled seats play it in either loop (test_batch_engine, test_lobovaya)
        with pytest.raises(VariantError, match="lockstep"):
            play_batch(variant, players, [1], [ScalarAdapter("random")])
        assert_same_games(variant, players, ["fastheuristic"])  # compiled only: no numpy seat
        return
    assert_same_games(variant, players, ["fastheuristic"])
    if variant.joker.as_card:
        # the Joker as any card (classic 000 l.307, georgian 002 l.35): the lockstep loop refuses
        # a numpy seat; the mixed lineup plays the same preset with the option off
        with pytest.raises(VariantError, match="as_card"):
            play_batch(variant, players, [1], [ScalarAdapter("random")])
        variant = plain_joker(name)
    assert_same_games(variant, players, [MIX[seat % len(MIX)] for seat in range(players)])


def plain_joker(name: str) -> object:
    """Preset ``name`` with the Joker as any card off (for lineups with a numpy seat)."""
    return variant_from_dict({"name": f"{name}-plain", "extends": name,
                              "joker": {"as_card": False}})


def test_compiled_batch_plays_the_lockstep_games_on_option_mixes() -> None:
    mixes = [case for case in golden_corpus.cases() if "mix" in case][1::3]
    assert len(mixes) > 40
    for case in mixes:
        players = case["players"]
        variant = golden_corpus.variant_of(case)
        if variant.joker.as_card:  # inherited from classic or georgian: off for the numpy seats
            mix = case["mix"]
            variant = variant_from_dict({**mix, "joker": {**mix.get("joker", {}),
                                                          "as_card": False}}, source=mix["name"])
        assert_same_games(variant, players,
                          [MIX[(seat + case["seed"]) % len(MIX)] for seat in range(players)],
                          games=12)


def test_a_lineup_with_a_numpy_strategy_stays_in_lockstep() -> None:
    """Only compiled policies go to the compiled loop: a scalar strategy in the lineup keeps the
    whole batch on the lockstep engine (the result says so by its log being possible)."""
    variant = plain_joker("classic")  # the lockstep loop does not play the Joker as any card
    lineup = [load_batch_strategy("fastheuristic"), load_batch_strategy("heuristic")]
    result = play_batch(variant, 2, np.arange(3, dtype=np.uint64), lineup, record=True)
    assert result.log is not None and result.deals_played.min() > 0


def test_a_numpy_seat_beside_compiled_seats_plays_the_compiled_games() -> None:
    """A seat of a numpy batch strategy (a subclass of the batch ``lowest``: no compiled policy,
    so asked through its numpy methods) beside compiled seats, which are decided inside numba
    between its decisions: the games are those of the whole-game compiled loop with the compiled
    ``lowest`` in that seat."""
    from raspis.strategies.players.batch_basic import BatchLowest

    class NumpyLowest(BatchLowest):
        pass

    for name, players in (("classic", 4), ("joker", 3), ("odessa", 5), ("joker-52", 2)):
        variant = plain_joker(name) if name == "classic" else load_variant(name)
        seeds = np.arange(40, dtype=np.uint64) * 104729 + 11
        others = [load_batch_strategy(MIX[seat % len(MIX)]) for seat in range(1, players)]
        mixed = play_batch(variant, players, seeds, [NumpyLowest(), *others])
        compiled = play_batch(variant, players, seeds, [load_batch_strategy("lowest"), *others])
        for field in FIELDS:
            assert np.array_equal(getattr(mixed, field), getattr(compiled, field)), (name, field)
        assert mixed.decisions == compiled.decisions


# -- fastheuristic's bit helpers against their definitions ---------------------------------------


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, (1 << 52) - 1), st.booleans())
def test_rank_pick_is_the_lowest_or_highest_rank_then_suit(mask: int, highest: bool) -> None:
    """``_rank_pick`` (bit instructions, no loop) picks what its docstring defines: the card of
    lowest rank, lowest suit among equals, or of highest rank, highest suit among equals."""
    from raspis.strategies.policies.compiled import _rank_pick
    cards = [card for card in range(52) if mask >> card & 1]
    if not cards:
        assert _rank_pick(mask, highest) == -1
        return
    order = [(card % 13, card // 13) for card in cards]
    rank, suit = max(order) if highest else min(order)
    assert _rank_pick(mask, highest) == 13 * suit + rank


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(0, (1 << 21) - 1),
       st.one_of(st.integers(-3000, 25000), st.integers(-6, 50).map(lambda half: 500 * half)))
def test_nearest_bid_is_the_legal_bid_nearest_the_estimate(legal: int, estimate: int) -> None:
    """``_nearest_bid`` agrees with the loop it replaced: the legal bid ``b`` with the least
    ``|1000 b - estimate|``, the lowest of equals (estimates halfway between two bids drawn
    often); -1 with no legal bid."""
    from raspis.strategies.policies.compiled import _nearest_bid
    bids = [bid for bid in range(21) if legal >> bid & 1]
    expected = min(bids, key=lambda bid: (abs(1000 * bid - estimate), bid)) if bids else -1
    assert _nearest_bid(legal, estimate) == expected
