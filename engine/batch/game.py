"""The batch engine's game loop: N games of one variant, played deal by deal in lockstep.

``BatchGame`` plays every deal of the schedule for all its games at once (the first dealer differs
per game, so each game has its own dealer and order; masks and per-position arrays handle that),
then the tie-break golden deals (``end.tie = golden_deal``) for the games that need them, grouped by
the number of tied players. Decisions go to batch strategies (``strategies.batch.BatchStrategy``);
a seat's strategy is found from the game's seating. A strategy that raises or answers an illegal
action does not stop the batch: the game is marked errored at that deal (as ``play_game`` records
a ``StrategyFault``), goes on with the first legal action, and its results stop before that deal.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from raspis.engine.variant import Variant

from .bits import JOKER_BITS, NOT_JOKERS, lowest_card
from .compiled import compiled_runner, play_compiled
from .deal import DealState, order_from, start_deal, start_play
from .kernels import first_dealer_many, premiums_many, shuffle_many
from .observation import BatchObservation
from .result import BatchLog, BatchResult, lead_changes_of, places_of
from .rng import as_seeds, lot_keys
from .rules import OPTION_CALL, OPTION_SUIT, BatchRules, DealPlan
from .steps import bid_step, name_trump
from .trick import end_trick, lead_call_masks, play_step, start_tricks

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
                 record: bool = False) -> None:
        self.rules = BatchRules(variant, players)
        self.players = players
        self.seeds = as_seeds(seeds)
        count = len(self.seeds)
        self.count = count
        self.instances, self.seat_instance = seating(strategies, seatings, count, players)
        self.record = record
        self.history = record or any(getattr(s, "needs_history", False) for s in self.instances)
        needs_index = any(getattr(s, "needs_decision_index", False) for s in self.instances)
        self.decisions = np.zeros((count, players), dtype=np.int64) if needs_index else None
        rules = self.rules
        #: each seat's passes in a row (the pass limit; shown in observations)
        self.passes = np.zeros((count, players), dtype=np.int64)
        lots = np.empty((count, rules.deck_size), dtype=np.int64)
        shuffle_many(rules.deck_cards, lot_keys(self.seeds), lots)
        self.first_dealer = np.empty(count, dtype=np.int64)
        first_dealer_many(lots, players, rules.first_dealer, self.first_dealer)
        self.scores = np.zeros((count, players), dtype=np.int64)
        self.leader = np.full(count, -1, dtype=np.int64)
        self.lead_changes = np.zeros(count, dtype=np.int64)
        self.all_made = np.zeros((count, players), dtype=bool)
        self.best_points = np.zeros((count, players), dtype=np.int64)
        self.fault_deal = np.full(count, -1, dtype=np.int64)
        self.errors: list[str | None] = [None] * count
        self.decision_count = 0
        deals = rules.schedule_length + rules.tie_deals
        self.deal_count = deals
        self.kind_names = tuple(rules.variant.kinds)
        # Records, deal-major while playing (one deal's rows are contiguous); transposed at the end.
        self.deal_played = np.zeros((deals, count), dtype=bool)
        self.deal_kind = np.zeros((deals, count), dtype=np.int8)
        self.deal_block = np.full((deals, count), -1, dtype=np.int16)
        self.deal_special = np.zeros((deals, count), dtype=bool)
        self.hand_size = np.zeros((deals, count), dtype=np.int16)
        self.dealer = np.full((deals, count), -1, dtype=np.int8)
        self.trump = np.full((deals, count), -1, dtype=np.int8)
        self.hook_forced = np.zeros((deals, count), dtype=bool)
        self.joker_holder = np.full((deals, count, 2), -1, dtype=np.int8)
        self.participated = np.zeros((deals, count, players), dtype=bool)
        self.bid = np.full((deals, count, players), -1, dtype=np.int8)
        self.tricks = np.zeros((deals, count, players), dtype=np.int8)
        self.points = np.zeros((deals, count, players), dtype=np.int32)
        self.premium = np.zeros((deals, count, players), dtype=np.int32)
        self.log: BatchLog | None = None
        if record:
            plays = max(rules.deck_size, max((p.tricks * players for p in rules.plans), default=0))
            self.log = BatchLog(
                hands=np.zeros((count, deals, players), dtype=np.uint64),
                trump_card=np.full((count, deals), -1, dtype=np.int64),
                trump_namer=np.full((count, deals), -1, dtype=np.int64),
                bid_order=np.full((count, deals, players), -1, dtype=np.int64),
                plays=np.full((count, deals, plays, 4), -1, dtype=np.int64),
                winners=np.full((count, deals, plays), -1, dtype=np.int64),
            )

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> BatchResult:
        """Play every game to the end and return the result."""
        started = time.perf_counter()
        rules = self.rules
        for index, strategy in enumerate(self.instances):
            start = getattr(strategy, "start", None)
            if start is None:
                continue
            try:
                start(rules.variant, self.players, self.seeds)
            except Exception as error:  # its bug errors the games it sits in, not the batch
                seated = np.flatnonzero((self.seat_instance == index).any(axis=1))
                for game in seated:
                    if self.fault_deal[game] < 0:
                        self.fault_deal[game] = 0
                        self.errors[game] = (f"{_spec(strategy)} raised before the first deal, "
                                             f"start: {type(error).__name__}: {error}")
        every = np.arange(self.count)
        seats = np.arange(self.players)
        for plan in rules.plans:
            dealer = (self.first_dealer + plan.number) % self.players
            order = (dealer[:, None] + 1 + seats[None, :]) % self.players
            self.play_deal(plan, every, order, dealer)
        alive = np.ones(self.count, dtype=bool)
        for extra in range(rules.tie_deals):
            number = rules.schedule_length + extra
            tied = self.scores == self.scores.max(axis=1)[:, None]
            tied_count = tied.sum(axis=1)
            alive &= tied_count > 1
            for size in np.unique(tied_count[alive]):
                games = np.flatnonzero(alive & (tied_count == size))
                dealer = (self.first_dealer[games] + number) % self.players
                order = order_from(dealer, tied[games], self.players)
                plan = rules.plan(number, rules.tie_hand_size(int(size)), "golden", -1, int(size))
                self.play_deal(plan, games, order, dealer)
        return self.finish(time.perf_counter() - started)

    def play_deal(self, plan: DealPlan, games: np.ndarray, order: np.ndarray,
                  dealer: np.ndarray) -> None:
        """Play one deal in the games ``games`` (their seats in ``order``, by position)."""
        rules = self.rules
        state = DealState(plan, games, order, dealer, self.history)
        start_deal(rules, state, self.seeds[games])
        if self.log is not None:
            self.log.hands[games[:, None], plan.number, order] = state.hands
        if (state.namer >= 0).any():
            name_trump(self, state)
        if plan.bidding != "none":
            for position in range(state.participants):
                bid_step(self, state, position)
        start_play(rules, state)
        first_calls = later_calls = None
        if rules.has_jokers:
            first_calls, later_calls = lead_call_masks(self, state)
        start_tricks(self, state)
        for trick in range(plan.tricks):
            calls = first_calls if trick == 0 else later_calls
            for _ in range(state.participants):
                play_step(self, state, calls)
            end_trick(self, state)
        self.score_deal(state)

    def score_deal(self, state: DealState) -> None:
        """``Game._score_deal`` and ``_premiums``, and the deal's records."""
        plan = state.plan
        rules = self.rules
        games = state.games
        number = plan.number
        points = plan.points[state.bids + 1, state.taken] + state.fines
        premiums = np.zeros_like(points)
        flat = games[:, None] * self.players + state.order
        if rules.premium != "none" and plan.block >= 0:
            all_made = self.all_made.ravel()[flat]
            best = self.best_points.ravel()[flat]
            counted = not (plan.premium_closes and rules.premium_last_excluded)
            premiums_many(state.bids, state.taken, points, state.order, plan.premium_opens,
                          plan.premium_closes, counted, rules.premium_mode,
                          rules.premium_points, rules.premium_others, rules.premium_several,
                          all_made, best, premiums)
            self.all_made.ravel()[flat] = all_made
            self.best_points.ravel()[flat] = best
        self.scores.ravel()[flat] += points + premiums
        # tournament.shard._lead_changes, one deal at a time
        totals = self.scores[games]
        at_top = totals == totals.max(axis=1)[:, None]
        unique = at_top.sum(axis=1) == 1
        current = np.argmax(at_top, axis=1)
        leader = self.leader[games]
        self.lead_changes[games] += unique & (leader >= 0) & (current != leader)
        self.leader[games] = np.where(unique, current, leader)
        self.deal_played[number, games] = True
        self.deal_kind[number, games] = self.kind_names.index(plan.kind_name)
        self.deal_block[number, games] = plan.block
        self.deal_special[number, games] = plan.kind.special
        self.hand_size[number, games] = plan.hand_size
        self.dealer[number, games] = state.dealer
        self.trump[number, games] = state.trump
        self.hook_forced[number, games] = state.hook_forced
        self.joker_holder[number, games] = state.joker_holders
        self.participated[number].ravel()[flat] = True
        self.bid[number].ravel()[flat] = state.bids
        self.tricks[number].ravel()[flat] = state.taken
        self.points[number].ravel()[flat] = points
        self.premium[number].ravel()[flat] = premiums
        if self.log is not None:
            self._record(state)

    def _record(self, state: DealState) -> None:
        log = self.log
        assert log is not None
        games, number, order = state.games, state.plan.number, state.order
        log.trump_card[games, number] = state.trump_card
        log.trump_namer[games, number] = np.where(state.trump_how == 6, state.namer, -1)
        log.bid_order[games, number, : state.participants] = order
        tricks, participants = state.plan.tricks, state.participants
        positions = state.history_positions.reshape(state.count, -1)
        seats = np.take_along_axis(order, positions, axis=1)
        plays = np.stack([seats, state.history_cards.reshape(state.count, -1),
                          state.history_calls.reshape(state.count, -1),
                          state.history_suits.reshape(state.count, -1)], axis=2)
        log.plays[games, number, : tricks * participants] = plays
        log.winners[games, number, :tricks] = np.take_along_axis(order, state.history_winners,
                                                                  axis=1)

    # -- decisions -------------------------------------------------------------------------------

    def decide(self, phase: str, observation: BatchObservation) -> Any:
        """Ask each strategy for its games' decisions; faults fall back to the first legal one."""
        self.decision_count += observation.count
        if len(self.instances) == 1:
            return self._ask(self.instances[0], phase, observation)
        acting = self.seat_instance[observation.games, observation.seat]
        outputs: list[np.ndarray] | None = None
        for index in np.unique(acting):
            rows = np.flatnonzero(acting == index)
            sub = observation.take(rows) if len(rows) < observation.count else observation
            answer = self._ask(self.instances[index], phase, sub)
            parts = list(answer) if phase == "play" else [answer]
            if outputs is None:
                outputs = [np.zeros(observation.count, dtype=np.int64) for _ in parts]
            for output, part in zip(outputs, parts, strict=True):
                output[rows] = part
        assert outputs is not None
        return tuple(outputs) if phase == "play" else outputs[0]

    def _ask(self, strategy: Any, phase: str, observation: BatchObservation) -> Any:
        try:
            return getattr(strategy, _METHODS[phase])(observation)
        except Exception as error:  # a batch strategy's own bug: errored games, not a crash
            rows = np.arange(observation.count)
            seats = observation.seat
            spec = _spec(strategy)
            messages = [f"seat {seat} ({spec}) raised in deal {observation.deal_number + 1}, "
                        f"{phase}: {type(error).__name__}: {error}" for seat in seats]
            observation.report_faults(rows, messages)
            return self._first_legal(phase, observation)

    def _first_legal(self, phase: str, observation: BatchObservation) -> Any:
        if phase == "trump":
            return np.zeros(observation.count, dtype=np.int64)
        if phase == "bid":
            return lowest_card(observation.legal_bids)
        legal = observation.legal_cards
        calls = observation.legal_calls if self.rules.has_jokers else None
        count = observation.count
        return self.fallback_play(legal, calls, np.zeros(count, dtype=np.int64),
                                  np.zeros(count, dtype=np.int64), np.full(count, -1),
                                  np.ones(count, dtype=bool), lead=observation.trick_position == 0)

    def fallback_play(self, legal: np.ndarray, calls: np.ndarray | None, card: np.ndarray,
                      call: Any, suit: Any, bad: np.ndarray, *, lead: bool
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The reference's first legal play where ``bad``, the given play elsewhere."""
        ordinary = legal & NOT_JOKERS
        first = np.where(ordinary != 0, lowest_card(ordinary), lowest_card(legal & JOKER_BITS))
        card = np.where(bad, first, card)
        call = np.broadcast_to(np.asarray(call, dtype=np.int64), card.shape).copy()
        suit = np.broadcast_to(np.asarray(suit, dtype=np.int64), card.shape).copy()
        if calls is not None:
            option = self.first_call_option(calls, lead)
            call = np.where(bad & (card >= 52), OPTION_CALL[option], np.where(bad, 0, call))
            suit = np.where(bad & (card >= 52), OPTION_SUIT[option], np.where(bad, -1, suit))
        return card, call, suit

    def first_call_option(self, calls: np.ndarray, lead: bool) -> np.ndarray:
        """The first legal Joker call in the reference's order of legal actions."""
        order = self.rules.call_order(lead)
        chosen = np.full(calls.shape, 0, dtype=np.int64)
        found = np.zeros(calls.shape, dtype=bool)
        for option in order:
            here = ~found & (((calls >> option) & 1) == 1)
            chosen = np.where(here, option, chosen)
            found |= here
        return chosen

    def illegal(self, state: DealState, observation: BatchObservation, rows: np.ndarray,
                texts: list[str]) -> None:
        """Record the games of ``rows`` whose strategy answered an illegal action."""
        seats = observation.seat[rows]
        acting = self.seat_instance[observation.games[rows], seats]
        messages = [
            f"seat {seat} ({_spec(self.instances[index])}) illegal in deal "
            f"{state.plan.number + 1}, {observation.phase}: returned {text}, not a legal action"
            for seat, index, text in zip(seats, acting, texts, strict=True)
        ]
        observation.report_faults(rows, messages)

    def record_faults(self, state: DealState, rows: np.ndarray, messages: list[str]) -> None:
        """Mark games (rows of ``state``) errored in this deal, keeping each game's first fault."""
        for row, message in zip(rows, messages, strict=True):
            game = int(state.games[row])
            if self.fault_deal[game] < 0:
                self.fault_deal[game] = state.plan.number
                self.errors[game] = message

    def count_decisions(self, state: DealState, rows: np.ndarray | None,
                        seat: np.ndarray | None) -> None:
        """Advance each mover's decision counter (only when a strategy reads it)."""
        if self.decisions is None or seat is None:
            return
        games = state.games if rows is None else state.games[rows]
        self.decisions.ravel()[games * self.players + seat] += 1

    # -- the result ------------------------------------------------------------------------------

    def finish(self, seconds: float) -> BatchResult:
        """Assemble the ``BatchResult`` (games cut short by a fault keep their earlier deals)."""
        deals = np.arange(self.deal_count)[None, :]
        errored = self.fault_deal >= 0
        cut = np.where(errored, self.fault_deal, self.deal_count)

        def games_first(array: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(np.swapaxes(array, 0, 1))

        played = games_first(self.deal_played) & (deals < cut[:, None])
        result = BatchResult(
            variant=self.rules.variant, players=self.players, seeds=self.seeds,
            first_dealer=self.first_dealer, scores=self.scores, places=self.scores,
            double_loss=self.scores, deals_played=played.sum(axis=1),
            lead_changes=np.zeros(self.count, dtype=np.int64), errored=errored,
            errors=self.errors, kind_names=self.kind_names, deal_played=played,
            deal_kind=games_first(self.deal_kind), deal_block=games_first(self.deal_block),
            deal_special=games_first(self.deal_special), hand_size=games_first(self.hand_size),
            dealer=games_first(self.dealer), trump=games_first(self.trump),
            hook_forced=games_first(self.hook_forced),
            joker_holder=games_first(self.joker_holder),
            participated=games_first(self.participated) & played[:, :, None],
            bid=games_first(self.bid), tricks=games_first(self.tricks),
            points=games_first(self.points), premium=games_first(self.premium), log=self.log,
            seconds=seconds, decisions=self.decision_count,
        )
        scores = self.scores.copy()
        changes = self.lead_changes.copy()
        faulted = np.flatnonzero(errored)
        if len(faulted):  # totals and lead changes of the deals before the fault only
            kept = played[faulted]
            gained = np.where(kept[:, :, None], result.points[faulted] + result.premium[faulted],
                              0)
            totals = np.cumsum(gained, axis=1)
            scores[faulted] = totals[:, -1, :]
            changes[faulted] = lead_changes_of(totals, kept)
        result.scores = scores
        result.places = places_of(scores)
        result.double_loss = (scores < 0) if self.rules.double_loss else np.zeros_like(scores,
                                                                                      dtype=bool)
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
    same deals as ``engine.Game``. Where every strategy is also a compiled policy
    (``engine.batch.compiled``) and ``compiled`` is left on, whole games are played in one
    compiled loop instead, with the very same decisions and result.
    """
    if compiled and not record:
        runner = compiled_runner(strategies)
        if runner is not None:
            seeds = as_seeds(seeds)
            instances, seat_instance = seating(strategies, seatings, len(seeds), players)
            return play_compiled(variant, players, seeds, instances, seat_instance, runner)
    return BatchGame(variant, players, seeds, strategies, seatings, record=record).run()


__all__ = ["BatchGame", "play_batch"]
