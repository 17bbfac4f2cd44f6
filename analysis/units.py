"""The units a comparison puts side by side (a variant of a run), and each unit's totals per
cluster: the sums every statistic of ``compare`` and of the balance profile is read from.

Design, stated once (the estimates themselves are ``estimates``'):

- *Unit.* One variant of one run (``variant_units``); the deal set is the unit of independence
  (its seatings share the cards; its seats and deals share players).
- *Game-level totals* (``game_totals``): one row per cluster of the unit's finished games, read
  from the run's totals (``blocks``, ``tournament.totals``): seat-games, scores and their
  squares, wins and places by strategy and by position (a shared first place split evenly), the
  pairs of strategies finishing ahead of each other, the cells of the duplicate design, lead
  changes, comebacks, decided games, ties. A cluster is a block of deal sets (min(D, 64) blocks
  of consecutive deal sets; each deal set its own in a run of at most 64), or a deal set for
  ``settle`` (``per_deal_set``).
- *Deal-level totals* (``deal_totals``): per block from the ``game_sums`` in the totals, or per
  deal set from the per-deal rows of a run written before them, else per block from the
  ``deal_stats`` sums (``BLOCKS``), or, for a run written before blocks, sums and second
  moments over seat-deals (``deal_stats_moments``: each seat-deal one observation, the variance
  multiplied by the games per deal set, too narrow when deal sets differ in luck).
- *Strength.* The lineup's strategies ordered by the baseline's mean place, the best first
  (``strength_order``): the profile's skill measures read the pairs in that order.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from raspis.tournament.schema import DEAL_BLOCKS

from .balance import has_deal_blocks
from .blocks import (
    block_seeds,
    means_of,
    strategies_of,
    unit_blocks,
    unit_deal_blocks,
)
from .dataset import Run
from .estimates import (
    BLOCKS,
    DEAL_SETS,
    SEAT_DEALS,
    Clusters,
    Estimate,
    Statistic,
    cluster_estimate,
    difference_of_ratios,
    moment_estimate,
    ratio,
)
from .measures import (
    ADOPTED,
    deal_aggregations,
    joker_top,
    pair_column,
    profile_statistics,
    strategy_column,
    top_credit,
)
from .question import lineup_text


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



# -- units --------------------------------------------------------------------------------------


def variant_units(runs: Sequence[Run]) -> list[Unit]:
    """The variants of the runs in order (a run's variants in manifest order), labelled by name;
    the run's label is added where two units would share a name."""
    units: list[Unit] = []
    for run in runs:
        names = run.variant_names()
        order = [entry.get("hash") for entry in run.manifest.get("variants") or []]
        hashes = names["variant_hash"].to_list()
        position: dict[str, tuple[int, int]] = {}
        if any(h not in order for h in hashes):  # a variant the manifest does not list: by rows
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
        hashes.sort(key=lambda h: (order.index(h) if h in order else len(order),
                                   position.get(h, (0, 0))))
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


def deal_seeds(unit: Unit) -> pl.DataFrame:
    """Per cluster of the unit (``blocks.block_seeds``): its deal sets, their seeds' check sum
    and players."""
    return unit.run.cached(f"deal_seeds_{unit.variant_hash}",
                           lambda: block_seeds(unit.run, unit.variant_hash))


def same_deals(a: Unit, b: Unit) -> tuple[bool, str]:
    """Whether two units play the same deals (paired design), and why not when they do not."""
    options_a, options_b = a.options(), b.options()
    if options_a is not None and options_b is not None:
        for section in ("deck", "schedule"):
            if options_a.get(section) != options_b.get(section):
                return False, f"their {section} differs"
    if a.run.deal_set_basis != b.run.deal_set_basis and max(
            deal_set_count(a), deal_set_count(b)) > DEAL_BLOCKS:
        return False, "their runs differ in size (their blocks of deal sets do not line up)"
    seeds_a, seeds_b = deal_seeds(a), deal_seeds(b)
    joined = seeds_a.join(seeds_b, on="cluster", suffix="_b")
    if int(joined["deal_sets"].sum()) < 2:
        return False, "they share no deal sets"
    if not (joined["players"] == joined["players_b"]).all():
        return False, "their player counts differ"
    if not ((joined["seed_check"] == joined["seed_check_b"]).all()
            and (joined["deal_sets"] == joined["deal_sets_b"]).all()):
        return False, "their deal sets have different seeds"
    return True, f"the same {int(joined['deal_sets'].sum()):,} deal sets (same seeds and deck)"


# -- per-deal-set totals ------------------------------------------------------------------------


def game_totals(unit: Unit, strategies: Sequence[str], pair: tuple[str, str] | None,
                players: int, order: Sequence[str] = (),
                per_deal_set: bool = False) -> pl.DataFrame:
    """One row per cluster (a block of deal sets: ``blocks``) of the unit's finished games, with
    every total the game-level statistics use; ``order``: the strategies, the strongest first,
    whose pairs and places the profile reads (``measures``); ``pair``: the two whose games
    ``better_ahead`` reads; ``per_deal_set``: one row per deal set instead (``blocks``)."""
    del strategies, players  # every strategy's and position's totals are there
    frame = unit_blocks(unit.run, unit.variant_hash, per_deal_set)
    extra = []
    if len(order) >= 2 and f"d_{pair_column(order[0], order[1])}" in frame.columns:
        stem = pair_column(order[0], order[1])
        extra += [pl.col(f"d_{stem}").alias("match_d"), pl.col(f"d2_{stem}").alias("match_d2")]
    if pair is not None and f"ga_{pair_column(*pair)}" in frame.columns:
        stem = pair_column(*pair)
        extra += [pl.col(f"gn_{stem}").alias("pair_games"),
                  pl.col(f"ga_{stem}").alias("pair_ahead")]
    return frame.with_columns(extra) if extra else frame


def deal_totals(unit: Unit, per_deal_set: bool = False) -> tuple[pl.DataFrame | None, str]:
    """One row per cluster (``cluster``) with the deal-level totals: the dealer's and the others'
    deal points in deals with bidding, the hook, the bids' outcomes, the Joker; and what the
    clusters are. Per deal set from each game's sums (``game_sum_totals``) or from the per-deal
    rows (``DEAL_SETS``), else per block of deal sets from ``deal_stats`` (``BLOCKS``), else None
    (``SEAT_DEALS``: a run without blocks)."""
    if unit.run.game_sums is not None:
        return (unit_deal_blocks(unit.run, unit.variant_hash, per_deal_set),
                DEAL_SETS if per_deal_set else cluster_design(unit))
    if unit.run.deals is None:
        if not has_deal_blocks(unit.run):
            return None, SEAT_DEALS
        return block_totals(unit), BLOCKS
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
    deals = deals.with_columns(top_credit(), pl.lit(1, dtype=pl.Int64).alias("seat_deal"))
    frame = unit.run.collect(
        deals.group_by("deal_set").agg(
            *deal_aggregations(pl.col("seat_deal"), pl.col("top_credit"), has_bid & (bid == 0)),
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


def block_totals(unit: Unit) -> pl.DataFrame | None:
    """``deal_totals`` per block of deal sets, from the ``deal_stats`` sums (which also hold the
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
            *deal_aggregations(count, pl.col("top_credit"), pl.col("passes")),
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


def deal_set_count(unit: Unit) -> int:
    """The deal sets a unit played (with a finished or errored game)."""
    return int(deal_seeds(unit)["deal_sets"].sum())


def cluster_design(unit: Unit) -> str:
    """What a unit's clusters are: its deal sets (a run of at most 64), else blocks of them."""
    return DEAL_SETS if unit.run.deal_set_basis <= DEAL_BLOCKS else BLOCKS


def blocks_align(a: Unit, b: Unit) -> bool:
    """Whether two units' blocks of deal sets hold the same deal sets: the same deal sets, out of
    the same number of deal sets of their runs (the block rule divides by it)."""
    if a.run.deal_set_basis != b.run.deal_set_basis:
        return False
    seeds_a, seeds_b = deal_seeds(a), deal_seeds(b)
    return (seeds_a["cluster"].equals(seeds_b["cluster"])
            and seeds_a["deal_sets"].equals(seeds_b["deal_sets"]))


def deal_stats_moments(unit: Unit) -> dict[str, Any]:
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
    return {"n": row["all_n"], "deff": games_per_deal_set(unit) or 1.0, "sum": sums,
            "cross": cross}


def relabelled(units: list[Unit]) -> list[Unit]:
    """The units of one lineup labelled by their variant's name (the run's label added where two
    would share one)."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.variant] = counts.get(unit.variant, 0) + 1
    return [Unit(u.run, u.variant_hash, u.variant,
                 u.variant if counts[u.variant] == 1 else f"{u.run.label}: {u.variant}", u.lineup)
            for u in units]


def games_per_deal_set(unit: Unit) -> float:
    """Games per deal set of a unit (its seatings; 1 without duplicates)."""
    seeds = deal_seeds(unit)
    sets = float(seeds["deal_sets"].sum())
    return float(seeds["games"].sum()) / sets if sets else math.nan


def best_pair(unit: Unit, strategies: Sequence[str]) -> tuple[str, str] | None:
    """The two of ``strategies`` with the highest mean score in the unit."""
    if len(strategies) < 2:
        return None
    means = means_of(unit.run, unit.variant_hash, "s", strategies)
    names = sorted(means, key=lambda name: -means[name])
    return (names[0], names[1]) if len(names) > 1 else None


# -- the statistics -----------------------------------------------------------------------------


def _sd(t: np.ndarray) -> float:
    n, s, q = t
    return float(np.sqrt(max(q / n - (s / n) ** 2, 0.0)))


def _strategy_share(count: int) -> Callable[[np.ndarray], float]:
    def share(t: np.ndarray) -> float:
        n, s, q = t[..., 0], t[..., 1], t[..., 2]
        total = q - s * s / n
        between = sum(t[..., 3 + 2 * k + 1] ** 2 / t[..., 3 + 2 * k] for k in range(count))
        return (between - s * s / n) / total

    return share


def statistics_for(
    strategies: Sequence[str], players: int, pair: tuple[str, str] | None,
    order: Sequence[str] = (), duplicate: bool = False,
) -> list[Statistic]:
    """The statistics compared: game-level ones from ``games`` and deal-level ones from the
    per-deal rows (or ``deal_stats``), then the balance profile's measures
    (``measures.profile_statistics``: ``order`` the strategies, the strongest first;
    ``duplicate``: deal sets replayed under several seatings) and the Joker's value as a chance.
    A statistic in the variant's points says so (``Statistic.in_points``)."""
    chosen: list[Statistic] = []
    for name in strategies:
        column = strategy_column(name)
        chosen.append(
            Statistic(
                f"mean_score[{name}]",
                f"{name}'s mean final score",
                "points a game",
                (f"s_{column}", f"n_{column}"),
                ratio(0, 1),
                in_points=True,
            )
        )
        chosen.append(
            Statistic(
                f"win_rate[{name}]",
                f"{name}'s win rate",
                "(share of games)",
                (f"w_{column}", f"n_{column}"),
                ratio(0, 1),
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
                difference_of_ratios(0, 1, 2, 3),
                in_points=True,
            )
        )
    chosen += [
        Statistic(
            "score_sd", "the spread (sd) of final scores", "points", ("seat_games", "score_sum",
                                                                       "score_sq"), _sd,
            in_points=True,
        ),
        Statistic(
            "negative_share",
            "the share of negative final totals",
            "(share of seat-games)",
            ("negative", "seat_games"),
            ratio(0, 1),
        ),
        Statistic("deals_per_game", "game length", "deals", ("deals_sum", "games"), ratio(0, 1)),
        Statistic(
            "lead_changes", "lead changes per game", "changes", ("lead_sum", "games"), ratio(0, 1)
        ),
        Statistic(
            "tie_share", "the share of games with a shared first place", "(share of games)",
            ("ties", "games"), ratio(0, 1)
        ),
    ]
    if len(strategies) > 1:
        columns = ["seat_games", "score_sum", "score_sq"]
        for name in strategies:
            column = strategy_column(name)
            columns += [f"n_{column}", f"s_{column}"]
        chosen.append(
            Statistic(
                "strategy_share",
                "the share of score variance the strategies explain",
                "(share)",
                tuple(columns),
                _strategy_share(len(strategies)),
                curved=True,
                in_points=True,
            )
        )
    if pair is not None:
        chosen.append(
            Statistic(
                "better_ahead",
                f"how often {pair[0]} is ahead of {pair[1]} after one game",
                "(share of games)",
                ("pair_ahead", "pair_games"),
                ratio(0, 1),
            )
        )
    chosen += [
        Statistic(
            "points_per_deal",
            "the mean deal points of a seat",
            "points a deal",
            ("points", "seat_deals"),
            ratio(0, 1),
            "deals",
            in_points=True,
        ),
        Statistic(
            "dealer_cost",
            "the dealer's deal points minus the other seats'",
            "points a deal",
            ("dealer_points", "dealer_n", "other_points", "other_n"),
            difference_of_ratios(0, 1, 2, 3),
            "deals",
            in_points=True,
        ),
        Statistic(
            "hook_forced_share",
            "the share of the dealer's bids the hook restricted",
            "(share)",
            ("forced", "dealer_n"),
            ratio(0, 1),
            "deals",
        ),
        Statistic(
            "made_share", "the share of bids made", "(share of bids)", ("made", "bids"),
            ratio(0, 1), "deals"
        ),
        Statistic(
            "over_share", "the share of bids overshot", "(share of bids)", ("over", "bids"),
            ratio(0, 1), "deals"
        ),
        Statistic(
            "under_share", "the share of bids fallen short", "(share of bids)",
            ("under", "bids"), ratio(0, 1), "deals"
        ),
        Statistic(
            "joker_value",
            "the value of holding the (first) Joker",
            "points a deal",
            ("joker_points", "joker_n", "none_points", "none_n"),
            difference_of_ratios(0, 1, 2, 3),
            "deals",
            in_points=True,
        ),
    ]
    chosen = [dataclasses.replace(statistic, group=ADOPTED[statistic.name][0],
                                  toward=ADOPTED[statistic.name][1])
              if statistic.name in ADOPTED else statistic for statistic in chosen]
    return [*chosen, joker_top(), *profile_statistics(order, players, duplicate)]


def strength_order(unit: Unit, strategies: Sequence[str]) -> list[str]:
    """The strategies of a lineup ordered by their mean place in ``unit`` (its finished games),
    the best first: the order the profile's skill measures read pairs in."""
    places = means_of(unit.run, unit.variant_hash, "pl", strategies)
    return sorted(places, key=lambda name: (places[name], name))


@dataclass(frozen=True)
class Lineup:
    """What the statistics of units compared together read: the strategies they share (in the
    lineup's order), the player count, the two best by mean score (``best_pair``), the
    strategies by strength in the baseline (``strength_order``) and whether its deal sets were
    replayed under several seatings."""

    strategies: tuple[str, ...]
    players: int
    pair: tuple[str, str] | None
    order: tuple[str, ...]
    duplicate: bool

    @classmethod
    def of(cls, units: Sequence[Unit]) -> Lineup:
        """The setting of ``units``, the first the baseline."""
        first = units[0]
        players = min(int(seeds["players"].sum() // max(1, seeds["deal_sets"].sum()))
                      for seeds in (deal_seeds(unit) for unit in units))
        strategy_lists = [set(strategies_of(unit.run, unit.variant_hash)) for unit in units]
        common = set.intersection(*strategy_lists)
        strategies = [s for s in first.run.strategies if s in common]
        strategies = list(dict.fromkeys(strategies)) or sorted(common)
        duplicate = all(games_per_deal_set(unit) > 1 for unit in units)
        return cls(tuple(strategies), players, best_pair(first, strategies),
                   tuple(strength_order(first, strategies)), duplicate)

    def statistics(self) -> list[Statistic]:
        """Every statistic compared (``statistics_for``)."""
        return statistics_for(self.strategies, self.players, self.pair, self.order,
                              self.duplicate)


class UnitTotals:
    """A unit's totals per cluster, read from its run once (``game_totals``, ``deal_totals``):
    every statistic's estimate comes from them (``estimate``)."""

    def __init__(self, unit: Unit, lineup: Lineup) -> None:
        self.unit = unit
        self.games = Clusters.of(game_totals(unit, lineup.strategies, lineup.pair,
                                             lineup.players, lineup.order))
        #: what the game-level clusters are (deal sets, or blocks of them)
        self.game_design = cluster_design(unit)
        frame, self.clustering = deal_totals(unit)
        self.deals = None if frame is None else Clusters.of(frame)
        #: the clusters of the deal-level totals (blocks, or deal sets)
        self.deal_clusters = 0 if frame is None else frame.height
        self.deal_sets = deal_set_count(unit)
        self._moments: dict[str, Any] | None = None

    def table(self, statistic: Statistic) -> Clusters | None:
        """The clusters a statistic reads (None: a deal-level one of a run without blocks)."""
        return self.games if statistic.source == "games" else self.deals

    def estimate(self, statistic: Statistic) -> Estimate:
        """The statistic's estimate for the unit (``estimates``)."""
        if statistic.source == "games":
            return cluster_estimate(self.games, statistic, self.game_design, self.deal_sets)
        if self.deals is not None:
            return cluster_estimate(self.deals, statistic, self.clustering, self.deal_sets)
        if self._moments is None:
            self._moments = deal_stats_moments(self.unit)
        return moment_estimate(self._moments, statistic, self.deal_sets)
