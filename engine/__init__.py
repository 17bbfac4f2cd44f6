"""The rules engine of raspis: cards, variants, the game state machine, observations.

The Python API in one place::

    from raspis.engine import load_variant, Game, Bid, Play, NameTrump, parse_cards

    variant = load_variant("classic")          # a preset name or a path to a .toml file
    game = Game(variant, players=4, seed=7)    # the same seed gives the same deals
    game.legal_actions()                       # [Bid(0), Bid(1)] ... for the seat to move
    game.apply(game.legal_actions()[0])
    game.observation(seat=1)                   # what seat 1 may know
    copy = game.clone()                        # cheap, for search
    print(game.score_sheet())                  # the "расписка"

    deal = Game.single_deal(variant, [parse_cards("As Kd"), parse_cards("7h 8c")], trump=0)
"""

from typing import TYPE_CHECKING

from .actions import Action, Bid, Keep, NameTrump, Play, parse_action
from .cards import card_str, mask_str, parse_card, parse_cards
from .errors import IllegalActionError, RaspisError, VariantError
from .lazy import lazy_names
from .variant import Variant, load_variant, preset_names, variant_from_dict

if TYPE_CHECKING:
    from .determinize import resample
    from .game import DealResult, Game, Phase, Trick, TrickCard
    from .observation import Observation

#: Names loaded on first use, so that reading variants (``raspis variants list``) does not load
#: the compiled rules core.
_LAZY = {"DealResult": "game", "Game": "game", "Phase": "game", "Trick": "game",
         "TrickCard": "game", "Observation": "observation", "resample": "determinize"}


__getattr__ = lazy_names(__name__, _LAZY)

__all__ = [
    "Action", "Bid", "DealResult", "Game", "IllegalActionError", "Keep", "NameTrump",
    "Observation", "Phase", "Play", "RaspisError", "Trick", "TrickCard", "Variant", "VariantError",
    "card_str",
    "load_variant", "mask_str", "parse_action", "parse_card", "parse_cards", "preset_names",
    "resample", "variant_from_dict",
]
