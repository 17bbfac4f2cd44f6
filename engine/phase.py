"""The phases of a game (``engine.game``), in a module of their own so that the observation can
name them without importing the game."""

from __future__ import annotations

import enum


class Phase(enum.IntEnum):
    """The phases of the game, in the order a deal goes through them; ``KEEP`` (numbered last, so
    the others keep their numbers) comes within ``PLAY``: after a trick a Joker led, its player
    keeps or declines it (``joker.lead_choice``, 000)."""

    DEAL = 0
    TRUMP = 1
    BID = 2
    PLAY = 3
    SCORE = 4
    GAME_OVER = 5
    KEEP = 6
