"""``strong``, in three places: the player (``strategies.players.strong``), its compiled policy
(``strategies.policies.strong``) and the fitting of its bid tables (``strategies.fitting.bids``).

This module is the way in that has always worked: its names come from those modules, and
``python -m raspis.strategies.strong --variant classic --games 4000`` fits and ships a preset's
bid outcomes (``fitting.bids.main``).
"""

from __future__ import annotations

from .fitting.bids import fit_bids, main, save_fit
from .players.strong import BatchStrong, StrongStrategy, action_of, policy_table

__all__ = ["BatchStrong", "StrongStrategy", "action_of", "fit_bids", "main", "policy_table",
           "save_fit"]


if __name__ == "__main__":
    raise SystemExit(main())
