"""A run's folder: its manifest, its shard files written atomically and checksummed, its lock, and
reading it back (``read_manifest``, ``shard_problem``; the closing table, from the run's sums:
``totals.strategy_summary``).

A run writes each shard's Parquet files aside and renames them into place, the games file last,
so only complete shards count; it records each shard's checksums (BLAKE2b) in ``manifest.json``;
and it holds the folder's lock (``run_lock``) while it writes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import platform
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import polars as pl
from raspis import __version__
from raspis.engine.errors import RaspisError
from raspis.strategies.registry import display_names

from .config import TournamentConfig, TournamentError, strong_tables, try_strategy
from .plan import ShardPlan
from .schema import TABLES, UNREADABLE, shard_tables
from .task import ShardResult, ShardTask

MANIFEST = "manifest.json"


def write_atomic(frame: pl.DataFrame, path: Path) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    frame.write_parquet(temporary, compression="zstd")
    os.replace(temporary, path)


def write_json_atomic(data: dict[str, Any], path: Path) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=2, sort_keys=True, default=str))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def write_shard(out_dir: Path, result: ShardResult) -> None:
    """Write a shard's tables; the games file last, as the mark of a complete shard."""
    write_atomic(result.deal_stats, out_dir / "deal_stats" / f"{result.shard_id}.parquet")
    if result.game_sums is not None:
        write_atomic(result.game_sums, out_dir / "game_sums" / f"{result.shard_id}.parquet")
    if result.deals is not None:
        write_atomic(result.deals, out_dir / "deals" / f"{result.shard_id}.parquet")
    write_atomic(result.games, out_dir / "games" / f"{result.shard_id}.parquet")


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


class ShardRecords:
    """What a run's manifest records of each shard it wrote, read from the files as written:
    their checksums (``manifest["checksums"]``: table -> BLAKE2b) and the games file's rows and
    game-id range (``manifest["contents"]``: ``{"rows": n, "game_ids": [first, last]}``), which
    ``verify`` checks again."""

    def __init__(self, manifest: dict[str, Any], out_dir: Path) -> None:
        self.out_dir = out_dir
        self.checksums: dict[str, dict[str, str]] = manifest.setdefault("checksums", {})
        self.contents: dict[str, dict[str, Any]] = manifest.setdefault("contents", {})

    def __contains__(self, shard_id: str) -> bool:
        return shard_id in self.checksums

    def record(self, shard_id: str) -> None:
        """Record the shard's files as they are now."""
        self.checksums[shard_id] = shard_checksums(self.out_dir, shard_id)
        self.contents[shard_id] = shard_contents(self.out_dir, shard_id)

    def forget(self, shard_id: str) -> None:
        """Drop what was recorded of the shard (it is played again)."""
        self.checksums.pop(shard_id, None)
        self.contents.pop(shard_id, None)

    def unchanged(self, shard_id: str) -> bool:
        """Whether the shard's files still match their recorded checksums."""
        return shard_checksums(self.out_dir, shard_id) == self.checksums.get(shard_id)


def shard_contents(out_dir: Path, shard_id: str) -> dict[str, Any]:
    """The rows of a shard's games file and the first and last game id in it."""
    return games_contents(pl.read_parquet(out_dir / "games" / f"{shard_id}.parquet",
                                          columns=["game_id"]))


def games_contents(games: pl.DataFrame) -> dict[str, Any]:
    """What the manifest records of a games table: its rows, its first and last game id."""
    ids = games["game_id"]
    return {"rows": games.height,
            "game_ids": [int(ids.min()), int(ids.max())] if games.height else []}


def completed_shards(out_dir: Path) -> set[str]:
    """Ids of shards whose games file exists (written last, so the shard is complete)."""
    folder = out_dir / "games"
    return {path.stem for path in folder.glob("*.parquet")} if folder.is_dir() else set()


def new_manifest(config: TournamentConfig, variant_options: list[dict[str, Any]], fingerprint: str,
              plan: ShardPlan, executor: str) -> dict[str, Any]:
    from raspis.engine.variant import Variant
    from raspis.strategies.isolate import greeting, split_isolation
    from raspis.strategies.registry import split_alias
    variants = []
    for spec, options, table in zip(config.variants, variant_options,
                                    strong_tables(config, variant_options), strict=True):
        variant = Variant.model_validate(options)
        variants.append({"spec": spec, "name": variant.name, "hash": variant.content_hash,
                         "options": options, "strong_table": table})
    strategies = []
    for spec, name in zip(config.strategies, display_names(config.strategies), strict=True):
        isolated, inner = split_isolation(split_alias(spec)[1])
        if isolated:  # what its own process said when it loaded (never imported here)
            said = greeting(inner)
            strategies.append({"spec": spec, "name": name, "class": said.target,
                               "options": said.options, "isolated": True,
                               "version": __version__})
            continue
        instance = try_strategy(spec)
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
        "game_sums": True,
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
            f"{out_dir} holds a different run (variants, strategies, seed, games, seating or "
            "a bid table fitted with `raspis strategies fit` differ); choose another --out, or "
            "repeat that run's exact options to resume it"
        )
    if not resume:
        done = len(completed_shards(out_dir))
        status = existing.get("status")
        raise TournamentError(
            f"{out_dir} already holds this run ({status}, {done} of {existing.get('shards')} "
            "shards done); add --resume to finish it, or choose another --out"
        )
    return existing


def shard_problem(out_dir: Path, task: ShardTask) -> str | None:
    """Why a written shard does not read back (a table file missing, unreadable, off-schema, or
    with the wrong number of game rows), or None when it does."""
    from .schema import check_frame

    tables = shard_tables(task.deal_rows, task.game_sums)
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
            return f"{path} cannot be read ({first_line(error)})"
        if table == "games" and frame.height != len(task.games) * task.players:
            return (f"{path} has {frame.height} rows, expected {len(task.games) * task.players} "
                    f"({len(task.games)} games x {task.players} seats)")
    return None


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def remove_shard(out_dir: Path, shard_id: str) -> None:
    for table in ("games", "deals", "deal_stats", "game_sums"):  # the games file first
        with contextlib.suppress(FileNotFoundError):
            (out_dir / table / f"{shard_id}.parquet").unlink()


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


