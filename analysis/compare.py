"""Variant against variant: every balance and ranking statistic, each variant's value, and the
difference against the first variant (the baseline) with an interval and a verdict in plain words.

The units compared are variants: the variants of several run directories, or the variants of one
run that repeated ``--variant``. Each statistic is a smooth function f of a few *totals* (sums over
the games of a deal set: seat-games, score sums, wins, deals, points, ...); the estimate of a
variant is f of the mean totals per deal set.

Design, stated once:

- *Unit.* The deal set is the unit of independence (its seatings share the cards; its seats and
  deals share players). Every interval here is computed from per-deal-set totals t_s.
- *Delta method.* With T̄ the mean of t_s over C deal sets and g = ∇f(T̄) (central differences),
  the influence of deal set s is ψ_s = g·(t_s - T̄), var(f) = Σψ_s² / (C(C-1)), t interval on C-1
  degrees of freedom. For a ratio f = Σy/Σm this is the cluster-robust (linearisation) variance of
  ``intervals.cluster_ratio``.
- *Paired* (``design = "paired"``): when two variants play the same deals (the same seed for each
  deal set, the same deck, schedule and player count), the difference is computed on their common
  deal sets from ψ^B_s - ψ^A_s, so the card luck the variants share cancels; t interval on C-1.
- *Welch* (``design = "welch"``): otherwise the two estimates are independent: se² = se_A² +
  se_B², Welch-Satterthwaite degrees of freedom.
- *Blocks of deal sets* (``design = "paired, blocks of deal sets"`` or ``"welch, blocks of deal
  sets"``): deal-level statistics of a run without per-deal rows come from the ``deal_stats``
  sums, kept per block of deal sets (``deal_block``: min(D, 64) blocks of consecutive deal sets,
  ``tournament.schema``). A block holds every seat-deal of its deal sets and blocks are
  independent, so the block is the cluster: the same delta method over blocks (t on blocks - 1).
  Two variants of one run, or of runs with the same deal sets, have the same blocks of the same
  deals and are paired block by block.
- *Seat-deals* (``design = "welch, seat-deals"``): a run written before ``deal_block`` existed has
  only sums over all its deal sets; each seat-deal is then one observation, the variance
  multiplied by the games per deal set (the design effect of duplicate replays; see
  ``intervals``), which is too narrow when deal sets differ in luck.
- *Verdict.* A difference whose interval excludes 0 is stated with its estimate and interval; one
  whose interval includes 0 is "not measurable at this size", with the deal sets that a test at
  level 5% with power 80% would need for a difference of the observed size,
  D·((z₀.₉₇₅ + z₀.₈)·se/|d|)² for the D deal sets behind the estimate, and the games they make
  (times the seatings of a deal set).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .balance import BLOCKS, DEAL_SETS, SEAT_DEALS, has_deal_blocks
from .dataset import Run, open_runs
from .intervals import LEVEL, needed_deal_sets, t_quantile, t_two_sided_p
from .question import (
    FLIPS,
    HOLDS,
    SOME,
    adjust,
    by_relevance,
    changed_options,
    describe_changes,
    lineup_text,
    robustness,
    role,
    role_rank,
    topic_of,
)


@dataclass(frozen=True)
class Unit:
    """One variant of one run: what ``compare`` puts side by side."""

    run: Run
    variant_hash: str
    variant: str
    label: str
    lineup: str = ""  # the run's strategies in few words (``question.lineup_text``)

    def options(self) -> dict[str, Any] | None:
        """The variant's options from the run's manifest (None when the manifest lacks them)."""
        for entry in self.run.manifest.get("variants") or []:
            if entry.get("hash") == self.variant_hash:
                return entry.get("options")
        return None


@dataclass(frozen=True)
class Statistic:
    """A statistic as a function of per-deal-set totals: ``columns`` name the totals, ``function``
    maps their means (a vector in that order) to the value."""

    name: str
    label: str
    unit: str
    columns: tuple[str, ...]
    function: Callable[[np.ndarray], float]
    source: str = "games"  # "games" or "deals"
    #: phrase for the verdict: "{label} is {d} {unit} {higher|lower} under B than under A"
    better: str | None = None


@dataclass
class Comparison:
    """What ``compare`` returns: the units, the statistics' table and how each was paired."""

    units: list[Unit]
    table: pl.DataFrame
    values: pl.DataFrame
    notes: list[str] = field(default_factory=list)
    #: per variant against the baseline (and lineup): what changed and what it is about
    questions: list[dict[str, Any]] = field(default_factory=list)
    #: the lineups compared one by one (one entry when the runs share their players)
    lineups: list[str] = field(default_factory=list)
    #: with two or more lineups: per statistic and variant, whether the finding holds under all
    robust: pl.DataFrame | None = None
    level: float = LEVEL


# -- units --------------------------------------------------------------------------------------


def variant_units(runs: Sequence[Run]) -> list[Unit]:
    """The variants of the runs in order (a run's variants in manifest order), labelled by name;
    the run's label is added where two units would share a name."""
    units: list[Unit] = []
    for run in runs:
        names = run.variant_names()
        order = [entry.get("hash") for entry in run.manifest.get("variants") or []]
        first_game = run.cached(
            "variant_first_game",
            lambda run=run: run.collect(
                run.games.with_row_index("row")
                .group_by("variant_hash")
                .agg(pl.col("game_id").min(), pl.col("row").min())
            ),
        )
        position = {
            row["variant_hash"]: (row["game_id"], row["row"])
            for row in first_game.iter_rows(named=True)
        }
        hashes = names["variant_hash"].to_list()
        hashes.sort(key=lambda h: (order.index(h) if h in order else len(order), position[h]))
        for variant_hash in hashes:
            name = names.filter(pl.col("variant_hash") == variant_hash)["variant"][0]
            units.append(Unit(run, variant_hash, str(name), str(name),
                              lineup_text(run.strategies)))
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.label] = counts.get(unit.label, 0) + 1
    relabelled = []
    for unit in units:
        if counts[unit.label] > 1:
            label = f"{unit.run.label}: {unit.label}"
            unit = Unit(unit.run, unit.variant_hash, unit.variant, label, unit.lineup)
        relabelled.append(unit)
    return relabelled


def _deal_seeds(unit: Unit) -> pl.DataFrame:
    return unit.run.cached(
        f"deal_seeds_{unit.variant_hash}",
        lambda: unit.run.collect(
            unit.run.games.filter(pl.col("variant_hash") == unit.variant_hash)
            .group_by("deal_set")
            .agg(pl.col("seed").first(), pl.col("players").first())
        ),
    )


def same_deals(a: Unit, b: Unit) -> tuple[bool, str]:
    """Whether two units play the same deals (paired design), and why not when they do not."""
    options_a, options_b = a.options(), b.options()
    if options_a is not None and options_b is not None:
        for section in ("deck", "schedule"):
            if options_a.get(section) != options_b.get(section):
                return False, f"their {section} differs"
    seeds_a, seeds_b = _deal_seeds(a), _deal_seeds(b)
    joined = seeds_a.join(seeds_b, on="deal_set", suffix="_b")
    if joined.height < 2:
        return False, "they share no deal sets"
    if not (joined["players"] == joined["players_b"]).all():
        return False, "their player counts differ"
    if not (joined["seed"] == joined["seed_b"]).all():
        return False, "their deal sets have different seeds"
    return True, f"the same {joined.height:,} deal sets (same seeds and deck)"


# -- per-deal-set totals ------------------------------------------------------------------------


def _strategy_column(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def _game_totals(unit: Unit, strategies: Sequence[str], pair: tuple[str, str] | None,
                 players: int) -> pl.DataFrame:
    """One row per deal set of the unit's finished games, with every total the game-level
    statistics use."""
    games = unit.run.finished_games().filter(pl.col("variant_hash") == unit.variant_hash)
    score = pl.col("score").cast(pl.Float64)
    seat_aggs: list[pl.Expr] = [
        pl.len().alias("seat_games"),
        score.sum().alias("score_sum"),
        (score**2).sum().alias("score_sq"),
        (pl.col("score") < 0).sum().alias("negative"),
    ]
    for name in strategies:
        column = _strategy_column(name)
        seated = pl.col("strategy") == name
        seat_aggs += [
            seated.sum().alias(f"n_{column}"),
            score.filter(seated).sum().alias(f"s_{column}"),
            pl.col("winner").filter(seated).sum().alias(f"w_{column}"),
        ]
    for position in range(players):
        here = pl.col("position") == position
        seat_aggs += [
            here.sum().alias(f"n_p{position}"),
            score.filter(here).sum().alias(f"s_p{position}"),
            pl.col("winner").filter(here).sum().alias(f"w_p{position}"),
        ]
    per_set = games.group_by("deal_set").agg(seat_aggs)
    game_aggs: list[pl.Expr] = [
        pl.col("deals_played").first().alias("deals_played"),
        pl.col("lead_changes").first().alias("lead_changes"),
        ((pl.col("place") == 1).sum() > 1).alias("tie"),
    ]
    if pair is not None:
        first, second = pair
        game_aggs += [
            score.filter(pl.col("strategy") == first).mean().alias("mean_first"),
            score.filter(pl.col("strategy") == second).mean().alias("mean_second"),
        ]
    per_game = games.group_by("deal_set", "game_id").agg(game_aggs)
    game_sums: list[pl.Expr] = [
        pl.len().alias("games"),
        pl.col("deals_played").sum().alias("deals_sum"),
        pl.col("lead_changes").sum().alias("lead_sum"),
        pl.col("tie").sum().alias("ties"),
    ]
    if pair is not None:
        difference = pl.col("mean_first") - pl.col("mean_second")
        game_sums += [
            difference.is_not_null().sum().alias("pair_games"),
            (
                pl.when(difference > 0).then(1.0).when(difference == 0).then(0.5).otherwise(0.0)
            ).sum().alias("pair_ahead"),
        ]
    per_game_set = per_game.group_by("deal_set").agg(game_sums)
    frame = unit.run.collect(per_set.join(per_game_set, on="deal_set"))
    frame = frame.sort("deal_set").rename({"deal_set": "cluster"})
    return frame.with_columns(pl.exclude("cluster").cast(pl.Float64))


def _deal_totals(unit: Unit) -> tuple[pl.DataFrame | None, str]:
    """One row per cluster (``cluster``) with the deal-level totals: the dealer's and the others'
    deal points in deals with bidding, the hook, the bids' outcomes, the Joker; and what the
    clusters are. Per deal set from the per-deal rows (``DEAL_SETS``), else per block of deal sets
    from ``deal_stats`` (``BLOCKS``), else None (``SEAT_DEALS``: a run without blocks)."""
    if unit.run.deals is None:
        if not has_deal_blocks(unit.run):
            return None, SEAT_DEALS
        return _block_totals(unit), BLOCKS
    finished = (
        unit.run.finished_games()
        .filter(pl.col("variant_hash") == unit.variant_hash)
        .select("game_id")
        .unique()
    )
    deals = unit.run.deals.filter(pl.col("variant_hash") == unit.variant_hash).join(
        finished, on="game_id"
    )
    points = pl.col("points").cast(pl.Float64)
    bid = pl.col("bid")
    has_bid = bid.is_not_null()
    dealer = pl.col("dealer_offset") == 0
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    none = ~held1 & ~held2
    alone = held1 & ~held2
    frame = unit.run.collect(
        deals.group_by("deal_set").agg(
            pl.len().alias("seat_deals"),
            points.sum().alias("points"),
            (has_bid & dealer).sum().alias("dealer_n"),
            points.filter(has_bid & dealer).sum().alias("dealer_points"),
            (has_bid & ~dealer).sum().alias("other_n"),
            points.filter(has_bid & ~dealer).sum().alias("other_points"),
            pl.col("hook_forced").filter(has_bid & dealer).sum().alias("forced"),
            has_bid.sum().alias("bids"),
            (has_bid & (bid == pl.col("tricks"))).sum().alias("made"),
            (has_bid & (pl.col("tricks") > bid)).sum().alias("over"),
            (has_bid & (pl.col("tricks") < bid)).sum().alias("under"),
            none.sum().alias("none_n"),
            points.filter(none).sum().alias("none_points"),
            alone.sum().alias("joker_n"),
            points.filter(alone).sum().alias("joker_points"),
        )
    )
    if frame.height == 0:
        return None, DEAL_SETS
    frame = frame.sort("deal_set").rename({"deal_set": "cluster"})
    return frame.with_columns(pl.exclude("cluster").cast(pl.Float64)), DEAL_SETS


def _block_totals(unit: Unit) -> pl.DataFrame | None:
    """``_deal_totals`` per block of deal sets, from the ``deal_stats`` sums (which also hold the
    deals of errored games; the per-deal rows leave them out)."""
    frame = unit.run.deal_stats.filter(pl.col("variant_hash") == unit.variant_hash)
    has_bid = pl.col("bids") > 0
    dealer = pl.col("dealer_offset") == 0
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    none = ~held1 & ~held2
    alone = held1 & ~held2
    count, points = pl.col("count"), pl.col("points_sum").cast(pl.Float64)
    totals = unit.run.collect(
        frame.group_by("deal_block").agg(
            count.sum().alias("seat_deals"),
            points.sum().alias("points"),
            count.filter(has_bid & dealer).sum().alias("dealer_n"),
            points.filter(has_bid & dealer).sum().alias("dealer_points"),
            count.filter(has_bid & ~dealer).sum().alias("other_n"),
            points.filter(has_bid & ~dealer).sum().alias("other_points"),
            pl.col("hook_forced").filter(has_bid & dealer).sum().alias("forced"),
            pl.col("bids").sum().alias("bids"),
            pl.col("made").sum().alias("made"),
            pl.col("over").sum().alias("over"),
            pl.col("under").sum().alias("under"),
            count.filter(none).sum().alias("none_n"),
            points.filter(none).sum().alias("none_points"),
            count.filter(alone).sum().alias("joker_n"),
            points.filter(alone).sum().alias("joker_points"),
        )
    )
    if totals.height == 0:
        return None
    totals = totals.sort("deal_block").rename({"deal_block": "cluster"})
    return totals.with_columns(pl.exclude("cluster").cast(pl.Float64))


def _deal_set_count(unit: Unit) -> int:
    """The deal sets a unit played (from its games)."""
    return _deal_seeds(unit).height


def _blocks_align(a: Unit, b: Unit) -> bool:
    """Whether two units' blocks of deal sets hold the same deal sets: the same deal sets, out of
    the same number of deal sets of their runs (the block rule divides by it)."""
    def total(unit: Unit) -> int:
        config = unit.run.manifest.get("config") or {}
        if isinstance(config.get("games"), int):
            return int(config["games"])
        return int(_deal_seeds(unit)["deal_set"].max() or 0) + 1

    sets_a = _deal_seeds(a)["deal_set"].sort()
    sets_b = _deal_seeds(b)["deal_set"].sort()
    return total(a) == total(b) and sets_a.equals(sets_b)


def _deal_stats_moments(unit: Unit) -> dict[str, Any]:
    """Sums and second moments of the deal-level totals over seat-deals, from ``deal_stats``
    (each seat-deal one observation; see the module doc). Returns ``n`` (seat-deals), ``deff``
    (games per deal set), ``sum`` (column -> Σ) and ``cross`` ((a, b) -> Σ v_a·v_b)."""
    frame = unit.run.deal_stats.filter(pl.col("variant_hash") == unit.variant_hash)
    bids = pl.col("bids") > 0
    dealer = pl.col("dealer_offset") == 0
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    groups = {
        "dealer": bids & dealer,
        "other": bids & ~dealer,
        "none": ~held1 & ~held2,
        "joker": held1 & ~held2,
        "all": pl.lit(True),
    }
    aggregations = []
    for name, condition in groups.items():
        aggregations += [
            pl.col("count").filter(condition).sum().alias(f"{name}_n"),
            pl.col("points_sum").filter(condition).sum().cast(pl.Float64).alias(f"{name}_s"),
            pl.col("points_sq_sum").filter(condition).sum().cast(pl.Float64).alias(f"{name}_q"),
        ]
    aggregations += [
        pl.col("bids").sum().alias("bids"),
        pl.col("made").sum().alias("made"),
        pl.col("over").sum().alias("over"),
        pl.col("under").sum().alias("under"),
        pl.col("hook_forced").filter(dealer).sum().alias("forced"),
    ]
    row = unit.run.collect(frame.select(aggregations)).row(0, named=True)
    row = {key: float(value or 0) for key, value in row.items()}
    sums = {
        "seat_deals": row["all_n"],
        "points": row["all_s"],
        "dealer_n": row["dealer_n"],
        "dealer_points": row["dealer_s"],
        "other_n": row["other_n"],
        "other_points": row["other_s"],
        "forced": row["forced"],
        "bids": row["bids"],
        "made": row["made"],
        "over": row["over"],
        "under": row["under"],
        "none_n": row["none_n"],
        "none_points": row["none_s"],
        "joker_n": row["joker_n"],
        "joker_points": row["joker_s"],
    }
    cross: dict[tuple[str, str], float] = {}

    def put(a: str, b: str, value: float) -> None:
        cross[(a, b)] = cross[(b, a)] = value

    for name, count, total in (
        ("dealer", "dealer_n", "dealer_points"),
        ("other", "other_n", "other_points"),
        ("none", "none_n", "none_points"),
        ("joker", "joker_n", "joker_points"),
        ("all", "seat_deals", "points"),
    ):
        put(count, count, row[f"{name}_n"])
        put(count, total, row[f"{name}_s"])
        put(total, total, row[f"{name}_q"])
    for share in ("made", "over", "under"):
        put(share, share, row[share])
        put(share, "bids", row[share])
    put("bids", "bids", row["bids"])
    put("forced", "forced", row["forced"])
    put("forced", "dealer_n", row["forced"])
    deff = unit.run.collect(
        unit.run.games.filter(pl.col("variant_hash") == unit.variant_hash).select(
            (pl.col("game_id").n_unique() / pl.col("deal_set").n_unique()).alias("deff")
        )
    )["deff"][0]
    return {"n": row["all_n"], "deff": float(deff or 1.0), "sum": sums, "cross": cross}


# -- the statistics -----------------------------------------------------------------------------


def _ratio(i: int, j: int) -> Callable[[np.ndarray], float]:
    return lambda t: t[i] / t[j]


def _difference_of_ratios(a: int, b: int, c: int, d: int) -> Callable[[np.ndarray], float]:
    return lambda t: t[a] / t[b] - t[c] / t[d]


def _sd(t: np.ndarray) -> float:
    n, s, q = t
    return float(np.sqrt(max(q / n - (s / n) ** 2, 0.0)))


def _strategy_share(count: int) -> Callable[[np.ndarray], float]:
    def share(t: np.ndarray) -> float:
        n, s, q = t[0], t[1], t[2]
        total = q - s * s / n
        between = sum(t[3 + 2 * k + 1] ** 2 / t[3 + 2 * k] for k in range(count)) - s * s / n
        return float(between / total)

    return share


def statistics_for(
    strategies: Sequence[str], players: int, pair: tuple[str, str] | None
) -> list[Statistic]:
    """The statistics compared: game-level ones from ``games`` and deal-level ones from the
    per-deal rows (or ``deal_stats``)."""
    chosen: list[Statistic] = []
    for name in strategies:
        column = _strategy_column(name)
        chosen.append(
            Statistic(
                f"mean_score[{name}]",
                f"{name}'s mean final score",
                "points a game",
                (f"s_{column}", f"n_{column}"),
                _ratio(0, 1),
            )
        )
        chosen.append(
            Statistic(
                f"win_rate[{name}]",
                f"{name}'s win rate",
                "(share of games)",
                (f"w_{column}", f"n_{column}"),
                _ratio(0, 1),
            )
        )
    for position in range(players):
        role = {0: " (the first dealer)", 1: " (bids first in the first deal)"}.get(position, "")
        chosen.append(
            Statistic(
                f"seat_advantage[{position}]",
                f"position {position}{role}'s score advantage",
                "points a game",
                (f"s_p{position}", f"n_p{position}", "score_sum", "seat_games"),
                _difference_of_ratios(0, 1, 2, 3),
            )
        )
    chosen += [
        Statistic(
            "score_sd", "the spread (sd) of final scores", "points", ("seat_games", "score_sum",
                                                                       "score_sq"), _sd
        ),
        Statistic(
            "negative_share",
            "the share of negative final totals",
            "(share of seat-games)",
            ("negative", "seat_games"),
            _ratio(0, 1),
        ),
        Statistic("deals_per_game", "game length", "deals", ("deals_sum", "games"), _ratio(0, 1)),
        Statistic(
            "lead_changes", "lead changes per game", "changes", ("lead_sum", "games"), _ratio(0, 1)
        ),
        Statistic(
            "tie_share", "the share of games with a shared first place", "(share of games)",
            ("ties", "games"), _ratio(0, 1)
        ),
    ]
    if len(strategies) > 1:
        columns = ["seat_games", "score_sum", "score_sq"]
        for name in strategies:
            column = _strategy_column(name)
            columns += [f"n_{column}", f"s_{column}"]
        chosen.append(
            Statistic(
                "strategy_share",
                "the share of score variance the strategies explain",
                "(share)",
                tuple(columns),
                _strategy_share(len(strategies)),
            )
        )
    if pair is not None:
        chosen.append(
            Statistic(
                "better_ahead",
                f"how often {pair[0]} is ahead of {pair[1]} after one game",
                "(share of games)",
                ("pair_ahead", "pair_games"),
                _ratio(0, 1),
            )
        )
    chosen += [
        Statistic(
            "points_per_deal",
            "the mean deal points of a seat",
            "points a deal",
            ("points", "seat_deals"),
            _ratio(0, 1),
            "deals",
        ),
        Statistic(
            "dealer_cost",
            "the dealer's deal points minus the other seats'",
            "points a deal",
            ("dealer_points", "dealer_n", "other_points", "other_n"),
            _difference_of_ratios(0, 1, 2, 3),
            "deals",
        ),
        Statistic(
            "hook_forced_share",
            "the share of the dealer's bids the hook restricted",
            "(share)",
            ("forced", "dealer_n"),
            _ratio(0, 1),
            "deals",
        ),
        Statistic(
            "made_share", "the share of bids made", "(share of bids)", ("made", "bids"),
            _ratio(0, 1), "deals"
        ),
        Statistic(
            "over_share", "the share of bids overshot", "(share of bids)", ("over", "bids"),
            _ratio(0, 1), "deals"
        ),
        Statistic(
            "under_share", "the share of bids fallen short", "(share of bids)",
            ("under", "bids"), _ratio(0, 1), "deals"
        ),
        Statistic(
            "joker_value",
            "the value of holding the (first) Joker",
            "points a deal",
            ("joker_points", "joker_n", "none_points", "none_n"),
            _difference_of_ratios(0, 1, 2, 3),
            "deals",
        ),
    ]
    return chosen


# -- estimates ----------------------------------------------------------------------------------


def _gradient(function: Callable[[np.ndarray], float], point: np.ndarray) -> np.ndarray:
    gradient = np.zeros(len(point))
    for index, value in enumerate(point):
        step = 1e-6 * max(abs(value), 1e-3)
        up, down = point.copy(), point.copy()
        up[index] += step
        down[index] -= step
        with np.errstate(all="ignore"):
            gradient[index] = (function(up) - function(down)) / (2 * step)
    return gradient


@dataclass
class Estimate:
    """A statistic's value for one unit, with what the differences need."""

    value: float
    se: float
    clusters: int
    design: str  # DEAL_SETS, BLOCKS or SEAT_DEALS: what the clusters are
    influence: tuple[np.ndarray, np.ndarray] | None = None  # the clusters' ids and their psi
    deal_sets: int = 0  # the deal sets behind the estimate (clusters when 0)

    @property
    def deal_set_count(self) -> int:
        """The deal sets behind the estimate."""
        return self.deal_sets or self.clusters


class Clusters:
    """A frame of per-cluster totals (one row a cluster, ``cluster`` and float columns) as numpy
    columns, taken out of polars once: every statistic reads a few of them."""

    def __init__(self, ids: np.ndarray, columns: dict[str, np.ndarray]) -> None:
        self.ids = ids
        self.columns = columns

    @classmethod
    def of(cls, frame: pl.DataFrame) -> Clusters:
        """The columns of ``frame``."""
        columns = {name: frame.get_column(name).to_numpy() for name in frame.columns}
        return cls(columns.pop("cluster"), columns)

    def only(self, ids: np.ndarray) -> Clusters:
        """The rows of the clusters in ``ids``."""
        keep = np.isin(self.ids, ids)
        return Clusters(self.ids[keep],
                        {name: column[keep] for name, column in self.columns.items()})


def _cluster_estimate(table: Clusters, statistic: Statistic, design: str = DEAL_SETS,
                      deal_sets: int = 0) -> Estimate:
    clusters = len(table.ids)
    if clusters == 0:
        return Estimate(math.nan, math.nan, 0, design, deal_sets=deal_sets)
    matrix = np.column_stack([table.columns[name] for name in statistic.columns]).astype(float)
    mean = matrix.mean(axis=0)
    with np.errstate(all="ignore"):
        value = float(statistic.function(mean))
    if not math.isfinite(value):
        return Estimate(math.nan, math.nan, clusters, design, deal_sets=deal_sets)
    gradient = np.nan_to_num(_gradient(statistic.function, mean))
    psi = (matrix - mean) @ gradient
    se = float(np.sqrt((psi**2).sum() / (clusters * (clusters - 1)))) if clusters > 1 else math.nan
    return Estimate(value, se, clusters, design, (table.ids, psi), deal_sets)


def _moment_estimate(moments: dict[str, Any], statistic: Statistic, deal_sets: int) -> Estimate:
    n, deff = moments["n"], moments["deff"]
    if n < 2:
        return Estimate(math.nan, math.nan, int(n), SEAT_DEALS, deal_sets=deal_sets)
    sums = np.array([moments["sum"][c] for c in statistic.columns])
    mean = sums / n
    with np.errstate(all="ignore"):
        value = float(statistic.function(mean))
    if not math.isfinite(value):
        return Estimate(math.nan, math.nan, int(n), SEAT_DEALS, deal_sets=deal_sets)
    size = len(statistic.columns)
    second = np.array(
        [
            [moments["cross"].get((a, b), 0.0) for b in statistic.columns]
            for a in statistic.columns
        ]
    ) / n
    covariance = (second - np.outer(mean, mean)) * n / (n - 1)
    gradient = np.nan_to_num(_gradient(statistic.function, mean))
    variance = float(gradient @ covariance @ gradient) / n * deff if size else math.nan
    return Estimate(value, math.sqrt(max(variance, 0.0)), int(n / deff), SEAT_DEALS,
                    deal_sets=deal_sets)


def _interval(difference: float, se: float, df: float, level: float) -> tuple[float, float, float]:
    if se == 0 and math.isfinite(difference):  # no spread at all: the difference is exact
        return difference, difference, (1.0 if difference == 0 else 0.0)
    if not math.isfinite(se) or not math.isfinite(df) or df < 1:
        return math.nan, math.nan, math.nan
    half = float(t_quantile(df, level)) * se
    p_value = float(t_two_sided_p(difference / se, df))
    return difference - half, difference + half, p_value


def _format(value: float) -> str:
    from .formats import format_number

    return format_number(value)


def _interval_text(estimate: float, low: float, high: float) -> str:
    """Points and their interval with the same decimals (``formats.interval_text``)."""
    from .formats import interval_text

    return interval_text(estimate, low, high, "")


def _percent(value: float) -> str:
    """A share as the tables print it (``formats.percent``: 3 significant digits, zeros kept)."""
    from .formats import percent

    if value is None or not math.isfinite(value):
        return "n/a"
    return percent(value)


def verdict(statistic: Statistic, baseline: str, other: str, row: dict[str, Any]) -> str:
    """A plain-words sentence for one difference (see the module doc)."""
    difference, low, high = row["difference"], row["difference_low"], row["difference_high"]
    if difference is None or not math.isfinite(difference):
        return f"{statistic.label}: not available in both variants"
    unit = statistic.unit.strip("()")
    values = ""
    if row.get("baseline_value") is not None and row.get("value") is not None:
        a, b = row["baseline_value"], row["value"]
        if unit.startswith("share"):
            values = f" ({_percent(a)} under {baseline}, {_percent(b)} under {other})"
        else:
            values = f" ({_format(a)} under {baseline}, {_format(b)} under {other})"
    if unit.startswith("share") and low is not None and math.isfinite(low):
        # shares read better as percentages: the difference in percentage points
        difference, low, high = 100 * difference, 100 * low, 100 * high
        unit = "percentage points"
    if low is not None and low == high == difference:  # no spread at all: exact
        if difference == 0:
            return f"{statistic.label} is exactly the same under {other} as under {baseline}"
        direction = "higher" if difference > 0 else "lower"
        return (
            f"{statistic.label} is exactly {_format(abs(difference))} {unit} {direction} under "
            f"{other} than under {baseline}"
        )
    if low is None or not math.isfinite(low):
        return (
            f"{statistic.label}: {_format(difference)} {unit} apart, "
            "no interval (too few deal sets)"
        )
    if low > 0 or high < 0:
        lo, hi = sorted((abs(low), abs(high)))
        direction = "higher" if difference > 0 else "lower"
        return (
            f"{statistic.label} is {_interval_text(abs(difference), lo, hi)} "
            f"{unit} {direction} under {other} than under {baseline}{values}"
        )
    needed = row.get("needed_deal_sets")
    per_set = row.get("games_per_deal_set") or 1.0
    size = (
        f"about {needed * per_set:,.0f} games ({needed:,.0f} deal sets) would be needed to "
        "measure it"
        if needed is not None and math.isfinite(needed)
        else "no difference at all was observed"
    )
    return (
        f"{statistic.label}: not measurable at this size "
        f"({_interval_text(difference, low, high)} {unit}); {size}"
    )


def compare(
    sources: Sequence[str | Path | Run],
    level: float = LEVEL,
    baseline: str | None = None,
    focus: str | None = None,
) -> Comparison:
    """Compare the variants of the runs (see the module doc): ``table`` has one row per statistic,
    non-baseline variant and lineup, ``values`` one row per statistic, variant and lineup.

    Runs of the same variants under different lineups are compared lineup by lineup, and
    ``robust`` says whether each finding holds under every lineup (``question``); ``focus`` names
    the statistic that answers the comparison's question (by default the one its changed options
    are about). Each row has its role, its family's Benjamini-Hochberg adjustment and the interval
    shown with it (``question.adjust``)."""
    from raspis.tournament.schema import DatasetError

    runs = [s for s in sources if isinstance(s, Run)]
    runs += open_runs([s for s in sources if not isinstance(s, Run)])
    units = variant_units(runs)
    if len(units) < 2:
        raise DatasetError(
            "compare needs at least two variants: give two or more run directories, or one run "
            "made with --variant repeated"
        )
    groups: dict[str, list[Unit]] = {}
    for unit in units:
        groups.setdefault(unit.lineup, []).append(unit)
    lineup_notes = []
    if len(groups) > 1 and min(len(group) for group in groups.values()) < 2:
        lineup_notes.append(
            "the runs' lineups differ and some lineup plays one variant only: each difference "
            "mixes the rules and the players (give the same variants under each lineup to "
            "compare the rules under each)")
        groups = {"": units}
    if len(groups) > 1:
        groups = {lineup: _relabelled(group) for lineup, group in groups.items()}
    wanted = baseline if baseline is not None else units[0].variant
    rows: list[dict[str, Any]] = []
    value_rows: list[dict[str, Any]] = []
    notes: list[str] = []
    questions: list[dict[str, Any]] = []
    chosen_stats: dict[str, Statistic] = {}
    for lineup, group in groups.items():
        chosen = [u for u in group if wanted in (u.label, u.variant)]
        if not chosen:
            labels = ", ".join(u.label for u in group)
            where = f" under the lineup {lineup}" if len(groups) > 1 else ""
            raise DatasetError(f"no variant {wanted!r} to compare against{where}; choose from "
                               f"{labels}")
        group = [chosen[0], *[u for u in group if u is not chosen[0]]]
        part_rows, part_values, part_notes, statistics = _compare_units(group, level)
        chosen_stats.update({statistic.name: statistic for statistic in statistics})
        shown = lineup if len(groups) > 1 else ""
        for row in (*part_rows, *part_values):
            row["lineup"] = shown
        rows += part_rows
        value_rows += part_values
        notes += [f"{lineup}: {note}" if shown else note for note in part_notes]
        for other in group[1:]:
            changes = changed_options(group[0].options(), other.options())
            questions.append({"baseline": group[0].label, "variant": other.label,
                              "lineup": shown, "changes": changes, "topic": topic_of(changes)})
    if focus is not None and focus not in chosen_stats:
        raise DatasetError(f"no statistic {focus!r} to focus on; choose from "
                           f"{', '.join(chosen_stats)}")
    by_pair = {(q["variant"], q["lineup"]): q for q in questions}
    for row in rows:
        question = by_pair[(row["variant"], row["lineup"])]
        row["role"] = role(row["statistic"], question["topic"], focus)
        row["family"] = "primary" if row["role"] == "question" else "secondary"
    table = adjust(pl.DataFrame(rows, schema=_TABLE_SCHEMA), level)
    verdicts = []
    for row in table.iter_rows(named=True):
        shown_row = {**row, "difference_low": row["shown_low"],
                     "difference_high": row["shown_high"]}
        verdicts.append(verdict(chosen_stats[row["statistic"]], row["baseline"], row["variant"],
                                shown_row))
    table = table.with_columns(pl.Series("verdict", verdicts, dtype=pl.String()))
    values = pl.DataFrame(value_rows, schema=_VALUES_SCHEMA)
    lineups = list(groups) if len(groups) > 1 else [units[0].lineup]
    robust = robustness(table) if len(groups) > 1 else None
    return Comparison([u for group in groups.values() for u in group], table, values,
                      notes + lineup_notes, questions, lineups, robust, level)


def _relabelled(units: list[Unit]) -> list[Unit]:
    """The units of one lineup labelled by their variant's name (the run's label added where two
    would share one)."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.variant] = counts.get(unit.variant, 0) + 1
    return [Unit(u.run, u.variant_hash, u.variant,
                 u.variant if counts[u.variant] == 1 else f"{u.run.label}: {u.variant}", u.lineup)
            for u in units]


_TABLE_SCHEMA = {
    "statistic": pl.String(),
    "label": pl.String(),
    "unit": pl.String(),
    "baseline": pl.String(),
    "variant": pl.String(),
    "lineup": pl.String(),
    "role": pl.String(),
    "family": pl.String(),
    "baseline_value": pl.Float64(),
    "value": pl.Float64(),
    "difference": pl.Float64(),
    "difference_low": pl.Float64(),
    "difference_high": pl.Float64(),
    "df": pl.Float64(),
    "p_value": pl.Float64(),
    "design": pl.String(),
    "deal_sets": pl.Int64(),
    "needed_deal_sets": pl.Float64(),
    "games_per_deal_set": pl.Float64(),
}
_VALUES_SCHEMA = {
    "statistic": pl.String(),
    "variant": pl.String(),
    "lineup": pl.String(),
    "value": pl.Float64(),
    "value_low": pl.Float64(),
    "value_high": pl.Float64(),
    "units": pl.Int64(),
    "unit_of": pl.String(),
}


def _compare_units(
    units: list[Unit], level: float
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str], list[Statistic]]:
    """Each unit against the first (the baseline), every statistic: the rows of the table and of
    the values, the notes on pairing and clustering, and the statistics compared."""
    first = units[0]
    players = min(int(_deal_seeds(unit)["players"].min()) for unit in units)
    strategy_lists = [
        set(
            unit.run.collect(
                unit.run.games.filter(pl.col("variant_hash") == unit.variant_hash)
                .select("strategy")
                .unique()
            )["strategy"].to_list()
        )
        for unit in units
    ]
    common = set.intersection(*strategy_lists)
    strategies = [s for s in first.run.strategies if s in common]
    strategies = list(dict.fromkeys(strategies)) or sorted(common)
    pair = _best_pair(first, strategies)
    chosen_stats = statistics_for(strategies, players, pair)
    game_frames = {id(u): Clusters.of(_game_totals(u, strategies, pair, players))
                   for u in units}
    deal_frames = {id(u): _deal_totals(u) for u in units}
    deal_tables = {key: None if frame is None else Clusters.of(frame)
                   for key, (frame, _) in deal_frames.items()}
    estimates: dict[tuple[int, str], Estimate] = {}
    for unit in units:
        moments = None
        deal_sets = _deal_set_count(unit)
        deal_frame, clustering = deal_frames[id(unit)]
        for statistic in chosen_stats:
            if statistic.source == "games":
                estimate = _cluster_estimate(game_frames[id(unit)], statistic)
            elif deal_frame is not None:
                estimate = _cluster_estimate(deal_tables[id(unit)], statistic, clustering,  # type: ignore[arg-type]
                                             deal_sets)
            else:
                moments = moments or _deal_stats_moments(unit)
                estimate = _moment_estimate(moments, statistic, deal_sets)
            estimates[(id(unit), statistic.name)] = estimate
    notes = []
    clustering_notes = []
    by_clustering: dict[tuple[str, int], list[str]] = {}
    for unit in units:
        frame, clustering = deal_frames[id(unit)]
        if clustering != DEAL_SETS:
            key = (clustering, frame.height if frame is not None else 0)
            by_clustering.setdefault(key, []).append(unit.label)
    for (clustering, blocks), labels in by_clustering.items():
        if clustering == BLOCKS:
            clustering_notes.append(
                f"{', '.join(labels)}: no per-deal rows; deal-level intervals clustered over "
                f"{blocks} blocks of deal sets (--deal-rows clusters them over deal sets)"
            )
        else:
            clustering_notes.append(
                f"{', '.join(labels)}: a run written before blocks of deal sets, without "
                "per-deal rows; deal-level intervals treat seat-deals as independent, too narrow "
                "when deal sets differ in luck (play it again, or with --deal-rows)"
            )
    rows, value_rows = [], []
    for statistic in chosen_stats:
        for unit in units:
            estimate = estimates[(id(unit), statistic.name)]
            low, high, _ = _interval(estimate.value, estimate.se, estimate.clusters - 1, level)
            value_rows.append(
                {
                    "statistic": statistic.name,
                    "variant": unit.label,
                    "value": estimate.value,
                    "value_low": low,
                    "value_high": high,
                    "units": estimate.clusters,
                    "unit_of": estimate.design,
                }
            )
    for other in units[1:]:
        paired, reason = same_deals(first, other)
        notes.append(
            f"{other.label} against {first.label}: "
            + (f"paired over {reason}" if paired else f"unpaired (Welch): {reason}")
        )
        blocks_paired = paired and _blocks_align(first, other)
        for statistic in chosen_stats:
            a = estimates[(id(first), statistic.name)]
            b = estimates[(id(other), statistic.name)]
            difference = b.value - a.value
            deal_sets = min(a.deal_set_count, b.deal_set_count)
            if (paired and a.influence is not None and b.influence is not None
                    and a.design == b.design and (a.design != BLOCKS or blocks_paired)):
                design = "paired" if a.design == DEAL_SETS else f"paired, {a.design}"
                ids_a, psi_a = a.influence
                ids_b, psi_b = b.influence
                common, at_a, at_b = np.intersect1d(ids_a, ids_b, assume_unique=True,
                                                    return_indices=True)
                if len(common) == a.clusters == b.clusters:
                    z = psi_b[at_b] - psi_a[at_a]
                else:  # common deal sets only: recompute both on them
                    if statistic.source == "games":
                        table_a, table_b = game_frames[id(first)], game_frames[id(other)]
                    else:
                        table_a, table_b = deal_tables[id(first)], deal_tables[id(other)]
                    a = _cluster_estimate(table_a.only(common), statistic, a.design)  # type: ignore[union-attr]
                    b = _cluster_estimate(table_b.only(common), statistic, b.design)  # type: ignore[union-attr]
                    difference = b.value - a.value
                    z = b.influence[1] - a.influence[1]  # type: ignore[index]
                    deal_sets = len(z) if a.design == DEAL_SETS else deal_sets
                clusters = len(z)
                se = float(np.sqrt((z**2).sum() / (clusters * (clusters - 1)))) if clusters > 1 \
                    else math.nan
                df = clusters - 1.0
            else:
                if SEAT_DEALS in (a.design, b.design):
                    design = f"welch, {SEAT_DEALS}"
                elif BLOCKS in (a.design, b.design):
                    design = f"welch, {BLOCKS}"
                else:
                    design = "welch"
                va, vb = a.se**2, b.se**2
                se = math.sqrt(va + vb)
                with np.errstate(all="ignore"):
                    denominator = va**2 / max(a.clusters - 1, 1) + vb**2 / max(b.clusters - 1, 1)
                    df = (va + vb) ** 2 / denominator if denominator > 0 else math.inf
            low, high, p_value = _interval(difference, se, df, level)
            needed = needed_deal_sets(deal_sets, se, difference, level)
            row = {
                "statistic": statistic.name,
                "label": statistic.label,
                "unit": statistic.unit,
                "baseline": first.label,
                "variant": other.label,
                "baseline_value": a.value,
                "value": b.value,
                "difference": difference,
                "difference_low": low,
                "difference_high": high,
                "df": df,
                "p_value": p_value,
                "design": design,
                "deal_sets": deal_sets,
                "needed_deal_sets": needed,
                "games_per_deal_set": games_per_deal_set(first),
            }
            rows.append(row)
    return rows, value_rows, notes + clustering_notes, chosen_stats


def games_per_deal_set(unit: Unit) -> float:
    """Games per deal set of a unit (its seatings; 1 without duplicates)."""
    return unit.run.cached(
        f"games_per_deal_set_{unit.variant_hash}",
        lambda: float(
            unit.run.collect(
                unit.run.games.filter(pl.col("variant_hash") == unit.variant_hash).select(
                    pl.col("game_id").n_unique() / pl.col("deal_set").n_unique()
                )
            ).item()
        ),
    )


def _best_pair(unit: Unit, strategies: Sequence[str]) -> tuple[str, str] | None:
    if len(strategies) < 2:
        return None
    means = unit.run.collect(
        unit.run.finished_games()
        .filter(pl.col("variant_hash") == unit.variant_hash)
        .group_by("strategy")
        .agg(pl.col("score").mean())
        .sort("score", descending=True)
    )
    names = [s for s in means["strategy"].to_list() if s in strategies]
    return (names[0], names[1]) if len(names) > 1 else None


def answer(comparison: Comparison) -> list[str]:
    """The comparison's answer, first: the question its changed options ask ("Does the dealer's
    hook matter?") and, per variant against the baseline, the question's statistic in words with
    its interval; with two or more lineups, the answer under each and whether it holds under all
    of them (``question.robustness``)."""
    table = comparison.table
    lines: list[str] = []
    asked: set[str] = set()
    robust = comparison.robust
    for variant in dict.fromkeys(q["variant"] for q in comparison.questions):
        questions = [q for q in comparison.questions if q["variant"] == variant]
        first = questions[0]
        topic = first["topic"]
        changes = describe_changes(first["changes"])
        rows = table.filter((pl.col("variant") == variant) & (pl.col("role") == "question"))
        if rows.height == 0:
            lines.append(
                f"{variant} against {first['baseline']} ({changes}): no statistic is known to "
                "answer for this change; the clearest differences follow (name one with "
                "--focus).")
            continue
        statistic = rows["statistic"][0]
        question = _question_text(topic, statistic, str(rows["label"][0]))
        if question not in asked:
            asked.add(question)
            lines.append(f"{question} {headline(comparison, question)}")
        parts = []
        for row in rows.iter_rows(named=True):
            said = row["verdict"]
            yes = "Yes: " if row["measurable"] else "Not measurably: "
            parts.append(f"with {row['lineup']}: {said}" if row["lineup"] else yes + said)
        text = f"{variant} ({changes}): " + "; ".join(parts) + "."
        if robust is not None:
            found = robust.filter((pl.col("statistic") == statistic)
                                  & (pl.col("variant") == variant))
            if found.height:
                text += " " + _robust_sentence(found.row(0, named=True), len(comparison.lineups))
        lines.append(text)
    return lines


def _question_text(topic: Any, statistic: str, label: str) -> str:
    """The question a variant's change asks: its topic's ("Does the dealer's hook matter?"), or,
    for a statistic named with ``--focus`` or a change no topic knows, whether the rules change
    that statistic."""
    if topic is not None and topic.question == statistic:
        return f"Does {topic.name} matter?"
    return f"Do the rules change {label}?"


def headline(comparison: Comparison, question: str) -> str:
    """The answer to ``question`` (``_question_text``) in one sentence: "Yes" when its statistic
    is measurably different, in one direction, under every variant that asks it and every lineup
    ("Yes, under both lineups"), "Not measurably at this size" when under none, else "It depends";
    then each variant's difference from the baseline with its interval (the adjusted one, as in
    the details that follow), in the statistic's unit."""
    table = comparison.table.filter(pl.col("role") == "question")
    variants = []
    for item in comparison.questions:
        rows = table.filter(pl.col("variant") == item["variant"])
        if rows.height and item["variant"] not in variants and _question_text(
                item["topic"], str(rows["statistic"][0]), str(rows["label"][0])) == question:
            variants.append(item["variant"])
    rows = table.filter(pl.col("variant").is_in(variants))
    if rows.height == 0:
        return ""
    several = len(comparison.lineups) > 1
    first = rows.row(0, named=True)
    share = str(first["unit"]).startswith("(share")
    unit = "percentage points" if share else str(first["unit"]).strip("()")
    scale = 100.0 if share else 1.0

    def amount(row: dict[str, Any]) -> str:
        low, high = sorted((abs(row["shown_low"] * scale), abs(row["shown_high"] * scale)))
        if not row["measurable"]:
            low, high = row["shown_low"] * scale, row["shown_high"] * scale
            return f"{_format(row['difference'] * scale)} [{_format(low)}, {_format(high)}]"
        return f"{_format(abs(row['difference']) * scale)} [{_format(low)}, {_format(high)}]"

    kinds, clauses = set(), []
    for index, variant in enumerate(variants):
        part = list(rows.filter(pl.col("variant") == variant).iter_rows(named=True))
        signs = {(row["difference"] > 0) - (row["difference"] < 0) for row in part
                 if row["measurable"]}
        named = several and index == 0

        def who(row: dict[str, Any], named: bool = named) -> str:
            return f" with {row['lineup']}" if named else ""

        if all(row["measurable"] for row in part) and len(signs) == 1:
            kinds.add("yes")
            direction = "higher" if signs == {1} else "lower"
            numbers = " and ".join(amount(row) + who(row) for row in part)
            clauses.append(f"{direction} under {variant} by {numbers}")
        elif not any(row["measurable"] for row in part):
            kinds.add("no")
            numbers = " and ".join(amount(row) + who(row) for row in part)
            clauses.append(f"not measurably different under {variant} ({numbers})")
        else:
            kinds.add("depends")
            said = []
            for row in part:
                direction = ("not measurably different" if not row["measurable"] else
                             "higher" if row["difference"] > 0 else "lower")
                said.append(f"{direction} with {row['lineup']} ({amount(row)})")
            clauses.append(f"under {variant} " + " but ".join(said))
    lineups = len(comparison.lineups)
    both = "both lineups" if lineups == 2 else f"all {lineups} lineups"
    verdict = ("It depends" if len(kinds) > 1 or "depends" in kinds else
               f"Yes{f', under {both}' if several else ''}" if kinds == {"yes"} else
               "Not measurably at this size")
    order = (" (the lineups in the same order)" if several and len(clauses) > 1
             and kinds == {"yes"} else "")
    text = clauses[0] if len(clauses) == 1 else "; ".join(clauses[:-1]) + "; and " + clauses[-1]
    return (f"{verdict}: against {first['baseline']}, {first['label']} is {text} {unit}{order}.")


def _robust_sentence(row: dict[str, Any], lineups: int) -> str:
    both = "both lineups" if lineups == 2 else f"all {lineups} lineups"
    if row["robustness"] == HOLDS:
        return f"This holds under {both}: measurable, with the same sign, under each."
    if row["robustness"] == FLIPS:
        return ("This flips with the players: measurable with opposite signs under different "
                "lineups.")
    if row["robustness"] == SOME:
        return f"This depends on the players: measurable only with {row['measurable_under']}."
    return f"Not measurable under any of the {lineups} lineups."


def _sentence(row: dict[str, Any]) -> str:
    text = row["verdict"]
    if text.startswith(("the ", "how ", "position ", "game ", "lead ")):
        text = text[0].upper() + text[1:]
    return text


def findings(comparison: Comparison, limit: int | None = 12) -> list[str]:
    """The measured differences other than the answer's (``answer``): those the change bears on
    first (``question.ROLES``), each group the most clearly measured first (largest estimate
    relative to its interval's width), the mechanical consequences of the change itself last and
    labelled; at most ``limit``, as sentences; then a line counting the rest, and one on the
    multiplicity adjustment. "Measured" follows the interval shown (``question.adjust``)."""
    table = comparison.table
    measured = table.filter(pl.col("measurable") & (pl.col("role") != "question")).with_columns(
        (
            pl.col("difference").abs()
            / (pl.col("shown_high") - pl.col("shown_low")).clip(lower_bound=1e-300)
        ).alias("strength"),
        role_rank().alias("rank"),
    ).sort(["rank", "strength"], descending=[False, True])
    several = len(comparison.lineups) > 1
    runs = {(unit.label, unit.lineup if several else ""): unit.run.label
            for unit in comparison.units}

    def where(row: dict[str, Any]) -> str:
        players = f", with {row['lineup']}" if several else ""
        run = runs.get((row["variant"], row["lineup"]), "?")
        return f"{row['design']}, {row['deal_sets']:,} deal sets, run {run}{players}"

    robust = {}
    if comparison.robust is not None:
        tags = {HOLDS: "holds under every lineup", FLIPS: "flips with the players"}
        for item in comparison.robust.iter_rows(named=True):
            robust[(item["statistic"], item["variant"])] = tags.get(
                item["robustness"], f"measurable with {item['measurable_under']} only")
    lines = []
    for row in measured.head(limit if limit is not None else measured.height).iter_rows(
            named=True):
        label = " (mechanical: the change sets it by definition)" if row["role"] == "mechanical" \
            else ""
        held = robust.get((row["statistic"], row["variant"]))
        held = f"; {held}" if held else ""
        lines.append(f"{_sentence(row)}{label} ({where(row)}{held}).")
    more = measured.height - len(lines)
    if more:
        lines.append(
            f"{more} more measured difference{'s are' if more > 1 else ' is'} in the table below."
        )
    rest = table.filter(~pl.col("measurable") & (pl.col("role") != "question")).height
    if rest:
        lines.append(
            f"{rest} difference{'s are' if rest > 1 else ' is'} not measurable at this size or "
            "exactly 0 (the interval includes 0); the table gives the games each would need."
        )
    lines.append(multiplicity_note(comparison))
    return lines


def multiplicity_note(comparison: Comparison) -> str:
    """How the intervals shown were adjusted for the number of differences tested."""
    table = comparison.table
    parts = []
    for family, what in (("primary", "the answer's"), ("secondary", "the other")):
        rows = table.filter((pl.col("family") == family) & pl.col("interval_level").is_finite())
        if rows.height:
            shown = 100 * float(rows["interval_level"][0])
            parts.append(f"{what} {rows.height} difference{'s' if rows.height > 1 else ''} at "
                         f"{shown:.3g}%")
    alpha = 100 * (1 - comparison.level)
    return (f"Intervals are adjusted for testing many differences at once (Benjamini-Hochberg at "
            f"{alpha:.3g}% within each family, with the matching false-coverage-rate intervals): "
            + "; ".join(parts) + ".")


#: columns of ``display_table`` that hold numbers written as text (shares with their % sign):
#: aligned as numbers
NUMBER_TEXT = frozenset({"baseline_value", "value"})


def display_table(comparison: Comparison) -> pl.DataFrame:
    """The comparison for people: one row per statistic and variant (and lineup, when there are
    several), most relevant first (``question.ROLES``), in the statistic's unit (shares in % and
    their differences in percentage points): the baseline's value, the variant's (as text, a share
    with its % sign: ``NUMBER_TEXT``), the difference
    with the interval shown (adjusted, ``question.adjust``; folded by
    ``tables.display_frame``), whether it is measurable, the design and the verdict."""
    from .formats import column_texts

    table = by_relevance(comparison.table)
    lineup = ["lineup"] if len(comparison.lineups) > 1 else []
    share = pl.col("unit").str.starts_with("(share")
    percent = pl.when(share).then(100.0).otherwise(1.0)  # differences in percentage points
    shares = table["unit"].str.starts_with("(share").to_list()

    def values(column: str) -> pl.Series:  # a share as the tables print one: 48.0%
        return pl.Series(column, column_texts(table[column].to_list(), shares=shares),
                         dtype=pl.String())

    return table.select(
        "statistic",
        "variant",
        *lineup,
        values("baseline_value"),
        values("value"),
        pl.col("difference") * percent,
        (pl.col("shown_low") * percent).alias("difference_low"),
        (pl.col("shown_high") * percent).alias("difference_high"),
        pl.when(share).then(pl.lit("% (difference: percentage points)"))
        .otherwise(pl.col("unit").str.strip_chars("()")).alias("unit"),
        "measurable",
        "role",
        "design",
        "verdict",
    )


def write_comparison(
    comparison: Comparison, out_dir: str | Path, level: float = LEVEL, title: str | None = None
) -> Path:
    """Write ``compare.html`` (figure embedded), ``compare.md``, ``figures/differences.png|svg``
    and ``tables/compare.csv`` / ``tables/values.csv`` into ``out_dir``; return the HTML path.
    Both documents open with the answer (``answer``), then the findings (``findings``)."""
    import base64
    import datetime as dt

    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from raspis import __version__

    from . import figures
    from .tables import TEMPLATES, display_frame, to_markdown

    folder = Path(out_dir)
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    comparison.table.write_csv(folder / "tables" / "compare.csv")
    comparison.values.write_csv(folder / "tables" / "values.csv")
    png = figures.save_figure(
        figures.differences(comparison.table, level), folder / "figures", "differences"
    )
    narrow = figures.save_figure(  # the same panels in one column, for a phone
        figures.differences(comparison.table, level, columns=1), folder / "figures",
        "differences-narrow")
    shown = display_table(comparison).drop("verdict")
    headers, rows = display_frame(shown)
    numeric = [dtype.is_numeric() or name in NUMBER_TEXT for name, dtype in shown.drop(
        "difference_low", "difference_high").schema.items()]
    baseline = comparison.units[0]
    context = {
        "title": title or f"raspis: {', '.join(dict.fromkeys(u.label for u in comparison.units))}"
                          " compared",
        "version": __version__,
        "level": level,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "baseline": baseline.label,
        "units": [
            {"label": u.label, "variant": u.variant, "hash": u.variant_hash, "run": u.run.label,
             "path": str(u.run.path) if u.run.path else "(in memory)"}
            for u in comparison.units
        ],
        "answer": answer(comparison),
        "findings": findings(comparison),
        "lineups": comparison.lineups if len(comparison.lineups) > 1 else [],
        "notes": comparison.notes,
        "headers": headers,
        "rows": rows,
        "numeric": numeric,
        "verdicts": display_table(comparison)["verdict"].to_list(),
        "markdown": to_markdown(shown),
        "figure": base64.b64encode(png).decode("ascii"),
        "narrow_figure": base64.b64encode(narrow).decode("ascii"),
    }
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    html = folder / "compare.html"
    html.write_text(environment.get_template("compare.html.j2").render(context), encoding="utf-8")
    environment.autoescape = False
    (folder / "compare.md").write_text(
        environment.get_template("compare.md.j2").render(context), encoding="utf-8"
    )
    return html
