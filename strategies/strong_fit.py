"""Which shipped fitted table ``strong`` bids with: found by the rules, not by the variant's name.

``strong``'s fitted bid outcomes (``strategies.strong.fit_bids``: what a bid came to in
self-play, by the seat's expected tricks) are shipped for a few presets at four players
(``data/strong/NAME-PLAYERS.npz``). A table fits a variant when the variant plays the preset's
game: the same options once the name, the description, the sources and the dealer's hook
(``bidding.hook``, ``bidding.hook_from_deal``) are set aside. The hook only takes one bid away
from the dealer; what a bid comes to in play does not depend on it, so the hook study's
``classic-no-hook`` and ``classic-hook-from-4`` (``make run``) bid with ``classic``'s table.
A variant that only borrows a preset's name (a file named ``classic`` with other rules) gets
none, and bids from the model alone, as before a table was fitted.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
from raspis.engine.errors import VariantError
from raspis.engine.variant import Variant, load_variant, preset_names

from .strong_policy import fit_path, load_fit

#: Options that do not change what a bid comes to in play (see the module's docstring).
IGNORED = {"name": None, "description": None, "sources": None,
           "bidding": ("hook", "hook_from_deal")}


def rules_key(variant: Variant) -> str:
    """The variant's options as one string, with those of ``IGNORED`` left out."""
    data = variant.model_dump(mode="json")
    for section, keys in IGNORED.items():
        if keys is None:
            data.pop(section, None)
        elif isinstance(data.get(section), dict):
            for key in keys:
                data[section].pop(key, None)
    return json.dumps(data, sort_keys=True, default=repr)


@lru_cache(maxsize=16)
def _shipped(players: int) -> tuple[tuple[str, str], ...]:
    """(rules key at ``players``, preset name) of every preset with a table at ``players``."""
    found = []
    for name in preset_names():
        if not fit_path(name, players).is_file():
            continue
        try:
            preset = load_variant(name).for_player_count(players)
        except VariantError:
            continue
        found.append((rules_key(preset), name))
    return tuple(found)


def fit_source(variant: Variant, players: int) -> str | None:
    """The preset whose shipped table fits ``variant`` (resolved for ``players``), or None."""
    key = rules_key(variant)
    for preset_key, name in _shipped(players):
        if preset_key == key:
            return name
    return None


def find_fit(variant: Variant, players: int) -> dict[int, np.ndarray] | None:
    """The fitted bid outcomes ``strong`` bids with for ``variant`` at ``players``, or None."""
    name = fit_source(variant, players)
    return None if name is None else load_fit(name, players, variant.deck_mask)


__all__ = ["IGNORED", "find_fit", "fit_source", "rules_key"]
