"""A run's totals per block of deal sets: the sums every game-level statistic is read from, so the
analysis of a run costs the same at a million games as at a hundred million.

Design, stated once:

- *Per deal set, then per block.* Each total is first a sum over one deal set's games (all its
  seatings: the duplicate design's cells and paired differences need them together), then
  summed over the deal sets of a block (``schema.deal_block``: min(D, 64) blocks of consecutive
  deal sets, independent since deal sets are). Totals that are not sums of rows (a deal set's
  paired difference and its square, the between-cells sum of squares of places) are made per
  deal set first, so their block sums hold what the statistics need (the mean and the variance
  over deal sets of a paired difference, exactly as from the rows).
- *Three frames* (``Totals``), one row per (``variant_hash``, ``deal_block``): ``games`` (seat-
  games, scores and their squares, places, wins by strategy (``k{index}``, the lineup's distinct
  strategies in lineup order) and by position, each position's score and win advantage over the
  deal set's mean with their products (``sa_p{i}``, ``sa2_p{i}_{j}``, ``wa_...``: the seat tests'
  mean and covariance over deal sets), pairs of strategies, game lengths and drama, the
  duplicate cells), ``deals`` (the deal-level sums of ``game_sums``) and ``orders`` (the
  count of each finishing order of the lineup slots: what the ratings fit).
- *Built once, group by group.* The shards of one block of deal sets under one variant (every
  seating of it) are read together (``groups``), so memory is bounded by a shard group, not by
  the run; the result is kept in the run folder (``.totals/``) under a digest of the shards'
  checksums, and rebuilt only for a shard group whose files changed (a run that grew).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

from .schema import DEAL_BLOCKS, TOP_UNITS, DatasetError, scan_table

__all__ = ["SUMMARY_SCHEMA", "TOPPED", "TOP_UNITS", "Basis", "Totals", "compute",
           "deal_set_totals", "deal_totals", "keep_group", "order_counts", "run_totals",
           "shard_rows", "strategy_summary"]

#: Raised whenever a total is added or its meaning changes: older caches are rebuilt.
TOTALS_VERSION = 3

#: The folder of a run the totals are kept in.
FOLDER = ".totals"

#: The deal-level sums of ``game_sums`` (``frames.GAME_SUM_VALUES``) that count deals topped, in
#: 1/TOP_UNITS.
TOPPED = ("dealer_top", "none_top", "joker_top")

KEYS = ["variant_hash", "deal_block"]

_SHARD = re.compile(r"^v(\d{2,})(?:-s\d{3,})?-b(\d{6,})$")


@dataclass(frozen=True)
class Totals:
    """A run's totals per (``variant_hash``, ``deal_block``) (module doc). ``strategies``: the
    lineup's distinct strategies (as the rows name them) in lineup order; strategy k's columns
    end in ``k{k}``, a pair's in ``k{a}_{b}`` (a < b)."""

    games: pl.DataFrame
    deals: pl.DataFrame | None
    orders: pl.DataFrame
    strategies: tuple[str, ...]
    #: final scores and lead changes with their counts (``value_counts``)
    values: pl.DataFrame | None = None


def _strategy_index(strategies: Sequence[str]) -> pl.Expr:
    """Each row's strategy as its index ``k`` in ``strategies`` (-1 for none of them)."""
    index = {name: k for k, name in enumerate(strategies)}
    return pl.col("strategy").replace_strict(index, default=-1, return_dtype=pl.Int32).alias("k")


def deal_set_totals(games: pl.LazyFrame, strategies: Sequence[str], players: int,
                    total_deal_sets: int) -> pl.LazyFrame:
    """The ``games`` totals (module doc) per (``variant_hash``, ``deal_set``) of ``games`` rows,
    with each deal set's ``deal_block``."""
    count = len(strategies)
    finished = games.filter(~pl.col("errored")).with_columns(
        ((pl.col("seat") - pl.col("first_dealer") + pl.col("players")) % pl.col("players"))
        .alias("position"),
        _strategy_index(strategies),
        (pl.col("place") == 1).cast(pl.Float64).alias("first"),
    ).with_columns(
        (pl.col("first") / pl.col("first").sum().over("game_id")).alias("credit"))
    score, place = pl.col("score").cast(pl.Float64), pl.col("place").cast(pl.Float64)
    seat = [
        pl.len().alias("seat_games"),
        score.sum().alias("score_sum"),
        (score**2).sum().alias("score_sq"),
        (pl.col("score") < 0).sum().alias("negative"),
        pl.col("winner").sum().alias("wins"),
        pl.col("double_loss").sum().alias("double_losses"),
        place.sum().alias("place_sum"),
        (place**2).sum().alias("place_sq"),
        pl.col("players").first().alias("players"),
        (pl.col("seed") % (1 << 31)).cast(pl.Int64).first().alias("seed_check"),
    ]
    for k in range(count):
        here = pl.col("k") == k
        seat += [here.sum().alias(f"n_k{k}"), score.filter(here).sum().alias(f"s_k{k}"),
                 (score**2).filter(here).sum().alias(f"q_k{k}"),
                 pl.col("winner").filter(here).sum().alias(f"w_k{k}"),
                 pl.col("credit").filter(here).sum().alias(f"wc_k{k}"),
                 place.filter(here).sum().alias(f"pl_k{k}"),
                 pl.col("game_id").filter(here).n_unique().alias(f"g_k{k}")]
    for position in range(players):
        here = pl.col("position") == position
        seat += [here.sum().alias(f"n_p{position}"),
                 score.filter(here).sum().alias(f"s_p{position}"),
                 pl.col("winner").filter(here).sum().alias(f"w_p{position}"),
                 pl.col("credit").filter(here).sum().alias(f"wc_p{position}")]
    per_set = finished.group_by("variant_hash", "deal_set").agg(seat)
    per_game = finished.group_by("variant_hash", "deal_set", "game_id").agg(
        pl.col("deals_played").first(), pl.col("lead_changes").first(),
        ((pl.col("place") == 1).sum() > 1).alias("tie"),
        pl.col("comeback").first(), (pl.col("decided_deals_left").first() > 0).alias("decided"),
        *[score.filter(pl.col("k") == k).mean().alias(f"m{k}") for k in range(count)])
    game_sums = [pl.len().alias("games"), pl.col("deals_played").sum().alias("deals_sum"),
                 pl.col("lead_changes").sum().alias("lead_sum"), pl.col("tie").sum().alias("ties"),
                 pl.col("comeback").is_not_null().sum().alias("drama_games"),
                 pl.col("comeback").sum().alias("comebacks"),
                 pl.col("decided").sum().alias("decided")]
    for a in range(count):
        for b in range(a + 1, count):
            difference = pl.col(f"m{a}") - pl.col(f"m{b}")
            game_sums += [
                difference.is_not_null().sum().alias(f"gn_k{a}_{b}"),
                pl.when(difference > 0).then(1.0).when(difference == 0).then(0.5)
                .otherwise(0.0).sum().alias(f"ga_k{a}_{b}"),
                difference.sum().alias(f"gd_k{a}_{b}"),
                (difference**2).sum().alias(f"gd2_k{a}_{b}")]
    per_set_games = per_game.group_by("variant_hash", "deal_set").agg(game_sums)
    seat_cells = finished.group_by("variant_hash", "deal_set", "seat").agg(
        place.sum().alias("sum"), score.sum().alias("score"), pl.len().alias("n"))
    cells = seat_cells.group_by("variant_hash", "deal_set").agg(
        (pl.col("sum") ** 2 / pl.col("n")).sum().alias("cell_ss"),
        (pl.col("score") ** 2 / pl.col("n")).sum().alias("cell_score_ss"),
        (pl.col("n").min() < 2).cast(pl.Int64).alias("cell_single"))
    if count:  # Σ over a strategy's seat-games of their cell's mean score (the luck-free split)
        cell_means = finished.join(seat_cells.select(
            "variant_hash", "deal_set", "seat", (pl.col("score") / pl.col("n")).alias("cm")),
            on=["variant_hash", "deal_set", "seat"]).group_by("variant_hash", "deal_set").agg(
            pl.col("cm").filter(pl.col("k") == k).sum().alias(f"cm_k{k}") for k in range(count))
        cells = cells.join(cell_means, on=["variant_hash", "deal_set"])
    frame = (per_set.join(per_set_games, on=["variant_hash", "deal_set"])
             .join(cells, on=["variant_hash", "deal_set"]))
    pairs = _pair_totals(finished, count)
    if pairs is not None:
        frame = frame.join(pairs, on=["variant_hash", "deal_set"], how="left")
    derived = [pl.lit(1, dtype=pl.Int64).alias("deal_sets")]
    for kind, total in (("sa", "s"), ("wa", "w")):  # each position's advantage, its products
        overall = pl.col("score_sum" if total == "s" else "wins") / pl.col("seat_games")
        for i in range(players):
            derived.append((pl.col(f"{total}_p{i}") / pl.col(f"n_p{i}") - overall)
                           .fill_nan(None).fill_null(0.0).alias(f"{kind}_p{i}"))
    for a in range(count):
        for b in range(a + 1, count):
            both = (pl.col(f"n_k{a}") > 0) & (pl.col(f"n_k{b}") > 0)
            difference = pl.when(both).then(
                pl.col(f"s_k{a}") / pl.col(f"n_k{a}") - pl.col(f"s_k{b}") / pl.col(f"n_k{b}")
            ).otherwise(0.0)
            derived += [both.cast(pl.Int64).alias(f"dn_k{a}_{b}"),
                        difference.alias(f"d_k{a}_{b}"), (difference**2).alias(f"d2_k{a}_{b}")]
    errored = games.filter(pl.col("errored")).with_columns(
        _strategy_index(strategies)
    ).group_by("variant_hash", "deal_set").agg(
        pl.col("game_id").n_unique().alias("errored_games"),
        *[pl.col("game_id").filter(pl.col("k") == k).n_unique().alias(f"e_k{k}")
          for k in range(count)])
    frame = frame.with_columns(derived).with_columns(
        (pl.col(f"{kind}_p{i}") * pl.col(f"{kind}_p{j}")).alias(f"{kind}2_p{i}_{j}")
        for kind in ("sa", "wa") for i in range(players) for j in range(i, players)
    ).join(errored, on=["variant_hash", "deal_set"], how="full",
                            coalesce=True)
    return frame.with_columns(
        (pl.col("deal_set") * DEAL_BLOCKS // max(1, total_deal_sets)).cast(pl.Int32)
        .alias("deal_block"))


def _pair_totals(finished: pl.LazyFrame, count: int) -> pl.LazyFrame | None:
    """Per deal set, for strategies a < b: the games both sat in (``pg``) and the sum over them
    of the share of (a seat, b seat) pairs in which a finished ahead, a shared place half
    (``ah``)."""
    if count < 2:
        return None
    seats = finished.select("variant_hash", "deal_set", "game_id", "k",
                            pl.col("place").cast(pl.Float64))
    joined = seats.join(seats, on=["variant_hash", "deal_set", "game_id"], suffix="_b").filter(
        (pl.col("k") >= 0) & (pl.col("k") < pl.col("k_b")))
    ahead = (pl.when(pl.col("place") < pl.col("place_b")).then(1.0)
             .when(pl.col("place") == pl.col("place_b")).then(0.5).otherwise(0.0))
    per_game = joined.group_by("variant_hash", "deal_set", "game_id", "k", "k_b").agg(
        ahead.mean().alias("ahead"))
    aggregations = []
    for a in range(count):
        for b in range(a + 1, count):
            here = (pl.col("k") == a) & (pl.col("k_b") == b)
            aggregations += [here.sum().cast(pl.Float64).alias(f"pg_k{a}_{b}"),
                             pl.col("ahead").filter(here).sum().alias(f"ah_k{a}_{b}")]
    return per_game.group_by("variant_hash", "deal_set").agg(aggregations)


def order_counts(games: pl.LazyFrame, total_deal_sets: int) -> pl.LazyFrame:
    """The count of each finishing order of finished ``games`` rows per (``variant_hash``,
    ``deal_block``): ``order`` (the lineup slots from first place to last, ties by slot,
    comma-separated), ``places`` (their places, likewise) and ``games``."""
    per_game = games.filter(~pl.col("errored")).group_by("variant_hash", "game_id").agg(
        pl.col("deal_set").first(),
        pl.col("lineup_slot").sort_by("place", "lineup_slot").alias("order"),
        pl.col("place").sort().alias("places"),
    )

    def joined(column: str) -> pl.Expr:
        return pl.col(column).list.eval(pl.element().cast(pl.String)).list.join(",")

    return (
        per_game.select(
            "variant_hash",
            (pl.col("deal_set") * DEAL_BLOCKS // max(1, total_deal_sets)).cast(pl.Int32)
            .alias("deal_block"),
            joined("order").alias("order"),
            joined("places").alias("places"),
        )
        .group_by("variant_hash", "deal_block", "order", "places")
        .agg(pl.len().cast(pl.Int64).alias("games"))
    )


def value_counts(games: pl.LazyFrame, strategies: Sequence[str]) -> pl.LazyFrame:
    """How many finished seat-games ended on each final score (``kind`` ``score``, and
    ``score_k{k}`` for strategy k) and how many games had each number of lead changes
    (``lead_changes``), per variant: quantiles, extremes and histograms, exactly, from sums."""
    finished = games.filter(~pl.col("errored"))
    scores = finished.group_by("variant_hash", pl.col("score").alias("value")).agg(
        pl.len().cast(pl.Int64).alias("count")).with_columns(pl.lit("score").alias("kind"))
    by_strategy = finished.with_columns(
        _strategy_index(strategies)
    ).group_by("variant_hash", "k", pl.col("score").alias("value")).agg(
        pl.len().cast(pl.Int64).alias("count")).select(
        "variant_hash", "value", "count",
        pl.format("score_k{}", pl.col("k")).alias("kind"))
    leads = finished.group_by("variant_hash", "game_id").agg(
        pl.col("lead_changes").first().cast(pl.Int64).alias("value")).group_by(
        "variant_hash", "value").agg(pl.len().cast(pl.Int64).alias("count")).with_columns(
        pl.lit("lead_changes").alias("kind"))
    columns = ["variant_hash", "kind", "value", "count"]
    return pl.concat([frame.select(columns) for frame in (scores, by_strategy, leads)])


def deal_totals(game_sums: pl.LazyFrame, total_deal_sets: int,
                keys: Sequence[str] = tuple(KEYS)) -> pl.LazyFrame:
    """The deal-level sums of finished games' ``game_sums`` rows per ``keys`` (a variant's
    blocks of deal sets, or its deal sets), with ``deal_sets``; the deals topped in deals (not
    1/TOP_UNITS)."""
    from .frames import GAME_SUM_VALUES

    return (
        game_sums.filter(~pl.col("errored"))
        .with_columns((pl.col("deal_set") * DEAL_BLOCKS // max(1, total_deal_sets))
                      .cast(pl.Int32).alias("deal_block"))
        .group_by(list(keys))
        .agg(pl.col("deal_set").n_unique().alias("deal_sets"),
             *[(pl.col(name).sum() / TOP_UNITS if name in TOPPED else pl.col(name).sum()
                .cast(pl.Float64)).alias(name) for name in GAME_SUM_VALUES])
    )


def _block_sums(per_set: pl.LazyFrame) -> pl.LazyFrame:
    return per_set.drop("deal_set").group_by(KEYS).agg(pl.all().fill_null(0).sum())


def _summed(frames: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
    """The frames' rows added up by ``keys`` (groups may share a block)."""
    frames = [frame for frame in frames if frame.height]
    if not frames:
        return pl.DataFrame()
    stacked = pl.concat(frames, how="diagonal_relaxed")
    return stacked.group_by(keys).agg(pl.all().fill_null(0).sum()).sort(keys)


def compute(games: pl.LazyFrame, game_sums: pl.LazyFrame | None, strategies: Sequence[str],
            players: int, total_deal_sets: int) -> Totals:
    """The totals of the rows ``games`` (and ``game_sums``) in one go (a run held in memory, or
    one shard group of a run on disk)."""
    per_set = deal_set_totals(games, strategies, players, total_deal_sets)
    frames = pl.collect_all([
        _block_sums(per_set),
        order_counts(games, total_deal_sets),
        value_counts(games, strategies),
        *([deal_totals(game_sums, total_deal_sets)] if game_sums is not None else []),
    ])
    return Totals(games=frames[0].sort(KEYS),
                  deals=frames[3].sort(KEYS) if game_sums is not None else None,
                  orders=frames[1].sort([*KEYS, "order", "places"]),
                  strategies=tuple(strategies),
                  values=frames[2].sort("variant_hash", "kind", "value"))


def groups(shards: Sequence[str]) -> dict[str, list[str]]:
    """The shard ids grouped by variant and block of deal sets (every seating of a block
    together): ``v{variant}-b{block}`` -> its shards."""
    grouped: dict[str, list[str]] = {}
    for shard in sorted(shards):
        match = _SHARD.match(shard)
        key = f"v{match[1]}-b{match[2]}" if match else shard
        grouped.setdefault(key, []).append(shard)
    return grouped


@dataclass(frozen=True)
class Basis:
    """What a run's totals count against, from its manifest (``of``): the lineup's distinct
    strategies by display name (``store.strategy_names``) in lineup order, the players, the deal
    sets its blocks count from (``schema.deal_block``: the plan's, in a run that grows), whether
    it writes ``game_sums``, and each strategy spec's display name where they differ."""

    strategies: tuple[str, ...]
    players: int
    deal_sets: int
    has_sums: bool
    renames: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, manifest: dict[str, Any]) -> Basis:
        """The basis of the run ``manifest`` describes (as ``raspis.analysis.open_run`` reads
        it)."""
        from .store import strategy_names

        config = manifest.get("config") or {}
        names = strategy_names(manifest)
        deal_sets = next((int(config[key]) for key in ("plan_deal_sets", "games")
                          if isinstance(config.get(key), int) and config[key] > 0), 1)
        return cls(strategies=tuple(dict.fromkeys(names.get(spec, spec)
                                                  for spec in config.get("strategies") or [])),
                   players=int(config.get("players") or 0), deal_sets=deal_sets,
                   has_sums=bool(manifest.get("game_sums")),
                   renames=tuple(sorted((spec, name) for spec, name in names.items()
                                        if spec != name)))

    def renamed(self, games: pl.LazyFrame) -> pl.LazyFrame:
        """``games`` rows with their strategies' display names."""
        names = dict(self.renames)
        return games.with_columns(pl.col("strategy").replace(names)) if names else games

    def key(self) -> dict[str, Any]:
        """What of the basis a kept total depends on (part of its digest)."""
        return {"version": TOTALS_VERSION, "strategies": list(self.strategies),
                "deal_sets": self.deal_sets, "players": self.players,
                "renames": [list(pair) for pair in self.renames]}


#: A shard group of at least this many seat rows (10,000 games of four players; the manifest
#: records each shard's rows) is summed on its own, by the runner as soon as its last shard is
#: written (``keep_group``); smaller groups of one variant are summed together, consecutive ones
#: up to ``BATCH_ROWS``, when the run is first analysed: a small run's many one-deal-set groups
#: cost one pass, not one each.
SOLO_ROWS = 40_000
BATCH_ROWS = 400_000

class Unit(NamedTuple):
    """Shard groups summed in one go: its label (a group's name, or its first group's name and
    ``+`` the groups it holds), its shards, and the variant index of its groups (None for a
    group the plan does not name: a file claimed as a shard)."""

    label: str
    shards: list[str]
    variant: str | None


def _units(grouped: dict[str, list[str]], rows: dict[str, int]) -> list[Unit]:
    """The shard groups as units summed in one go (``SOLO_ROWS``; ``rows``: each shard's, 0
    where unknown): a large group, or one the plan does not name, alone; consecutive small
    groups of one variant together, up to ``BATCH_ROWS``."""
    chunks: list[list[str]] = []  # the groups of each unit, in order
    open_rows = -1  # the rows of the last chunk while it takes more groups, else -1
    for group, ids in grouped.items():
        size = sum(rows.get(shard, 0) for shard in ids)
        alone = size >= SOLO_ROWS or _variant(group) is None
        if (alone or open_rows < 0 or _variant(chunks[-1][0]) != _variant(group)
                or open_rows + size > BATCH_ROWS):
            chunks.append([group])
            open_rows = -1 if alone else size
        else:
            chunks[-1].append(group)
            open_rows += size
    return [Unit(chunk[0] if len(chunk) == 1 else f"{chunk[0]}+{len(chunk)}",
                 [shard for group in chunk for shard in grouped[group]], _variant(chunk[0]))
            for chunk in chunks]


def shard_rows(manifest: dict[str, Any], shards: Iterable[str]) -> dict[str, int]:
    """Each of ``shards``' seat rows as the manifest records them (``contents``), 0 where it
    does not."""
    contents = manifest.get("contents") or {}
    return {shard: int((contents.get(shard) or {}).get("rows") or 0) for shard in shards}


def _variant(group: str) -> str | None:
    """The variant index of a shard group the plan names (``groups``), else None."""
    match = re.match(r"^v(\d{2,})-b\d{6,}$", group)
    return match[1] if match else None


def _digest(data: Any) -> str:
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=16).hexdigest()


def _unit_key(unit: Unit, checksums: dict[str, Any], files: dict[str, list[int]],
              basis: Basis) -> str:
    """The digest a unit's totals are kept under: its shards' checksums and files, the basis."""
    return _digest({"basis": basis.key(), "group": {i: checksums[i] for i in unit.shards},
                    "files": {i: files[i] for i in unit.shards}})


def _kept(place: Path) -> bool:
    return (place / "games.parquet").is_file() and (place / "games.json").is_file()


def _unit_totals(folder: Path, unit: Unit, key: str, basis: Basis
                 ) -> tuple[Totals, dict[str, Any]]:
    """A unit's totals and its deal sets' span per variant: kept in ``.totals/groups/`` under
    ``key`` (``_unit_key``), else summed from its rows and kept there."""
    place = folder / FOLDER / "groups" / f"{unit.label}-{key}"
    if _kept(place):
        spans = json.loads((place / "games.json").read_text())["deal_sets"]
        return _read(place, basis.strategies, basis.has_sums), spans
    games = scan_table(folder, "games", unit.shards)
    spans = _deal_sets_once(games, folder)
    sums = scan_table(folder, "game_sums", unit.shards) if basis.has_sums else None
    totals = compute(basis.renamed(games), sums, basis.strategies, basis.players,
                     basis.deal_sets)
    _keep(place, totals, {"deal_sets": spans})
    return totals, spans


def keep_group(folder: Path, ids: Sequence[str], checksums: dict[str, Any],
               rows: dict[str, int], basis: Basis) -> bool:
    """Sum the shard group ``ids`` (every seating of one block of deal sets, each recorded in
    ``checksums``, with its ``rows``) and keep its totals, when it is large enough to be summed
    alone (``SOLO_ROWS``): what the runner does as each group's last shard is written, so that
    the analysis of a large run reads sums, not rows. True when it did."""
    grouped = groups(ids)
    if len(grouped) != 1 or sum(rows.get(shard, 0) for shard in ids) < SOLO_ROWS:
        return False
    files = _file_stamps(folder, ids, basis.has_sums)
    [(group, members)] = grouped.items()
    unit = Unit(group, members, _variant(group))
    _unit_totals(folder, unit, _unit_key(unit, checksums, files, basis), basis)
    return True


def run_totals(folder: Path, checksums: dict[str, Any], rows: dict[str, int], basis: Basis,
               progress: Callable[[int, int], None] | None = None) -> Totals:
    """The totals of the shards ``checksums`` names (id -> its files' checksums, as the
    manifest keeps them, and ``rows`` its rows) of the run in ``folder``: read from
    ``.totals/`` when its digest matches, else summed unit by unit (``_units``: a large shard
    group alone, consecutive small ones together; each unit kept, so a run that grew sums only
    its new groups, and the runner's ``keep_group`` sums are read, not made again) and kept
    there when the folder can be written. ``progress`` is told (games summed, games to sum)
    after each unit summed from its rows."""
    shards = sorted(checksums)
    files = _file_stamps(folder, shards, basis.has_sums)
    key = _digest({"basis": basis.key(), "checksums": checksums, "files": files})
    whole = folder / FOLDER / f"run-{key}"
    if (whole / "games.parquet").is_file():
        return _read(whole, basis.strategies, basis.has_sums)
    built: list[Totals] = []
    units = _units(groups(shards), rows)
    keys = [_unit_key(unit, checksums, files, basis) for unit in units]
    todo = {unit.label: sum(rows.get(shard, 0) for shard in unit.shards) // max(1, basis.players)
            for unit, key in zip(units, keys, strict=True)
            if not _kept(folder / FOLDER / "groups" / f"{unit.label}-{key}")}
    done, to_sum = 0, sum(todo.values())
    ranges: list[tuple[str, int, int, Unit]] = []
    for unit, key in zip(units, keys, strict=True):
        totals, spans = _unit_totals(folder, unit, key, basis)
        built.append(totals)
        ranges += [(variant, int(first), int(last), unit)
                   for variant, (first, last) in spans.items()]
        if progress is not None and unit.label in todo:
            done += todo[unit.label]
            progress(done, to_sum)
    _check_disjoint(folder, ranges)
    totals = Totals(
        games=_summed([t.games for t in built], KEYS),
        deals=_summed([t.deals for t in built if t.deals is not None], KEYS) if basis.has_sums
        else None,
        orders=_summed([t.orders for t in built], [*KEYS, "order", "places"]),
        strategies=basis.strategies,
        values=_summed([t.values for t in built if t.values is not None],
                       ["variant_hash", "kind", "value"]))
    _keep(whole, totals)
    return totals


class RepeatedGame(DatasetError):
    """A run whose shards hold one game twice (a shard copied over another)."""

    def __init__(self, folder: Path, what: str, groups: tuple[str, str] | None = None) -> None:
        where = f" (in shard groups {groups[0]} and {groups[1]})" if groups else ""
        super().__init__(
            f"{folder} holds {what} more than once{where} (a shard copied over another?): its "
            f"statistics would count it twice; run raspis verify {folder}")


def _deal_sets_once(games: pl.LazyFrame, folder: Path) -> dict[str, list[int]]:
    """Each variant's first and last deal set in a shard group's rows (consecutive in a shard
    group, so two groups that share one overlap), after making sure no game holds a seat twice
    (``RepeatedGame``)."""
    twice = pl.struct("game_id", "seat").is_duplicated()
    repeated = games.select(pl.col("game_id").filter(twice).first()).collect()["game_id"][0]
    if repeated is not None:
        raise RepeatedGame(folder, f"game {int(repeated)}")
    spans = games.group_by("variant_hash").agg(
        pl.col("deal_set").min().alias("first"), pl.col("deal_set").max().alias("last")).collect()
    return {row["variant_hash"]: [int(row["first"]), int(row["last"])]
            for row in spans.iter_rows(named=True)}


def _check_disjoint(folder: Path, ranges: list[tuple[str, int, int, Unit]]) -> None:
    """No deal set of a variant in two units of that variant (``RepeatedGame``); a group the
    plan does not name (a file claimed as a shard) is checked against every unit."""
    ranges = sorted(ranges, key=lambda entry: (*entry[:3], entry[3].label))
    for index, (variant_hash, _, last, unit) in enumerate(ranges):
        for other_hash, other_first, _, other in ranges[index + 1:]:
            if other_hash != variant_hash or other_first > last:
                break
            if unit.variant is None or other.variant is None or unit.variant == other.variant:
                raise RepeatedGame(folder, f"deal set {other_first}", (unit.label, other.label))


def _file_stamps(folder: Path, shards: Sequence[str], has_sums: bool) -> dict[str, list[int]]:
    """Each shard's files' sizes and modification times: a file replaced after the totals were
    kept (a shard copied over another) makes them stale."""
    stamps: dict[str, list[int]] = {}
    for shard in shards:
        values: list[int] = []
        for table in ("games", "game_sums") if has_sums else ("games",):
            try:
                stat = (folder / table / f"{shard}.parquet").stat()
                values += [stat.st_size, stat.st_mtime_ns]
            except OSError:
                values += [-1, -1]
        stamps[shard] = values
    return stamps


def _read(place: Path, strategies: Sequence[str], has_sums: bool) -> Totals:
    deals = place / "deals.parquet"
    return Totals(games=pl.read_parquet(place / "games.parquet"),
                  deals=pl.read_parquet(deals) if has_sums and deals.is_file() else None,
                  orders=pl.read_parquet(place / "orders.parquet"),
                  strategies=tuple(strategies),
                  values=pl.read_parquet(place / "values.parquet"))


def _keep(place: Path, totals: Totals, about: dict[str, Any] | None = None) -> None:
    """Write ``totals`` (and ``about`` them, ``games.json``) into ``place`` (aside, then
    renamed); a folder that cannot be written keeps nothing (the totals are rebuilt next
    time)."""
    from .store import write_atomic, write_json_atomic

    try:
        place.mkdir(parents=True, exist_ok=True)
        if about is not None:
            write_json_atomic(about, place / "games.json")
        if totals.deals is not None:
            write_atomic(totals.deals, place / "deals.parquet")
        write_atomic(totals.orders, place / "orders.parquet")
        if totals.values is not None:
            write_atomic(totals.values, place / "values.parquet")
        write_atomic(totals.games, place / "games.parquet")  # last: the mark of a whole entry
    except OSError:
        return


#: Seat rows from which the closing table reads the run's totals (and keeps them for the
#: analysis) instead of its rows (250,000 games of four players)
SUMMARY_ROWS = 1_000_000

#: the columns of ``strategy_summary``
SUMMARY_SCHEMA = {"variant": pl.String(), "strategy": pl.String(), "seat_games": pl.UInt32(),
                  "mean_score": pl.Float64(), "win_rate": pl.Float64(),
                  "mean_place": pl.Float64(), "errored": pl.UInt32()}


def strategy_summary(out_dir: str | Path) -> pl.DataFrame:
    """Per variant and strategy (display name): seat-games, mean score, win rate and mean place
    of its finished games, errored seat-games. A run of ``SUMMARY_ROWS`` seat rows or more is
    read from its totals (``run_totals``: the runner's sums of its large shard groups, the rest
    summed once here and kept for the analysis), not from every row; a smaller one from its
    rows at once. Only the errored rows are read besides (few: a filter the files' statistics
    mostly skip)."""
    from .store import MANIFEST, read_manifest

    folder = Path(out_dir)
    manifest = read_manifest(folder / MANIFEST)
    basis = Basis.of(manifest)
    checksums = dict(manifest.get("checksums") or {})
    if not basis.strategies or not checksums:  # nothing written yet
        return pl.DataFrame(schema=SUMMARY_SCHEMA)
    rows = shard_rows(manifest, checksums)
    if sum(rows.values()) >= SUMMARY_ROWS:
        totals = run_totals(folder, checksums, rows, basis).games
        finished = pl.concat([
            totals.group_by("variant_hash").agg(
                pl.lit(name).alias("strategy"), pl.col(f"n_k{k}").sum().alias("finished"),
                pl.col(f"s_k{k}").sum().alias("score"), pl.col(f"w_k{k}").sum().alias("wins"),
                pl.col(f"pl_k{k}").sum().alias("places"))
            for k, name in enumerate(basis.strategies)])
    else:  # a small run: its rows at once, cheaper than summing them by deal set
        finished = (basis.renamed(scan_table(folder, "games", list(checksums)))
                    .filter(~pl.col("errored")).group_by("variant_hash", "strategy").agg(
                        pl.len().alias("finished"), pl.col("score").sum(),
                        pl.col("winner").cast(pl.Int64).sum().alias("wins"),
                        pl.col("place").sum().alias("places")).collect())
    variants = pl.DataFrame(
        [(str(entry.get("hash")), str(entry.get("name")))
         for entry in manifest.get("variants") or []],
        schema={"variant_hash": pl.String(), "variant": pl.String()}, orient="row")
    errored = (basis.renamed(scan_table(folder, "games", list(checksums)))
               .filter(pl.col("errored"))
               .group_by("variant_hash", "strategy").agg(pl.len().alias("errored")).collect())
    per = pl.when(pl.col("finished") > 0).then(pl.col("finished").cast(pl.Float64))
    return (
        finished.join(errored, on=["variant_hash", "strategy"], how="full", coalesce=True)
        .join(variants.unique("variant_hash"), on="variant_hash", how="left")
        .with_columns(pl.col("finished", "score", "wins", "places", "errored").fill_null(0))
        .select(
            "variant", "strategy",
            (pl.col("finished") + pl.col("errored")).cast(pl.UInt32).alias("seat_games"),
            (pl.col("score") / per).alias("mean_score"),
            (pl.col("wins") / per).alias("win_rate"),
            (pl.col("places") / per).alias("mean_place"),
            pl.col("errored").cast(pl.UInt32),
        )
        .sort("variant", "mean_score", descending=[False, True], nulls_last=True)
    )
