"""A ``BatchResult`` as the tournament tables: the rows ``tournament.shard.run_shard`` builds.

``result_frames`` returns the ``games``, ``deals`` (optional) and ``deal_stats`` polars frames of
``tournament.schema`` for a batch, row for row what ``run_shard`` produces for the same games
(``deal_stats`` sums the same groups; its rows are sorted by the group key instead of coming in
order of first appearance).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from raspis.engine.variant import Variant
from raspis.tournament.schema import DEAL_STATS_SCHEMA, DEALS_SCHEMA, GAMES_SCHEMA

from .result import BatchResult

_STAT_KEYS = ["strategy", "dealer_offset", "deal_index", "kind", "special", "hand_size",
              "held_joker1", "held_joker2"]


def _strings(codes: np.ndarray, names: Sequence[str], name: str) -> pl.Series:
    series = pl.Series(name, codes.astype(np.int64))
    return series.replace_strict(dict(enumerate(names)), return_dtype=pl.String())


def result_frames(
    result: BatchResult,
    *,
    variant: Variant,
    strategies: Sequence[str],
    seatings: np.ndarray,
    deal_sets: np.ndarray,
    seating_index: np.ndarray,
    game_ids: np.ndarray,
    deal_rows: bool,
) -> tuple[pl.DataFrame, pl.DataFrame | None, pl.DataFrame]:
    """The (games, deals or None, deal_stats) frames of a batch.

    ``variant`` is the variant as the shard names it (its ``name`` and ``content_hash`` go into
    the rows); ``strategies`` the lineup's specs; ``seatings[g, seat]`` the lineup slot at each
    seat; ``deal_sets``, ``seating_index`` and ``game_ids`` one value per game.
    """
    count, players = result.count, result.players
    seatings = np.broadcast_to(np.asarray(seatings, dtype=np.int64), (count, players))
    variant_hash = variant.content_hash
    seats = np.tile(np.arange(players), count)
    per_game = np.repeat(np.arange(count), players)
    errors = None
    if result.errored.any():
        errors = [result.errors[game] for game in per_game]
    games = pl.DataFrame({
        "deal_set": np.asarray(deal_sets, dtype=np.int64)[per_game],
        "seating": np.asarray(seating_index, dtype=np.int32)[per_game],
        "game_id": np.asarray(game_ids, dtype=np.int64)[per_game],
        "seed": result.seeds[per_game],
        "players": np.full(count * players, players, dtype=np.int32),
        "seat": seats.astype(np.int32),
        "first_dealer": result.first_dealer[per_game].astype(np.int32),
        "strategy": _strings(seatings.ravel(), strategies, "strategy"),
        "lineup_slot": seatings.ravel().astype(np.int32),
        "score": result.scores.ravel().astype(np.int64),
        "place": result.places.ravel().astype(np.int32),
        "winner": result.places.ravel() == 1,
        "double_loss": result.double_loss.ravel().astype(bool),
        "deals_played": result.deals_played[per_game].astype(np.int32),
        "lead_changes": result.lead_changes[per_game].astype(np.int32),
        "errored": result.errored[per_game],
        "error": pl.Series(errors, dtype=pl.String()) if errors is not None
        else pl.Series([None] * (count * players), dtype=pl.String()),
    }).with_columns(pl.lit(variant.name, dtype=pl.String()).alias("variant"),
                    pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
    games = games.select([pl.col(name).cast(dtype) for name, dtype in GAMES_SCHEMA.items()])
    deals_frame, stats = _deal_tables(result, variant_hash, strategies, seatings, deal_sets,
                                      seating_index, game_ids, deal_rows)
    return games, deals_frame, stats


def _deal_tables(result: BatchResult, variant_hash: str, strategies: Sequence[str],
                 seatings: np.ndarray, deal_sets: np.ndarray, seating_index: np.ndarray,
                 game_ids: np.ndarray, deal_rows: bool) -> tuple[pl.DataFrame | None, pl.DataFrame]:
    count, deals = result.deal_played.shape
    players = result.players
    kinds = result.variant.kinds
    no_bidding = np.array([kinds[name].bidding == "none" for name in result.kind_names])
    # run_shard skips a seat that sat out a deal with bidding (a tie-break deal it is not in)
    rows = result.deal_played[:, :, None] & (result.participated
                                             | no_bidding[result.deal_kind][:, :, None])
    game, deal, seat = np.nonzero(rows)
    dealer = result.dealer[game, deal].astype(np.int64)
    offset = (seat - dealer) % players
    slot = seatings[game, seat]
    holders = result.joker_holder[game, deal]
    held1 = holders[:, 0] == seat
    held2 = holders[:, 1] == seat
    bid = result.bid[game, deal, seat].astype(np.int64)
    tricks = result.tricks[game, deal, seat].astype(np.int64)
    points = result.points[game, deal, seat].astype(np.int64)
    premium = result.premium[game, deal, seat].astype(np.int64)
    forced = result.hook_forced[game, deal] & (offset == 0)
    kind = result.deal_kind[game, deal]
    hand = result.hand_size[game, deal].astype(np.int32)
    special = result.deal_special[game, deal]
    deals_frame = None
    if deal_rows:
        has_bid = bid >= 0
        deals_frame = pl.DataFrame({
            "game_id": np.asarray(game_ids, dtype=np.int64)[game],
            "deal_set": np.asarray(deal_sets, dtype=np.int64)[game],
            "seating": np.asarray(seating_index, dtype=np.int32)[game],
            "deal_index": deal.astype(np.int32),
            "block": result.deal_block[game, deal].astype(np.int32),
            "kind": _strings(kind, result.kind_names, "kind"),
            "special": special,
            "hand_size": hand,
            "seat": seat.astype(np.int32),
            "strategy": _strings(slot, strategies, "strategy"),
            "dealer_offset": offset.astype(np.int32),
            "trump": result.trump[game, deal].astype(np.int32),
            "bid": pl.Series(bid.astype(np.int32)).set(pl.Series(~has_bid), None)
            if len(bid) else pl.Series([], dtype=pl.Int32()),
            "tricks": tricks.astype(np.int32),
            "points": points,
            "premium": premium,
            "jokers_held": (held1.astype(np.int32) + held2.astype(np.int32)),
            "held_joker1": held1,
            "held_joker2": held2,
            "hook_forced": forced,
        }).with_columns(pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
        deals_frame = deals_frame.select([pl.col(name).cast(dtype)
                                          for name, dtype in DEALS_SCHEMA.items()])
    strategy_ids = np.unique(np.asarray(strategies), return_inverse=True)
    names, inverse = strategy_ids
    spec_id = np.asarray(inverse, dtype=np.int64)[slot]
    has_bid = bid >= 0
    frame = pl.DataFrame({
        "strategy": spec_id, "dealer_offset": offset, "deal_index": deal.astype(np.int64),
        "kind": kind.astype(np.int64), "special": special, "hand_size": hand.astype(np.int64),
        "held_joker1": held1, "held_joker2": held2, "points": points,
        "has_bid": has_bid, "bid": np.where(has_bid, bid, 0), "tricks": tricks,
        "forced": forced,
    })
    bid_col, tricks_col, with_bid = pl.col("bid"), pl.col("tricks"), pl.col("has_bid")
    stats = frame.group_by(_STAT_KEYS).agg(
        pl.len().cast(pl.Int64()).alias("count"),
        pl.col("points").sum().alias("points_sum"),
        (pl.col("points") * pl.col("points")).sum().alias("points_sq_sum"),
        with_bid.sum().cast(pl.Int64()).alias("bids"),
        bid_col.sum().alias("bid_sum"),
        tricks_col.sum().alias("tricks_sum"),
        (with_bid & (bid_col == tricks_col)).sum().cast(pl.Int64()).alias("made"),
        (with_bid & (tricks_col > bid_col)).sum().cast(pl.Int64()).alias("over"),
        (with_bid & (tricks_col < bid_col)).sum().cast(pl.Int64()).alias("under"),
        (with_bid & (bid_col == 0)).sum().cast(pl.Int64()).alias("passes"),
        (with_bid & (bid_col == 0) & (tricks_col == 0)).sum().cast(pl.Int64()).alias("passes_made"),
        pl.col("forced").sum().cast(pl.Int64()).alias("hook_forced"),
    ).sort(_STAT_KEYS)
    stats = stats.with_columns(
        pl.lit(variant_hash).alias("variant_hash"),
        pl.col("strategy").replace_strict(dict(enumerate(names.tolist())),
                                          return_dtype=pl.String()),
        pl.col("kind").replace_strict(dict(enumerate(result.kind_names)),
                                      return_dtype=pl.String()),
    ).select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])
    return deals_frame, stats


def merge_deal_stats(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Several ``deal_stats`` frames summed group by group (the table is additive)."""
    frame = pl.concat(frames)
    keys = ["variant_hash", *_STAT_KEYS]
    values = [name for name in DEAL_STATS_SCHEMA if name not in keys]
    merged = frame.group_by(keys).agg([pl.col(name).sum() for name in values]).sort(keys)
    return merged.select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])
