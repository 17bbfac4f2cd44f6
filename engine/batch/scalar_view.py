"""The reference ``engine.Observation`` of a game in a batch, so scalar strategies can play there.

A scalar strategy seated in a batch game (``strategies.batch.ScalarAdapter``) decides from exactly
the observation ``engine.observation.observe`` would give it in ``engine.Game``: each game of the
batch is a state of the same state machine, so the observation is ``observe``'s own, taken of a
``Game`` that holds a copy of that state. This is the slow path: one such game per decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from raspis.engine.game import Game
from raspis.engine.observation import Observation

if TYPE_CHECKING:
    from .game import BatchGame


def game_of(batch: BatchGame, row: int) -> Game:
    """A ``Game`` standing where game ``row`` of ``batch`` stands (a copy of its state)."""
    return Game.standing_at(batch.variant, batch.players, int(batch.seeds[row]), batch.tables,
                            batch.states[row])


def scalar_observations(batch: BatchGame, games: np.ndarray) -> list[Observation]:
    """``engine.observation.observe`` of the mover in each of ``games`` (rows of the batch)."""
    views = []
    for row in games:
        game = game_of(batch, int(row))
        views.append(game.observation(game.current_player()))
    return views
