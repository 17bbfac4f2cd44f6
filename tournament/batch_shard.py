"""A tournament shard played by the batch engine: ``run_shard_batch(task) -> ShardResult``.

The same ``ShardTask`` in, the same tables out as ``tournament.shard.run_shard``, with the games
played in lockstep batches. Each lineup slot gets its batch strategy (``load_batch_strategy``: the
vectorised implementation of its spec, or the scalar strategy through ``ScalarAdapter``); game
seeds, game ids and seatings are derived exactly as ``run_shard`` derives them. Use it when every
seat's spec has a batch implementation (``can_run_batch``); otherwise the adapter makes it work,
but no faster than the scalar engine.

``engine_for(lineup, ...)`` is the one answer to which engine plays a lineup, and why: a run's
engine (``TournamentConfig.resolved_engine``), the note ``raspis tournament`` prints when a lineup
falls back on the scalar engine, and the check of ``--engine batch`` all read it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from raspis.engine import rng as chance
from raspis.engine.batch.game import play_batch
from raspis.engine.batch.rng import splitmix64
from raspis.engine.variant import Variant

from .frames import merge_deal_stats, result_frames
from .task import (
    TAMPERED,
    ShardResult,
    ShardTask,
    changed_keys,
    check_strong_table,
    variant_fingerprint,
)

#: Games played in one lockstep batch (bounds memory: about 25 kB a game while it plays).
DEFAULT_CHUNK = 16384


def can_run_batch(strategies: Sequence[str], *, exact: bool = False) -> bool:
    """True when every spec has a vectorised batch implementation; with ``exact``, one that plays
    exactly the scalar strategy's games (so the dataset is the scalar engine's, row for row)."""
    from raspis.strategies.batch import has_batch_implementation, plays_like_scalar

    check = plays_like_scalar if exact else has_batch_implementation
    return all(check(spec) for spec in strategies)


def can_run_compiled(strategies: Sequence[str]) -> bool:
    """True when every spec's batch implementation is also a compiled policy, so a batch of them
    runs on the rules core's state machine (``engine.batch.compiled``), not in numpy lockstep:
    ``compiled.shared_runner``, as ``play_batch`` decides it."""
    from raspis.engine.batch.compiled import shared_runner
    from raspis.strategies.batch import batch_class

    found = [batch_class(spec) for spec in strategies]
    return None not in found and shared_runner([entry[0] for entry in found]) is not None


@dataclass(frozen=True)
class EngineChoice:
    """Which engine plays a lineup (``engine_for``), and why."""

    #: ``scalar`` (``engine.Game``, a game at a time) or ``batch`` (``engine.batch``)
    engine: str
    #: on the batch engine, how: ``compiled`` (every seat a compiled policy: whole games in one
    #: compiled loop) or ``lockstep`` (some seat decides in numpy or Python between the steps);
    #: None on the scalar engine
    loop: str | None
    #: the reason, in words
    reason: str
    #: why a seat that decides in numpy cannot play a variant of the run
    #: (``RulePlan.lockstep_refusal``), or None
    refusal: str | None = None
    #: the lineup seats whose spec has no batch implementation
    missing: tuple[int, ...] = ()


def engine_for(lineup: Sequence[str], variants: Sequence[str] = (), players: int = 0,
               asked: str = "auto") -> EngineChoice:
    """Which engine plays ``lineup`` (specs, one per lineup seat) on ``variants`` at ``players``
    seats, ``asked`` the engine the run asks for (``auto``, ``scalar``, ``batch``), and why.

    The steps, all here: a spec has a batch implementation when its built-in record names a batch
    class (``strategies.catalogue``, read by ``strategies.batch.batch_class``); a lineup whose
    every spec has one plays on the batch engine under ``auto``. There, when every seat's batch
    class is also a compiled policy (``can_run_compiled``), ``engine.batch.play_batch`` plays
    whole games in one compiled loop; otherwise in lockstep, where a seat that decides in numpy
    cannot be shown some rules (a named Joker, the keep decision, the draw's stock:
    ``RulePlan.lockstep_refusal``): such a variant sends an ``auto`` run to the scalar engine."""
    from raspis.strategies.batch import has_batch_implementation

    missing = tuple(slot for slot, spec in enumerate(lineup) if not has_batch_implementation(spec))
    compiled = not missing and can_run_compiled(lineup)
    refusal = None if compiled else lockstep_refusal(variants, players)
    loop = "compiled" if compiled else "lockstep"
    if asked == "scalar":
        return EngineChoice("scalar", None, "the scalar engine, as asked", refusal, missing)
    if asked == "batch":
        return EngineChoice("batch", loop, "the batch engine, as asked", refusal, missing)
    if missing:
        named: dict[str, list[str]] = {}
        for slot in missing:
            named.setdefault(lineup[slot], []).append(str(slot))
        seats = "; ".join(f"lineup seat{'s' if len(slots) > 1 else ''} {', '.join(slots)} "
                          f"({spec})" for spec, slots in named.items())
        return EngineChoice("scalar", None, f"no batch version of {seats}", refusal, missing)
    if refusal:
        return EngineChoice("scalar", None, refusal, refusal, missing)
    why = ("every seat a compiled policy: whole games in one compiled loop" if compiled else
           "every seat has a batch version: lockstep batches")
    return EngineChoice("batch", loop, why, refusal, missing)


def lockstep_refusal(variants: Sequence[str], players: int) -> str | None:
    """Why a numpy batch strategy cannot play a variant of ``variants`` at ``players`` seats
    (``RulePlan.lockstep_refusal``: the one list of such options), or None."""
    from raspis.engine.core.plan import RulePlan
    from raspis.engine.variant import load_variant

    for spec in variants:
        try:
            refusal = RulePlan(load_variant(spec), players).lockstep_refusal()
        except Exception:  # a bad variant or player count is reported by ``validate_config``
            continue
        if refusal:
            return refusal
    return None


def game_seeds(root_seed: int, deal_sets: np.ndarray) -> np.ndarray:
    """``tournament.shard.game_seed(root_seed, deal_set)`` for every deal set."""
    base = np.uint64(chance.splitmix64(root_seed & chance.MASK64))
    return splitmix64(base ^ np.asarray(deal_sets, dtype=np.int64).astype(np.uint64))


def run_shard_batch(task: ShardTask, *, chunk: int = DEFAULT_CHUNK) -> ShardResult:
    """Play every game of a shard with the batch engine and return its tables."""
    from raspis.strategies.batch import load_batch_strategy


    started = time.perf_counter()
    check_strong_table(task)
    variant = Variant.model_validate(task.variant_options)
    resolved = variant.for_player_count(task.players)
    original = variant.model_dump(mode="json")
    intact = (variant_fingerprint(variant), variant_fingerprint(resolved))
    instances = []
    by_spec: dict[str, object] = {}
    for spec in task.strategies:
        instance = by_spec.get(spec)
        if instance is None or not getattr(instance, "shareable", False):
            instance = load_batch_strategy(spec, decision_seconds=task.decision_seconds)
            by_spec[spec] = instance
        instances.append(instance)
    pairs = np.array(task.games, dtype=np.int64).reshape(-1, 2)
    all_seatings = np.array(task.seatings, dtype=np.int64)
    games_frames, deals_frames, stats_frames, sums_frames = [], [], [], []
    errored = 0
    faults: list[str] = []
    for start in range(0, len(pairs), chunk):
        deal_sets = pairs[start:start + chunk, 0]
        seating_index = pairs[start:start + chunk, 1]
        seeds = game_seeds(task.root_seed, deal_sets)
        seatings = all_seatings[seating_index]
        result = play_batch(resolved, task.players, seeds, instances, seatings)
        if (variant_fingerprint(variant), variant_fingerprint(resolved)) != intact:
            # A strategy wrote into the variant: every game of this batch is void, and the next
            # batch gets a variant rebuilt from the task's options.
            text = TAMPERED.format(keys=", ".join(changed_keys(variant, original)))
            text = text.replace("this game", "this batch of games")
            result.errored[:] = True
            result.errors = [text if error is None else f"{error}; and {text}"
                             for error in result.errors]
            variant = Variant.model_validate(task.variant_options)
            resolved = variant.for_player_count(task.players)
        game_ids = ((task.variant_index * task.seating_count + seating_index)
                    * task.total_deal_sets + deal_sets)
        games, deals, stats, sums = result_frames(
            result, variant=variant, strategies=task.strategies, seatings=seatings,
            deal_sets=deal_sets, seating_index=seating_index, game_ids=game_ids,
            deal_rows=task.deal_rows, total_deal_sets=task.total_deal_sets)
        games_frames.append(games)
        if deals is not None:
            deals_frames.append(deals)
        stats_frames.append(stats)
        sums_frames.append(sums)
        for game in np.flatnonzero(result.errored):
            errored += 1
            if len(faults) < 5:
                faults.append(f"game {int(game_ids[game])} (deal set {int(deal_sets[game])}): "
                              f"{result.errors[game]}")
    from raspis.tournament.schema import empty_frame

    return ShardResult(
        shard_id=task.shard_id,
        games=pl.concat(games_frames) if games_frames else empty_frame("games"),
        deals=(pl.concat(deals_frames) if deals_frames else empty_frame("deals"))
        if task.deal_rows else None,
        deal_stats=merge_deal_stats(stats_frames) if stats_frames else empty_frame("deal_stats"),
        game_count=len(task.games),
        errored=errored,
        faults=faults,
        seconds=time.perf_counter() - started,
        game_sums=(pl.concat(sums_frames) if sums_frames else empty_frame("game_sums"))
        if task.game_sums else None,
    )
