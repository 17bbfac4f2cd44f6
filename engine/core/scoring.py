"""The scoring rules in one place: the score of a deal, its fines and multipliers, and the premium.

A reader checking a rule ("bid 3, took 2 -> -10", "a dark deal counts double", "the premium is
the best deal once more") finds it here, written once, and both engines and the strategies read it
from here:

- **the score table** (RULES §6, ``[scoring]`` and each deal kind's ``scoring``/``multiplier``):
  ``table_points`` and ``deal_points`` on plain values, read once per deal into the plan's score
  tables (``points_table``, held in the plan vector: ``fields.deal_points``/``points_row``);
- **the fines**: the Joker's lead fine (``lead_fine``), added to the table's points in
  ``deal_score``, the score the state machine records for a seat (``machine.score_deal``);
- **the premium** for making every bid of a span (002: «премия», the game or a pulka):
  when a deal opens or closes its span (``premium_window``), each seat's record of the span
  (``span_record``), and what the span's close pays (``span_premiums``, with ``premium`` and
  ``premium_cancels``), compiled; ``span_premiums_reference`` states every reading of it the
  options allow on plain values, written from the texts, the reference the compiled judge and
  the strategies are held against.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import JOKER
from ..options import KindOptions, ScoringOptions
from .compiling import jit

# -- the score table -------------------------------------------------------------------------------


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


def points_table(kind: KindOptions, tricks: int, scoring: ScoringOptions) -> np.ndarray:
    """``table[bid + 1, taken]``: a seat's deal points before fines in a deal of ``kind`` that
    plays ``tricks`` tricks, under the variant's ``scoring`` (row 0: no bid, the only row filled
    when the kind has no bidding), from ``deal_points``. The table the plan holds for each deal
    (``fields.points_row``) and the scalar strategies read
    (``strategies.players.tactics.Rules``)."""
    table = np.zeros((tricks + 2, tricks + 1), dtype=np.int64)
    for taken in range(tricks + 1):
        if kind.bidding == "none":
            table[0, taken] = deal_points(None, taken, tricks, kind, scoring)
        else:
            for bid in range(tricks + 1):
                table[bid + 1, taken] = deal_points(bid, taken, tricks, kind, scoring)
    return table


# -- the fines and a seat's score of a deal --------------------------------------------------------


@jit()
def lead_fine(card: int, cards_in_hand: int, fine: int) -> int:
    """The points a player loses for leading a Joker while holding other cards (002 Joker-52:
    -10, «если это не последняя карта»)."""
    if card >= JOKER and cards_in_hand > 1:
        return fine
    return 0


@jit(inline="always")
def deal_score(points: int, fines: int) -> int:
    """A seat's score of a deal: its score table's points for its bid and tricks (``points_table``,
    the kind's multiplier in) and its fines of the deal (``lead_fine``); the premium of a span
    is paid beside it (``span_premiums``), never into it."""
    return points + fines


# -- the premium -----------------------------------------------------------------------------------

#: ``scoring.premium``
PREMIUM_NONE, PREMIUM_FIXED, PREMIUM_BEST_DEAL = range(3)
PREMIUM_CODES = {"none": PREMIUM_NONE, "fixed": PREMIUM_FIXED, "best_deal": PREMIUM_BEST_DEAL}
#: ``scoring.premium_others``: what an earner's premium does to the other seats
PREMIUM_OTHERS_NONE, PREMIUM_OTHERS_BEST, PREMIUM_OTHERS_NEXT = range(3)
PREMIUM_OTHERS_CODES = {"none": PREMIUM_OTHERS_NONE, "best_cancelled": PREMIUM_OTHERS_BEST,
                        "next_cancelled": PREMIUM_OTHERS_NEXT}
#: ``scoring.premium_several``: several earners in one span
PREMIUM_SEVERAL_EACH, PREMIUM_SEVERAL_EACH_CANCELLED, PREMIUM_SEVERAL_NONE = range(3)
PREMIUM_SEVERAL_CODES = {"each": PREMIUM_SEVERAL_EACH,
                         "each_cancelled": PREMIUM_SEVERAL_EACH_CANCELLED,
                         "none": PREMIUM_SEVERAL_NONE}


def premium_window(premium: str, scope: str, number: int, block: int,
                   blocks: Sequence[int]) -> tuple[bool, bool]:
    """(opens, closes): whether deal ``number`` of ``block`` starts and ends the span over which
    the premium for making every bid is judged (002: the game, ``premium_scope = "game"``, or a
    pulka, ``"block"``); ``blocks``: the block of each deal of the schedule. A deal outside every
    block (``block`` -1: a tie-break deal) is in no span."""
    if premium == "none" or block < 0:
        return False, False
    if scope == "game":
        return number == 0, number == len(blocks) - 1
    opens = number == 0 or blocks[number - 1] != block
    closes = number + 1 >= len(blocks) or blocks[number + 1] != block
    return opens, closes


@jit(inline="always")
def bid_made(bid: int, taken: int) -> bool:
    """A seat made its bid (``bid`` -1: a deal without bidding, which counts as made)."""
    return bid < 0 or bid == taken


@jit(inline="always")
def span_counts(closes: bool, last_excluded: bool) -> bool:
    """Whether a deal of a span counts in the seats' records of it: every deal but, under
    ``premium_last_deal = "excluded"``, the span's last."""
    return not (closes and last_excluded)


@jit()
def premium(mode: int, best_deal: int, fixed_points: int) -> int:
    """The premium of a seat that made every bid of its span (002: «премия» for making every bid
    of the game, or of a pulka): fixed points, or the seat's best deal score of the span once
    more (``span_premiums`` decides who earns it)."""
    if mode == PREMIUM_NONE:
        return 0
    if mode == PREMIUM_FIXED:
        return fixed_points
    return best_deal


@jit()
def span_record(made_so_far: bool, best_so_far: int, bid: int, taken: int, points: int,
                opens: bool) -> tuple[bool, int]:
    """A seat's record of the premium's span after one more deal counted: whether it has made
    every bid of the span (``bid_made``), and its best deal score of the span (``points``: this
    deal's, fines included). A deal that ``opens`` the span starts the record afresh."""
    made = bid_made(bid, taken)
    if opens:
        return made, points
    return made and made_so_far, max(points, best_so_far)


@jit()
def premium_cancels(seat: int, earners: int, players: int, others: int, several: int) -> bool:
    """Whether the premiums of ``earners`` (a mask of seats) cancel ``seat``'s best deal of the
    span (``scoring.premium_others``, the Georgian score apps and jok.ge): every other
    earner's (``best_cancelled``) or the earner just before it in seat order
    (``next_cancelled``); an earner's own deal only under ``premium_several = each_cancelled``."""
    if others == PREMIUM_OTHERS_NONE or earners == 0 or players < 2:
        return False
    if earners >> seat & 1 and several != PREMIUM_SEVERAL_EACH_CANCELLED:
        return False
    if others == PREMIUM_OTHERS_BEST:
        return earners & ~(1 << seat) != 0
    return earners >> ((seat + players - 1) % players) & 1 != 0


@jit()
def span_premiums(made: np.ndarray, best: np.ndarray, counted: bool, mode: int, fixed_points: int,
                  others: int, several: int, out: np.ndarray) -> None:
    """What the close of a premium's span adds to each seat's total (``out[seat]``), from the
    seats' span records (``span_record``: ``made[seat]``, ``best[seat]``; ``counted``: some
    deal of the span counted, which ``premium_last_deal = excluded`` denies a one-deal span).

    A seat that made every bid of the span earns ``premium`` (002: «премия»; its best deal once
    more, or fixed points); with several earners under ``premium_several = none`` nobody does;
    a best deal the earners cancel (``premium_cancels``) loses its points when above 0, once
    however many premiums name it. ``span_premiums_reference`` is the same rule in plain Python
    over whole spans, written from the texts, that the tests hold this against."""
    players = len(out)
    earners = np.int64(0)  # not a literal: one compile of premium_cancels
    for seat in range(players):
        out[seat] = 0
        if counted and made[seat]:
            earners |= 1 << seat
    if mode == PREMIUM_NONE or earners == 0:
        return
    if several == PREMIUM_SEVERAL_NONE and earners & (earners - 1):
        return
    for seat in range(players):
        if earners >> seat & 1:
            out[seat] += premium(mode, best[seat], fixed_points)
        if premium_cancels(seat, earners, players, others, several):
            out[seat] -= max(0, best[seat])


def span_premiums_reference(
    made: Sequence[Sequence[bool]], points: Sequence[Sequence[int]], table: ScoringOptions
) -> list[int]:
    """Each seat's premium adjustment at the end of a span (the game, or a set: ``premium_scope``),
    on plain values: the reference ``span_premiums`` is held against.

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
