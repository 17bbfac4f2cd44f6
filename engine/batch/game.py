"""The batch engine's lockstep loop: N games of one variant on the rules core's state machine.

Each game is one state vector of ``engine.core.machine`` (a row of one ``int64`` matrix), moved
by the machine's own ``step``: the machine plays every chance and bookkeeping event (the shuffle,
the deal, the trump, the tricks, the draw, the score, the premiums, the tie-break deals, the
end), so no rule is written here. The seats of compiled policies (a strategy whose class declares
``compiled_policy``, see ``engine.batch.compiled``) are decided inside the compiled loop of their
runner (``stepper``); each game then stops where a numpy batch strategy is to move
(``strategies.batch.BatchStrategy``). Those decisions are asked in lockstep: the games least far
on (``kernels.progress``: the same deal, phase, trick and place in it) are grouped by deal row
and strategy, each group gets one ``BatchObservation`` built from the states, the strategy's
answers are checked against the legal masks the machine left in the states, and the rows step
on. A strategy that raises or answers an illegal action does not stop the batch: the game is
marked errored at that deal (as ``play_game`` records a ``StrategyFault``), goes on with the first
legal action, and its results stop before that deal.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from raspis.engine.core import machine as m
from raspis.engine.core.plan import rule_plan
from raspis.engine.core.view import scalar_column
from raspis.engine.errors import exception_text
from raspis.engine.variant import Variant

from .compiled import Records, compiled_runner, play_compiled, record_many, result_of
from .kernels import (
    DONE,
    V_PHASE,
    V_ROW,
    V_SEAT,
    V_WIDTH,
    apply_rows,
    check_bids,
    check_plays,
    check_trumps,
    new_games,
    no_log,
    note_rows,
)
from .observation import PHASES, BatchObservation
from .result import BatchLog, BatchResult, lead_changes_of, places_of
from .rng import as_seeds
from .rules import BatchRules

_METHODS = {"trump": "name_trump", "bid": "bid", "play": "play"}


def seating(strategies: Sequence[Any], seatings: np.ndarray | None, count: int,
            players: int) -> tuple[list[Any], np.ndarray]:
    """(the distinct strategy objects, ``seat_instance[g, s]``: the index among them of the one
    at seat ``s`` of game ``g``) from the lineup slots and ``seatings`` (see ``play_batch``)."""
    if seatings is None:  # slot i at seat i; one strategy alone takes every seat
        lone = len(strategies) == 1
        slots = np.zeros(players, dtype=np.int64) if lone else np.arange(players)
        seatings = np.broadcast_to(slots, (count, players))
    seatings = np.asarray(seatings, dtype=np.int64)
    if seatings.ndim == 1:
        seatings = np.broadcast_to(seatings, (count, players))
    if seatings.shape != (count, players):
        raise ValueError(f"seatings must have shape ({count}, {players}), got {seatings.shape}")
    if seatings.max(initial=0) >= len(strategies):
        raise ValueError(f"seatings name lineup slot {seatings.max()}, but only "
                         f"{len(strategies)} strategies were given")
    instances: list[Any] = []
    slot_instance = []
    for strategy in strategies:
        for index, known in enumerate(instances):
            if known is strategy:
                slot_instance.append(index)
                break
        else:
            slot_instance.append(len(instances))
            instances.append(strategy)
    seat_instance = np.asarray(slot_instance, dtype=np.int64)[seatings]
    return instances, seat_instance


class BatchGame:
    """N games of one variant between batch strategies; ``run()`` plays them."""

    def __init__(self, variant: Variant, players: int, seeds: Sequence[int] | np.ndarray,
                 strategies: Sequence[Any], seatings: np.ndarray | None = None, *,
                 record: bool = False, compiled: bool = True) -> None:
        self.variant = variant.for_player_count(players)
        self.players = players
        self.plan = rule_plan(self.variant, players)
        self.tables = self.plan.machine()
        self.seeds = as_seeds(seeds)
        count = len(self.seeds)
        self.count = count
        self.instances, self.seat_instance = seating(strategies, seatings, count, players)
        self.record = record
        self.compiled = compiled
        self.fault_deal = np.full(count, -1, dtype=np.int64)
        self.errors: list[str | None] = [None] * count
        self.states = np.zeros((count, self.tables.length), dtype=np.int64)
        #: each seat's decisions so far (``BatchObservation.decision_index``)
        self.counts = np.zeros((count, players), dtype=np.int64)
        #: where each game waits (``kernels.note_row``): its decision's view, and how far it is
        self.view = np.zeros((V_WIDTH, count), dtype=np.int64)
        self.keys = np.zeros(count, dtype=np.int64)
        deals = self.tables.max_results
        self.deal_count = deals
        self.log: BatchLog | None = None
        if record:
            plays = max(self.plan.deck_size, self.tables.max_tricks * players)
            self.log = BatchLog(
                hands=np.zeros((count, deals, players), dtype=np.uint64),
                trump_card=np.full((count, deals), -1, dtype=np.int64),
                trump_namer=np.full((count, deals), -1, dtype=np.int64),
                bid_order=np.full((count, deals, players), -1, dtype=np.int64),
                plays=np.full((count, deals, plays, 4), -1, dtype=np.int64),
                winners=np.full((count, deals, plays), -1, dtype=np.int64),
            )
            log = self.log
            self.logs = (log.hands.view(np.int64), log.trump_card, log.trump_namer,
                         log.bid_order, log.plays, log.winners)
        else:
            self.logs = no_log()
        self.lead_order = np.array(self.plan.call_order(True), dtype=np.int64)
        self.follow_order = np.array(self.plan.call_order(False), dtype=np.int64)

    # -- the loop -------------------------------------------------------------------------------

    def _start(self) -> None:
        """Call each strategy's ``start``; its bug errors the games it sits in, not the batch."""
        for index, strategy in enumerate(self.instances):
            start = getattr(strategy, "start", None)
            if start is None:
                continue
            try:
                start(self.variant, self.players, self.seeds)
            except Exception as error:
                seated = np.flatnonzero((self.seat_instance == index).any(axis=1))
                for game in seated:
                    if self.fault_deal[game] < 0:
                        self.fault_deal[game] = 0
                        self.errors[game] = (f"{_spec(strategy)} raised before the first deal, "
                                             f"start: {exception_text(error)}")

    def _stepper(self) -> Any:
        """The compiled seats' stepper (``strategies.policies.compiled.Stepper``), or None where
        every seat is decided by numpy; ``self.numpy_seat[i]``: instance ``i`` is asked in numpy."""
        instances = self.instances
        self.numpy_seat = np.ones(len(instances), dtype=bool)
        runner = None
        for index, strategy in enumerate(instances):
            own = compiled_runner([strategy])
            if own is None or not hasattr(own, "stepper"):
                continue
            # ``compiled=False``: a strategy with numpy decisions of its own uses them
            if not self.compiled and getattr(strategy, "numpy_decisions", True):
                continue
            if runner is not None and own is not runner:
                continue
            runner = own
            self.numpy_seat[index] = False
        if runner is None:
            return None
        policies = np.full((self.count, self.players), -1, dtype=np.int64)
        keys = np.zeros((self.count, self.players), dtype=np.uint64)
        for index, strategy in enumerate(instances):
            if self.numpy_seat[index]:
                continue
            seated = self.seat_instance == index
            policies[seated] = type(strategy).__dict__["compiled_policy"]
            own = getattr(strategy, "keys", None)
            if own is not None:
                keys[seated] = np.asarray(own, dtype=np.uint64)[seated]
        return runner.stepper(self.tables, self.plan, policies, keys)

    def run(self) -> BatchResult:
        """Play every game to the end and return the result."""
        started = time.perf_counter()
        self._start()
        stepper = self._stepper()
        if self.numpy_seat.any():
            # a seat asked in numpy (or through a scalar adapter) cannot be shown what some
            # options need (a shown card, a keep decision, a named card, the draw's stock):
            # ``BatchRules`` refuses those options, naming them, before any game is played
            BatchRules(self.variant, self.players)
        plan = self.tables.plan
        states, counts, record, logs = self.states, self.counts, self.record, self.logs
        view, keys, jokers = self.view, self.keys, self.plan.has_jokers
        new_games(states, plan, self.seeds.view(np.int64), record, logs)
        every = np.arange(self.count, dtype=np.int64)
        if stepper is not None:
            stepper.advance(states, every, None, counts, record, logs, jokers, view, keys)
        else:
            note_rows(states, plan, every, jokers, view, keys)
        instance_of = self.seat_instance
        instances = len(self.instances)
        while True:
            least = keys.min(initial=DONE)
            if least == DONE:
                break
            rows = np.flatnonzero(keys == least)
            phase = PHASES[int(view[V_PHASE, rows[0]]) - m.PH_TRUMP]
            deal_rows = view[V_ROW][rows]
            one_deal = deal_rows[0] == deal_rows[-1] and (deal_rows == deal_rows[0]).all()
            if instances == 1 and one_deal:
                groups = [(0, rows)]
            else:
                acting = instance_of[rows, view[V_SEAT][rows]]
                if not one_deal:  # tie-break deals of different sizes: a group per deal row too
                    acting = acting + deal_rows * instances
                groups = []
                for value in np.unique(acting) if not one_deal else range(instances):
                    chosen = rows[acting == value]
                    if len(chosen):
                        groups.append((int(value) % instances, chosen))
            for index, games in groups:
                codes = self._decide(self.instances[index], phase, games)
                if stepper is not None:
                    stepper.advance(states, games, codes, counts, record, logs, jokers, view,
                                    keys)
                else:
                    apply_rows(states, plan, games, codes, counts, record, logs, jokers, view,
                               keys)
        return self.finish(time.perf_counter() - started)

    # -- decisions -------------------------------------------------------------------------------

    def _decide(self, strategy: Any, phase: str, games: np.ndarray) -> np.ndarray:
        """Ask ``strategy`` for the decisions of ``games``; the action codes, the first legal
        action where it raised or answered an illegal one."""
        observation = BatchObservation(self, games, phase)
        count = len(games)
        codes = np.empty(count, dtype=np.int64)
        bad = np.zeros(count, dtype=np.bool_)
        try:
            answer = getattr(strategy, _METHODS[phase])(observation)
            texts = self._check(phase, games, answer, codes, bad)
        except Exception as error:  # a batch strategy's own bug: errored games, not a crash
            seats = observation.seat
            spec = _spec(strategy)
            messages = [f"seat {seat} ({spec}) raised in deal {observation.deal_number + 1}, "
                        f"{phase}: {exception_text(error)}" for seat in seats]
            observation.report_faults(np.arange(count), messages)
            bad[:] = True
            self._check(phase, games, None, codes, bad)
            return codes
        if texts is not None:
            rows = np.flatnonzero(bad)
            seats = observation.seat[rows]
            spec = _spec(strategy)
            messages = [f"seat {seat} ({spec}) illegal in deal {observation.deal_number + 1}, "
                        f"{phase}: returned {text}, not a legal action"
                        for seat, text in zip(seats, texts, strict=True)]
            observation.report_faults(rows, messages)
        return codes

    def _check(self, phase: str, games: np.ndarray, answer: Any, codes: np.ndarray,
               bad: np.ndarray) -> list[str] | None:
        """The action codes of ``answer`` into ``codes`` (``answer`` None: the first legal
        action everywhere); the texts of the illegal answers (marked in ``bad``), None if none."""
        count = len(games)
        view = self.view

        def column(value: Any) -> np.ndarray:
            if (type(value) is np.ndarray and value.dtype == np.int64 and value.shape == (count,)
                    and value.flags.c_contiguous):
                # what the general way gives such an array, a read-only view of it, directly
                view = value.view()
                view.flags.writeable = False
                return view
            array = np.asarray(value, dtype=np.int64)
            return np.ascontiguousarray(np.broadcast_to(array, (count,)))

        if phase == "play":
            if answer is None:
                card = np.full(count, -1, dtype=np.int64)
                call = suit = card
            else:
                card, call, suit = answer
                card, call, suit = column(card), column(call), column(suit)
            check_plays(view, games, card, call, suit, self.lead_order, self.follow_order,
                        codes, bad)
            if answer is None or not bad.any():
                return None
            return [f"card {c} call {k} suit {s}"
                    for c, k, s in zip(card[bad], call[bad], suit[bad], strict=True)]
        values = (np.full(count, -2, dtype=np.int64) if answer is None else column(answer))
        if phase == "bid":
            check_bids(view, games, values, codes, bad)
        else:
            check_trumps(view, games, values, codes, bad)
        if answer is None or not bad.any():
            return None
        return [f"{'bid' if phase == 'bid' else 'trump'} {value}" for value in values[bad]]

    def record_faults(self, games: np.ndarray, messages: list[str]) -> None:
        """Mark ``games`` errored in their current deal, keeping each game's first fault."""
        for game, message in zip(games, messages, strict=True):
            game = int(game)
            if self.fault_deal[game] < 0:
                self.fault_deal[game] = int(scalar_column(self.states, "deal_index")[game])
                self.errors[game] = message

    # -- the result ------------------------------------------------------------------------------

    def finish(self, seconds: float) -> BatchResult:
        """Assemble the ``BatchResult`` from the final states (games cut short by a fault keep
        their earlier deals)."""
        plan = self.plan
        records = Records(self.count, self.deal_count, self.players)
        arrays = records.arrays()
        jokers = np.array(plan.jokers_in_deck[:2], dtype=np.int64)
        record_many(self.states, self.tables.plan, jokers, arrays)
        result = result_of(self.variant, self.players, self.seeds, records, plan)
        result.log = self.log
        result.seconds = seconds
        result.decisions = int(scalar_column(self.states, "decisions").sum())
        errored = self.fault_deal >= 0
        if not errored.any():
            return result
        result.errored = errored
        result.errors = self.errors
        deals = np.arange(self.deal_count)[None, :]
        cut = np.where(errored, self.fault_deal, self.deal_count)
        played = result.deal_played & (deals < cut[:, None])
        result.deal_played = played
        result.participated = result.participated & played[:, :, None]
        result.deals_played = played.sum(axis=1)
        scores = result.scores.copy()
        changes = result.lead_changes.copy()
        faulted = np.flatnonzero(errored)
        # totals and lead changes of the deals before the fault only
        kept = played[faulted]
        gained = np.where(kept[:, :, None], result.points[faulted] + result.premium[faulted], 0)
        totals = np.cumsum(gained, axis=1)
        scores[faulted] = totals[:, -1, :]
        changes[faulted] = lead_changes_of(totals, kept)
        result.scores = scores
        result.places = places_of(scores)
        result.double_loss = ((scores < 0) if plan.double_loss
                              else np.zeros_like(scores, dtype=bool))
        result.lead_changes = changes
        return result


def _spec(strategy: Any) -> str:
    spec = getattr(strategy, "spec", None)
    return spec() if callable(spec) else getattr(strategy, "name", type(strategy).__name__)


def play_batch(variant: Variant, players: int, seeds: Sequence[int] | np.ndarray,
               strategies: Sequence[Any], seatings: np.ndarray | None = None, *,
               record: bool = False, compiled: bool = True) -> BatchResult:
    """Play ``len(seeds)`` games of ``variant`` at ``players`` seats in lockstep.

    ``strategies`` are batch strategies, one per lineup slot (the same object may fill several
    slots); ``seatings[g, seat]`` is the slot sitting at ``seat`` in game ``g`` (default: slot i at
    seat i, or a lone strategy at every seat), one row for all games or one per game. Same seeds,
    same games as ``engine.Game``. Where every strategy is also a compiled policy
    (``engine.batch.compiled``), ``compiled`` is left on and no log is asked for (``record``),
    whole games are played in one compiled loop, with the very same decisions and result;
    otherwise in lockstep (``BatchGame``), the compiled policies still decided inside numba
    (with ``compiled=False`` a strategy that also has numpy methods of its own is asked through
    them instead).
    """
    if compiled and not record:
        runner = compiled_runner(strategies)
        if runner is not None:
            seeds = as_seeds(seeds)
            instances, seat_instance = seating(strategies, seatings, len(seeds), players)
            return play_compiled(variant, players, seeds, instances, seat_instance, runner)
    return BatchGame(variant, players, seeds, strategies, seatings, record=record,
                     compiled=compiled).run()


__all__ = ["BatchGame", "play_batch"]
