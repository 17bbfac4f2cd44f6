"""A shard's identity and the checks around it: ``ShardTask`` (everything a worker needs to play
one shard: a block of deal sets under one variant and one seating, picklable and small),
``ShardResult`` (its tables), the seeds and ids of its games, and the variant guard (a strategy
that writes into the variant voids its game).

A shard's games depend only on the root seed, the variant and the shard's identity, never on which
worker or executor runs it or when: every game seed is derived from the root seed and the deal
set, and every strategy's generator from the game seed and the seat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import polars as pl
from raspis.engine import Variant
from raspis.engine import rng as chance


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
    #: the fitted bid table ``strong`` (and ``mc``'s playouts) bids with in this variant, as the
    #: run's parent found it (``policies.fitted.Fit.identity``); "" when no seat plays with it
    strong_table: str = ""
    #: whether the shard writes its games' deal-level sums (``game_sums/``: every run since they
    #: exist; a run written before them, resumed, goes on without)
    game_sums: bool = True


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
    #: each game's deal-level sums (``schema.GAME_SUMS_SCHEMA``)
    game_sums: pl.DataFrame | None = None


def check_strong_table(task: ShardTask) -> None:
    """Refuse to play a shard where this process would bid with another ``strong`` table than
    the run's parent found (a Dask worker with a ``RASPIS_FIT_DIR`` of its own, lacking or
    holding another fit): its games would be bid with another table than the rest of the run's."""
    if not task.strong_table:
        return
    from raspis.strategies.policies.fitted import find_fit

    here = find_fit(shard_variant(task.variant_options), task.players)
    if here.identity != task.strong_table:
        raise RuntimeError(
            f"strong would bid with another fitted table on this machine ({here.identity}) than "
            f"the run's ({task.strong_table}): give this worker the same RASPIS_FIT_DIR files "
            "(raspis strategies fit writes them; docs/cluster.md)")


def game_seed(root_seed: int, deal_set: int) -> int:
    """The seed of every game of ``deal_set``: the same cards under every seating and variant."""
    return chance.mix(root_seed, deal_set)


def game_id(task: ShardTask, deal_set: Any, seating: Any) -> Any:
    """A run-unique id of the game of ``deal_set`` at ``seating`` under the shard's variant (an
    int, or for numpy arrays of deal sets and seatings an array of ids)."""
    return (task.variant_index * task.seating_count + seating) * task.total_deal_sets + deal_set


_VARIANTS: dict[str, Variant] = {}


def shard_variant(options: dict[str, Any]) -> Variant:
    """The variant of a task, built once per process: strategies cache what they derive from a
    variant object (the heuristic's calibration), so every shard should get the same object."""
    key = json.dumps(options, sort_keys=True)
    variant = _VARIANTS.get(key)
    if variant is None:
        variant = _VARIANTS[key] = Variant.model_validate(options)
    return variant


def forget_variants() -> None:
    """Drop the variants built so far (``shard_variant``): after a strategy wrote into one, the
    next game gets one rebuilt from the task's options."""
    _VARIANTS.clear()


def variant_fingerprint(variant: Variant) -> str:
    """Every option of ``variant`` as text, recomputed now (not the cached ``content_hash``): a
    strategy that writes into the variant changes it. Never raises (a dump that fails reads as
    changed)."""
    try:
        return json.dumps(variant.model_dump(mode="json"), sort_keys=True, default=repr)
    except Exception as error:  # a value that cannot be dumped: someone wrote into the model
        return f"<cannot be dumped: {type(error).__name__}>"


def changed_keys(variant: Variant, original: dict[str, Any]) -> list[str]:
    try:
        now = variant.model_dump(mode="json")
    except Exception:
        return ["(cannot be read back)"]
    keys = sorted(set(now) | set(original))
    return [key for key in keys if now.get(key) != original.get(key)] or ["(its internals)"]


TAMPERED = ("the variant was changed during this game (a strategy wrote into it: {keys}); the game "
            "is void and the next game gets an intact variant")
