"""Ratings of a run's lineup slots: Plackett-Luce by maximum likelihood, from the counts of each
finishing order, on every game.

Design, stated once:

- *Model.* Plackett-Luce (Plackett 1975, Luce 1959): slot i has strength exp(theta_i); a game's
  finishing order is drawn best first, each place going to one of the slots not yet placed with
  chance proportional to its strength. The relative order of two slots then has chance
  exp(theta_i) / (exp(theta_i) + exp(theta_j)) whatever the others do (the model's consistency),
  so a rating on the Elo scale, ``rating = theta * 400 / ln 10``, reads as Elo's: 400 points more
  is odds of 10 to 1 of finishing ahead of the other.
- *Data.* Only the counts of each finishing order per block of deal sets
  (``order_counts``): the likelihood of a game depends on nothing else, so the fit is the same
  whatever order the games were played or stored in, and a billion games cost what a thousand
  orders cost. A shared place counts as every order of the tied slots, each with an equal share
  of the game (the expected likelihood of a random tie-break).
- *Fit.* Newton's method on the concave log-likelihood (gradient and Hessian in closed form,
  Hunter 2004), with a weak normal prior on theta (sd ``PRIOR_SD``) that changes nothing where
  the data identify the strengths and keeps them finite where they do not (a slot first in every
  game). Ratings are centred to mean 0: only differences are identified.
- *Interval.* Games of one deal set share the cards, so the standard error is the sandwich
  (Huber-White) one clustered over blocks of deal sets (``schema.deal_block``: min(D, 64) blocks,
  independent since deal sets are), with the small-sample factor B / (B - 1); a run of one block
  uses the model's (inverse Fisher information). ``rating_low``/``rating_high`` = rating ± z·se.
- *Existence.* The likelihood has a maximum only when every slot finished ahead of every other
  through some chain of games and behind it through another (Hunter 2004, Assumption 1: the
  "finished ahead of" graph is strongly connected, ``connected``). When it is not, say one slot
  won every game, the data cannot tell how much stronger it is: the prior keeps the rating
  finite, and its standard error and interval are infinite.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from .intervals import LEVEL, normal_quantile

#: The prior's standard deviation on the log-strength theta (a ratio of strengths of e^10 is
#: two standard deviations out): weak enough to move no estimate the data pin down.
PRIOR_SD = 10.0

#: Elo points per unit of theta: 400 points are odds of 10 to 1.
ELO = 400.0 / math.log(10.0)

#: Newton stops when no theta moves by more than this.
TOLERANCE = 1e-10


def order_counts(games: pl.LazyFrame | pl.DataFrame, total_deal_sets: int) -> pl.LazyFrame:
    """The counts of each finishing order per block of deal sets of ``games`` rows (finished
    games of one variant): ``deal_block``, ``order`` (the lineup slots from first place to last,
    ties by slot, comma-separated), ``places`` (their places, likewise) and ``games``."""
    from raspis.tournament.schema import DEAL_BLOCKS

    per_game = games.lazy().group_by("game_id").agg(
        pl.col("deal_set").first(),
        pl.col("lineup_slot").sort_by("place", "lineup_slot").alias("order"),
        pl.col("place").sort().alias("places"),
    )

    def joined(column: str) -> pl.Expr:
        return pl.col(column).list.eval(pl.element().cast(pl.String)).list.join(",")

    return (
        per_game.select(
            (pl.col("deal_set") * DEAL_BLOCKS // max(1, total_deal_sets)).cast(pl.Int32)
            .alias("deal_block"),
            joined("order").alias("order"),
            joined("places").alias("places"),
        )
        .group_by("deal_block", "order", "places")
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .sort("deal_block", "order", "places")
    )


@dataclass(frozen=True)
class Orders:
    """Finishing orders as arrays: ``slots[m]`` the items of order m best first (indices into
    ``items``), its weight (games, a tie's share split) and its cluster."""

    items: np.ndarray
    slots: np.ndarray
    weights: np.ndarray
    clusters: np.ndarray

    @classmethod
    def from_counts(cls, counts: pl.DataFrame) -> Orders:
        """From ``order_counts`` rows; every shared place expanded into the orders of its slots."""
        rows: list[list[int]] = []
        weights: list[float] = []
        clusters: list[int] = []
        for block, order, places, games in counts.select(
                "deal_block", "order", "places", "games").iter_rows():
            slots = [int(value) for value in order.split(",")]
            ranks = [int(value) for value in places.split(",")]
            for expanded, share in _tie_breaks(slots, ranks):
                rows.append(expanded)
                weights.append(games * share)
                clusters.append(int(block))
        if not rows:
            return cls(np.zeros(0, np.int64), np.zeros((0, 0), np.int64), np.zeros(0),
                       np.zeros(0, np.int64))
        widths = {len(row) for row in rows}
        if len(widths) != 1:
            raise ValueError("games with different numbers of seats cannot be rated together")
        table = np.asarray(rows, dtype=np.int64)
        items, slots_index = np.unique(table, return_inverse=True)
        return cls(items, slots_index.reshape(table.shape), np.asarray(weights, dtype=float),
                   np.asarray(clusters, dtype=np.int64))


def _tie_breaks(slots: list[int], ranks: list[int]) -> list[tuple[list[int], float]]:
    """Every order of ``slots`` that breaks their shared places, with its share of the game."""
    groups = [list(group) for _, group in itertools.groupby(
        zip(ranks, slots, strict=True), key=lambda pair: pair[0])]
    choices = [list(itertools.permutations([slot for _, slot in group])) for group in groups]
    count = math.prod(len(choice) for choice in choices)
    return [([slot for part in parts for slot in part], 1.0 / count)
            for parts in itertools.product(*choices)]


def _stage_terms(theta: np.ndarray, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per order: its log-likelihood, and each stage's choice chances over the items
    (``chances[m, s, k]``: item k's chance to take place s, 0 once placed)."""
    orders, width = slots.shape
    values = theta[slots]
    # log Σ exp(theta) over the slots not yet placed at each stage (a reversed running logsumexp)
    remaining = np.logaddexp.accumulate(values[:, ::-1], axis=1)[:, ::-1]
    stages = width - 1
    loglik = (values[:, :stages] - remaining[:, :stages]).sum(axis=1)
    chances = np.zeros((orders, stages, theta.size))
    rows = np.arange(orders)
    for stage in range(stages):
        for position in range(stage, width):
            chances[rows, stage, slots[:, position]] = np.exp(
                values[:, position] - remaining[:, stage])
    return loglik, chances


def _score_and_information(theta: np.ndarray, orders: Orders
                           ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The weighted log-likelihood, each order's score (gradient) vector, and the observed
    information (minus the Hessian) of the data."""
    loglik, chances = _stage_terms(theta, orders.slots)
    stages = orders.slots.shape[1] - 1
    chosen = np.zeros((orders.slots.shape[0], theta.size))
    rows = np.arange(orders.slots.shape[0])
    for stage in range(stages):
        chosen[rows, orders.slots[:, stage]] += 1.0
    scores = chosen - chances.sum(axis=1)
    weighted = chances * orders.weights[:, None, None]
    information = (np.diag(weighted.sum(axis=(0, 1)))
                   - np.einsum("msk,msl->kl", weighted, chances))
    return float(orders.weights @ loglik), scores, information, chances


def connected(orders: Orders) -> bool:
    """Whether every item finished ahead of every other through a chain of orders (the digraph
    "i finished ahead of j in some game" strongly connected): the maximum-likelihood estimate
    exists (module doc)."""
    from scipy.sparse.csgraph import connected_components

    size = orders.items.size
    ahead = np.zeros((size, size), dtype=bool)
    width = orders.slots.shape[1]
    for first in range(width - 1):  # each placed slot is ahead of every slot after it
        for later in range(first + 1, width):
            ahead[orders.slots[:, first], orders.slots[:, later]] = True
    return connected_components(ahead, directed=True, connection="strong")[0] == 1


def fit(orders: Orders, prior_sd: float = PRIOR_SD) -> tuple[np.ndarray, np.ndarray]:
    """The penalised maximum-likelihood theta (centred) and its covariance (module doc)."""
    size = orders.items.size
    theta = np.zeros(size)
    penalty = 0.0 if not math.isfinite(prior_sd) else 1.0 / prior_sd**2
    ridge = np.eye(size) * penalty
    centre = np.eye(size) - 1.0 / size
    for _ in range(100):
        loglik, scores, information, _ = _score_and_information(theta, orders)
        gradient = orders.weights @ scores - penalty * theta
        # the likelihood does not move along (1, ..., 1): solve on the centred space
        step = centre @ np.linalg.lstsq(information + ridge + np.ones((size, size)) / size,
                                        gradient, rcond=None)[0]
        objective = loglik - 0.5 * penalty * theta @ theta
        scale = 1.0
        while scale > 1e-6:  # backtracking keeps every step uphill
            trial = theta + scale * step
            value = _score_and_information(trial, orders)[0] - 0.5 * penalty * trial @ trial
            if value >= objective - 1e-12:
                break
            scale /= 2.0
        theta = theta + scale * step
        if np.abs(scale * step).max() < TOLERANCE:
            break
    theta = theta - theta.mean()
    _, scores, information, _ = _score_and_information(theta, orders)
    inverse = centre @ np.linalg.pinv(information + ridge) @ centre
    blocks = np.unique(orders.clusters)
    if blocks.size < 2:
        return theta, inverse
    totals = np.zeros((blocks.size, size))
    np.add.at(totals, np.searchsorted(blocks, orders.clusters),
              scores * orders.weights[:, None])
    totals -= totals.mean(axis=0)
    meat = totals.T @ totals * blocks.size / (blocks.size - 1)
    return theta, inverse @ meat @ inverse


def rate(counts: pl.DataFrame, level: float = LEVEL,
         prior_sd: float = PRIOR_SD) -> pl.DataFrame:
    """One row per lineup slot of ``order_counts`` rows: ``lineup_slot``, ``games_rated``,
    ``rating`` (Elo scale, mean 0), ``rating_se`` and ``rating_low``/``rating_high`` (module
    doc)."""
    schema = {"lineup_slot": pl.Int32(), "games_rated": pl.Int64(), "rating": pl.Float64(),
              "rating_se": pl.Float64(), "rating_low": pl.Float64(),
              "rating_high": pl.Float64()}
    orders = Orders.from_counts(counts)
    if orders.items.size < 2:
        return pl.DataFrame(schema=schema)
    theta, covariance = fit(orders, prior_sd)
    se = np.sqrt(np.maximum(np.diag(covariance), 0.0)) * ELO
    if not connected(orders):
        se = np.full_like(se, np.inf)
    rating = theta * ELO
    z = normal_quantile(level)
    return pl.DataFrame({
        "lineup_slot": orders.items.astype(np.int32),
        "games_rated": np.full(orders.items.size, int(counts["games"].sum()), dtype=np.int64),
        "rating": rating,
        "rating_se": se,
        "rating_low": rating - z * se,
        "rating_high": rating + z * se,
    }, schema=schema)
