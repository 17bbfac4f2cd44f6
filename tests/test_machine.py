"""The compiled state machine (``engine.core.machine``) against the reference ``Game``.

Until ``Game`` drives the machine itself, every decision of random games is compared: the phase,
the seat to move, every hand, the legal bids, cards and Joker calls, and the final totals, on
every preset at every allowed player count and on the golden corpus's option mixes.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from raspis.engine import Game, load_variant
from raspis.engine.actions import Bid, NameTrump, Play
from raspis.engine.core import machine
from raspis.engine.core.codes import CALL_CODES
from raspis.engine.phase import Phase
from raspis.engine.variant import preset_names

_PATH = Path(__file__).parent / "golden_corpus.py"
_SPEC = importlib.util.spec_from_file_location("golden_corpus", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
golden_corpus = sys.modules.get("golden_corpus") or importlib.util.module_from_spec(_SPEC)
if "golden_corpus" not in sys.modules:
    sys.modules["golden_corpus"] = golden_corpus
    _SPEC.loader.exec_module(golden_corpus)


def code_of(action: Bid | NameTrump | Play) -> int:
    if isinstance(action, Bid):
        return action.tricks
    if isinstance(action, NameTrump):
        return action.suit + 1
    return machine.action_code(action.card, CALL_CODES[action.call], action.suit)


def replay_against_game(variant, players: int, seed: int) -> int:  # noqa: ANN001
    game = Game(variant, players, seed)
    tables = game.plan.machine()
    state = np.zeros(tables.length, dtype=np.int64)
    machine.new_game(state, tables.plan, seed)
    hands = tables.plan[machine.O_HANDS]
    choose = random.Random(seed)
    decisions = 0
    while not game.is_over():
        assert state[machine.S_PHASE] == int(game.phase)
        assert state[machine.S_TO_MOVE] == game.to_move
        assert list(state[hands:hands + players]) == game.hands
        if game.phase == Phase.PLAY:
            legal = (int(state[machine.S_LEGAL_A]), int(state[machine.S_LEGAL_B]))
            assert legal == game.legal_play_options()
        elif game.phase == Phase.BID:
            assert state[machine.S_LEGAL_A] == game.legal_bid_mask()
        action = choose.choice(game.legal_actions())
        game.apply(action)
        machine.step(state, tables.plan, code_of(action))
        decisions += 1
    assert state[machine.S_PHASE] == machine.PH_OVER
    scores = tables.plan[machine.O_SCORES]
    assert list(state[scores:scores + players]) == game.scores
    assert state[machine.S_RESULTS] == len(game.results)
    return decisions


PRESET_CASES = [
    (name, players)
    for name in preset_names()
    for players in load_variant(name).player_counts()
]


@pytest.mark.parametrize(("name", "players"), PRESET_CASES)
def test_presets_agree_with_game(name: str, players: int) -> None:
    variant = load_variant(name)
    for seed in range(2):
        assert replay_against_game(variant, players, seed) > 0


def test_option_mixes_agree_with_game() -> None:
    mixes = [case for case in golden_corpus.cases() if "mix" in case][::4]
    assert len(mixes) > 40
    for case in mixes:
        replay_against_game(golden_corpus.variant_of(case), case["players"], case["seed"])
