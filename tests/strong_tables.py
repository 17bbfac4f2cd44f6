"""``strong``'s policy table for a game with a card model and a bid model of the test's own (the
tests of ``policies.model`` and ``policies.bids``)."""

from __future__ import annotations

import numpy as np
from raspis.engine import Game
from raspis.strategies.policies import compiled
from raspis.strategies.policies.fitted import find_fit
from raspis.strategies.policies.section import CardModel, strong_section


def table_with(game: Game, cards: CardModel | None, bids: np.ndarray | None) -> np.ndarray:
    """``game``'s policy table with its fitted bid outcomes, ``cards`` as its card model and
    ``bids`` as its bid model's weights (None: none)."""
    base = compiled.policy_table(game.tables, game.plan)
    at = int(base[compiled.T_STRONG_AT])
    variant = game.variant
    section = strong_section(game.tables.plan, variant.deck_cards,
                             variant.trump.mode == "circular",
                             find_fit(variant, game.players).counts, cards, bids)
    return np.concatenate([base[:at], section])
