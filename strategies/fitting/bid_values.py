"""Fit ``strong``'s bid model (``policies.bids.bid_features``) to ``mc``'s values of the bids.

``label_bids`` plays games of ``strong`` seats (with the table shipped now) and, at every bid with
two or more legal bids, asks ``mc`` (``BID_LABEL_SPEC``: more guesses than a card's label, since a
bid's value is a whole deal's) on the same observation; it records the features of every legal bid,
``mc``'s choice, ``mc``'s mean value of each bid and the bid of the best expected points (the
table's), and plays ``strong``'s bid. ``fit_bids`` fits each of the model's two weight rows (a
small hand, a larger one: ``policies.bids.bid_row``) as the card model is fitted
(``fitting.distil.fit_rows``: a conditional logit, first to ``mc``'s choices, then on to the bids
``mc`` values highest), from the table's own bid, which is a feature. ``strong`` then bids the legal
bid of the best score (``policies.bids.choose_bid``).

Deterministic: the same arguments give the same samples (game seeds from ``seed``; ``mc`` seeded
per game and seat) and the same weights.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from raspis.engine import Variant
from raspis.engine.game import Game, Phase

from ..policies.bids import BASE_BID_FEATURE, bid_position
from ..policies.section import BID_FEATURES, BID_MODELS, X_MAX_HAND
from .distil import (
    FIELDS,
    CardSamples,
    Recording,
    fit_rows,
    masks,
    regret_of,
    samples_of,
    self_play,
)

#: the search whose bids are learned: ``mc`` as it labels the cards (``distil.LABEL_SPEC``), with
#: four times the guesses
BID_LABEL_SPEC = "mc:samples=400,objective=relative,inference=1"


def label_bids(variant: Variant, players: int, games: int, seed: int = 1,
               spec: str = BID_LABEL_SPEC,
               progress: Callable[[int, int], None] | None = None) -> CardSamples:
    """The bids of ``games`` self-play games of ``strong`` (game seeds from ``seed``), labelled by
    ``spec`` (see the module's docstring); the samples' choices are the bids 0 to the largest
    hand."""
    found: dict[str, list] = {name: [] for name in FIELDS}
    width = 0  # the bids 0 to the largest hand of the table

    def visit(game: Game, searcher: Recording, table: np.ndarray, at: int) -> None:
        nonlocal width
        if game.phase != Phase.BID:
            return
        width = int(table[at + X_MAX_HAND]) + 1
        sample = np.zeros((width, BID_FEATURES), dtype=np.float64)
        legal, base, row = (int(value) for value in
                            bid_position(game.state, game.tables.plan, table, at, sample))
        if 0 <= base and legal & (legal - 1) and legal < 1 << width:
            _label(game, searcher, found, sample, (legal, base, row))

    self_play(variant, players, games, seed, spec, visit, progress)
    return samples_of(found, width, BID_FEATURES)


def _label(game: Game, searcher: Recording, found: dict[str, list], sample: np.ndarray,
           position: tuple[int, int, int]) -> None:
    """Ask ``searcher`` at the bid to make in ``game`` and add the sample to ``found``."""
    legal, base, row = position
    chosen = searcher.act(game.observation(game.to_move))
    value = np.full(len(sample), np.nan)
    for action, mean in searcher.last_values.items():
        value[action.tricks] = mean
    target = 1 << chosen.tricks  # type: ignore[union-attr]
    for name, item in zip(FIELDS, (sample, legal, target, base, row, value), strict=True):
        found[name].append(item)


def fit_bids(samples: CardSamples) -> np.ndarray:
    """The bid model's weights (``BID_MODELS`` x ``BID_FEATURES``) fitted to ``samples``."""
    return fit_rows(samples, BID_MODELS, BASE_BID_FEATURE)


def picks(samples: CardSamples, weights: np.ndarray) -> np.ndarray:
    """The model's bid at each sample, as ``policies.bids.choose_bid`` picks (ties to the lower
    bid)."""
    legal, _ = masks(samples)
    scores = np.einsum("sbf,sf->sb", samples.features, weights[samples.model])
    return np.argmax(np.where(legal, scores, -np.inf), axis=1)


def regret(samples: CardSamples, weights: np.ndarray | None) -> float:
    """The mean of ``mc``'s best value less its value of the model's bid (the table's bid where
    ``weights`` is None), in points a bid."""
    return regret_of(samples, samples.base if weights is None else picks(samples, weights))


def held_out(samples: CardSamples) -> tuple[float, float]:
    """``mc``'s regret a bid on the last quarter of ``samples`` (the last games), of the table's
    bids and of the model fitted on the rest (``regret``): whether the model finds more of
    ``mc``'s value than the table on bids it was not fitted to."""
    train, test = samples.split()
    return regret(test, None), regret(test, fit_bids(train))


__all__ = ["BID_LABEL_SPEC", "fit_bids", "held_out", "label_bids", "picks", "regret"]
