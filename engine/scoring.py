"""The score of one player in one deal, from the bid, the tricks taken and the variant's table.

This module holds the whole score table of RULES §6 in one function, so a reader checking a rule
("bid 3, took 2 -> -10") finds it in one place. Premiums and fines, which depend on more than one
deal, are applied by the rules core (``engine/core/machine.py`` ``score_deal``); ``span_premiums``
states every reading of the premium the options allow, on plain values, as the reference the
core and the strategies are checked against.
"""

from __future__ import annotations

from collections.abc import Sequence

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
            if table.pass_broken_all_mode == "per_trick":  # 003 l.55 «по 10 очков»: each trick
                return table.pass_broken_all * taken
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
    """Points of one player for one deal of ``kind`` (``bid``: None when it has no bidding),
    the kind's multiplier applied: to every outcome, or under ``multiplier_scope = "penalties"``
    (000 l.325: in the special deals the penalties are harsher, «и за перебор, и за недобор») to
    an outcome that costs points only."""
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
    if kind.multiplier_scope == "penalties" and points >= 0:
        return points
    return points * kind.multiplier


def span_premiums(
    made: Sequence[Sequence[bool]], points: Sequence[Sequence[int]], table: ScoringOptions
) -> list[int]:
    """Each seat's premium adjustment at the end of a span (the game, or a set: ``premium_scope``).

    ``made[deal][seat]``: the seat made its bid in that deal of the span (a deal without bidding
    counts as made); ``points[deal][seat]``: its points for the deal, fines included. Returns,
    per seat, what the span's end adds to its total: its premium, less any best deal of its that
    another player's premium cancels. The readings (``ScoringOptions``):

    - a seat that made every bid of the span earns the premium: ``premium_points`` (``fixed``) or
      its best deal score of the span once more (``best_deal``, 002; pagat's set bonus);
    - ``premium_last_deal = "excluded"``: the span's last deal is left out, so its bid need not be
      made and its score is neither repeated nor cancelled;
    - ``premium_others``: an earner cancels every other seat's best deal of the span
      (``best_cancelled``) or only the next seat's (``next_cancelled``, the seat after it in
      seat order); a cancelled deal counts nothing, so the seat loses its best score when that
      is above 0 (a deal is cancelled once, however many premiums name it);
    - ``premium_several``: with several earners, ``each`` scores its premium and no earner's deal
      is cancelled; ``each_cancelled``: each scores it and the cancellations fall on earners too;
      ``none``: nobody scores a premium and nothing is cancelled.
    """
    seats = len(points[0]) if points else 0
    adjustment = [0] * seats
    if table.premium == "none" or not points:
        return adjustment
    counted = range(len(points) - 1) if table.premium_last_deal == "excluded" else range(
        len(points))
    if not counted:
        return adjustment
    best = [max(points[deal][seat] for deal in counted) for seat in range(seats)]
    earners = [seat for seat in range(seats) if all(made[deal][seat] for deal in counted)]
    if table.premium_several == "none" and len(earners) > 1:
        return adjustment
    for seat in earners:
        adjustment[seat] += table.premium_points if table.premium == "fixed" else best[seat]
    cancelled: set[int] = set()
    for seat in earners:
        if table.premium_others == "best_cancelled":
            cancelled.update(other for other in range(seats) if other != seat)
        elif table.premium_others == "next_cancelled" and seats > 1:
            cancelled.add((seat + 1) % seats)
    if table.premium_several != "each_cancelled":
        cancelled.difference_update(earners)
    for seat in cancelled:
        adjustment[seat] -= max(0, best[seat])
    return adjustment
