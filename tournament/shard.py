"""One shard of a tournament: a block of deal sets under one variant and one seating.

A shard's games depend only on the root seed, the variant and the shard's identity (the deal sets
and the seating), never on which worker or executor runs it or when: every game seed is derived
from the root seed and the deal set, and every strategy's generator from the game seed and the seat.
``run_shard`` is a plain function of a picklable ``ShardTask`` so that local processes and a Dask
cluster run exactly the same code; it returns polars frames and writes nothing.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from raspis.engine import Variant
from raspis.engine import rng as chance
from raspis.strategies import load_strategy, play_game

from .schema import DEAL_STATS_SCHEMA, DEALS_SCHEMA, GAMES_SCHEMA


@dataclass(frozen=True)
class ShardTask:
    """Everything a worker needs to play one shard (picklable, small)."""

    shard_id: str
    variant_index: int
    variant_options: dict[str, Any]
    players: int
    strategies: tuple[str, ...]
    #: seat -> lineup slot, one tuple per seating index this shard may use
    seatings: tuple[tuple[int, ...], ...]
    #: (deal_set, seating index) pairs, in order
    games: tuple[tuple[int, int], ...]
    root_seed: int
    total_deal_sets: int
    seating_count: int
    deal_rows: bool
    decision_seconds: float | None
    #: "scalar" (engine.Game, one game at a time) or "batch" (engine.batch, games in lockstep)
    engine: str = "scalar"


@dataclass
class ShardResult:
    """What a shard produced: its tables and a summary."""

    shard_id: str
    games: pl.DataFrame
    deals: pl.DataFrame | None
    deal_stats: pl.DataFrame
    game_count: int
    errored: int
    faults: list[str] = field(default_factory=list)
    seconds: float = 0.0


def game_seed(root_seed: int, deal_set: int) -> int:
    """The seed of every game of ``deal_set``: the same cards under every seating and variant."""
    return chance.mix(root_seed, deal_set)


def game_id(task: ShardTask, deal_set: int, seating: int) -> int:
    """A run-unique id of the game of ``deal_set`` at ``seating`` under the shard's variant."""
    return (task.variant_index * task.seating_count + seating) * task.total_deal_sets + deal_set


def _lead_changes(totals: list[tuple[int, ...]]) -> int:
    changes = 0
    leader: int | None = None
    for row in totals:
        top = max(row)
        leaders = [seat for seat, score in enumerate(row) if score == top]
        current = leaders[0] if len(leaders) == 1 else None
        if current is not None and leader is not None and current != leader:
            changes += 1
        if current is not None:
            leader = current
    return changes


_VARIANTS: dict[str, Variant] = {}


def shard_variant(options: dict[str, Any]) -> Variant:
    """The variant of a task, built once per process: strategies cache what they derive from a
    variant object (the heuristic's calibration), so every shard should get the same object."""
    key = json.dumps(options, sort_keys=True)
    variant = _VARIANTS.get(key)
    if variant is None:
        variant = _VARIANTS[key] = Variant.model_validate(options)
    return variant


def run_shard(task: ShardTask) -> ShardResult:
    """Play every game of a shard and return its tables."""
    started = time.perf_counter()
    variant = shard_variant(task.variant_options)
    resolved = variant.for_player_count(task.players)
    variant_hash = variant.content_hash
    instances = [load_strategy(spec) for spec in task.strategies]
    games_columns: dict[str, list[Any]] = {name: [] for name in GAMES_SCHEMA}
    deals_columns: dict[str, list[Any]] = {name: [] for name in DEALS_SCHEMA}
    stats: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0] * 12)
    errored = 0
    faults: list[str] = []
    players = task.players
    for deal_set, seating_index in task.games:
        seating = task.seatings[seating_index]
        seed = game_seed(task.root_seed, deal_set)
        lineup = [instances[slot] for slot in seating]
        # One instance per lineup slot: a slot used twice (same strategy object) would share
        # state, so give duplicated slots their own copies.
        if len(set(map(id, lineup))) < players:
            lineup = [load_strategy(task.strategies[slot]) for slot in seating]
        record = play_game(resolved, players, seed, lineup,
                           decision_seconds=task.decision_seconds)
        game = record.game
        identifier = game_id(task, deal_set, seating_index)
        fault = record.fault
        if fault is not None:
            errored += 1
            if len(faults) < 5:
                faults.append(f"game {identifier} (deal set {deal_set}): {fault}")
        places = game.places()
        double = game.double_losses()
        changes = _lead_changes([result.totals for result in game.results])
        for seat in range(players):
            slot = seating[seat]
            values = (
                variant.name, variant_hash, deal_set, seating_index, identifier, seed, players,
                seat, game.first_dealer, task.strategies[slot], slot, game.scores[seat],
                places[seat], places[seat] == 1, double[seat], len(game.results), changes,
                fault is not None, None if fault is None else str(fault),
            )
            for name, value in zip(GAMES_SCHEMA, values, strict=True):
                games_columns[name].append(value)
        for result in game.results:
            kind = resolved.kinds[result.kind]
            block = game.deals[result.number].block
            for seat in range(players):
                bid = result.bids[seat]
                if bid is None and kind.bidding != "none":
                    continue  # sat out a tie-break deal
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
                        variant_hash, identifier, deal_set, seating_index, result.number, block,
                        result.kind, kind.special, result.hand_size, seat, strategy, offset,
                        result.trump, bid, taken, points, result.premiums[seat], sum(held),
                        held1, held2, forced,
                    )
                    for name, value in zip(DEALS_SCHEMA, values, strict=True):
                        deals_columns[name].append(value)
                key = (strategy, offset, result.number, result.kind, kind.special,
                       result.hand_size, held1, held2)
                row = stats[key]
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
    stats_columns: dict[str, list[Any]] = {name: [] for name in DEAL_STATS_SCHEMA}
    for key, row in stats.items():
        strategy, offset, number, kind_name, special, hand_size, held1, held2 = key
        values = (variant_hash, strategy, offset, number, kind_name, special, hand_size, held1,
                  held2, *row)
        for name, value in zip(DEAL_STATS_SCHEMA, values, strict=True):
            stats_columns[name].append(value)
    return ShardResult(
        shard_id=task.shard_id,
        games=pl.DataFrame(games_columns, schema=GAMES_SCHEMA),
        deals=pl.DataFrame(deals_columns, schema=DEALS_SCHEMA) if task.deal_rows else None,
        deal_stats=pl.DataFrame(stats_columns, schema=DEAL_STATS_SCHEMA),
        game_count=len(task.games),
        errored=errored,
        faults=faults,
        seconds=time.perf_counter() - started,
    )


def run_shard_on_engine(task: ShardTask) -> ShardResult:
    """Run a shard on the engine the task names (the function every executor maps)."""
    if task.engine == "batch":
        from raspis.tournament.batch_shard import run_shard_batch

        return run_shard_batch(task)
    return run_shard(task)
