"""What a batch of games produced: per game and per deal per seat arrays (``BatchResult``).

Everything the tournament dataset (``tournament.schema``) records is here as numpy arrays indexed
by game ``g`` (0..N-1, in the order of the seeds), deal ``d`` (the deal's 0-based number: the
schedule, then any tie-break deals) and seat ``s``. A deal a game did not play (a tie-break deal it
did not need, or a deal at or after a strategy's fault) has ``deal_played[g, d] == False``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from raspis.engine.variant import Variant


@dataclass
class BatchLog:
    """The full record of every deal, for tests and replays (``play_batch(record=True)``).

    ``plays[g, d, i]`` is the ``i``-th card play of deal ``d`` as (seat, card, call, suit), -1
    padded; ``winners[g, d, t]`` the seat that took trick ``t``.
    """

    hands: np.ndarray          # (N, D, players) uint64 hands as dealt
    trump_card: np.ndarray     # (N, D) -1 for none
    trump_namer: np.ndarray    # (N, D) seat that named trump, -1 for none
    bid_order: np.ndarray      # (N, D, players) seats in bidding order, -1 padded
    plays: np.ndarray          # (N, D, max plays, 4)
    winners: np.ndarray        # (N, D, max tricks)


@dataclass
class BatchResult:
    """The outcome of ``play_batch``: N games of one variant at one player count."""

    variant: Variant
    players: int
    seeds: np.ndarray               # (N,) uint64
    first_dealer: np.ndarray        # (N,)
    scores: np.ndarray              # (N, P) final totals (totals before the fault if errored)
    places: np.ndarray              # (N, P) 1 = best, shared on ties
    double_loss: np.ndarray         # (N, P)
    deals_played: np.ndarray        # (N,)
    lead_changes: np.ndarray        # (N,)
    errored: np.ndarray             # (N,) bool
    errors: list[str | None]        # (N,) what failed, None when fine
    kind_names: tuple[str, ...]     # names indexed by deal_kind
    deal_played: np.ndarray         # (N, D) bool
    deal_kind: np.ndarray           # (N, D) index into kind_names
    deal_block: np.ndarray          # (N, D) schedule block, -1 for a tie-break deal
    deal_special: np.ndarray        # (N, D) bool
    hand_size: np.ndarray           # (N, D)
    dealer: np.ndarray              # (N, D)
    trump: np.ndarray               # (N, D) 0..3, -1 none
    hook_forced: np.ndarray         # (N, D) the last bidder's hook removed an open bid
    joker_holder: np.ndarray        # (N, D, 2) seat dealt Joker 1 / Joker 2, -1 none
    participated: np.ndarray        # (N, D, P) the seat played this deal
    bid: np.ndarray                 # (N, D, P) -1 for no bid
    tricks: np.ndarray              # (N, D, P)
    points: np.ndarray              # (N, D, P) deal points with fines, without the premium
    premium: np.ndarray             # (N, D, P)
    log: BatchLog | None = None
    seconds: float = 0.0
    decisions: int = 0
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def count(self) -> int:
        """Number of games."""
        return len(self.seeds)

    def totals_after_each_deal(self) -> np.ndarray:
        """(N, D, P) running totals after each played deal."""
        gained = np.where(self.deal_played[:, :, None], self.points + self.premium, 0)
        return np.cumsum(gained, axis=1)


def places_of(scores: np.ndarray) -> np.ndarray:
    """``Game.places`` for every row: 1 + how many seats have a larger total."""
    return 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)


def lead_changes_of(totals: np.ndarray, played: np.ndarray) -> np.ndarray:
    """How many times each game's leader changed over its played deals: the leader is the seat
    alone at the top of the running totals, and a deal that leaves several at the top keeps the
    last one. The rows of both engines count them so (``tournament.shard`` calls this; the
    compiled loop, ``engine.batch.compiled.record_game``, counts the same as it records)."""
    count, deals, _ = totals.shape
    changes = np.zeros(count, dtype=np.int64)
    leader = np.full(count, -1, dtype=np.int64)
    for deal in range(deals):
        row = totals[:, deal, :]
        top = row.max(axis=1)
        at_top = row == top[:, None]
        unique = (at_top.sum(axis=1) == 1) & played[:, deal]
        current = np.argmax(at_top, axis=1)
        changes += unique & (leader >= 0) & (current != leader)
        leader = np.where(unique, current, leader)
    return changes


def drama_of(totals: np.ndarray, played: np.ndarray, places: np.ndarray,
             swings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two outcome measures of each game from its running totals (``totals``: (N, D, P) after
    each deal, ``played``: (N, D)), its places and the swing bound of each deal of the schedule
    (``RulePlan.swing_bounds``, whose length is the schedule's):

    - ``comeback`` (N,): a winner was behind the leader with a third of the schedule's deals
      left (after ``S - ceil(S/3)`` of its ``S`` deals; a winner tied for the lead then was
      leading);
    - ``decided_left`` (N,): how many of the schedule's deals were left when the game was
      decided, its leader ahead of the second by more than the remaining deals' swing bounds
      add up to, so that no play of them could change the winner (0: never before the end).

    One function for both engines (``tournament.frames`` and ``tournament.shard``)."""
    count, deals, players = totals.shape
    schedule = len(swings)
    comeback = np.zeros(count, dtype=bool)
    decided_left = np.zeros(count, dtype=np.int64)
    if count == 0 or schedule == 0 or deals == 0 or players < 2:
        return comeback, decided_left
    checkpoint = schedule - -(-schedule // 3)  # deals played with a third of them left
    if 1 <= checkpoint <= deals:
        at = totals[:, checkpoint - 1, :]
        behind = at < at.max(axis=1, keepdims=True)
        comeback = played[:, checkpoint - 1] & ((places == 1) & behind).any(axis=1)
    # left[k]: what deals k.. of the schedule can swing; after k deals, decided when the
    # margin exceeds left[k] (k = 1 .. S - 1: the last deal is not "before the end")
    left = np.cumsum(np.asarray(swings, dtype=np.int64)[::-1])[::-1]
    upto = min(schedule - 1, deals)
    if upto >= 1:
        ordered = np.sort(totals[:, :upto, :], axis=2)
        margin = ordered[:, :, -1] - ordered[:, :, -2]
        decided = (margin > left[1:upto + 1][None, :]) & played[:, :upto]
        first = np.argmax(decided, axis=1)
        decided_left = np.where(decided.any(axis=1), schedule - 1 - first, 0)
    return comeback, decided_left
