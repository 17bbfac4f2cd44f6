"""Everything ``strong`` fits for a variant, in one go (``raspis strategies fit``).

``refit`` runs the stages in order, each playing with what the one before fitted:

1. the bid outcomes: ``fitting.bids.fit_bids``' self-play counts;
2. the card model: ``rounds`` rounds of ``mc``'s labels on ``card_games`` games each
   (``fitting.distil.label_cards``), fitted on every round so far (``distil.fit_cards``), the
   nonlinear part (``net`` hidden units, ``fitting.net``) on the last;
3. the bid model: ``mc``'s values of the bids of ``bid_games`` games (``fitting.bid_values``).

The table is written after each stage (``policies.fitted.write_archive``), so an interrupted fit
keeps what it finished, with notes on how it was made: the rules' hash, the player count, the
seed, the stages' sizes and the command. Every stage draws from ``seed`` alone, so the same
arguments write the same bytes. It needs numpy and scipy only, which the runtime has: no training
library.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
from raspis.engine import Variant

from ..policies import compiled
from ..policies.fitted import card_arrays, rules_hash, rules_key, write_archive
from ..policies.section import CardModel

T = TypeVar("T")
#: a stage runner: ``stage(label, work)`` calls ``work(update)``, ``update(done, total)`` said
#: after each game (a progress bar, or nothing)
Stage = Callable[[str, Callable[[Callable[[int, int], None]], T]], T]


@dataclass(frozen=True)
class Sizes:
    """How much each stage plays (the module's docstring)."""

    games: int = 4000
    card_games: int = 30
    rounds: int = 1
    net: int = 0
    bid_games: int = 20
    seed: int = 1


def quiet_stage(label: str, work: Callable[[Callable[[int, int], None]], T]) -> T:
    """A stage runner that says nothing."""
    return work(lambda done, total: None)


def refit(variant: Variant, players: int, sizes: Sizes, path: Path, command: str,
          stage: Stage = quiet_stage) -> dict[str, np.ndarray]:
    """Fit ``variant``'s (resolved for ``players``) bid outcomes, card model and bid model as
    ``sizes`` says, writing the table to ``path`` after each stage (where ``strong`` must find
    it: the user's fit folder, or a preset's shipped file) with notes (``command``: how it was
    made); returns the table's entries."""
    from .bid_values import fit_bids as fit_bid_model
    from .bid_values import label_bids
    from .bids import fit_bids
    from .distil import CardSamples, fit_cards, label_cards, masks
    from .net import fit_net

    variant = variant.for_player_count(players)
    seed = sizes.seed
    arrays: dict[str, np.ndarray] = {
        "deck": np.int64(variant.deck_mask), "rules": np.array(rules_key(variant)),
        "variant": np.array(variant.name), "games": np.int64(sizes.games),
        "seed": np.uint64(seed), "made_rules_hash": np.array(rules_hash(variant)),
        "made_players": np.int64(players), "made_by": np.array(command),
        "made_sizes": np.array(str(asdict(sizes)))}

    def write() -> None:
        write_archive(path, arrays)
        compiled.policy_table.cache_clear()

    counts = stage("bid outcomes", lambda update: fit_bids(variant, players, sizes.games, seed,
                                                           progress=update))
    arrays.update({f"n{size}": block.astype(np.int32) for size, block in sorted(counts.items())})
    write()
    rounds: list[CardSamples] = []
    for number in range(sizes.rounds if sizes.card_games else 0):
        rounds.append(stage(f"card play {number + 1}/{sizes.rounds}", lambda update, n=number:
                            label_cards(variant, players, sizes.card_games, seed + n,
                                        progress=update)))
        samples = CardSamples.join(rounds)
        weights = fit_cards(samples)
        model = CardModel(weights)
        if sizes.net and number + 1 == sizes.rounds:
            model = fit_net(samples.features, masks(samples)[0], samples.value, samples.model,
                            weights, sizes.net, seed=seed)
        arrays = {key: value for key, value in arrays.items() if not key.startswith("cards")}
        arrays.update(card_arrays(model))
        arrays["cards_games"] = np.int64(sizes.card_games * (number + 1))
        write()
    if sizes.bid_games:
        samples = stage("bids", lambda update: label_bids(variant, players, sizes.bid_games,
                                                          seed, progress=update))
        arrays["bids"] = fit_bid_model(samples)
        arrays["bids_games"] = np.int64(sizes.bid_games)
        write()
    return arrays


__all__ = ["Sizes", "Stage", "quiet_stage", "refit"]
