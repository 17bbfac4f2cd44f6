"""Opening a tournament run for analysis: its manifest and its tables as lazy polars frames.

``open_run("results/run1")`` checks that the directory is a raspis run (``manifest.json`` and a
``games/`` table of the schema in ``raspis.tournament.schema``) and returns a ``Run``: the manifest
and lazy scans of ``games``, ``deal_stats`` and, when the run wrote them, ``deals``. Every statistic
in ``raspis.analysis`` takes a ``Run``; ``run_from_frames`` builds one from in-memory frames (for
notebooks and tests). Nothing here reads rows: the frames stay lazy until a statistic aggregates.

Two columns the analysis derives everywhere:

- ``position`` = ``(seat - first_dealer) mod players``: 0 is the first dealer, 1 the player on the
  first dealer's left (who bids and leads first in the first deal), and so on; this is the seat
  that the rules make different, while the absolute ``seat`` number is arbitrary;
- ``strategy`` holds each strategy's display name (its alias, its class's ``name``, or the spec
  of a built-in; see ``raspis.strategies.registry``), mapped from the specs the tables store;
- the *deal set* is the unit of independence: games of one deal set share their cards (the
  seatings of a duplicate run replay them), so intervals and tests treat a deal set as one cluster.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from collections.abc import Callable, Collection, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import polars as pl
from raspis.tournament.schema import (
    TABLES,
    DatasetError,
    check_frame,
    complete_frame,
    scan_table,
)

MANIFEST = "manifest.json"

#: told (games summed, games to sum) while the rows of a run are summed into its totals
#: (``summing``): None outside it
_SUMMING: ContextVar[Callable[[int, int], None] | None] = ContextVar("summing", default=None)


@contextlib.contextmanager
def summing(progress: Callable[[int, int], None]) -> Iterator[None]:
    """Within it, every run whose totals are summed from its rows (``Run.totals``: a run written
    before its runner kept its sums, or its small shard groups) tells ``progress`` (games
    summed, games to sum) as it goes: what the command line shows a progress bar of."""
    token = _SUMMING.set(progress)
    try:
        yield
    finally:
        _SUMMING.reset(token)

if TYPE_CHECKING:
    from raspis.tournament.totals import Basis, Totals

T = TypeVar("T")


def per_run(function: Callable[..., T]) -> Callable[..., T]:
    """``function(run, ...)`` computed once per run and arguments, through ``Run.cached`` (a run's
    tables do not change once written): a report asks for the same table for its tables, its
    figures and its findings (the dealer's cost of a study of two runs: six times)."""

    @functools.wraps(function)
    def once(run: Run, *args: Any, **options: Any) -> T:
        key = f"{function.__module__}.{function.__qualname__}{args!r}{sorted(options.items())!r}"
        return run.cached(key, lambda: function(run, *args, **options))

    return once


@dataclass(frozen=True)
class Run:
    """One tournament run: where it came from, its manifest, and its tables (lazy)."""

    label: str
    path: Path | None
    manifest: Mapping[str, Any]
    games: pl.LazyFrame
    deal_stats: pl.LazyFrame
    deals: pl.LazyFrame | None = None
    #: each game's deal-level sums (``game_sums/``), None for a run written before them
    game_sums: pl.LazyFrame | None = None
    #: strategy spec -> display name, as the rows of ``games`` read here name them
    renames: Mapping[str, str] = field(default_factory=dict)
    #: the shards read (``open_run(only=...)``), None for all the manifest holds
    shards: frozenset[str] | None = None
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def has_deals(self) -> bool:
        """Whether the run holds per-deal rows (``deals/``)."""
        return self.deals is not None

    @property
    def strategies(self) -> list[str]:
        """The lineup's strategies by display name, in lineup-slot order (from the manifest, else
        the data)."""
        config = self.manifest.get("config") or {}
        if config.get("strategies"):
            names = display_names(self.manifest)
            return [names.get(spec, spec) for spec in config["strategies"]]
        frame = self.collect(
            self.games.select("lineup_slot", "strategy").unique().sort("lineup_slot")
        )
        return frame["strategy"].to_list()

    @property
    def duplicate(self) -> str:
        """The run's duplicate mode: ``none``, ``rotations`` or ``permutations``."""
        config = self.manifest.get("config") or {}
        return str(config.get("duplicate", "none"))

    def collect(self, frame: pl.LazyFrame) -> pl.DataFrame:
        """Collect ``frame``, turning a read failure into a ``DatasetError`` naming this run."""
        try:
            return frame.collect()
        except (pl.exceptions.PolarsError, OSError) as error:
            first_line = (
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
            from raspis.tournament.schema import find_damaged

            files = find_damaged(self.path) if self.path is not None else []
            if files:  # name the damaged file and the repair
                raise DatasetError(f"{self.label}: cannot read the dataset: {files[0]}") from None
            raise DatasetError(f"{self.label}: cannot read the dataset: {first_line}") from None

    def cached(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()`` once per run and key (the tables are immutable once written)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]  # type: ignore[no-any-return]

    @property
    def deal_set_basis(self) -> int:
        """The deal sets the run's blocks of deal sets count from (``schema.deal_block``): its
        plan's (a run that grows) or its size, else one more than the highest deal set."""
        config = self.manifest.get("config") or {}
        for key in ("plan_deal_sets", "games"):
            if isinstance(config.get(key), int) and config[key] > 0:
                return int(config[key])
        highest = self.collect(self.games.select(pl.col("deal_set").max()))["deal_set"][0]
        return 1 if highest is None else int(highest) + 1

    @property
    def players(self) -> int:
        """Seats at the table (the manifest's, else the rows')."""
        config = self.manifest.get("config") or {}
        if isinstance(config.get("players"), int):
            return int(config["players"])
        found = self.collect(self.games.select(pl.col("players").max()))["players"][0]
        return int(found or 0)

    def totals(self) -> Totals:
        """The run's totals per block of deal sets (``tournament.totals``): what the statistics
        read instead of the rows. A run on disk keeps them in its folder once built."""
        return self.cached("totals", self._build_totals)

    def seated(self) -> list[str]:
        """The lineup's distinct strategies as the rows name them, in lineup order (a run on
        disk: its manifest's, as the rows are renamed; in memory: the rows')."""
        if self.path is not None and self.manifest.get("checksums"):
            return list(dict.fromkeys(self.strategies))
        return self.cached("seated", lambda: list(dict.fromkeys(self.collect(
            self.games.select("lineup_slot", "strategy").unique().sort("lineup_slot", "strategy")
        )["strategy"].to_list())))

    def basis(self) -> Basis:
        """What the run's totals count against (``tournament.totals.Basis``; for a run on disk
        the same as ``Basis.of`` its manifest, which the runner sums large shard groups by)."""
        from raspis.tournament.totals import Basis

        return Basis(strategies=tuple(self.seated()), players=self.players,
                     deal_sets=self.deal_set_basis, has_sums=bool(self.manifest.get("game_sums")),
                     renames=tuple(sorted(self.renames.items())))

    def _build_totals(self) -> Totals:
        from raspis.tournament.totals import compute, run_totals, shard_rows

        basis = self.basis()
        if self.path is not None and self.manifest.get("checksums"):
            try:
                checksums = dict(self.manifest["checksums"])
                if self.shards is not None:
                    checksums = {shard: value for shard, value in checksums.items()
                                 if shard in self.shards}
                return run_totals(self.path, checksums, shard_rows(self.manifest, checksums),
                                  basis, _SUMMING.get())
            except (pl.exceptions.PolarsError, OSError) as error:
                raise DatasetError(f"{self.label}: cannot read the dataset: "
                                   f"{str(error).strip().splitlines()[0]}") from None
        return compute(self.games, self.game_sums, basis.strategies, basis.players,
                       basis.deal_sets)

    def finished_games(self) -> pl.LazyFrame:
        """Seat rows of the games that finished (errored games are left out of every statistic),
        with ``position`` added."""
        players = pl.col("players")
        return self.games.filter(~pl.col("errored")).with_columns(
            ((pl.col("seat") - pl.col("first_dealer") + players) % players)
            .cast(pl.Int32)
            .alias("position")
        )

    def variant_names(self) -> pl.DataFrame:
        """``variant_hash`` -> ``variant`` (name) of the variants with games, for labelling
        tables (a run on disk: from its manifest, for those its totals hold)."""
        def names() -> pl.DataFrame:
            entries = self.manifest.get("variants") or []
            if self.path is not None and self.manifest.get("checksums") and entries:
                played = set(self.totals().games["variant_hash"].to_list())
                rows = sorted({(str(entry.get("hash")), str(entry.get("name")))
                               for entry in entries if entry.get("hash") in played})
                if {variant_hash for variant_hash, _ in rows} == played:
                    return pl.DataFrame(rows, schema={"variant_hash": pl.String(),
                                                      "variant": pl.String()}, orient="row")
            return self.collect(
                self.games.select("variant_hash", "variant").unique().sort("variant_hash"))

        return self.cached("variant_names", names)

    def _game_counts(self) -> pl.DataFrame:
        """Per variant: its games (finished and errored), deal sets (with a finished game),
        errored games and players, from the totals."""
        games = self.totals().games
        if games.height == 0:
            return pl.DataFrame(schema={"variant_hash": pl.String(), "variant": pl.String(),
                                        "games": pl.Int64(), "deal_sets": pl.Int64(),
                                        "errored_games": pl.Int64(), "players": pl.Int64()})
        counts = games.group_by("variant_hash").agg(
            pl.col("games").fill_null(0).sum().cast(pl.Int64),
            pl.col("errored_games").fill_null(0).sum().cast(pl.Int64),
            pl.col("deal_sets").fill_null(0).sum().cast(pl.Int64),
            (pl.col("players").fill_null(0).sum() // pl.col("deal_sets").fill_null(0).sum()
             .clip(lower_bound=1)).cast(pl.Int64).alias("players"),
        ).with_columns(pl.col("games") + pl.col("errored_games"))
        return counts.join(self.variant_names(), on="variant_hash", how="left").select(
            "variant_hash", "variant", "games", "deal_sets", "errored_games", "players"
        ).sort("variant")

    def describe(self) -> dict[str, Any]:
        """Provenance of every number taken from this run: path, fingerprint, status, seed,
        players, duplicate mode, strategies, and per variant its name, hash and game count."""
        counts = self.cached("game_counts", self._game_counts)
        config = self.manifest.get("config") or {}
        return {
            "label": self.label,
            "path": str(self.path) if self.path else None,
            "fingerprint": self.manifest.get("fingerprint"),
            "status": self.manifest.get("status", "unknown"),
            "seed": config.get("seed"),
            "players": int(counts["players"][0]) if counts.height else config.get("players"),
            "duplicate": self.duplicate,
            "strategies": self.strategies,
            "deal_rows": self.has_deals,
            "package": (self.manifest.get("package") or {}).get("version"),
            "finished": self.manifest.get("finished"),
            "variants": counts.to_dicts(),
        }


def display_names(manifest: Mapping[str, Any]) -> dict[str, str]:
    """spec -> display name of a run's strategies (``tournament.runner.strategy_names``)."""
    from raspis.tournament.store import strategy_names

    return strategy_names(dict(manifest))


def open_run(path: str | Path, label: str | None = None,
             only: Collection[str] | None = None) -> Run:
    """Open a run directory written by ``raspis tournament`` (``DatasetError`` if it is not one);
    ``only``: read these of its shards alone (``raspis settle`` reads each round's new ones)."""
    folder = Path(path)
    if not folder.exists():
        raise DatasetError(f"{folder}: no such directory")
    if not folder.is_dir():
        raise DatasetError(f"{folder}: not a directory (give the --out directory of a tournament)")
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise DatasetError(
            f"{folder} is not a raspis run: it has no {MANIFEST} "
            "(make one with: raspis tournament --out DIR)"
        )
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DatasetError(f"{manifest_path} cannot be read: {error}") from None
    if not isinstance(manifest, dict):
        raise DatasetError(f"{manifest_path} is not a raspis manifest (not a JSON object)")
    if not list((folder / "games").glob("*.parquet")):
        raise DatasetError(
            f"{folder} holds no finished games yet (games/ is empty); "
            "resume the run with raspis tournament ... --resume"
        )
    # the shards the run wrote and checksummed only (files copied in beside them are not its
    # own; ``raspis verify`` names them); a run from before checksums: every file
    sums = manifest.get("checksums")
    shards = set(sums) if isinstance(sums, dict) and sums else None
    if only is not None:
        shards = set(only) if shards is None else shards & set(only)
    games = scan_table(folder, "games", shards)
    deal_stats = scan_table(folder, "deal_stats", shards)
    deals = (scan_table(folder, "deals", shards)
             if list((folder / "deals").glob("*.parquet")) else None)
    game_sums = (scan_table(folder, "game_sums", shards)
                 if manifest.get("game_sums") and list((folder / "game_sums").glob("*.parquet"))
                 else None)
    if shards is None:  # a run from before checksums: its rows are checked here
        repeated = games.group_by("game_id", "seat").len().filter(pl.col("len") > 1).select(
            "game_id").head(1).collect()
        if repeated.height:
            from raspis.tournament.totals import RepeatedGame

            raise RepeatedGame(folder, f"game {int(repeated['game_id'][0])}")
    names = {spec: name for spec, name in display_names(manifest).items() if spec != name}
    if names:  # the tables hold specs; every statistic shows the strategies' display names
        renamed = pl.col("strategy").replace(names)
        games = games.with_columns(renamed)
        deal_stats = deal_stats.with_columns(renamed)
        deals = deals.with_columns(renamed) if deals is not None else None
    run = Run(
        label=label or folder.name,
        path=folder,
        manifest=manifest,
        games=games,
        deal_stats=deal_stats,
        deals=deals,
        game_sums=game_sums,
        renames=names,
        shards=frozenset(only) if only is not None else None,
    )
    if shards is not None:
        run.totals()  # built once and kept; building checks that no game is there twice
    return run


def run_from_frames(
    games: pl.DataFrame | pl.LazyFrame,
    deal_stats: pl.DataFrame | pl.LazyFrame,
    deals: pl.DataFrame | pl.LazyFrame | None = None,
    manifest: Mapping[str, Any] | None = None,
    label: str = "frames",
    game_sums: pl.DataFrame | pl.LazyFrame | None = None,
) -> Run:
    """A ``Run`` from in-memory frames of the dataset schema (checked), e.g. synthetic data."""
    frames: dict[str, pl.LazyFrame] = {}
    for table, frame in (("games", games), ("deal_stats", deal_stats), ("deals", deals),
                         ("game_sums", game_sums)):
        if frame is None:
            continue
        check_frame(frame, table, f"{label}: {table}")
        frames[table] = complete_frame(frame.lazy(), table)
    return Run(
        label=label,
        path=None,
        manifest=dict(manifest or {}),
        games=frames["games"],
        deal_stats=frames["deal_stats"],
        deals=frames.get("deals"),
        game_sums=frames.get("game_sums"),
    )


#: The file a ``raspis settle`` folder keeps its plan and its log in: the folder holds one run
#: per lineup and variant, listed there (``settle_runs``).
SETTLE_LOG = "settle.json"


def settle_runs(path: str | Path) -> list[Path] | None:
    """The run folders of a ``raspis settle`` folder, in its order (None: not such a folder)."""
    folder = Path(path)
    log = folder / SETTLE_LOG
    if (folder / MANIFEST).is_file() or not log.is_file():
        return None
    try:
        runs = json.loads(log.read_text(encoding="utf-8")).get("runs") or []
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError) as error:
        raise DatasetError(f"{log} cannot be read: {error}") from None
    return [folder / str(entry["folder"]) for entry in runs
            if (folder / str(entry["folder"]) / MANIFEST).is_file()]


def open_runs(paths: list[str | Path]) -> list[Run]:
    """Open several runs; labels are the directory names, made unique when two collide. A
    ``raspis settle`` folder stands for the runs it holds (``settle_runs``)."""
    expanded: list[str | Path] = []
    for path in paths:
        inside = settle_runs(path)
        expanded += inside if inside is not None else [path]
    runs = [open_run(path) for path in expanded]
    labels: dict[str, int] = {}
    unique = []
    for run in runs:
        count = labels.get(run.label, 0)
        labels[run.label] = count + 1
        if count:
            run = dataclasses.replace(run, label=f"{run.label}#{count + 1}", _cache={})
        unique.append(run)
    return unique


def with_variant_names(run: Run, frame: pl.DataFrame) -> pl.DataFrame:
    """Add the ``variant`` name column (first) to a frame keyed by ``variant_hash``."""
    named = frame.join(run.variant_names(), on="variant_hash", how="left")
    return named.select("variant", *[c for c in frame.columns])


def empty_like(columns: Mapping[str, pl.DataType]) -> pl.DataFrame:
    """An empty frame with the given columns (what a statistic returns when nothing applies)."""
    return pl.DataFrame(schema=dict(columns))


__all__ = [
    "MANIFEST",
    "TABLES",
    "DatasetError",
    "Run",
    "empty_like",
    "open_run",
    "open_runs",
    "run_from_frames",
    "with_variant_names",
]
