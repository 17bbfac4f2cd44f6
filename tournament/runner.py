"""Running a tournament: plan the shards, run them on an executor, write the dataset.

``run_tournament(config, out_dir)`` is the whole job, one call away from a notebook or the CLI. The
work is cut into shards (a block of deal sets under one variant and one seating); executors run the
same ``run_shard`` function: in this process, in local processes (``multiprocess``), or on a Dask
cluster. Results come back to this process, which writes each shard's Parquet files aside and
renames them into place, the games file last, so only complete shards count. A run killed at any
moment loses at most the shards in flight; ``resume=True`` finishes it, and since a shard's games
depend only on the configuration and the shard's identity, the finished dataset is identical to an
uninterrupted run's.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import math
import os
import platform
import signal
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from raspis import __version__
from raspis.engine import load_variant
from raspis.engine.errors import RaspisError
from raspis.strategies import load_strategy
from raspis.strategies.registry import display_names

from .schema import DEAL_ROWS_DEFAULT_LIMIT, TABLES
from .shard import ShardResult, ShardTask, run_shard_on_engine

MANIFEST = "manifest.json"
DUPLICATE_MODES = ("none", "rotations", "permutations")
ENGINES = ("auto", "scalar", "batch")
SEATING_MODES = ("rotate", "fixed")


class TournamentError(RaspisError):
    """A tournament that cannot run as asked (bad options, a directory holding another run)."""


@dataclass(frozen=True)
class TournamentConfig:
    """What to play. Two runs with equal configs produce identical datasets."""

    variants: tuple[str, ...]
    players: int
    strategies: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: str = "none"
    seating: str = "rotate"
    shard_size: int | None = None
    deal_rows: bool | None = None
    decision_seconds: float | None = None
    engine: str = "auto"

    def resolved_engine(self) -> str:
        """The engine that plays: batch when asked, or (auto) when every seat's strategy has a
        vectorised implementation; else scalar."""
        if self.engine != "auto":
            return self.engine
        from raspis.tournament.batch_shard import can_run_batch

        return "batch" if can_run_batch(self.strategies) else "scalar"

    @property
    def effective_shard_size(self) -> int:
        """Deal sets per shard: given, or a function of the run size and engine (never of workers)."""
        if self.shard_size is not None:
            return self.shard_size
        if self.resolved_engine() == "batch":  # lockstep batches slow down below ~4,000 games
            return max(1, min(self.games, 20_000, max(4096, math.ceil(self.games / 8))))
        return max(1, min(500, math.ceil(self.games / 64)))

    def seatings(self) -> list[tuple[int, ...]]:
        """Seat -> lineup slot, for each seating the run plays."""
        slots = list(range(self.players))
        if self.duplicate == "permutations":
            return [tuple(p) for p in itertools.permutations(slots)]
        if self.duplicate == "rotations" or self.seating == "rotate":
            return [tuple(slots[(seat + shift) % self.players] for seat in slots)
                    for shift in range(self.players)]
        return [tuple(slots)]

    def total_games(self) -> int:
        """Games the run plays: deal sets x seatings (duplicate) or deal sets, per variant."""
        per_variant = self.games * (len(self.seatings()) if self.duplicate != "none" else 1)
        return per_variant * len(self.variants)

    def writes_deal_rows(self) -> bool:
        """Per-deal rows: as asked, else only for runs up to ``DEAL_ROWS_DEFAULT_LIMIT`` games."""
        if self.deal_rows is not None:
            return self.deal_rows
        return self.total_games() <= DEAL_ROWS_DEFAULT_LIMIT


@dataclass
class RunSummary:
    """What a run did."""

    out_dir: Path
    games: int
    errored: int
    shards_run: int
    shards_skipped: int
    faults: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _validate(config: TournamentConfig) -> list[dict[str, Any]]:
    if config.games < 1:
        raise TournamentError(f"--games must be at least 1, got {config.games}")
    if config.duplicate not in DUPLICATE_MODES:
        raise TournamentError(f"--duplicate must be one of {', '.join(DUPLICATE_MODES)}")
    if config.engine not in ENGINES:
        raise TournamentError(f"--engine must be one of {', '.join(ENGINES)}")
    if config.seating not in SEATING_MODES:
        raise TournamentError(f"--seating must be one of {', '.join(SEATING_MODES)}")
    if config.duplicate == "permutations" and config.players > 6:
        raise TournamentError("--duplicate permutations is limited to 6 players (720 seatings)")
    if not config.variants:
        raise TournamentError("give at least one --variant")
    variants = []
    for spec in config.variants:
        variant = load_variant(spec)
        variant.for_player_count(config.players)
        variants.append(variant.model_dump(mode="json"))
    if len(config.strategies) != config.players:
        raise TournamentError(
            f"{config.players} players need {config.players} strategies, one per seat; got "
            f"{len(config.strategies)}: {', '.join(config.strategies)}"
        )
    for spec in config.strategies:
        load_strategy(spec)
    display_names(config.strategies)  # two different strategies must not share a name
    return variants


def plan_shards(config: TournamentConfig, variant_options: list[dict[str, Any]]) -> list[ShardTask]:
    """Every shard of the run, in a fixed order."""
    seatings = config.seatings()
    size = config.effective_shard_size
    deal_rows = config.writes_deal_rows()
    engine = config.resolved_engine()
    tasks = []
    blocks = range(0, config.games, size)
    for variant_index, options in enumerate(variant_options):
        if config.duplicate == "none":
            groups = [(None, blocks)]
        else:
            groups = [(index, blocks) for index in range(len(seatings))]
        for seating_index, block_starts in groups:
            for start in block_starts:
                stop = min(start + size, config.games)
                if seating_index is None:
                    games = tuple((deal_set, deal_set % len(seatings)) for deal_set in range(start, stop))
                    shard_id = f"v{variant_index:02d}-b{start // size:06d}"
                else:
                    games = tuple((deal_set, seating_index) for deal_set in range(start, stop))
                    shard_id = f"v{variant_index:02d}-s{seating_index:03d}-b{start // size:06d}"
                tasks.append(ShardTask(
                    shard_id=shard_id, variant_index=variant_index, variant_options=options,
                    players=config.players, strategies=config.strategies,
                    seatings=tuple(seatings), games=games, root_seed=config.seed,
                    total_deal_sets=config.games, seating_count=len(seatings),
                    deal_rows=deal_rows, decision_seconds=config.decision_seconds,
                    engine=engine,
                ))
    return tasks


def config_fingerprint(config: TournamentConfig, variant_options: list[dict[str, Any]]) -> str:
    """A hash of everything that determines the dataset."""
    data = {"config": asdict(config), "variants": variant_options,
            "shard_size": config.effective_shard_size, "engine": config.resolved_engine()}
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _write_atomic(frame: pl.DataFrame, path: Path) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    frame.write_parquet(temporary, compression="zstd")
    os.replace(temporary, path)


def _write_json_atomic(data: dict[str, Any], path: Path) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(data, indent=2, sort_keys=True, default=str))
    os.replace(temporary, path)


def write_shard(out_dir: Path, result: ShardResult) -> None:
    """Write a shard's tables; the games file last, as the mark of a complete shard."""
    _write_atomic(result.deal_stats, out_dir / "deal_stats" / f"{result.shard_id}.parquet")
    if result.deals is not None:
        _write_atomic(result.deals, out_dir / "deals" / f"{result.shard_id}.parquet")
    _write_atomic(result.games, out_dir / "games" / f"{result.shard_id}.parquet")


def completed_shards(out_dir: Path) -> set[str]:
    """Ids of shards whose games file exists (written last, so the shard is complete)."""
    folder = out_dir / "games"
    return {path.stem for path in folder.glob("*.parquet")} if folder.is_dir() else set()


def _manifest(config: TournamentConfig, variant_options: list[dict[str, Any]], fingerprint: str,
              tasks: list[ShardTask], executor: str) -> dict[str, Any]:
    from raspis.engine.variant import Variant

    variants = []
    for spec, options in zip(config.variants, variant_options, strict=True):
        variant = Variant.model_validate(options)
        variants.append({"spec": spec, "name": variant.name, "hash": variant.content_hash,
                         "options": options})
    strategies = []
    for spec, name in zip(config.strategies, display_names(config.strategies), strict=True):
        instance = load_strategy(spec)
        module = type(instance).__module__
        strategies.append({"spec": spec, "name": name,
                           "class": f"{module}:{type(instance).__name__}",
                           "options": instance.options,
                           "version": getattr(type(instance), "version", __version__)})
    return {
        "format": 1,
        "fingerprint": fingerprint,
        "config": asdict(config),
        "variants": variants,
        "strategies": strategies,
        "seeds": {"root": config.seed, "deal_sets": config.games,
                  "derivation": "game seed = splitmix64 mix(root, deal_set)"},
        "seatings": [list(s) for s in config.seatings()],
        "shards": len(tasks),
        "shard_size": config.effective_shard_size,
        "planned_games": config.total_games(),
        "deal_rows": config.writes_deal_rows(),
        "engine": config.resolved_engine(),
        "package": {"name": "raspis", "version": __version__},
        "python": platform.python_version(),
        "executor": executor,
        "started": dt.datetime.now(dt.UTC).isoformat(),
        "finished": None,
        "status": "running",
    }


def prepare_output(out_dir: Path, fingerprint: str, resume: bool) -> dict[str, Any] | None:
    """Check ``out_dir`` may take this run; the existing manifest when resuming."""
    manifest_path = out_dir / MANIFEST
    if not out_dir.exists():
        return None
    if not out_dir.is_dir():
        raise TournamentError(f"{out_dir} exists and is not a directory")
    if not manifest_path.is_file():
        if any(out_dir.iterdir()):
            raise TournamentError(
                f"{out_dir} is not empty and holds no raspis run (no {MANIFEST}); choose another --out"
            )
        return None
    try:
        existing = json.loads(manifest_path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise TournamentError(f"{manifest_path} cannot be read: {error}") from None
    if existing.get("fingerprint") != fingerprint:
        raise TournamentError(
            f"{out_dir} holds a different run (variants, strategies, seed, games or seating "
            "differ); choose another --out, or repeat that run's exact options to resume it"
        )
    if not resume:
        done = len(completed_shards(out_dir))
        status = existing.get("status")
        raise TournamentError(
            f"{out_dir} already holds this run ({status}, {done} of {existing.get('shards')} "
            "shards done); add --resume to finish it, or choose another --out"
        )
    return existing


# -- executors ----------------------------------------------------------------------------------


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _sequential(tasks: list[ShardTask]) -> Iterator[ShardResult]:
    for task in tasks:
        yield run_shard_on_engine(task)


def _local_processes(tasks: list[ShardTask], workers: int) -> Iterator[ShardResult]:
    import multiprocess

    # Not fork: a child forked after polars or numpy started their thread pools can deadlock.
    # A fork server starts clean, once, and forks the workers from there.
    pool = multiprocess.get_context("forkserver").Pool(workers, initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(run_shard_on_engine, tasks)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _dask(tasks: list[ShardTask], scheduler: str | None, workers: int) -> Iterator[ShardResult]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise TournamentError(
            "the Dask executor needs the optional extra: pip install 'raspis[cluster]'"
        ) from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as error:
            raise TournamentError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(run_shard_on_engine, tasks, pure=False)
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _executor(name: str, tasks: list[ShardTask], workers: int,
              scheduler: str | None) -> Iterator[ShardResult]:
    if name == "local":
        return _sequential(tasks) if workers <= 1 else _local_processes(tasks, workers)
    if name == "dask":
        return _dask(tasks, scheduler, workers)
    raise TournamentError(f"unknown executor {name!r}: use local or dask")


def run_tournament(
    config: TournamentConfig,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> RunSummary:
    """Run (or resume) a tournament into ``out_dir``; ``progress(done_games, total)`` is called
    after each shard."""
    import time

    started = time.perf_counter()
    variant_options = _validate(config)
    out = Path(out_dir)
    fingerprint = config_fingerprint(config, variant_options)
    tasks = plan_shards(config, variant_options)
    existing = prepare_output(out, fingerprint, resume)
    for table in TABLES:
        (out / table).mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*/.*.tmp"):
        stale.unlink()
    manifest = existing or _manifest(config, variant_options, fingerprint, tasks, executor)
    manifest["status"] = "running"
    _write_json_atomic(manifest, out / MANIFEST)
    done = completed_shards(out)
    todo = [task for task in tasks if task.shard_id not in done]
    total = config.total_games()
    finished_games = sum(len(task.games) for task in tasks if task.shard_id in done)
    if progress:
        progress(finished_games, total)
    workers = workers or os.cpu_count() or 1
    errored = 0
    faults: list[str] = []
    try:
        for result in _executor(executor, todo, workers, scheduler):
            write_shard(out, result)
            finished_games += result.game_count
            errored += result.errored
            faults.extend(result.faults[: max(0, 10 - len(faults))])
            if progress:
                progress(finished_games, total)
    except KeyboardInterrupt:
        manifest["status"] = "interrupted"
        _write_json_atomic(manifest, out / MANIFEST)
        raise
    games = pl.scan_parquet(out / "games" / "*.parquet")
    totals = games.select(
        pl.col("game_id").n_unique().alias("games"),
        pl.col("game_id").filter(pl.col("errored")).n_unique().alias("errored"),
    ).collect()
    manifest["status"] = "complete"
    manifest["finished"] = dt.datetime.now(dt.UTC).isoformat()
    manifest["games"] = int(totals["games"][0])
    manifest["errored_games"] = int(totals["errored"][0])
    _write_json_atomic(manifest, out / MANIFEST)
    return RunSummary(out, int(totals["games"][0]), int(totals["errored"][0]), len(todo),
                      len(tasks) - len(todo), faults, time.perf_counter() - started)


def strategy_names(manifest: dict[str, Any]) -> dict[str, str]:
    """spec -> display name of a run's strategies, from its manifest (the spec where the manifest
    predates display names; an alias is always read off the spec)."""
    from raspis.strategies.registry import split_alias

    names = {}
    for entry in manifest.get("strategies") or []:
        spec = entry.get("spec")
        if spec:
            names[spec] = entry.get("name") or split_alias(spec)[0] or spec
    return names


def strategy_summary(out_dir: str | Path) -> pl.DataFrame:
    """Per strategy (display name): games, mean score, win rate, errored games (finished games
    only for means)."""
    games = pl.scan_parquet(Path(out_dir) / "games" / "*.parquet")
    manifest_path = Path(out_dir) / MANIFEST
    if manifest_path.is_file():
        names = strategy_names(json.loads(manifest_path.read_text()))
        games = games.with_columns(pl.col("strategy").replace(names))
    return (
        games.group_by("variant", "strategy")
        .agg(
            pl.len().alias("seat_games"),
            pl.col("score").filter(~pl.col("errored")).mean().alias("mean_score"),
            pl.col("winner").filter(~pl.col("errored")).mean().alias("win_rate"),
            pl.col("place").filter(~pl.col("errored")).mean().alias("mean_place"),
            pl.col("errored").sum().alias("errored"),
        )
        .sort("variant", "mean_score", descending=[False, True])
        .collect()
    )

