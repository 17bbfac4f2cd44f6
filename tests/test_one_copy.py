"""Rules and mixers written once: the faces that call the core's
one copy agree with the rule texts and the published references, not only with each other.

- SplitMix64 (Steele, Lea, Flood 2014; Vigna's reference ``splitmix64.c``): the generator seeded
  with 0 outputs 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f; the state advances
  by the golden-ratio increment before each mix, so the ``n``-th output is our
  ``splitmix64(n * GOLDEN)``. Every face (Python ints, numpy arrays, compiled) must give them.
- The dealer's hook in the bid evidence of the search strategies (``search.BidEvidence``): a
  dealer bound by the hook counts half; whether the hook binds in a deal is the core's rule
  (003: «с четвёртой сдачи», ``bidding.hook = "from_deal"``; «только в особых сдачах»,
  ``specials_only``), so in the first deal of a game with the hook from the fourth deal on, the
  dealer is not bound and counts whole.
- The first leader a bidder expects (``heuristic.expected_first_leader``): the dealer's left, or
  the dealer where ``play.first_lead = "dealer"`` (002 Joker-52, «первым ходит сдающий»).
"""

from __future__ import annotations

import numpy as np
import pytest
from raspis.engine import Game, load_variant, variant_from_dict
from raspis.engine import rng as chance
from raspis.engine.batch import rng as batch_chance
from raspis.engine.cards import parse_cards
from raspis.engine.core import deal as core_deal
from raspis.strategies.players.heuristic import expected_first_leader
from raspis.strategies.players.search import BidEvidence
from raspis.strategies.players.tactics import rules_for

#: the first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation)
REFERENCE = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F)


def test_splitmix64_matches_the_reference_sequence_in_every_face() -> None:
    inputs = [number * chance.GOLDEN & chance.MASK64 for number in range(len(REFERENCE))]
    assert [chance.splitmix64(value) for value in inputs] == list(REFERENCE)
    array = np.array(inputs, dtype=np.uint64)
    assert batch_chance.splitmix64(array).tolist() == list(REFERENCE)
    assert batch_chance.splitmix64(array.reshape(1, 3)).reshape(-1).tolist() == list(REFERENCE)
    assert array.tolist() == inputs  # the array face works on a copy
    assert [int(core_deal.splitmix64(np.uint64(value))) for value in inputs] == list(REFERENCE)
    # a Python int is taken modulo 2**64, as ``mix`` documents
    assert chance.splitmix64(inputs[1] - (1 << 64)) == REFERENCE[1]


HANDS = ("6s 7c 8d 9h 6d 7h", "As Ks Ac Kc Ad Ah", "8s 9s 8c 9c 10d Jd", "10s Js 10c Jc 10h Jh")


def _dealer_weight(hook: dict[str, object]) -> float:
    """The weight of the dealer's bid in seat 1's bid evidence, in the first deal of classic
    with ``bidding`` set to ``hook``."""
    variant = variant_from_dict({"name": "hooked", "extends": "classic", "bidding": hook})
    hands = [parse_cards(text) for text in HANDS]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[4, 0, 1, 0], log=False)
    observation = game.observation(1)
    assert observation.deal_number == 0 and observation.order[-1] == 0
    evidence = BidEvidence(observation, rules_for(variant), 1.0)
    weights = {seat: weight for seat, _, _, _, weight in evidence.items}
    assert set(weights) == {0, 2, 3}
    assert weights[2] == weights[3] == 1.0
    return weights[0]


@pytest.mark.parametrize(("hook", "bound"), [
    ({"hook": "always"}, True),
    ({"hook": "off"}, False),
    # 003: the hook from the fourth deal on; this is the first deal, so the dealer is free
    ({"hook": "from_deal", "hook_from_deal": 4}, False),
    ({"hook": "from_deal", "hook_from_deal": 1}, True),
    # 003: the hook only in the special deals; a normal deal is not one
    ({"hook": "specials_only"}, False),
])
def test_bid_evidence_asks_the_core_whether_the_hook_binds(hook: dict[str, object],
                                                            bound: bool) -> None:
    # the hook binds only where the core says so: not under from_deal or specials_only in the
    # deals it leaves out, where the dealer is not halved
    assert _dealer_weight(hook) == (0.5 if bound else 1.0)


def test_the_bidder_expects_the_seating_leader() -> None:
    order = [2, 3, 0, 1]  # dealer 1: the order starts at the dealer's left
    assert expected_first_leader(False, 1, order) == 2
    assert expected_first_leader(True, 1, order) == 1  # 002 Joker-52: the dealer leads
    # a dealer who sits the deal out (five at a table of four places) cannot lead it
    assert expected_first_leader(True, 4, order) == 2
    variant = load_variant("joker-52")
    assert rules_for(variant).dealer_leads == (variant.play.first_lead == "dealer")
