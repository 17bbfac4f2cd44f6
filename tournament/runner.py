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

import collections
import contextlib
import datetime as dt
import hashlib
import itertools
import json
import math
import mmap
import os
import platform
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
from raspis import __version__
from raspis.engine import load_variant
from raspis.engine.errors import RaspisError
from raspis.strategies import load_strategy
from raspis.strategies.play import describe_exit
from raspis.strategies.registry import display_names

from .schema import DEAL_ROWS_DEFAULT_LIMIT, TABLES, UNREADABLE
from .shard import ShardResult, ShardTask

MANIFEST = "manifest.json"
DUPLICATE_MODES = ("none", "rotations", "permutations")
ENGINES = ("auto", "scalar", "batch")
SEATING_MODES = ("rotate", "fixed")


class TournamentError(RaspisError):
    """A tournament that cannot run as asked (bad options, a directory holding another run)."""


class RunStorageError(TournamentError):
    """The run could not write its folder (a read-only or full disk, a file size limit, no
    permission): the shards written so far are kept, and the run resumes once it can write."""


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

        if not can_run_batch(self.strategies) or self.numpy_refusal():
            return "scalar"  # no batch implementation, or a numpy seat refused the variant
        return "batch"

    def numpy_refusal(self) -> str | None:
        """Why the lineup cannot play a variant of the run on the batch engine, or None: only
        where some seat is a numpy batch strategy (not a compiled policy), which is refused what
        its batch observation cannot show (``RulePlan.lockstep_refusal``)."""
        from raspis.tournament.batch_shard import can_run_compiled

        if can_run_compiled(self.strategies):
            return None
        return lockstep_refusal(self.variants, self.players)

    @property
    def effective_shard_size(self) -> int:
        """Deal sets per shard: given, or a function of the run size and engine (never of
        workers)."""
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
        return self.games * self.seating_groups() * len(self.variants)

    def seating_groups(self) -> int:
        """The seatings each deal set is played under: all of them with duplicates (``seatings``:
        players! permutations or players rotations), one without; counted, not listed (a
        manifest's player count is not trusted to be small)."""
        if self.duplicate == "none":
            return 1
        if self.duplicate == "permutations":
            return math.factorial(self.players)
        return self.players

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


#: The largest seed: seeds are 64-bit unsigned.
MAX_SEED = SEED_MAX = 2**64 - 1


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def lockstep_refusal(variants: tuple[str, ...], players: int) -> str | None:
    """Why a numpy batch strategy cannot play a variant of the run at ``players`` seats
    (``RulePlan.lockstep_refusal``: the one list of such options), or None."""
    from raspis.engine.core.plan import RulePlan

    for spec in variants:
        try:
            refusal = RulePlan(load_variant(spec), players).lockstep_refusal()
        except Exception:  # a bad variant or player count is reported by ``_validate``
            continue
        if refusal:
            return refusal
    return None


def _validate(config: TournamentConfig) -> list[dict[str, Any]]:
    check_sizes(config)
    return _validate_rest(config)


def check_sizes(config: TournamentConfig) -> None:
    """The numbers of a configuration (games, players, seed, shard size, modes), checked without
    loading anything: ``TournamentError`` naming the first bad one (``verify`` judges a manifest
    with it before planning its shards)."""
    if not _is_int(config.games) or config.games < 1:
        raise TournamentError(f"--games must be a whole number of at least 1, got {config.games}")
    if not _is_int(config.players) or config.players < 1:
        raise TournamentError(f"--players must be a whole number of at least 1, got "
                              f"{config.players}")
    if not _is_int(config.seed) or not 0 <= config.seed <= MAX_SEED:
        raise TournamentError(f"--seed must be a whole number from 0 to 2^64-1 ({MAX_SEED}), got "
                              f"{config.seed}")
    if config.shard_size is not None and (not _is_int(config.shard_size) or config.shard_size < 1):
        raise TournamentError(f"--shard-size must be a whole number of at least 1 (deal sets per "
                              f"shard), got {config.shard_size}")
    if config.duplicate not in DUPLICATE_MODES:
        raise TournamentError(f"--duplicate must be one of {', '.join(DUPLICATE_MODES)}")
    if config.seating not in SEATING_MODES:
        raise TournamentError(f"--seating must be one of {', '.join(SEATING_MODES)}")
    if config.duplicate == "permutations" and config.players > 6:
        raise TournamentError("--duplicate permutations is limited to 6 players (720 seatings)")


#: the games one run plays at most: seeds and game ids hold far more, but a billion games is
#: about 40 GB of Parquet and hours of CPU; a larger study is several runs (other --seed)
MAX_PLANNED_GAMES = 1_000_000_000
#: the shards one run holds at most: the manifest keeps a checksum of each (about 200 bytes)
MAX_SHARDS = 1_000_000
#: Parquet bytes a game needs, about (a million classic games at 4 players: 28 MiB without
#: per-deal rows; with them about 40 times more), for the free-space check
BYTES_PER_GAME, BYTES_PER_GAME_WITH_DEALS = 40, 1_600


def check_scale(config: TournamentConfig, variants: int | None = None) -> None:
    """Refuse a run of more games than ``MAX_PLANNED_GAMES`` or more shards than ``MAX_SHARDS``
    (counted, never planned), saying the limit; ``variants``: how many variants the run plays
    (default: the configuration's)."""
    variants = len(config.variants) if variants is None else variants
    total = config.games * config.seating_groups() * variants
    if total > MAX_PLANNED_GAMES:
        raise TournamentError(
            f"--games {config.games:,} makes {total:,} games (deal sets x seatings x variants); a "
            f"run plays at most {MAX_PLANNED_GAMES:,}: split the study into runs with different "
            "--seed values (compare and report take several runs)")
    shards = variants * (config.seating_groups() if config.duplicate != "none" else 1) * -(
        -config.games // config.effective_shard_size)
    if shards > MAX_SHARDS:
        raise TournamentError(
            f"--games {config.games:,} in shards of {config.effective_shard_size:,} deal sets "
            f"makes {shards:,} shards; a run holds at most {MAX_SHARDS:,}: give a larger "
            "--shard-size")


def check_room(config: TournamentConfig, out: Path) -> None:
    """Refuse a run larger than one run holds (``check_scale``) or than the disk under ``out``
    can hold (an estimate, ``BYTES_PER_GAME``), saying the limit: before anything is written, so
    a mistyped --games neither hangs nor fills the disk."""
    check_scale(config)
    total = config.total_games()
    need = total * (BYTES_PER_GAME_WITH_DEALS if config.writes_deal_rows() else BYTES_PER_GAME)
    where = out
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        free = shutil.disk_usage(where).free
    except OSError:
        return
    if need > free:
        raise TournamentError(
            f"{total:,} games need about {need / 2**30:.1f} GiB of Parquet and {where} has "
            f"{free / 2**30:.1f} GiB free: free some space, or play fewer --games")


def _validate_rest(config: TournamentConfig) -> list[dict[str, Any]]:
    from raspis.strategies.play import check_budget

    try:
        check_budget(config.decision_seconds)
    except ValueError as error:
        raise TournamentError(f"--decision-seconds: {error}") from None
    if config.engine not in ENGINES:
        raise TournamentError(f"--engine must be one of {', '.join(ENGINES)}")
    if config.engine == "batch" and any("isolated+" in spec for spec in config.strategies):
        raise TournamentError("isolated strategies play on the scalar engine: use --engine auto "
                              "or scalar with --isolate / isolated+SPEC")
    if not config.variants:
        raise TournamentError("give at least one --variant")
    variants = []
    for spec in config.variants:
        variant = load_variant(spec)
        variant.for_player_count(config.players)
        variants.append(variant.model_dump(mode="json"))
    refusal = config.numpy_refusal() if config.engine == "batch" else None
    if refusal:
        raise TournamentError(f"--engine batch: {refusal}")
    if len(config.strategies) != config.players:
        raise TournamentError(
            f"{config.players} players need {config.players} strategies, one per seat; got "
            f"{len(config.strategies)}: {', '.join(config.strategies)}"
        )
    for spec in dict.fromkeys(config.strategies):
        _close(_try_strategy(spec))  # an isolated one's child is not kept waiting
    display_names(config.strategies)  # two different strategies must not share a name
    return variants


def _close(instance: Any) -> None:
    """Stop what a strategy instance holds (an isolated strategy's process), if anything."""
    close = getattr(instance, "close", None)
    if callable(close):
        close()


def _try_strategy(spec: str) -> Any:
    """An instance of ``spec``, or ``TournamentError`` when its ``__init__`` raises anything."""
    from raspis.strategies.play import load_guarded

    instance, problem = load_guarded(spec)
    if problem is not None:
        if problem[1].startswith(("StrategySpecError", "VariantError")):
            load_strategy(spec)  # the loader's own clear message
        raise TournamentError(f"strategy {spec!r} cannot be created: its __init__ "
                              f"{problem[0]}: {problem[1]}")
    return instance


class ShardPlan:
    """Every shard of a run, in a fixed order, made only when asked for: a run of 10**8 games
    plans at once and holds no more than the shards in flight. Its ids, counts and each shard's
    games follow from the configuration (``shard_id``: ``v{variant}-b{block}`` without duplicates,
    ``v{variant}-s{seating}-b{block}`` with them; a block is ``effective_shard_size`` deal sets)."""

    _ID = re.compile(r"^v(\d{2,})(?:-s(\d{3,}))?-b(\d{6,})$")

    def __init__(self, config: TournamentConfig, variant_options: list[dict[str, Any]]) -> None:
        self.config = config
        self.variant_options = variant_options
        self.size = config.effective_shard_size
        self.blocks = -(-config.games // self.size)
        self.seatings = tuple(config.seatings())
        self.duplicate = config.duplicate != "none"
        self.groups = config.seating_groups() if self.duplicate else 1
        self.writes_deal_rows = config.writes_deal_rows()
        self._engine = config.resolved_engine()

    def __len__(self) -> int:
        return len(self.variant_options) * self.groups * self.blocks

    def shard_id(self, variant: int, group: int, block: int) -> str:
        """The id of the shard of ``block`` under ``variant`` and seating ``group``."""
        if self.duplicate:
            return f"v{variant:02d}-s{group:03d}-b{block:06d}"
        return f"v{variant:02d}-b{block:06d}"

    def _keys(self) -> Iterator[tuple[int, int, int]]:
        for variant in range(len(self.variant_options)):
            for group in range(self.groups):
                for block in range(self.blocks):
                    yield variant, group, block

    def ids(self) -> Iterator[str]:
        """Every shard id, in the plan's order."""
        return (self.shard_id(*key) for key in self._keys())

    def __iter__(self) -> Iterator[ShardTask]:
        return self.tasks()

    def tasks(self, skip: Collection[str] = ()) -> Iterator[ShardTask]:
        """Every shard, in the plan's order, except those whose ids are in ``skip`` (skipped
        without making their games)."""
        for key in self._keys():
            if self.shard_id(*key) not in skip:
                yield self._task(*key)

    def locate(self, shard_id: str) -> tuple[int, int, int] | None:
        """(variant, seating group, block) of a planned shard id, or None for an id the plan
        does not hold."""
        match = self._ID.match(shard_id)
        if match is None or (match[2] is not None) != self.duplicate:
            return None
        key = (int(match[1]), int(match[2] or 0), int(match[3]))
        if not (key[0] < len(self.variant_options) and key[1] < self.groups
                and key[2] < self.blocks) or self.shard_id(*key) != shard_id:
            return None
        return key

    def task(self, shard_id: str) -> ShardTask | None:
        """The planned shard ``shard_id``, or None when the plan holds no such shard."""
        key = self.locate(shard_id)
        return None if key is None else self._task(*key)

    def games_in(self, shard_id: str) -> int:
        """How many games the planned shard ``shard_id`` holds (0 for an id not planned)."""
        key = self.locate(shard_id)
        if key is None:
            return 0
        start = key[2] * self.size
        return min(start + self.size, self.config.games) - start

    def samples(self) -> list[ShardTask]:
        """The first shard of each variant: one of each kind of work the run does."""
        return [self._task(variant, 0, 0) for variant in range(len(self.variant_options))]

    def _task(self, variant: int, group: int, block: int) -> ShardTask:
        config = self.config
        start = block * self.size
        deal_sets = range(start, min(start + self.size, config.games))
        count = len(self.seatings)
        if self.duplicate:
            games = tuple((deal_set, group) for deal_set in deal_sets)
        else:
            games = tuple((deal_set, deal_set % count) for deal_set in deal_sets)
        return ShardTask(
            shard_id=self.shard_id(variant, group, block), variant_index=variant,
            variant_options=self.variant_options[variant], players=config.players,
            strategies=config.strategies, seatings=self.seatings, games=games,
            root_seed=config.seed, total_deal_sets=config.games, seating_count=count,
            deal_rows=self.writes_deal_rows, decision_seconds=config.decision_seconds,
            engine=self._engine,
        )


def plan_shards(config: TournamentConfig, variant_options: list[dict[str, Any]]) -> list[ShardTask]:
    """Every shard of the run, in a fixed order, as a list (``ShardPlan`` makes them lazily)."""
    return list(ShardPlan(config, variant_options))


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
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=2, sort_keys=True, default=str))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def write_shard(out_dir: Path, result: ShardResult) -> None:
    """Write a shard's tables; the games file last, as the mark of a complete shard."""
    _write_atomic(result.deal_stats, out_dir / "deal_stats" / f"{result.shard_id}.parquet")
    if result.deals is not None:
        _write_atomic(result.deals, out_dir / "deals" / f"{result.shard_id}.parquet")
    _write_atomic(result.games, out_dir / "games" / f"{result.shard_id}.parquet")


#: the file a run holds locked while it writes its folder (``run_lock``)
LOCK = ".raspis.lock"


@contextlib.contextmanager
def run_lock(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir``'s exclusive lock (``fcntl.flock`` on ``LOCK``) for the block: one run or
    resume writes a folder at a time; another gets a ``TournamentError`` naming the holder. The
    lock goes with the process, however it ends. Where ``fcntl`` is missing (Windows) there is no
    lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on the platforms raspis is tested on
        yield
        return
    if out_dir.exists() and not out_dir.is_dir():
        raise TournamentError(f"{out_dir} exists and is not a directory")
    out_dir.mkdir(parents=True, exist_ok=True)
    handle = open(out_dir / LOCK, "a+", encoding="utf-8")  # noqa: SIM115 - held for the block
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise TournamentError(
                f"{out_dir} is being written by another raspis run ({holder}); wait for it to "
                "end, or stop it, then --resume") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}, since "
                     f"{dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}\n")
        handle.flush()
        yield
    finally:
        handle.close()  # releases the lock


def shard_checksums(out_dir: Path, shard_id: str) -> dict[str, str]:
    """table -> blake2b (16 bytes, hex) of each file of a shard that exists."""
    sums = {}
    for table in TABLES:
        path = out_dir / table / f"{shard_id}.parquet"
        if path.is_file():
            digest = hashlib.blake2b(digest_size=16)
            with open(path, "rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
            sums[table] = digest.hexdigest()
    return sums


def completed_shards(out_dir: Path) -> set[str]:
    """Ids of shards whose games file exists (written last, so the shard is complete)."""
    folder = out_dir / "games"
    return {path.stem for path in folder.glob("*.parquet")} if folder.is_dir() else set()


def _manifest(config: TournamentConfig, variant_options: list[dict[str, Any]], fingerprint: str,
              plan: ShardPlan, executor: str) -> dict[str, Any]:
    from raspis.engine.variant import Variant
    from raspis.strategies.isolate import greeting, split_isolation
    from raspis.strategies.registry import split_alias

    variants = []
    for spec, options in zip(config.variants, variant_options, strict=True):
        variant = Variant.model_validate(options)
        variants.append({"spec": spec, "name": variant.name, "hash": variant.content_hash,
                         "options": options})
    strategies = []
    for spec, name in zip(config.strategies, display_names(config.strategies), strict=True):
        isolated, inner = split_isolation(split_alias(spec)[1])
        if isolated:  # what its own process said when it loaded (never imported here)
            said = greeting(inner)
            strategies.append({"spec": spec, "name": name, "class": said.target,
                               "options": said.options, "isolated": True,
                               "version": __version__})
            continue
        instance = _try_strategy(spec)
        module = type(instance).__module__
        strategies.append({"spec": spec, "name": name,
                           "class": f"{module}:{type(instance).__name__}",
                           "options": getattr(instance, "options", {}),
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
        "shards": len(plan),
        "shard_size": config.effective_shard_size,
        "planned_games": config.total_games(),
        "deal_rows": config.writes_deal_rows(),
        "engine": config.resolved_engine(),
        "package": {"name": "raspis", "version": __version__},
        "python": platform.python_version(),
        "libraries": library_versions(),
        "executor": executor,
        "started": dt.datetime.now(dt.UTC).isoformat(),
        "finished": None,
        "status": "running",
    }


def library_versions() -> dict[str, str | None]:
    """Versions of the libraries that shape a run's results (None where not installed)."""
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for name in ("numpy", "polars", "numba", "pydantic"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def read_manifest(path: Path) -> dict[str, Any]:
    """A run's manifest, or ``TournamentError`` saying why it cannot be used (unreadable, not
    UTF-8, not JSON, not a JSON object)."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as error:
        raise TournamentError(f"{path} cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise TournamentError(f"{path} is not UTF-8 text (byte {error.start}): it is not a raspis "
                              "manifest; choose another --out or remove the folder") from None
    except json.JSONDecodeError as error:
        raise TournamentError(f"{path} is not valid JSON ({error.msg}, line {error.lineno}): it "
                              "is not a raspis manifest; choose another --out or remove the "
                              "folder") from None
    if not isinstance(data, dict) or "fingerprint" not in data:
        raise TournamentError(f"{path} holds {type(data).__name__} JSON, not a raspis manifest "
                              "(an object with a fingerprint); choose another --out or remove "
                              "the folder")
    return data


def _only_empty_tables(out_dir: Path) -> bool:
    """True when ``out_dir`` holds nothing but (empty) table folders and leftover temporary
    files: a run killed before its manifest was written, which a new run may take over."""
    for entry in out_dir.iterdir():
        if entry.name == LOCK or (entry.name.startswith(f".{MANIFEST}.")
                                  and entry.name.endswith(".tmp")):
            continue
        if entry.name not in TABLES or not entry.is_dir():
            return False
        if any(not child.name.startswith(".") for child in entry.iterdir()):
            return False
    return True


def prepare_output(out_dir: Path, fingerprint: str, resume: bool) -> dict[str, Any] | None:
    """Check ``out_dir`` may take this run; the existing manifest when resuming."""
    manifest_path = out_dir / MANIFEST
    if not out_dir.exists():
        return None
    if not out_dir.is_dir():
        raise TournamentError(f"{out_dir} exists and is not a directory")
    if not manifest_path.is_file():
        if not _only_empty_tables(out_dir):
            raise TournamentError(
                f"{out_dir} is not empty and holds no raspis run (no {MANIFEST}); choose another "
                "--out"
            )
        return None
    existing = read_manifest(manifest_path)
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
#
# Shards run in supervised worker processes (``_Worker``: a fresh Python running
# ``shard.worker_main``, talking pickled frames over two pipes of their own). The supervisor sees
# a worker die (``os._exit``, a signal, the out-of-memory killer) the moment its pipe closes, and
# kills a worker whose decision overruns its budget (the heartbeat it publishes) or whose shard
# overruns ``shard_seconds``. Such a shard is retried once in a fresh worker, then recorded as
# errored.

#: Seconds a decision may overrun its budget before the watchdog kills the worker (the worker's
#: own timer should have stopped it; this is the backstop for a strategy that disarmed it).
WATCHDOG_GRACE = 1.0

_WORKER_CODE = "from raspis.tournament.shard import worker_main; worker_main()"


def _stderr_or_null() -> int:
    """Descriptor 2 where it is open (a worker's prints join the run's stderr), else /dev/null."""
    try:
        os.fstat(2)
    except OSError:
        return subprocess.DEVNULL
    return 2


class _Worker:
    """One supervised worker process and the thread that reads its answers."""

    def __init__(self, events: queue.Queue[tuple[_Worker, Any]]) -> None:
        from .shard import HEARTBEAT_SIZE

        self.beat_file = tempfile.TemporaryFile()
        self.beat_file.truncate(HEARTBEAT_SIZE)
        self.beat = mmap.mmap(self.beat_file.fileno(), HEARTBEAT_SIZE)
        fd = self.beat_file.fileno()
        # the protocol on descriptors of its own (never 0 and 1, which a strategy may print to
        # or close): tasks in on one pipe, answers out on another; the worker's stdin is
        # /dev/null and its stdout the run's stderr
        tasks_in, tasks_out = os.pipe()
        answers_in, answers_out = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WORKER_CODE, str(fd), str(tasks_in), str(answers_out)],
                stdin=subprocess.DEVNULL, stdout=_stderr_or_null(),
                pass_fds=(fd, tasks_in, answers_out), close_fds=True)
        finally:
            os.close(tasks_in)
            os.close(answers_out)
        self.requests = os.fdopen(tasks_out, "wb")
        self.answers = os.fdopen(answers_in, "rb")
        self.killed_because: str | None = None
        self.task: ShardTask | None = None
        self.started = 0.0
        self.reader = threading.Thread(target=self._read, args=(events,), daemon=True)
        self.reader.start()

    def _read(self, events: queue.Queue[tuple[_Worker, Any]]) -> None:
        from .shard import read_frame

        while True:
            try:
                message = read_frame(self.answers)
            except BaseException as error:  # noqa: BLE001 - a garbled frame, or a Ctrl-C that
                # polars let through while it read a frame: the worker counts as broken, and
                # nothing is printed from this thread (the main thread reports an interrupt)
                message = ("broken", f"unreadable answer: {type(error).__name__}: {error}")
            events.put((self, message))
            if message is None or message[0] == "broken":
                return

    def send(self, task: ShardTask) -> None:
        """Hand the worker a shard (a dead worker's end of pipe shows up as its death)."""
        from .shard import write_frame

        self.task, self.started = task, time.monotonic()
        self.beat[:] = bytes(len(self.beat))
        try:
            write_frame(self.requests, task)
        except OSError:
            pass

    def decision(self) -> tuple[float, int, int]:
        """(start of the running decision on the monotonic clock or 0, its seat, game index)."""
        from .shard import HEARTBEAT

        return HEARTBEAT.unpack_from(self.beat, 0)

    def kill(self, because: str | None = None) -> None:
        """SIGKILL the worker (its pipe's end then reports it)."""
        if because and self.killed_because is None:
            self.killed_because = because
        with contextlib.suppress(OSError):
            self.process.kill()

    def close(self) -> None:
        """Stop the worker and free its files."""
        self.kill()
        with contextlib.suppress(Exception):
            self.process.wait(timeout=10)
        for stream in (self.requests, self.answers):
            with contextlib.suppress(Exception):
                stream.close()
        with contextlib.suppress(Exception):
            self.beat.close()
        with contextlib.suppress(Exception):
            self.beat_file.close()


def _who_moved(task: ShardTask, seat: int, game: int) -> str:
    if not 0 <= game < len(task.games) or not 0 <= seat < task.players:
        return ""
    deal_set, seating = task.games[game]
    spec = task.strategies[task.seatings[seating][seat]]
    return f" while seat {seat} ({spec}) was to move in deal set {deal_set}"


def supervised(tasks: Iterable[ShardTask], workers: int, *,
               shard_seconds: float | None = None) -> Iterator[ShardResult]:
    """Run ``tasks`` on ``workers`` supervised worker processes, yielding results as they finish:
    a shard whose worker dies, or is killed by the watchdog, is retried once in a fresh worker,
    then yielded with every game errored and the cause (exit code or signal). ``tasks`` is read
    as the workers need them (a lazy plan stays lazy)."""
    from .shard import errored_shard

    events: queue.Queue[tuple[_Worker, Any]] = queue.Queue()
    source = iter(tasks)
    retries: collections.deque[ShardTask] = collections.deque()

    def next_task() -> ShardTask | None:
        return retries.popleft() if retries else next(source, None)

    waiting = next_task()
    attempts: collections.Counter[str] = collections.Counter()
    causes: dict[str, str] = {}
    idle: list[_Worker] = []
    running: set[_Worker] = set()
    every: list[_Worker] = []
    watched = time.monotonic()
    try:
        while waiting is not None or running:
            while waiting is not None and len(running) < workers:
                worker = idle.pop() if idle else _Worker(events)
                if worker not in every:
                    every.append(worker)
                task, waiting = waiting, next_task()
                attempts[task.shard_id] += 1
                running.add(worker)
                worker.send(task)
            if time.monotonic() - watched > 0.05:  # also when answers keep coming
                _watch(running, shard_seconds)
                watched = time.monotonic()
            try:
                worker, message = events.get(timeout=0.05)
            except queue.Empty:
                continue
            if worker not in running:  # an idle worker died: forget it
                if worker in idle:
                    idle.remove(worker)
                worker.close()
                continue
            task = worker.task
            assert task is not None
            if message is not None and message[0] == "result":
                running.discard(worker)
                worker.task = None
                idle.append(worker)
                yield message[1]
                continue
            running.discard(worker)
            if message is None:
                _, seat, game = worker.decision()
                with contextlib.suppress(Exception):
                    worker.process.wait(timeout=10)
                cause = worker.killed_because or (
                    f"the worker process died ({describe_exit(worker.process.returncode)})"
                    f"{_who_moved(task, seat, game)}")
            else:
                cause = f"the shard failed in its worker: {message[1]}".strip()
            worker.close()
            if attempts[task.shard_id] < 2:
                causes[task.shard_id] = cause
                if waiting is not None:
                    retries.appendleft(waiting)
                waiting = task
                continue
            first = causes.get(task.shard_id)
            again = "" if first is None or first == cause else f" (first try: {first})"
            yield errored_shard(task, f"{cause}; retried once in a fresh worker, failed again"
                                      f"{again}")
    finally:
        for worker in every:
            worker.close()


def _watch(running: set[_Worker], shard_seconds: float | None) -> None:
    now = time.monotonic()
    for worker in running:
        task = worker.task
        if task is None or worker.killed_because:
            continue
        started, seat, game = worker.decision()
        budget = task.decision_seconds
        if budget is not None and started > 0 and now - started > budget + WATCHDOG_GRACE:
            worker.kill(f"killed by the watchdog: a decision ran past {now - started:.1f} s "
                        f"(budget {budget} s; the strategy evaded its timer)"
                        f"{_who_moved(task, seat, game)}")
        elif shard_seconds is not None and now - worker.started > shard_seconds:
            worker.kill(f"killed by the watchdog: the shard ran past --shard-seconds "
                        f"{shard_seconds}{_who_moved(task, seat, game)}")


def run_shard_supervised(task: ShardTask, shard_seconds: float | None = None) -> ShardResult:
    """One shard in a supervised worker process of its own (what a Dask worker runs: its threads
    cannot time strategies, and a strategy must not kill the Dask worker)."""
    return next(iter(supervised([task], 1, shard_seconds=shard_seconds)))


#: shards a Dask run keeps submitted ahead of its results, per worker (the plan stays lazy)
DASK_AHEAD = 4


def _dask(tasks: Iterable[ShardTask], scheduler: str | None, workers: int,
          shard_seconds: float | None) -> Iterator[ShardResult]:
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
        source = iter(tasks)
        ahead = DASK_AHEAD * max(1, workers, len(client.scheduler_info().get("workers", {})))

        def submit() -> Any:
            task = next(source, None)
            return None if task is None else client.submit(
                run_shard_supervised, task, shard_seconds=shard_seconds, pure=False)

        first = [future for future in (submit() for _ in range(ahead)) if future is not None]
        finished = as_completed(first)
        for future in finished:
            following = submit()
            if following is not None:
                finished.add(following)
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _executor(name: str, tasks: Iterable[ShardTask], workers: int, scheduler: str | None,
              shard_seconds: float | None) -> Iterator[ShardResult]:
    if name == "local":
        return supervised(tasks, max(1, workers), shard_seconds=shard_seconds)
    if name == "dask":
        return _dask(tasks, scheduler, workers, shard_seconds)
    raise TournamentError(f"unknown executor {name!r}: use local or dask")


def shard_problem(out_dir: Path, task: ShardTask) -> str | None:
    """Why a written shard does not read back (a table file missing, unreadable, off-schema, or
    with the wrong number of game rows), or None when it does."""
    from .schema import check_frame

    tables = ["deal_stats", "games"] + (["deals"] if task.deal_rows else [])
    for table in tables:
        path = out_dir / table / f"{task.shard_id}.parquet"
        if not path.is_file():
            return f"{path} is missing"
        try:
            frame = pl.read_parquet(path) if table == "games" else pl.scan_parquet(path)
            check_frame(frame, table, str(path))
        except RaspisError as error:
            return str(error)
        except UNREADABLE as error:  # polars: a truncated, empty or garbage file
            return f"{path} cannot be read ({_first_line(error)})"
        if table == "games" and frame.height != len(task.games) * task.players:
            return (f"{path} has {frame.height} rows, expected {len(task.games) * task.players} "
                    f"({len(task.games)} games x {task.players} seats)")
    return None


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def _remove_shard(out_dir: Path, shard_id: str) -> None:
    for table in ("games", "deals", "deal_stats"):  # the games file first: the mark of done
        with contextlib.suppress(FileNotFoundError):
            (out_dir / table / f"{shard_id}.parquet").unlink()


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
) -> RunSummary:
    """Run (or resume) a tournament into ``out_dir``; ``progress(done_games, total)`` is called
    once the options are checked and after each shard. Shards run in supervised worker processes
    (``supervised``); ``shard_seconds`` bounds a shard's time (the watchdog kills its worker).
    When resuming, shards that do not read back are played again (their problems are appended to
    ``replayed``). With ``warm``, what the shards run is compiled here before the workers start
    (``tournament.warm``: once, said on stderr, not once per worker in silence)."""
    started = time.perf_counter()
    if workers is not None and (not _is_int(workers) or workers < 1):
        raise TournamentError(f"--workers must be a whole number of at least 1, got {workers}")
    if shard_seconds is not None and (isinstance(shard_seconds, bool)
                                      or not isinstance(shard_seconds, int | float)
                                      or not math.isfinite(shard_seconds) or shard_seconds <= 0):
        raise TournamentError(f"--shard-seconds must be a finite number of seconds above 0, got "
                              f"{shard_seconds}")
    variant_options = _validate(config)
    out = Path(out_dir)
    check_room(config, out)
    fingerprint = config_fingerprint(config, variant_options)
    plan = ShardPlan(config, variant_options)
    prepare_output(out, fingerprint, resume)  # a wrong --out refused before anything is made
    try:
        with run_lock(out):
            return _run_locked(out, config, variant_options, fingerprint, plan, executor,
                               resume, workers, scheduler, shard_seconds, progress, replayed,
                               warm, started)
    except (OSError, pl.exceptions.ComputeError) as error:  # the disk, not the run, failed
        reason = error.strerror if isinstance(error, OSError) and error.strerror else \
            _first_line(error)
        where = f" ({error.filename})" if isinstance(error, OSError) and error.filename else ""
        raise RunStorageError(
            f"cannot write the run into {out}: {reason}{where}. The shards written so far are "
            "kept: free some space, lift the file size limit or fix the permissions, then run "
            "the same command with --resume") from None


def _run_locked(out: Path, config: TournamentConfig, variant_options: list[dict[str, Any]],
                fingerprint: str, plan: ShardPlan, executor: str, resume: bool,
                workers: int | None, scheduler: str | None, shard_seconds: float | None,
                progress: Callable[[int, int], None] | None, replayed: list[str] | None,
                warm: bool, started: float) -> RunSummary:
    """``run_tournament`` once it holds the folder's lock (``run_lock``)."""
    existing = prepare_output(out, fingerprint, resume)
    manifest = existing or _manifest(config, variant_options, fingerprint, plan, executor)
    manifest["status"] = "running"
    checksums: dict[str, dict[str, str]] = manifest.setdefault("checksums", {})
    _write_json_atomic(manifest, out / MANIFEST)  # first: a folder with tables has a manifest
    results: Iterator[ShardResult] | None = None
    writing: str | None = None  # the shard being written, until its checksum is recorded
    # from here on a run that stops early says so in its manifest, whenever it stops (a Ctrl-C
    # while the shards are checked or the workers start, too: not only between shards)
    try:
        for table in TABLES:
            (out / table).mkdir(exist_ok=True)
        for stale in out.glob("*/.*.tmp"):
            stale.unlink()
        # the shards already written, in the plan's order (a file the plan does not know is
        # left alone: ``verify`` names it)
        done = {shard_id for shard_id in completed_shards(out) if plan.locate(shard_id)}
        if existing is not None:
            for shard_id in sorted(done, key=plan.locate):
                task = plan.task(shard_id)
                assert task is not None
                problem = shard_problem(out, task)
                recorded = checksums.get(shard_id)
                if problem is None and recorded is not None \
                        and shard_checksums(out, shard_id) != recorded:
                    problem = (f"shard {shard_id}: its files changed after they were "
                               "written (checksums differ)")
                if problem is not None:
                    checksums.pop(shard_id, None)
                    _remove_shard(out, shard_id)
                    done.discard(shard_id)
                    if replayed is not None:
                        replayed.append(problem)
                elif recorded is None:  # written by a run that stopped before recording it
                    checksums[shard_id] = shard_checksums(out, shard_id)
        todo = len(plan) - len(done)
        total = config.total_games()
        finished_games = sum(plan.games_in(shard_id) for shard_id in done)
        if progress:
            progress(finished_games, total)
        workers = workers or os.cpu_count() or 1
        if warm and todo:
            from .warm import warm_up

            warm_up(plan.samples())
        errored = 0
        faults: list[str] = []
        results = _executor(executor, plan.tasks(skip=done), workers, scheduler, shard_seconds)
        for result in results:
            writing = result.shard_id
            write_shard(out, result)
            checksums[writing] = shard_checksums(out, writing)
            writing = None
            finished_games += result.game_count
            errored += result.errored
            faults.extend(result.faults[: max(0, 10 - len(faults))])
            if progress:
                progress(finished_games, total)
        # before the manifest says complete: every planned shard still holds what was written
        for shard_id in plan.ids():
            if shard_checksums(out, shard_id) != checksums.get(shard_id):
                checksums.pop(shard_id, None)
                raise TournamentError(
                    f"shard {shard_id} of {out} changed or vanished while the run was "
                    "writing (its files no longer match their checksums); the run is kept: "
                    "finish it with the same command and --resume, which plays it again")
    except BaseException:
        # one Ctrl-C can raise KeyboardInterrupt twice (polars, writing a shard, raises it, and
        # it comes again as soon as Python runs): one landing in this write would leave the
        # manifest saying "running", so the write starts again until it is done (the ``try``
        # first, before any call: a pending interrupt is raised at the next one)
        while True:
            try:
                if writing is not None and writing not in checksums:
                    # stopped between a shard's last file and its checksum: record it now if
                    # the shard reads back whole, so the interrupted run stays provable
                    task = plan.task(writing)
                    if task is not None and shard_problem(out, task) is None:
                        checksums[writing] = shard_checksums(out, writing)
                    writing = None
                manifest["status"] = "interrupted"
                _write_json_atomic(manifest, out / MANIFEST)
                break
            except KeyboardInterrupt:
                pass
        raise
    finally:
        # stop the workers now, not whenever the interrupted generator is collected (which may be
        # at the interpreter's exit, where an error in its clean-up prints a stray traceback)
        if results is not None:
            with contextlib.suppress(Exception):
                results.close()  # type: ignore[attr-defined]
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
    return RunSummary(out, int(totals["games"][0]), int(totals["errored"][0]), todo,
                      len(plan) - todo, faults, time.perf_counter() - started)


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
        names = strategy_names(read_manifest(manifest_path))
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

