"""A ``BatchResult`` as the tournament tables: the rows ``tournament.shard.run_shard`` builds.

``result_frames`` returns the ``games``, ``deals`` (optional) and ``deal_stats`` polars frames of
``tournament.schema`` for a batch, row for row what ``run_shard`` produces for the same games
(``deal_stats`` sums the same groups, its rows sorted by the group key as ``run_shard`` sorts
them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from raspis.engine.batch.result import BatchResult
from raspis.engine.variant import Variant
from raspis.tournament.schema import (
    DEAL_BLOCKS,
    DEAL_STATS_KEYS,
    DEAL_STATS_SCHEMA,
    DEALS_SCHEMA,
    GAMES_SCHEMA,
)

_STAT_VALUES = ["count", "points_sum", "points_sq_sum", "bids", "bid_sum", "tricks_sum", "made",
                "over", "under", "passes", "passes_made", "hook_forced"]


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
    total_deal_sets: int,
) -> tuple[pl.DataFrame, pl.DataFrame | None, pl.DataFrame]:
    """The (games, deals or None, deal_stats) frames of a batch.

    ``variant`` is the variant as the shard names it (its ``name`` and ``content_hash`` go into
    the rows); ``strategies`` the lineup's specs; ``seatings[g, seat]`` the lineup slot at each
    seat; ``deal_sets``, ``seating_index`` and ``game_ids`` one value per game;
    ``total_deal_sets`` the run's (for the ``deal_block`` of each deal set).
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
    blocks = np.asarray(deal_sets, dtype=np.int64) * DEAL_BLOCKS // max(1, total_deal_sets)
    deals_frame, stats = _deal_tables(result, variant_hash, strategies, seatings, deal_sets,
                                      seating_index, game_ids, deal_rows, blocks)
    return games, deals_frame, stats


def _deal_tables(result: BatchResult, variant_hash: str, strategies: Sequence[str],
                 seatings: np.ndarray, deal_sets: np.ndarray, seating_index: np.ndarray,
                 game_ids: np.ndarray, deal_rows: bool,
                 blocks: np.ndarray) -> tuple[pl.DataFrame | None, pl.DataFrame]:
    kinds = result.variant.kinds
    no_bidding = np.array([kinds[name].bidding == "none" for name in result.kind_names])
    # run_shard skips a seat that sat out a deal with bidding (a tie-break deal it is not in)
    rows = result.deal_played[:, :, None] & (result.participated
                                             | no_bidding[result.deal_kind][:, :, None])
    stats = _deal_stats(result, variant_hash, strategies, seatings, rows, blocks)
    if not deal_rows:
        return None, stats
    players = result.players
    game, deal, seat = np.nonzero(rows)
    dealer = result.dealer[game, deal].astype(np.int64)
    offset = (seat - dealer) % players
    holders = result.joker_holder[game, deal]
    held1 = holders[:, 0] == seat
    held2 = holders[:, 1] == seat
    bid = result.bid[game, deal, seat].astype(np.int64)
    has_bid = bid >= 0
    deals_frame = pl.DataFrame({
        "game_id": np.asarray(game_ids, dtype=np.int64)[game],
        "deal_set": np.asarray(deal_sets, dtype=np.int64)[game],
        "seating": np.asarray(seating_index, dtype=np.int32)[game],
        "deal_index": deal.astype(np.int32),
        "block": result.deal_block[game, deal].astype(np.int32),
        "kind": _strings(result.deal_kind[game, deal], result.kind_names, "kind"),
        "special": result.deal_special[game, deal],
        "hand_size": result.hand_size[game, deal].astype(np.int32),
        "seat": seat.astype(np.int32),
        "strategy": _strings(seatings[game, seat], strategies, "strategy"),
        "dealer_offset": offset.astype(np.int32),
        "trump": result.trump[game, deal].astype(np.int32),
        "bid": pl.Series(bid.astype(np.int32)).set(pl.Series(~has_bid), None)
        if len(bid) else pl.Series([], dtype=pl.Int32()),
        "tricks": result.tricks[game, deal, seat].astype(np.int32),
        "points": result.points[game, deal, seat].astype(np.int64),
        "premium": result.premium[game, deal, seat].astype(np.int64),
        "jokers_held": (held1.astype(np.int32) + held2.astype(np.int32)),
        "held_joker1": held1,
        "held_joker2": held2,
        "hook_forced": result.hook_forced[game, deal] & (offset == 0),
    }).with_columns(pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
    deals_frame = deals_frame.select([pl.col(name).cast(dtype)
                                      for name, dtype in DEALS_SCHEMA.items()])
    return deals_frame, stats


def _deal_stats(result: BatchResult, variant_hash: str, strategies: Sequence[str],
                seatings: np.ndarray, rows: np.ndarray, blocks: np.ndarray) -> pl.DataFrame:
    """The ``deal_stats`` groups summed with ``np.bincount`` over the (game, deal, seat) arrays.

    A group is (block of deal sets, strategy, dealer offset, deal, hand size, Joker 1 held,
    Joker 2 held): the deal and the hand size fix the kind and whether it is special (tie-break
    deals are golden). ``blocks`` holds each game's ``deal_block``."""
    count, deals = result.deal_played.shape
    players = result.players
    names, inverse = np.unique(np.asarray(strategies), return_inverse=True)
    spec_id = np.asarray(inverse, dtype=np.int64)[seatings]                     # (N, P)
    seats = np.arange(players, dtype=np.int32)
    offset = (seats[None, None, :] - result.dealer[:, :, None].astype(np.int32)) % players
    holders = result.joker_holder.astype(np.int32)
    held1 = holders[:, :, 0, None] == seats
    held2 = holders[:, :, 1, None] == seats
    hands = int(result.hand_size.max(initial=0)) + 1
    deal_index = np.arange(deals, dtype=np.int32)[None, :, None]
    block_values, block_of_game = np.unique(np.asarray(blocks, dtype=np.int64),
                                            return_inverse=True)
    key = block_of_game.reshape(-1, 1, 1) * len(names) + spec_id[:, None, :]
    key = key * players + offset
    key *= deals
    key += deal_index
    key *= hands
    key += result.hand_size[:, :, None].astype(np.int32)
    key *= 4
    key += held1 * 2 + held2
    whole = bool(rows.all())

    def pick(array: np.ndarray) -> np.ndarray:
        array = np.broadcast_to(array, rows.shape)
        return array.ravel() if whole else array[rows]

    # the groups that occur, numbered densely (blocks x groups would be too many bins)
    groups, key = _dense(pick(key).ravel(),
                         len(block_values) * len(names) * players * deals * hands * 4)
    bid = pick(result.bid).astype(np.int32)
    tricks = pick(result.tricks).astype(np.int32)
    points = pick(result.points).astype(np.float64)
    has_bid = bid >= 0
    forced = pick(result.hook_forced[:, :, None] & (offset == 0))
    # One count per group and outcome code: (no bid, under, made, over) x pass x hook forced.
    outcome = has_bid * (2 + np.sign(tricks - bid))
    code = (outcome * 2 + (bid == 0)) * 2 + forced
    bins = len(groups)
    by_code = np.bincount(key * 16 + code, minlength=bins * 16).reshape(bins, 4, 2, 2)
    sums = {
        "count": by_code.sum(axis=(1, 2, 3)),
        "points_sum": np.bincount(key, points, bins),
        "points_sq_sum": np.bincount(key, points * points, bins),
        "bids": by_code[:, 1:].sum(axis=(1, 2, 3)),
        "bid_sum": np.bincount(key, np.maximum(bid, 0), bins),
        "tricks_sum": np.bincount(key, tricks, bins),
        "made": by_code[:, 2].sum(axis=(1, 2)),
        "over": by_code[:, 3].sum(axis=(1, 2)),
        "under": by_code[:, 1].sum(axis=(1, 2)),
        "passes": by_code[:, 1:, 1].sum(axis=(1, 2)),
        "passes_made": by_code[:, 2, 1].sum(axis=1),
        "hook_forced": by_code[:, :, :, 1].sum(axis=(1, 2)),
    }
    used = np.flatnonzero(sums["count"])
    rest, held2_used = np.divmod(groups[used], 2)
    rest, held1_used = np.divmod(rest, 2)
    rest, hand_used = np.divmod(rest, hands)
    rest, deal_used = np.divmod(rest, deals)
    rest, offset_used = np.divmod(rest, players)
    block_used, spec_used = np.divmod(rest, len(names))
    # the kind of each deal, read off a game that played it (tie-break deals are all golden)
    first = np.argmax(result.deal_played, axis=0)
    kind_of_deal = result.deal_kind[first, np.arange(deals)].astype(np.int64)
    kinds = result.kind_names
    special = np.array([result.variant.kinds[name].special for name in kinds])
    columns: dict[str, object] = {
        "deal_block": block_values[block_used].astype(np.int32),
        "strategy": names[spec_used].tolist(),
        "dealer_offset": offset_used.astype(np.int32),
        "deal_index": deal_used.astype(np.int32),
        "kind": [kinds[index] for index in kind_of_deal[deal_used]],
        "special": special[kind_of_deal[deal_used]],
        "hand_size": hand_used.astype(np.int32),
        "held_joker1": held1_used.astype(bool),
        "held_joker2": held2_used.astype(bool),
    }
    for name in _STAT_VALUES:
        columns[name] = np.rint(sums[name][used]).astype(np.int64)
    frame = pl.DataFrame(columns).with_columns(
        pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
    return frame.select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])


def _dense(keys: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct values of ``keys`` in ascending order, each key's index among them), as
    ``np.unique(keys, return_inverse=True)``: by counting when the values lie in a small range
    (``0 <= keys < space``), which is much faster than sorting millions of keys."""
    if space > 4 * len(keys) + (1 << 20):
        groups, inverse = np.unique(keys, return_inverse=True)
        return groups, inverse.ravel()
    present = np.bincount(keys, minlength=space) > 0
    index = np.cumsum(present) - 1
    return np.flatnonzero(present), index[keys]


def merge_deal_stats(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Several ``deal_stats`` frames summed group by group (the table is additive)."""
    frame = pl.concat(frames)
    keys = DEAL_STATS_KEYS
    values = [name for name in DEAL_STATS_SCHEMA if name not in keys]
    merged = frame.group_by(keys).agg([pl.col(name).sum() for name in values]).sort(keys)
    return merged.select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])
