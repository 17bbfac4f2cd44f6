"""``tournament.frames``: the ``deal_stats`` of a batch against a plain polars ``group_by`` of the
same batch's per-deal rows, and the rows themselves against the seats that took part."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from raspis.engine.batch.game import play_batch
from raspis.engine.variant import Variant, load_variant, variant_from_dict
from raspis.strategies.batch import load_batch_strategy
from raspis.tournament.batch_shard import game_seeds
from raspis.tournament.frames import result_frames
from raspis.tournament.schema import DEAL_BLOCKS, DEAL_STATS_KEYS, DEAL_STATS_SCHEMA, TOP_UNITS

#: A lineup with one spec at two slots (their rows are one strategy's groups).
LINEUP = ("fastheuristic", "fastrandom", "lowest", "fastheuristic")


def _always_tied(golden_bidding: str) -> Variant:
    """Every deal scores 0, so every game ties and goes to golden deals between the tied
    players (all of them, then fewer): seats sit tie-break deals out."""
    return variant_from_dict({
        "name": "always-tied", "extends": "odessa", "schedule": {"deals": ["1..2"]},
        "scoring": {"exact_per_trick": 0, "pass_made": 0, "over_per_trick": 0,
                    "under_per_missing": 0},
        "end": {"tie": "golden_deal", "tie_deals": 3},
        "kinds": {"golden": {"bidding": golden_bidding}},
    })


def _expected_stats(deals: pl.DataFrame, total_deal_sets: int) -> pl.DataFrame:
    """``deal_stats`` summed straight from the per-deal rows."""
    bid, tricks = pl.col("bid"), pl.col("tricks")
    # a deal's top: the most points among its rows (the seats that played it), shared by k seats
    # at TOP_UNITS / k each
    deal = ["game_id", "deal_index"]
    top = pl.col("points") == pl.col("points").max().over(deal)
    credit = pl.when(top).then(TOP_UNITS // top.cast(pl.Int64).sum().over(deal)).otherwise(0)
    grouped = deals.with_columns(credit.alias("top_credit"),
        (pl.col("deal_set") * DEAL_BLOCKS // total_deal_sets).alias("deal_block"),
    ).group_by(DEAL_STATS_KEYS).agg(
        pl.len().alias("count"),
        pl.col("points").sum().alias("points_sum"),
        (pl.col("points").cast(pl.Int64) ** 2).sum().alias("points_sq_sum"),
        bid.count().alias("bids"),
        bid.sum().alias("bid_sum"),
        tricks.sum().alias("tricks_sum"),
        (tricks == bid).sum().alias("made"),
        (tricks > bid).sum().alias("over"),
        (tricks < bid).sum().alias("under"),
        (bid == 0).sum().alias("passes"),
        ((bid == 0) & (tricks == 0)).sum().alias("passes_made"),
        pl.col("hook_forced").sum().alias("hook_forced"),
        pl.col("top_credit").sum().alias("top_credit"),
    ).sort(DEAL_STATS_KEYS)
    return grouped.select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])


def _expected_sums(deals: pl.DataFrame) -> pl.DataFrame:
    """``game_sums`` summed straight from the per-deal rows, game by game."""
    bid, tricks, points = pl.col("bid"), pl.col("tricks"), pl.col("points")
    has_bid = bid.is_not_null()
    dealer = pl.col("dealer_offset") == 0
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    none, alone = ~held1 & ~held2, held1 & ~held2
    deal = ["game_id", "deal_index"]
    top = points == points.max().over(deal)
    credit = pl.when(top).then(TOP_UNITS // top.cast(pl.Int64).sum().over(deal)).otherwise(0)
    return deals.with_columns(credit.alias("credit")).group_by("game_id").agg(
        pl.col("deal_set").first(), pl.col("seating").first(),
        pl.len().alias("seat_deals"), points.sum().alias("points"),
        (has_bid & dealer).sum().alias("dealer_n"),
        points.filter(has_bid & dealer).sum().alias("dealer_points"),
        (has_bid & ~dealer).sum().alias("other_n"),
        points.filter(has_bid & ~dealer).sum().alias("other_points"),
        pl.col("hook_forced").filter(has_bid & dealer).sum().alias("forced"),
        has_bid.sum().alias("bids"), (has_bid & (tricks == bid)).sum().alias("made"),
        (has_bid & (tricks > bid)).sum().alias("over"),
        (has_bid & (tricks < bid)).sum().alias("under"),
        (has_bid & (bid == 0)).sum().alias("passes"),
        none.sum().alias("none_n"), points.filter(none).sum().alias("none_points"),
        alone.sum().alias("joker_n"), points.filter(alone).sum().alias("joker_points"),
        dealer.sum().alias("dealer_deals"), pl.col("credit").filter(dealer).sum()
        .alias("dealer_top"), pl.col("credit").filter(none).sum().alias("none_top"),
        pl.col("credit").filter(alone).sum().alias("joker_top"))


@pytest.mark.parametrize(("variant", "players", "games"), [
    (load_variant("classic"), 4, 300),
    (load_variant("joker"), 4, 300),
    (load_variant("georgian"), 4, 200),
    (_always_tied("open"), 3, 200),
    (_always_tied("none"), 3, 200),
])
def test_deal_stats_sum_the_deal_rows(variant: Variant, players: int, games: int) -> None:
    rng = np.random.default_rng(7)
    lineup = LINEUP[:players]
    # deal sets out of order over many blocks; each game's lineup at a random rotation
    total_deal_sets = 2 * games
    deal_sets = rng.permutation(total_deal_sets)[:games].astype(np.int64)
    rotation = rng.integers(0, players, size=games)
    seatings = (np.arange(players)[None, :] + rotation[:, None]) % players
    strategies = [load_batch_strategy(spec) for spec in lineup]
    result = play_batch(variant.for_player_count(players), players,
                        game_seeds(11, deal_sets), strategies, seatings)
    arguments = dict(variant=variant, strategies=lineup, seatings=seatings, deal_sets=deal_sets,
                     seating_index=rotation, game_ids=np.arange(games, dtype=np.int64),
                     total_deal_sets=total_deal_sets)
    _, deals, stats, sums = result_frames(result, deal_rows=True, **arguments)
    _, no_deals, alone, _ = result_frames(result, deal_rows=False, **arguments)
    assert deals is not None and no_deals is None
    assert alone.equals(stats)
    assert stats.schema == pl.Schema(DEAL_STATS_SCHEMA)

    # one row per seat of a played deal, but none for a seat out of a deal with bidding
    no_bidding = np.array([result.variant.kinds[name].bidding == "none"
                           for name in result.kind_names])
    expected = np.where(no_bidding[result.deal_kind], players, result.participated.sum(axis=2))
    expected = np.where(result.deal_played, expected, 0)
    per_deal = np.zeros_like(expected)
    np.add.at(per_deal, (deals["game_id"].to_numpy(), deals["deal_index"].to_numpy()), 1)
    assert np.array_equal(per_deal, expected)
    sat_out = result.deal_played[:, :, None] & ~result.participated
    if variant.name == "always-tied":
        assert sat_out.any()
    assert stats["deal_block"].n_unique() > 10

    assert stats.equals(_expected_stats(deals, total_deal_sets))
    assert stats["count"].sum() == deals.height
    assert stats["hook_forced"].sum() == deals["hook_forced"].sum()
    assert sums.drop("variant_hash", "errored").sort("game_id").equals(
        _expected_sums(deals).join(sums.select("game_id"), on="game_id", how="right")
        .fill_null(0).select(sums.drop("variant_hash", "errored").columns).sort("game_id")
        .cast(sums.drop("variant_hash", "errored").schema))
