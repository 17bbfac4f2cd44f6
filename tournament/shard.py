"""Playing a shard on the scalar engine (``engine.Game``, one game at a time): ``run_shard`` is
a plain function of a ``ShardTask`` (``tournament.task``) so that local worker processes and a
Dask cluster run exactly the same code; it returns polars frames and writes nothing. The batch
engine's counterpart is ``tournament.batch_shard``; ``tournament.process`` runs either.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import polars as pl
from raspis.engine import Variant
from raspis.strategies import play_game

from .schema import (
    DEAL_STATS_KEYS,
    DEAL_STATS_SCHEMA,
    DEALS_SCHEMA,
    GAME_SUMS_SCHEMA,
    GAMES_SCHEMA,
    TOP_UNITS,
    deal_block,
)
from .task import (
    TAMPERED,
    ShardResult,
    ShardTask,
    changed_keys,
    check_strong_table,
    forget_variants,
    game_id,
    game_seed,
    shard_variant,
    variant_fingerprint,
)

__all__ = ["ShardResult", "ShardTask", "errored_shard", "game_id", "game_seed", "run_shard"]


def _outcomes(game: Any, resolved: Variant, players: int,
              places: list[int]) -> tuple[int, bool, int]:
    """A game's lead changes, comeback and deals left when decided, from its running totals, by
    the functions the batch engine's rows use (``engine.batch.result``)."""
    from raspis.engine.batch.result import drama_of, lead_changes_of
    from raspis.engine.core.plan import rule_plan

    totals = np.array([result.totals for result in game.results], dtype=np.int64).reshape(
        1, len(game.results), players)
    played = np.ones(totals.shape[:2], dtype=bool)
    comeback, decided_left = drama_of(totals, played, np.array([places]),
                                      rule_plan(resolved, players).swing_bounds)
    return (int(lead_changes_of(totals, played)[0]), bool(comeback[0]), int(decided_left[0]))


def run_shard(task: ShardTask) -> ShardResult:
    """Play every game of a shard and return its tables. Every call into a strategy is inside the
    fault handling; a game during which the variant was changed is errored, and the next game gets
    a variant rebuilt from the task's options."""
    from raspis.engine import Game
    from raspis.strategies.play import GameRecord, StrategyFault, watch_game
    from raspis.strategies.registry import load_guarded

    started = time.perf_counter()
    check_strong_table(task)
    variant = shard_variant(task.variant_options)
    resolved = variant.for_player_count(task.players)
    variant_hash = variant.content_hash
    original = json.loads(variant_fingerprint(variant))
    intact = (variant_fingerprint(variant), variant_fingerprint(resolved))
    instances: dict[int, Any] = {}
    broken: dict[int, str] = {}

    def instance(slot: int, fresh: bool = False) -> Any:
        if slot in broken:
            return None
        if slot in instances and not fresh:
            return instances[slot]
        made, problem = load_guarded(task.strategies[slot])
        if problem is not None:
            broken[slot] = f"__init__: {problem[1]}"
            return None
        if not fresh:
            instances[slot] = made
        return made

    rows = _Rows()
    errored = 0
    faults: list[str] = []
    players = task.players
    for index, (deal_set, seating_index) in enumerate(task.games):
        watch_game(index)
        seating = task.seatings[seating_index]
        seed = game_seed(task.root_seed, deal_set)
        lineup = [instance(slot) for slot in seating]
        # One instance per lineup slot: a slot used twice (same strategy object) would share
        # state, so give duplicated slots their own copies.
        if None not in lineup and len(set(map(id, lineup))) < players:
            lineup = [instance(slot, fresh=True) for slot in seating]
        specs = [task.strategies[slot] for slot in seating]
        if None in lineup:
            seat = lineup.index(None)
            record = GameRecord(Game(resolved, players, seed), StrategyFault(
                seat, specs[seat], "raised", 0, "start", broken.get(seating[seat], "__init__")))
        else:
            record = play_game(resolved, players, seed, lineup,
                               decision_seconds=task.decision_seconds, specs=specs)
        game = record.game
        identifier = game_id(task, deal_set, seating_index)
        fault: object = record.fault
        if (variant_fingerprint(variant), variant_fingerprint(resolved)) != intact:
            text = TAMPERED.format(keys=", ".join(changed_keys(variant, original)))
            fault = text if fault is None else f"{fault}; and {text}"
            forget_variants()
            variant = shard_variant(task.variant_options)
            resolved = variant.for_player_count(task.players)
        if fault is not None:
            errored += 1
            if len(faults) < 5:
                faults.append(f"game {identifier} (deal set {deal_set}): {fault}")
        rows.collect(task, _Played(variant.name, variant_hash, resolved, deal_set,
                                   seating_index, identifier, seed), game, fault)
    return _result(task, rows, errored, faults, started)


def errored_shard(task: ShardTask, cause: str) -> ShardResult:
    """A shard whose every game is recorded as errored with ``cause`` (a worker that died or was
    killed twice while playing it): the games' rows as an unplayed game gives them."""
    from raspis.engine import Game

    started = time.perf_counter()
    variant = Variant.model_validate(task.variant_options)
    resolved = variant.for_player_count(task.players)
    variant_hash = variant.content_hash
    rows = _Rows()
    for deal_set, seating_index in task.games:
        seed = game_seed(task.root_seed, deal_set)
        identifier = game_id(task, deal_set, seating_index)
        rows.collect(task, _Played(variant.name, variant_hash, resolved, deal_set,
                                   seating_index, identifier, seed),
                     Game(resolved, task.players, seed), cause)
    faults = [f"shard {task.shard_id} ({len(task.games)} games): {cause}"]
    return _result(task, rows, len(task.games), faults, started)


class _Played(NamedTuple):
    """Which game of a shard was played: its variant (name, content hash and the variant at its
    player count), deal set, seating, game id and seed."""

    variant_name: str
    variant_hash: str
    resolved: Variant
    deal_set: int
    seating_index: int
    identifier: int
    seed: int


@dataclass
class _Rows:
    """A shard's tables as they grow, game by game: the games and deals columns, the
    ``deal_stats`` sums by group key and each game's ``game_sums``."""

    games: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in GAMES_SCHEMA})
    deals: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in DEALS_SCHEMA})
    stats: dict[tuple[Any, ...], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0] * 13))
    sums: list[dict[str, Any]] = field(default_factory=list)

    def collect(self, task: ShardTask, played: _Played, game: Any, fault: object) -> None:
        """Add a played (or errored: ``fault``) game's rows."""
        variant_hash, resolved = played.variant_hash, played.resolved
        deal_set, seating_index, identifier = (played.deal_set, played.seating_index,
                                               played.identifier)
        players = task.players
        seating = task.seatings[seating_index]
        places = game.places()
        double = game.double_losses()
        changes, comeback, decided_left = _outcomes(game, resolved, players, places)
        self.sums.append({"variant_hash": variant_hash, "game_id": identifier,
                          "deal_set": deal_set, "seating": seating_index,
                          "errored": fault is not None, **_game_sums(game, resolved, players)})
        for seat in range(players):
            slot = seating[seat]
            values = (
                played.variant_name, variant_hash, deal_set, seating_index, identifier,
                played.seed, players, seat, game.view.first_dealer, task.strategies[slot], slot,
                game.scores[seat], places[seat], places[seat] == 1, double[seat],
                len(game.results), changes, comeback, decided_left, fault is not None,
                None if fault is None else str(fault),
            )
            for name, value in zip(GAMES_SCHEMA, values, strict=True):
                self.games[name].append(value)
        self._deals(task, played, game)

    def _deals(self, task: ShardTask, played: _Played, game: Any) -> None:
        """A game's per-deal rows (when the run keeps them) and its ``deal_stats`` sums."""
        players, resolved = task.players, played.resolved
        seating = task.seatings[played.seating_index]
        block_of_deal_sets = deal_block(played.deal_set, task.total_deal_sets)
        for result in game.results:
            kind = resolved.kinds[result.kind]
            block = game.deals[result.number].block
            # the seats that played the deal (a tie-break deal's tied seats), its top score and
            # how many share it
            seats = [seat for seat in range(players)
                     if result.bids[seat] is not None or kind.bidding == "none"]
            top = max((result.points[seat] for seat in seats), default=0)
            at_top = sum(result.points[seat] == top for seat in seats)
            for seat in seats:
                bid = result.bids[seat]
                taken = result.taken[seat]
                points = result.points[seat]
                held = [holder == seat for holder in result.jokers_held]
                held1 = held[0] if held else False
                held2 = held[1] if len(held) > 1 else False
                offset = (seat - result.dealer) % players
                forced = result.hook_forced and offset == 0
                strategy = task.strategies[seating[seat]]
                if task.deal_rows:
                    values = (
                        played.variant_hash, played.identifier, played.deal_set,
                        played.seating_index, result.number, block, result.kind, kind.special,
                        result.hand_size, seat, strategy, offset, result.trump, bid, taken,
                        points, result.premiums[seat], sum(held), held1, held2, forced,
                    )
                    for name, value in zip(DEALS_SCHEMA, values, strict=True):
                        self.deals[name].append(value)
                key = (block_of_deal_sets, strategy, offset, result.number, result.kind,
                       kind.special, result.hand_size, held1, held2)
                row = self.stats[key]
                row[0] += 1
                row[1] += points
                row[2] += points * points
                if bid is not None:
                    row[3] += 1
                    row[4] += bid
                    row[6] += bid == taken
                    row[7] += taken > bid
                    row[8] += taken < bid
                    row[9] += bid == 0
                    row[10] += bid == 0 and taken == 0
                row[5] += taken
                row[11] += forced
                row[12] += TOP_UNITS // at_top if points == top else 0


def _game_sums(game: Any, resolved: Variant, players: int) -> dict[str, Any]:
    """A game's deal-level sums (``frames.deal_sums``, the batch engine's function) from its
    results."""
    from .frames import deal_sums

    results = game.results
    count = len(results)
    rows = np.zeros((1, count, players), dtype=bool)
    dealer = np.zeros((1, count), dtype=np.int64)
    bid = np.full((1, count, players), -1, dtype=np.int64)
    tricks = np.zeros((1, count, players), dtype=np.int64)
    points = np.zeros((1, count, players), dtype=np.int64)
    holders = np.full((1, count, 2), -1, dtype=np.int64)
    forced = np.zeros((1, count), dtype=bool)
    for deal, result in enumerate(results):
        no_bidding = resolved.kinds[result.kind].bidding == "none"
        dealer[0, deal] = result.dealer
        forced[0, deal] = bool(result.hook_forced)
        for index, holder in enumerate(list(result.jokers_held)[:2]):
            holders[0, deal, index] = -1 if holder is None else holder
        for seat in range(players):
            said = result.bids[seat]
            rows[0, deal, seat] = said is not None or no_bidding
            bid[0, deal, seat] = -1 if said is None else said
            tricks[0, deal, seat] = result.taken[seat]
            points[0, deal, seat] = result.points[seat]
    return {name: int(values[0]) for name, values in
            deal_sums(rows, dealer, bid, tricks, points, holders, forced).items()}


def _result(task: ShardTask, rows: _Rows, errored: int, faults: list[str],
            started: float) -> ShardResult:
    variant_hash = Variant.model_validate(task.variant_options).content_hash
    stats_columns: dict[str, list[Any]] = {name: [] for name in DEAL_STATS_SCHEMA}
    for key, row in rows.stats.items():
        block, strategy, offset, number, kind_name, special, hand_size, held1, held2 = key
        values = (variant_hash, block, strategy, offset, number, kind_name, special, hand_size,
                  held1, held2, *row)
        for name, value in zip(DEAL_STATS_SCHEMA, values, strict=True):
            stats_columns[name].append(value)
    return ShardResult(
        shard_id=task.shard_id,
        games=pl.DataFrame(rows.games, schema=GAMES_SCHEMA),
        deals=pl.DataFrame(rows.deals, schema=DEALS_SCHEMA) if task.deal_rows else None,
        deal_stats=pl.DataFrame(stats_columns, schema=DEAL_STATS_SCHEMA).sort(DEAL_STATS_KEYS),
        game_count=len(task.games),
        errored=errored,
        faults=faults,
        seconds=time.perf_counter() - started,
        game_sums=pl.DataFrame(rows.sums, schema=GAME_SUMS_SCHEMA) if task.game_sums else None,
    )
