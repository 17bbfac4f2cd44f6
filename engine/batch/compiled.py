"""Batches of compiled policies: whole games in one compiled loop, then the ``BatchResult``.

A batch strategy that can also be played as a compiled function of the rules core's state machine
says so with two class attributes: ``compiled_policy`` (its code for the runner) and
``compiled_runner`` (a callable that plays whole games: ``strategies.policies.compiled.run_games``);
a subclass must declare them again, since it may decide differently. When every strategy of a batch
has them (and no full log is asked for), ``play_batch`` plays the batch this way:
``engine.core.machine`` for every rule, the strategies' compiled code for every decision, no Python
in between. Each game's final state is copied into the result's arrays as soon as it ends
(``record_game``: one result row per deal, ``machine.R_*``), so the ``BatchResult`` is the one the
lockstep engine makes (it records its games from their final states with the same function,
``record_many``). The runner's ``stepper`` attribute (``strategies.policies.compiled.Stepper``) is
how the lockstep engine plays compiled seats beside numpy ones.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from raspis.engine.core import fields
from raspis.engine.core.compiling import jit
from raspis.engine.core.plan import rule_plan
from raspis.engine.variant import Variant

from .result import BatchResult, places_of
from .rng import as_seeds


def compiled_runner(instances: Sequence[Any]) -> Any:
    """The runner every strategy of ``instances`` shares, or None where one has none."""
    return shared_runner([type(strategy) for strategy in instances])


def shared_runner(classes: Sequence[type]) -> Any:
    """The runner every batch strategy class of ``classes`` declares, the same for all, or None.

    The class itself must declare ``compiled_runner`` and ``compiled_policy``: a subclass that
    changes a decision is no longer the compiled policy of its parent (each class holds its own
    staticmethod object: the functions are compared, not those)."""
    runners = {_function(cls.__dict__.get("compiled_runner")) for cls in classes}
    if len(runners) != 1 or None in runners:
        return None
    if any(cls.__dict__.get("compiled_policy") is None for cls in classes):
        return None
    return runners.pop()


def _function(runner: Any) -> Any:
    """The function a ``compiled_runner`` attribute holds (a staticmethod's own function)."""
    return runner.__func__ if isinstance(runner, staticmethod) else runner


def play_compiled(variant: Variant, players: int, seeds: Sequence[int] | np.ndarray,
                  instances: Sequence[Any], seat_instance: np.ndarray,
                  runner: Any) -> BatchResult:
    """Play the games of ``seeds`` with compiled policies (``seat_instance[g, s]``: the index in
    ``instances`` of the strategy at seat ``s`` of game ``g``)."""
    started = time.perf_counter()
    variant = variant.for_player_count(players)
    plan = rule_plan(variant, players)
    tables = plan.machine()
    seeds = as_seeds(seeds)
    count = len(seeds)
    keys = np.zeros((count, players), dtype=np.uint64)
    for index, strategy in enumerate(instances):
        start = getattr(strategy, "start", None)
        if start is not None:
            start(variant, players, seeds)
        own = getattr(strategy, "keys", None)
        if own is not None:
            seated = seat_instance == index
            keys[seated] = np.asarray(own, dtype=np.uint64)[seated]
    codes = np.array([type(strategy).__dict__["compiled_policy"] for strategy in instances],
                     dtype=np.int64)
    records = Records(count, tables.max_results, players)
    jokers = np.array(plan.jokers_in_deck[:2], dtype=np.int64)
    decisions = runner(tables, plan, seeds, codes[seat_instance], keys, jokers, records.arrays())
    result = result_of(variant, players, seeds, records, plan)
    result.decisions = decisions
    result.seconds = time.perf_counter() - started
    return result


class Records:
    """The arrays of a ``BatchResult`` that a finished game's state fills (``record_game``)."""

    def __init__(self, count: int, deals: int, players: int) -> None:
        self.first_dealer = np.zeros(count, dtype=np.int64)
        self.scores = np.zeros((count, players), dtype=np.int64)
        self.deals_played = np.zeros(count, dtype=np.int64)
        self.lead_changes = np.zeros(count, dtype=np.int64)
        self.deal_played = np.zeros((count, deals), dtype=np.bool_)
        self.deal_kind = np.zeros((count, deals), dtype=np.int8)
        self.deal_block = np.full((count, deals), -1, dtype=np.int16)
        self.deal_special = np.zeros((count, deals), dtype=np.bool_)
        self.hand_size = np.zeros((count, deals), dtype=np.int16)
        self.dealer = np.full((count, deals), -1, dtype=np.int8)
        self.trump = np.full((count, deals), -1, dtype=np.int8)
        self.hook_forced = np.zeros((count, deals), dtype=np.bool_)
        self.joker_holder = np.full((count, deals, 2), -1, dtype=np.int8)
        self.participated = np.zeros((count, deals, players), dtype=np.bool_)
        self.bid = np.full((count, deals, players), -1, dtype=np.int8)
        self.tricks = np.zeros((count, deals, players), dtype=np.int8)
        self.points = np.zeros((count, deals, players), dtype=np.int32)
        self.premium = np.zeros((count, deals, players), dtype=np.int32)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in ``record_game``'s order."""
        return (self.first_dealer, self.scores, self.deals_played, self.lead_changes,
                self.deal_played, self.deal_kind, self.deal_block, self.deal_special,
                self.hand_size, self.dealer, self.trump, self.hook_forced, self.joker_holder,
                self.participated, self.bid, self.tricks, self.points, self.premium)


@jit()
def record_game(state: np.ndarray, plan: np.ndarray, game: int, jokers: np.ndarray,
                records: tuple) -> None:  # type: ignore[type-arg]
    """Copy the finished game in ``state`` into row ``game`` of ``records`` (``Records.arrays``;
    ``jokers``: the deck's Jokers, at most two): each result row as a deal, the final totals,
    and the lead changes (``result.lead_changes_of``) over the running totals."""
    (first_dealer, scores, deals_played, lead_changes, deal_played, deal_kind, deal_block,
     deal_special, hand_size, dealer, trump, hook_forced, joker_holder, participated, bid,
     tricks, points, premium) = records
    players = fields.plan_players(plan)
    first_dealer[game] = fields.first_dealer(state)
    for seat in range(players):
        scores[game, seat] = fields.score(state, plan, seat)
    count = fields.results(state)
    deals_played[game] = count
    leader, changes = -1, 0
    for deal in range(count):
        row = fields.result_row(state, plan, deal)
        deal_played[game, deal] = True
        deal_kind[game, deal] = fields.deal_kind(plan, row)
        deal_block[game, deal] = fields.deal_block(plan, row)
        deal_special[game, deal] = fields.deal_special(plan, row) != 0
        hand_size[game, deal] = fields.deal_hand_size(plan, row)
        dealer[game, deal] = fields.result_dealer(state, plan, deal)
        trump[game, deal] = fields.result_trump(state, plan, deal)
        hook_forced[game, deal] = fields.result_hook_forced(state, plan, deal) != 0
        for index in range(len(jokers)):
            joker_holder[game, deal, index] = fields.result_joker_holder(state, plan, deal,
                                                                         jokers[index])
        mask = fields.result_participants(state, plan, deal)
        top, at_top, current = fields.result_total(state, plan, deal, 0), 0, 0
        for seat in range(players):
            participated[game, deal, seat] = mask >> seat & 1 != 0
            bid[game, deal, seat] = fields.result_bid(state, plan, deal, seat)
            tricks[game, deal, seat] = fields.result_taken(state, plan, deal, seat)
            points[game, deal, seat] = fields.result_points(state, plan, deal, seat)
            premium[game, deal, seat] = fields.result_premium(state, plan, deal, seat)
            total = fields.result_total(state, plan, deal, seat)
            if total > top:
                top, at_top, current = total, 1, seat
            elif total == top:
                at_top += 1
                if at_top == 1:
                    current = seat
        if at_top == 1:
            changes += leader >= 0 and current != leader
            leader = current
    lead_changes[game] = changes


@jit()
def record_many(states: np.ndarray, plan: np.ndarray, jokers: np.ndarray,
                records: tuple) -> None:  # type: ignore[type-arg]
    """``record_game`` of every finished game of the state matrix ``states`` (one row a game)."""
    for game in range(states.shape[0]):
        record_game(states[game], plan, game, jokers, records)


def result_of(variant: Variant, players: int, seeds: np.ndarray, records: Records,
              plan: Any) -> BatchResult:
    """The ``BatchResult`` of finished games' ``records``."""
    count = len(seeds)
    scores = records.scores
    return BatchResult(
        variant=variant, players=players, seeds=seeds, first_dealer=records.first_dealer,
        scores=scores, places=places_of(scores),
        double_loss=(scores < 0) if plan.double_loss else np.zeros_like(scores, dtype=bool),
        deals_played=records.deals_played, lead_changes=records.lead_changes,
        errored=np.zeros(count, dtype=bool), errors=[None] * count,
        kind_names=plan.kind_names, deal_played=records.deal_played,
        deal_kind=records.deal_kind, deal_block=records.deal_block,
        deal_special=records.deal_special, hand_size=records.hand_size, dealer=records.dealer,
        trump=records.trump, hook_forced=records.hook_forced,
        joker_holder=records.joker_holder, participated=records.participated,
        bid=records.bid, tricks=records.tricks, points=records.points, premium=records.premium,
    )


__all__ = ["Records", "compiled_runner", "play_compiled", "record_game", "record_many",
           "result_of", "shared_runner"]
