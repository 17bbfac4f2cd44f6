"""Running a tournament: check it, plan its shards, run them, write the dataset.

``run_tournament(config, out_dir)`` is the whole job, one call away from a notebook or the CLI. Each
of its jobs has a module of its own: ``config`` (what to play and its checks), ``plan`` (the
shards: a block of deal sets under one variant and one seating, made when needed), ``workers``
(supervised worker processes on this machine, or a Dask cluster, all running the same
``shard.run_shard``) and ``store`` (the folder: manifest, atomic shard files, checksums, lock);
this module runs them in order. Results come back to this process, which writes each shard aside
and renames it into place, the games file last, so only complete shards count. A run killed at
any moment loses at most the shards in flight; ``resume=True`` finishes it, and since a shard's
games depend only on the configuration and the shard's identity, the finished dataset is
identical to an uninterrupted run's.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from .config import (
    DUPLICATE_MODES,
    ENGINES,
    MAX_PLANNED_GAMES,
    MAX_SEED,
    MAX_SHARDS,
    SEATING_MODES,
    RunStorageError,
    TournamentConfig,
    TournamentError,
    check_room,
    config_fingerprint,
    is_whole,
    validate_config,
)
from .plan import ShardPlan, plan_shards
from .schema import TABLES, scan_table
from .store import (
    MANIFEST,
    ShardRecords,
    completed_shards,
    first_line,
    new_manifest,
    prepare_output,
    read_manifest,
    remove_shard,
    run_lock,
    shard_checksums,
    shard_problem,
    strategy_names,
    write_json_atomic,
    write_shard,
)
from .task import ShardResult
from .totals import Basis, keep_group, shard_rows, strategy_summary
from .workers import WorkerPool, run_shard_supervised, shard_results, supervised

__all__ = [
    "DUPLICATE_MODES", "ENGINES", "MANIFEST", "MAX_PLANNED_GAMES", "MAX_SEED", "MAX_SHARDS",
    "SEATING_MODES", "RunStorageError", "RunSummary", "ShardPlan", "TournamentConfig",
    "TournamentError", "plan_shards", "read_manifest", "run_lock", "run_shard_supervised",
    "run_tournament", "shard_checksums", "strategy_names", "strategy_summary", "supervised",
    "validate_config",
]


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


def run_tournament(
    config: TournamentConfig,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    shard_seconds: float | None = None,
    replayed: list[str] | None = None,
    warm: bool = True,
    pool: WorkerPool | None = None,
) -> RunSummary:
    """Run (or resume) a tournament into ``out_dir``; ``progress(done_games, total)`` is called
    once the options are checked and after each shard. Shards run in supervised worker processes
    (``supervised``); ``shard_seconds`` bounds a shard's time (the watchdog kills its worker).
    When resuming, shards that do not read back are played again (their problems are appended to
    ``replayed``). With ``warm``, what the shards run is compiled here before the workers start
    (``tournament.warm``: once, said on stderr, not once per worker in silence). ``pool``: local
    workers kept between runs (``workers.WorkerPool``)."""
    started = time.perf_counter()
    if workers is not None and (not is_whole(workers) or workers < 1):
        raise TournamentError(f"--workers must be a whole number of at least 1, got {workers}")
    if shard_seconds is not None and (isinstance(shard_seconds, bool)
                                      or not isinstance(shard_seconds, int | float)
                                      or not math.isfinite(shard_seconds) or shard_seconds <= 0):
        raise TournamentError(f"--shard-seconds must be a finite number of seconds above 0, got "
                              f"{shard_seconds}")
    variant_options =  validate_config(config)
    out = Path(out_dir)
    check_room(config, out)
    fingerprint = config_fingerprint(config, variant_options)
    plan = ShardPlan(config, variant_options)
    prepare_output(out, fingerprint, resume)  # a wrong --out refused before anything is made
    run = _Run(out, config, variant_options, fingerprint, plan,
               _Options(executor, resume, workers, scheduler, shard_seconds, progress, replayed,
                        warm, pool, started))
    try:
        with run_lock(out):
            return run.locked()
    except (OSError, pl.exceptions.ComputeError) as error:  # the disk, not the run, failed
        reason = error.strerror if isinstance(error, OSError) and error.strerror else \
            first_line(error)
        where = f" ({error.filename})" if isinstance(error, OSError) and error.filename else ""
        raise RunStorageError(
            f"cannot write the run into {out}: {reason}{where}. The shards written so far are "
            "kept: free some space, lift the file size limit or fix the permissions, then run "
            "the same command with --resume") from None


@dataclass
class _Options:
    """How ``run_tournament`` plays (its keyword arguments, ``started`` when it began)."""

    executor: str
    resume: bool
    workers: int | None
    scheduler: str | None
    shard_seconds: float | None
    progress: Callable[[int, int], None] | None
    replayed: list[str] | None
    warm: bool
    pool: WorkerPool | None
    started: float


@dataclass
class _Run:
    """A run that holds its folder's lock (``run_lock``), played step by step: ``locked`` opens
    the manifest, keeps the shards already written that read back, plays the rest, confirms every
    shard against its checksums and calls the run complete."""

    out: Path
    config: TournamentConfig
    variant_options: list[dict[str, Any]]
    fingerprint: str
    plan: ShardPlan
    options: _Options
    manifest: dict[str, Any] = field(default_factory=dict)
    #: the shard being written, until its checksum is recorded
    writing: str | None = None

    def locked(self) -> RunSummary:
        """The whole run (``run_tournament`` once it holds the lock)."""
        existing = self._open()
        records = ShardRecords(self.manifest, self.out)
        write_json_atomic(self.manifest, self.out / MANIFEST)  # first: tables have a manifest
        results: Iterator[ShardResult] | None = None
        # from here on a run that stops early says so in its manifest, whenever it stops (a
        # Ctrl-C while the shards are checked or the workers start, too: not only between
        # shards)
        try:
            for table in TABLES:
                (self.out / table).mkdir(exist_ok=True)
            for stale in self.out.glob("*/.*.tmp"):
                stale.unlink()
            done = self._kept(existing, records)
            results = self._results(done)
            todo = len(self.plan) - len(done)
            faults = self._write(results, done, records)
            self._confirm(records)
        except BaseException:
            # one Ctrl-C can raise KeyboardInterrupt twice (polars, writing a shard, raises it,
            # and it comes again as soon as Python runs): one landing in the write would leave
            # the manifest saying "running", so it starts again until it is done (the ``try``
            # first, before any call: a pending interrupt is raised at the next one)
            while True:
                try:
                    self._interrupted(records)
                    break
                except KeyboardInterrupt:
                    pass
            raise
        finally:
            # stop the workers now, not whenever the interrupted generator is collected (which
            # may be at the interpreter's exit, where an error in its clean-up prints a stray
            # traceback)
            if results is not None:
                with contextlib.suppress(Exception):
                    results.close()  # type: ignore[attr-defined]
        games, errored_games = self._complete()
        return RunSummary(self.out, games, errored_games, todo, len(self.plan) - todo, faults,
                          time.perf_counter() - self.options.started)

    def _open(self) -> dict[str, Any] | None:
        """The manifest: the run's own when resuming (grown to the deal sets asked for, in a run
        that grows), else a new one; returns the existing one (None for a new run)."""
        config, plan = self.config, self.plan
        existing = prepare_output(self.out, self.fingerprint, self.options.resume)
        self.manifest = existing or new_manifest(config, self.variant_options, self.fingerprint,
                                                 plan, self.options.executor)
        plan.game_sums = bool(self.manifest.get("game_sums"))  # older runs go without them
        if existing is not None and config.grows():  # a run that grows: the deal sets so far
            self.manifest["config"]["games"] = config.games
            self.manifest["seeds"]["deal_sets"] = config.games
            self.manifest["shards"] = len(plan)
            self.manifest["planned_games"] = config.total_games()
        self.manifest["status"] = "running"
        return existing

    def _kept(self, existing: dict[str, Any] | None, records: ShardRecords) -> set[str]:
        """The shards already written that read back whole and unchanged, in the plan's order
        (a file the plan does not know is left alone: ``verify`` names it); the others are
        removed, to be played again, and said in ``replayed``."""
        plan, out = self.plan, self.out
        done = {shard_id for shard_id in completed_shards(out) if plan.locate(shard_id)}
        if existing is None:
            return done
        for shard_id in sorted(done, key=plan.locate):
            task = plan.task(shard_id)
            assert task is not None
            problem = shard_problem(out, task)
            if problem is None and shard_id in records and not records.unchanged(shard_id):
                problem = (f"shard {shard_id}: its files changed after they were "
                           "written (checksums differ)")
            if problem is not None:
                records.forget(shard_id)
                remove_shard(out, shard_id)
                done.discard(shard_id)
                if self.options.replayed is not None:
                    self.options.replayed.append(problem)
            elif shard_id not in records:  # written by a run stopped before recording it
                records.record(shard_id)
        return done

    def _results(self, done: set[str]) -> Iterator[ShardResult]:
        """The shards still to play, on their executor, warmed first where asked."""
        options, plan = self.options, self.plan
        if options.progress:
            options.progress(sum(plan.games_in(shard_id) for shard_id in done),
                             self.config.total_games())
        if options.warm and len(plan) > len(done):
            from .warm import warm_up

            warm_up(plan.samples())
        workers = options.workers or os.cpu_count() or 1
        return shard_results(options.executor, plan.tasks(skip=done), workers, options.scheduler,
                             options.shard_seconds, options.pool)

    def _write(self, results: Iterator[ShardResult], done: set[str],
               records: ShardRecords) -> list[str]:
        """Write each shard as it comes and record its checksums; the first faults."""
        finished = sum(self.plan.games_in(shard_id) for shard_id in done)
        total = self.config.total_games()
        faults: list[str] = []
        for result in results:
            self.writing = result.shard_id
            write_shard(self.out, result)
            records.record(self.writing)
            self.writing = None
            self._sum_group(result.shard_id, records)
            finished += result.game_count
            faults.extend(result.faults[: max(0, 10 - len(faults))])
            if self.options.progress:
                self.options.progress(finished, total)
        return faults

    def _sum_group(self, shard_id: str, records: ShardRecords) -> None:
        """Once every shard of ``shard_id``'s group is written, sum the group into the run's
        totals (``totals.keep_group``, large groups only), so that its analysis reads sums, not
        rows."""
        ids = self.plan.group_of(shard_id)
        if all(shard in records for shard in ids):
            keep_group(self.out, ids, records.checksums, shard_rows(self.manifest, ids),
                       Basis.of(self.manifest))

    def _confirm(self, records: ShardRecords) -> None:
        """Before the manifest says complete: every planned shard still holds what was
        written."""
        for shard_id in self.plan.ids():
            if not records.unchanged(shard_id):
                records.forget(shard_id)
                raise TournamentError(
                    f"shard {shard_id} of {self.out} changed or vanished while the run was "
                    "writing (its files no longer match their checksums); the run is kept: "
                    "finish it with the same command and --resume, which plays it again")

    def _interrupted(self, records: ShardRecords) -> None:
        """Say in the manifest that the run stopped early (``locked`` calls it until it is
        done)."""
        if self.writing is not None and self.writing not in records:
            # stopped between a shard's last file and its checksum: record it now if the shard
            # reads back whole, so the interrupted run stays provable
            task = self.plan.task(self.writing)
            if task is not None and shard_problem(self.out, task) is None:
                records.record(self.writing)
            self.writing = None
        self.manifest["status"] = "interrupted"
        write_json_atomic(self.manifest, self.out / MANIFEST)

    def _complete(self) -> tuple[int, int]:
        """Count the run's games and errored games, and call it complete."""
        games = scan_table(self.out, "games")  # shards of an older raspis may lack columns
        # one row per seat of a game (verified per shard), so no set of every game id is held
        rows = int(games.select(pl.len()).collect().item())
        errored = int(games.filter(pl.col("errored")).select(pl.col("game_id").n_unique())
                      .collect().item())
        self.manifest["status"] = "complete"
        self.manifest["finished"] = dt.datetime.now(dt.UTC).isoformat()
        self.manifest["games"] = rows // self.config.players
        self.manifest["errored_games"] = errored
        write_json_atomic(self.manifest, self.out / MANIFEST)
        return self.manifest["games"], errored
