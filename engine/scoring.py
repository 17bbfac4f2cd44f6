"""The score of one player in one deal, from the bid, the tricks taken and the variant's table.

This module holds the whole score table of RULES §6 in one function, so a reader checking a rule
("bid 3, took 2 -> -10") finds it in one place. Premiums and fines, which depend on more than one
deal, are applied by the game (``engine.game``).
"""

from __future__ import annotations

from .options import KindOptions, ScoringOptions


def exact_points(bid: int, table: ScoringOptions) -> int:
    """What a bid of ``bid`` > 0 scores when made exactly (before the all-tricks bonus)."""
    return table.exact_base + table.exact_per_trick * bid


def table_points(bid: int, taken: int, hand_size: int, table: ScoringOptions) -> int:
    """Points for ``bid`` and ``taken`` tricks of ``hand_size`` under a score table."""
    if bid == 0:
        if taken == 0:
            return table.pass_made
        if taken == hand_size and table.pass_broken_all is not None:
            return table.pass_broken_all
        per_trick = table.pass_broken_per_trick
        return (table.over_per_trick if per_trick is None else per_trick) * taken
    if taken == bid:
        if bid == hand_size and hand_size >= table.all_tricks_min_hand:
            if table.all_tricks_per_trick is not None:
                return table.all_tricks_per_trick * bid
            return exact_points(bid, table) * table.all_tricks_multiplier
        return exact_points(bid, table)
    if taken > bid:
        return table.over_per_trick * taken
    if taken == 0 and table.under_nothing_per_bid is not None:
        return table.under_nothing_per_bid * bid
    if taken == 0 and table.under_nothing_taken is not None:
        return table.under_nothing_taken
    if table.under_mode == "bid_value":
        return -exact_points(bid, table)
    if table.under_mode == "flat":
        return table.under_per_missing
    return table.under_per_taken * taken + table.under_per_missing * (bid - taken)


def deal_points(
    bid: int | None, taken: int, hand_size: int, kind: KindOptions, table: ScoringOptions
) -> int:
    """Points of one player for one deal of ``kind`` (``bid``: None when it has no bidding)."""
    if kind.scoring == "per_trick":
        points = kind.per_trick * taken
    else:
        assert bid is not None, "a deal kind with bidding needs a bid"
        if kind.scoring == "made_or_short" and taken < bid:
            points = kind.short_points
        elif kind.scoring == "made_or_short" and taken == bid > 0:
            points = kind.per_trick * bid
        else:
            points = table_points(bid, taken, hand_size, table)
    return points * kind.multiplier
