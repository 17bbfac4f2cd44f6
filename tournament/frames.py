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
from raspis.engine.batch.result import BatchResult, drama_of
from raspis.engine.core.compiling import jit
from raspis.engine.core.plan import rule_plan
from raspis.engine.variant import Variant
from raspis.tournament.schema import (
    DEAL_BLOCKS,
    DEAL_STATS_KEYS,
    DEAL_STATS_SCHEMA,
    DEALS_SCHEMA,
    GAME_SUMS_SCHEMA,
    GAMES_SCHEMA,
    TOP_UNITS,
)

#: The summed columns of ``deal_stats``, in ``_sum_groups``' order.
_STAT_VALUES = ("count", "points_sum", "points_sq_sum", "bids", "bid_sum", "tricks_sum", "made",
                "over", "under", "passes", "passes_made", "hook_forced", "top_credit")


def _strings(codes: np.ndarray, names: Sequence[str], name: str) -> pl.Series:
    series = pl.Series(name, codes.astype(np.int64))
    return series.replace_strict(dict(enumerate(names)), return_dtype=pl.String())


#: The sums of ``game_sums`` (``schema.GAME_SUMS_SCHEMA`` after its keys), in order.
GAME_SUM_VALUES = tuple(name for name in GAME_SUMS_SCHEMA
                        if name not in ("variant_hash", "game_id", "deal_set", "seating",
                                        "errored"))
#: Games summed at a time (``deal_sums``): bounds the temporaries' memory in a large shard.
SUM_CHUNK = 4096


def deal_sums(rows: np.ndarray, dealer: np.ndarray, bid: np.ndarray, tricks: np.ndarray,
              points: np.ndarray, joker_holder: np.ndarray,
              hook_forced: np.ndarray) -> dict[str, np.ndarray]:
    """Each game's deal-level sums (``GAME_SUM_VALUES``) over its seat-deals where ``rows``
    (N, D, P) is True: the dealer (``dealer`` (N, D)) and the others in deals with a bid
    (``bid`` >= 0), the hook, the bids' outcomes against ``tricks``, the holders of no Joker and
    of the first alone (``joker_holder`` (N, D, 2)), and the deals topped (the most ``points`` of
    the deal's seats, a top shared by k counting ``TOP_UNITS / k``, as ``deal_stats``'
    ``top_credit``). One function for both engines' rows (``result_frames``,
    ``tournament.shard``)."""
    count = rows.shape[0]
    sums = {name: np.zeros(count, dtype=np.int64) for name in GAME_SUM_VALUES}
    for start in range(0, count, SUM_CHUNK):
        part = slice(start, start + SUM_CHUNK)
        for name, values in _deal_sums(rows[part], dealer[part], bid[part], tricks[part],
                                       points[part], joker_holder[part],
                                       hook_forced[part]).items():
            sums[name][part] = values
    return sums


def _deal_sums(rows: np.ndarray, dealer: np.ndarray, bid: np.ndarray, tricks: np.ndarray,
               points: np.ndarray, joker_holder: np.ndarray,
               hook_forced: np.ndarray) -> dict[str, np.ndarray]:
    players = rows.shape[2]
    seat = np.arange(players)
    offset = (seat[None, None, :] - dealer.astype(np.int64)[:, :, None]) % players
    said = bid.astype(np.int64)
    taken = tricks.astype(np.int64)
    scored = points.astype(np.int64)
    at_dealer = rows & (offset == 0)
    has_bid = rows & (said >= 0)
    held1 = joker_holder[:, :, 0:1] == seat
    held2 = joker_holder[:, :, 1:2] == seat
    none = rows & ~held1 & ~held2
    alone = rows & held1 & ~held2
    lowest = np.iinfo(np.int64).min
    top = np.where(rows, scored, lowest).max(axis=2, keepdims=True)
    at_top = rows & (scored == top)
    credit = np.where(at_top, TOP_UNITS // np.maximum(at_top.sum(axis=2, keepdims=True), 1), 0)

    def total(where: np.ndarray, values: np.ndarray | None = None) -> np.ndarray:
        chosen = where if values is None else np.where(where, values, 0)
        return chosen.sum(axis=(1, 2), dtype=np.int64)

    dealer_bid = has_bid & (offset == 0)
    other_bid = has_bid & (offset != 0)
    return {
        "seat_deals": total(rows), "points": total(rows, scored),
        "dealer_n": total(dealer_bid), "dealer_points": total(dealer_bid, scored),
        "other_n": total(other_bid), "other_points": total(other_bid, scored),
        "forced": total(dealer_bid & hook_forced[:, :, None]),
        "bids": total(has_bid), "made": total(has_bid & (taken == said)),
        "over": total(has_bid & (taken > said)), "under": total(has_bid & (taken < said)),
        "passes": total(has_bid & (said == 0)),
        "none_n": total(none), "none_points": total(none, scored),
        "joker_n": total(alone), "joker_points": total(alone, scored),
        "dealer_deals": total(at_dealer), "dealer_top": total(at_dealer, credit),
        "none_top": total(none, credit), "joker_top": total(alone, credit),
    }


def game_sums_frame(sums: dict[str, np.ndarray], variant_hash: str, game_ids: np.ndarray,
                    deal_sets: np.ndarray, seating_index: np.ndarray,
                    errored: np.ndarray) -> pl.DataFrame:
    """The ``game_sums`` rows of games whose ``deal_sums`` are ``sums``."""
    frame = pl.DataFrame({
        "game_id": np.asarray(game_ids, dtype=np.int64),
        "deal_set": np.asarray(deal_sets, dtype=np.int64),
        "seating": np.asarray(seating_index, dtype=np.int32),
        "errored": np.asarray(errored, dtype=bool),
        **sums,
    }).with_columns(pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
    return frame.select([pl.col(name).cast(dtype) for name, dtype in GAME_SUMS_SCHEMA.items()])


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
) -> tuple[pl.DataFrame, pl.DataFrame | None, pl.DataFrame, pl.DataFrame]:
    """The (games, deals or None, deal_stats, game_sums) frames of a batch.

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
    comeback, decided_left = drama_of(
        result.totals_after_each_deal(), result.deal_played, result.places,
        rule_plan(result.variant.for_player_count(players), players).swing_bounds)
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
        "comeback": comeback[per_game],
        "decided_deals_left": decided_left[per_game].astype(np.int32),
        "errored": result.errored[per_game],
        "error": pl.Series(errors, dtype=pl.String()) if errors is not None
        else pl.Series([None] * (count * players), dtype=pl.String()),
    }).with_columns(pl.lit(variant.name, dtype=pl.String()).alias("variant"),
                    pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
    games = games.select([pl.col(name).cast(dtype) for name, dtype in GAMES_SCHEMA.items()])
    blocks = np.asarray(deal_sets, dtype=np.int64) * DEAL_BLOCKS // max(1, total_deal_sets)
    deals_frame, stats = _deal_tables(result, variant_hash, strategies, seatings, deal_sets,
                                      seating_index, game_ids, deal_rows, blocks)
    sums = deal_sums(_seat_deal_rows(result), result.dealer, result.bid, result.tricks,
                     result.points, result.joker_holder, result.hook_forced)
    return games, deals_frame, stats, game_sums_frame(sums, variant_hash, game_ids, deal_sets,
                                                      seating_index, result.errored)


def _seat_deal_rows(result: BatchResult) -> np.ndarray:
    """(N, D, P): the seat-deals ``run_shard`` records: every seat of a played deal, except a
    seat that sat out a deal with bidding (a tie-break deal it is not in)."""
    kinds = result.variant.kinds
    no_bidding = np.array([kinds[name].bidding == "none" for name in result.kind_names],
                          dtype=np.bool_)
    return result.deal_played[:, :, None] & (result.participated
                                             | no_bidding[result.deal_kind][:, :, None])


def _deal_tables(result: BatchResult, variant_hash: str, strategies: Sequence[str],
                 seatings: np.ndarray, deal_sets: np.ndarray, seating_index: np.ndarray,
                 game_ids: np.ndarray, deal_rows: bool,
                 blocks: np.ndarray) -> tuple[pl.DataFrame | None, pl.DataFrame]:
    rows = _seat_deal_rows(result)
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
    """The ``deal_stats`` groups of the (game, deal, seat) rows where ``rows`` is True, summed in
    one compiled pass (``_sum_groups``), sorted by the group key.

    A group is (block of deal sets, strategy, dealer offset, deal, hand size, Joker 1 held,
    Joker 2 held): the deal and the hand size fix the kind and whether it is special (tie-break
    deals are golden). ``blocks`` holds each game's ``deal_block``."""
    deals = result.deal_played.shape[1]
    players = result.players
    names, inverse = np.unique(np.asarray(strategies), return_inverse=True)
    spec_id = np.asarray(inverse, dtype=np.int64)[seatings]                     # (N, P)
    hands = int(result.hand_size.max(initial=0)) + 1
    block_values, block_of_game = np.unique(np.asarray(blocks, dtype=np.int64),
                                            return_inverse=True)
    block_of_game = np.asarray(block_of_game, dtype=np.int64).ravel()
    played = (result.dealer, result.hand_size, result.joker_holder, result.hook_forced,
              result.bid, result.tricks, result.points)
    keys, sums = _sum_groups(rows, np.argsort(block_of_game, kind="stable"), block_of_game,
                             np.ascontiguousarray(spec_id), played, len(names), hands)
    rest, held2_used = np.divmod(keys, 2)
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
    for index, name in enumerate(_STAT_VALUES):
        columns[name] = sums[:, index]
    frame = pl.DataFrame(columns).with_columns(
        pl.lit(variant_hash, dtype=pl.String()).alias("variant_hash"))
    return frame.select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])


@jit()
def _sum_groups(rows: np.ndarray, order: np.ndarray, block_of_game: np.ndarray,
                spec_id: np.ndarray, played: tuple[np.ndarray, ...], specs: int,
                hands: int) -> tuple[np.ndarray, np.ndarray]:
    """(the group keys that occur, ascending; the ``_STAT_VALUES`` sums of each, one row a group)
    over the (game, deal, seat) rows where ``rows`` is True. ``played``: the batch result's
    (dealer, hand_size, joker_holder, hook_forced, bid, tricks, points) arrays.

    A row's group key is, from the most significant digit, (``block_of_game[game]``,
    ``spec_id[game, seat]``, dealer offset, deal, hand size, holds Joker 1, holds Joker 2) in the
    bases (blocks, ``specs``, players, deals, ``hands``, 2, 2). ``order`` lists the games block by
    block, ascending: the rows of one block are summed in one pass into a table indexed by the key
    below the block digit, whose groups that occur are then appended to the result."""
    dealer, hand_size, joker_holder, hook_forced, bid, tricks, points = played
    count, deals, players = rows.shape
    space = specs * players * deals * hands * 4
    table = np.zeros((space, len(_STAT_VALUES)), dtype=np.int64)
    keys = np.empty(1024, dtype=np.int64)
    sums = np.empty((1024, len(_STAT_VALUES)), dtype=np.int64)
    groups, start = 0, 0
    while start < count:
        block = block_of_game[order[start]]
        stop = start
        while stop < count and block_of_game[order[stop]] == block:
            stop += 1
        for game in order[start:stop]:
            for deal in range(deals):
                hand = np.int64(hand_size[game, deal])
                dealt_by = np.int64(dealer[game, deal])
                forced = hook_forced[game, deal]
                joker1, joker2 = joker_holder[game, deal, 0], joker_holder[game, deal, 1]
                # the deal's top score among the seats that played it, and how many share it
                top, at_top = np.int64(0), 0
                for seat in range(players):
                    if rows[game, deal, seat]:
                        scored = np.int64(points[game, deal, seat])
                        if at_top == 0 or scored > top:
                            top, at_top = scored, 1
                        elif scored == top:
                            at_top += 1
                for seat in range(players):
                    if not rows[game, deal, seat]:
                        continue
                    offset = seat - dealt_by
                    if offset < 0:
                        offset += players
                    local = (((spec_id[game, seat] * players + offset) * deals + deal) * hands
                             + hand) * 4 + 2 * (joker1 == seat) + (joker2 == seat)
                    said = np.int64(bid[game, deal, seat])
                    taken = np.int64(tricks[game, deal, seat])
                    scored = np.int64(points[game, deal, seat])
                    # in _STAT_VALUES' order
                    table[local, 0] += 1
                    table[local, 1] += scored
                    table[local, 2] += scored * scored
                    table[local, 5] += taken
                    if said >= 0:
                        table[local, 3] += 1
                        table[local, 4] += said
                        table[local, 6] += taken == said
                        table[local, 7] += taken > said
                        table[local, 8] += taken < said
                        table[local, 9] += said == 0
                        table[local, 10] += said == 0 and taken == 0
                    table[local, 11] += forced and offset == 0
                    if scored == top:
                        table[local, 12] += TOP_UNITS // at_top
        for local in range(space):
            if table[local, 0] == 0:
                continue
            if groups == len(keys):
                keys = np.concatenate((keys, np.empty_like(keys)))
                sums = np.concatenate((sums, np.empty_like(sums)))
            keys[groups] = block * space + local
            sums[groups] = table[local]
            table[local] = 0
            groups += 1
        start = stop
    return keys[:groups], sums[:groups]


def merge_deal_stats(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Several ``deal_stats`` frames summed group by group (the table is additive)."""
    frame = pl.concat(frames)
    keys = DEAL_STATS_KEYS
    values = [name for name in DEAL_STATS_SCHEMA if name not in keys]
    merged = frame.group_by(keys).agg([pl.col(name).sum() for name in values]).sort(keys)
    return merged.select([pl.col(name).cast(dtype) for name, dtype in DEAL_STATS_SCHEMA.items()])
