"""Everything ``strong`` fits for a variant, in one go (``raspis strategies fit``).

``refit`` runs the stages in order, each playing with what the one before fitted:

1. the bid outcomes: ``fitting.bids.fit_bids``' self-play counts;
2. the card model: ``rounds`` rounds of ``mc``'s labels on ``card_games`` games each
   (``fitting.distil.label_cards``), fitted on every round so far (``distil.fit_cards``), the
   nonlinear part (``net`` hidden units, ``fitting.net``) on the last;
3. the bid model: ``mc``'s values of the bids of ``bid_games`` games (``fitting.bid_values``),
   kept only where it lowers ``mc``'s regret a bid on held-out labels.

A stage of size 0 is not run: the table keeps what it holds of it (a shipped table refitted in
part keeps the rest as it was). The table is written after each stage
(``policies.fitted.write_archive``), so an interrupted fit keeps what it finished, with notes on
how it was made: the rules' hash, the player count, and for each stage its seed, its size and
the command. Every stage draws from ``seed`` alone, so the same
arguments write the same bytes. It needs numpy and scipy only, which the runtime has: no training
library.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
from raspis.engine import Variant
from raspis.engine.errors import RaspisError

from ..policies import compiled
from ..policies.fitted import card_arrays, is_count_key, rules_hash, rules_key, write_archive
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
    bid_games: int = 0
    seed: int = 1


def quiet_stage(label: str, work: Callable[[Callable[[int, int], None]], T]) -> T:
    """A stage runner that says nothing."""
    return work(lambda done, total: None)


def kept_table(path: Path, variant: Variant) -> dict[str, np.ndarray]:
    """The entries of the table at ``path`` where it was fitted on ``variant``'s deck (and, where
    it notes them, its rules): what a stage that is not run keeps; empty otherwise."""
    if not path.is_file():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile):
        return {}
    if int(arrays.get("deck", -1)) != variant.deck_mask:
        return {}
    if "rules" in arrays and str(arrays["rules"]) != rules_key(variant):
        return {}
    return arrays


class FitError(RaspisError):
    """A fit that cannot be made as asked (a stage of 0 with nothing to keep)."""


def refit(variant: Variant, players: int, sizes: Sizes, path: Path, command: str,
          stage: Stage = quiet_stage,
          say: Callable[[str], None] = lambda line: None) -> dict[str, np.ndarray]:
    """Fit ``variant``'s (resolved for ``players``) bid outcomes, card model and bid model as
    ``sizes`` says, writing the table to ``path`` after each stage (where ``strong`` must find
    it: the user's fit folder, or a preset's shipped file) with notes (``command``: how it was
    made, kept per stage: ``counts_made_by``, ``cards_made_by``, ``bids_made_by``); a stage of
    size 0 keeps what the table at ``path`` holds of it (``kept_table``). The bid model is kept
    only where it finds more of ``mc``'s value than the table's bids on the labels it was not
    fitted to (``bid_values.held_out``; ``say`` tells which). Returns the table's entries."""
    from .bid_values import fit_bids as fit_bid_model
    from .bid_values import held_out, label_bids
    from .bids import fit_bids
    from .distil import CardSamples, fit_cards, fit_net_on, label_cards

    variant = variant.for_player_count(players)
    seed = sizes.seed
    arrays = kept_table(path, variant)
    if not sizes.games and not any(is_count_key(key) for key in arrays):
        raise FitError(f"0 games keeps the table's bid outcomes, but {path} holds none fitted "
                       "for these rules: give the games to fit them on")
    arrays.update({
        "deck": np.int64(variant.deck_mask), "rules": np.array(rules_key(variant)),
        "variant": np.array(variant.name), "made_rules_hash": np.array(rules_hash(variant)),
        "made_players": np.int64(players)})

    def write() -> None:
        write_archive(path, arrays)
        compiled.policy_table.cache_clear()

    def replace(prefix: str, entries: dict[str, np.ndarray]) -> None:
        nonlocal arrays
        arrays = {key: value for key, value in arrays.items() if not key.startswith(prefix)}
        arrays.update(entries)
        arrays[f"{prefix}_made_by"] = np.array(command)
        write()

    if sizes.games:
        counts = stage("bid outcomes", lambda update: fit_bids(
            variant, players, sizes.games, seed, progress=update))
        arrays = {key: value for key, value in arrays.items() if not is_count_key(key)}
        replace("counts", {"games": np.int64(sizes.games), "seed": np.uint64(seed),
                           **{f"n{size}": block.astype(np.int32)
                              for size, block in sorted(counts.items())}})
    rounds: list[CardSamples] = []
    for number in range(sizes.rounds if sizes.card_games else 0):
        rounds.append(stage(f"card play {number + 1}/{sizes.rounds}", lambda update, n=number:
                            label_cards(variant, players, sizes.card_games, seed + n,
                                        progress=update)))
        samples = CardSamples.join(rounds)
        weights = fit_cards(samples)
        model = CardModel(weights)
        if sizes.net and number + 1 == sizes.rounds:
            model = fit_net_on(samples, weights, sizes.net, seed)
        replace("cards", {**card_arrays(model),
                          "cards_games": np.int64(sizes.card_games * (number + 1)),
                          "cards_seed": np.int64(seed), "cards_round": np.int64(number + 1)})
    if sizes.bid_games:
        samples = stage("bids", lambda update: label_bids(variant, players, sizes.bid_games,
                                                          seed, progress=update))
        table_regret, model_regret = held_out(samples)
        kept = model_regret < table_regret
        notes = {"bids_games": np.int64(sizes.bid_games), "bids_seed": np.int64(seed),
                 "bids_regret": np.array([table_regret, model_regret])}
        replace("bids", {"bids": fit_bid_model(samples), **notes} if kept else notes)
        say(f"bid model: mc's regret a bid on the last quarter of the labels (the model fitted "
            f"on the rest): table {table_regret:.3f}, model {model_regret:.3f} points: "
            + ("kept" if kept else "left out, strong bids by the table"))
    return arrays


__all__ = ["FitError", "Sizes", "Stage", "kept_table", "quiet_stage", "refit"]
