"""Checking a run's dataset: ``verify_run(run_dir)`` (the ``raspis verify`` command).

Reads the manifest and judges its configuration (its values checked, the shards it plans counted
before any is made), plans the shards the run should hold, and reads every shard file back in
full: each must exist, read, match its table's schema, hold one games row per seat per game of the
shard and exactly the games (ids, deal sets, seeds from the root seed) the shard plans, and match
the checksums the run recorded in its manifest when it wrote them. Files the plan does not know,
leftover temporary files and a run that is not complete are reported too. Nothing is changed;
the repair of damaged or missing shards is ``raspis tournament ... --resume``, which re-plays
them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from raspis.engine.errors import RaspisError

from .schema import TABLES, DatasetError, read_table_file, repair_hint, shard_tables


@dataclass
class Verification:
    """What ``verify_run`` found: the problems (empty when the run is sound) and the counts."""

    run_dir: Path
    problems: list[str] = field(default_factory=list)
    shards: int = 0
    shards_ok: int = 0
    games: int = 0
    errored: int = 0
    status: str = "unknown"

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems


#: missing shards named one by one, at most (the rest counted)
NAMED_MISSING = 20


def _planned(manifest: dict[str, Any]) -> tuple[Any, str | None]:
    """The run's ``ShardPlan`` from its manifest (None where the manifest cannot say), and what
    is wrong with the manifest's configuration (its values checked first, and the games and
    shards it plans counted against one run's limits, before anything is planned)."""
    from .config import TournamentConfig, TournamentError, check_scale, check_sizes
    from .plan import ShardPlan

    try:
        config_data = dict(manifest["config"])
        for key in ("variants", "strategies"):
            config_data[key] = tuple(config_data[key])
        config = TournamentConfig(**config_data)
        options = [entry["options"] for entry in manifest["variants"]]
    except (KeyError, TypeError, ValueError, RaspisError):
        return None, None
    try:
        check_sizes(config)
        if len(options) != len(config.variants):
            raise TournamentError(f"{len(options)} variants described for "
                                  f"{len(config.variants)} in the configuration")
        check_scale(config, len(options))
        plan = ShardPlan(config, options)
        plan.game_sums = bool(manifest.get("game_sums"))
        return plan, None
    except (TournamentError, TypeError, ValueError, RaspisError) as error:
        return None, str(error)


def verify_run(run_dir: str | Path) -> Verification:
    """Check every file of a run (see the module docstring). Raises ``DatasetError`` only when
    ``run_dir`` is not a run at all (no such folder, no readable manifest)."""
    from .config import TournamentError
    from .store import MANIFEST, read_manifest

    folder = Path(run_dir)
    if not folder.is_dir():
        raise DatasetError(f"{folder} is not a folder; give the --out folder of a raspis run")
    try:
        manifest = read_manifest(folder / MANIFEST)
    except TournamentError as error:
        raise DatasetError(str(error).replace("choose another --out or remove the folder",
                                              "this is not a raspis run")) from None
    report = Verification(folder, status=str(manifest.get("status")))
    plan = _judge_manifest(report, manifest)
    report.shards = len(plan) if plan is not None else 0
    present = {table: _files(folder / table) for table in TABLES}
    missing: list[Path] = []
    for shard_id in plan.ids() if plan is not None else ():
        report.shards_ok += _shard_sound(report, manifest, plan, shard_id, present, missing)
    for path in missing[:NAMED_MISSING]:
        report.problems.append(f"{path} is missing (shard {path.stem} not played or lost)")
    if len(missing) > NAMED_MISSING:
        report.problems.append(f"... and {len(missing) - NAMED_MISSING:,} more shard files are "
                               "missing")
    _stray_files(report, plan)
    recorded = manifest.get("games")
    if report.status == "complete" and isinstance(recorded, int) and plan is not None \
            and report.shards_ok == report.shards and recorded != report.games:
        report.problems.append(f"the manifest records {recorded} games, the files hold "
                               f"{report.games}")
    if report.problems:
        report.problems.append(repair_hint(folder))
    return report


def _judge_manifest(report: Verification, manifest: dict[str, Any]) -> Any:
    """The manifest's status, configuration and checksums judged (problems into ``report``);
    the run's plan of shards, or None where the manifest cannot say."""
    from .store import MANIFEST

    folder = report.run_dir
    if report.status != "complete":
        report.problems.append(f"the run is {report.status}, not complete: finish it with the "
                               "same command and --resume")
    plan, wrong = _planned(manifest)
    if wrong is not None:
        report.problems.append(f"{folder / MANIFEST} is not a manifest raspis wrote: {wrong}; "
                               "only the files present were checked")
    elif plan is None:
        report.problems.append(f"{folder / MANIFEST} does not describe its shards (no usable "
                               "config); only the files present were checked")
    if plan is not None and not _recorded(manifest, "checksums"):
        report.problems.append(f"{folder / MANIFEST} records no checksums (a run written before "
                               "they existed, or an edited manifest): its files cannot be proven "
                               "unchanged")
    return plan


def _recorded(manifest: dict[str, Any], key: str) -> dict[str, Any]:
    """What the manifest records per shard under ``key`` (``checksums``, ``contents``)."""
    value = manifest.get(key)
    return value if isinstance(value, dict) else {}


def _shard_sound(report: Verification, manifest: dict[str, Any], plan: Any, shard_id: str,
                 present: dict[str, set[str]], missing: list[Path]) -> bool:
    """Whether a planned shard's files are all there, read back, hold exactly the games it
    plans and match their recorded checksums (problems into ``report``, absent files into
    ``missing``; its games counted into ``report`` when its games file is sound)."""
    from .store import shard_checksums

    folder = report.run_dir
    tables = shard_tables(plan.writes_deal_rows, plan.game_sums)
    if not any(f"{shard_id}.parquet" in present[table] for table in tables):
        missing.extend(folder / table / f"{shard_id}.parquet" for table in tables)
        return False  # not played (the plan's games are made only for shards that exist)
    task = plan.task(shard_id)
    sound = True
    for table in tables:
        path = folder / table / f"{shard_id}.parquet"
        if path.name not in present[table]:
            missing.append(path)
            sound = False
            continue
        try:
            frame = read_table_file(path, table, hint=False)
        except DatasetError as error:
            report.problems.append(str(error))
            sound = False
            continue
        if table == "games":
            sound = _games_sound(report, manifest, task, path, frame) and sound
    recorded_sums = _recorded(manifest, "checksums")
    if sound and recorded_sums:
        recorded = recorded_sums.get(task.shard_id)
        if recorded is None:
            report.problems.append(f"shard {task.shard_id} has no checksum in the manifest: "
                                   "it cannot be proven unchanged")
            sound = False
        elif shard_checksums(folder, task.shard_id) != recorded:
            report.problems.append(f"shard {task.shard_id}: its files changed after the run "
                                   "wrote them (checksums differ from the manifest's)")
            sound = False
    return sound


def _games_sound(report: Verification, manifest: dict[str, Any], task: Any, path: Path,
                 frame: Any) -> bool:
    """Whether a shard's games file holds one row per seat of exactly the games the shard plans,
    as the manifest recorded them; its games counted into ``report`` when it does."""
    expected = len(task.games) * task.players
    if frame.height != expected or frame["game_id"].n_unique() != len(task.games):
        report.problems.append(
            f"{path} has {frame.height} rows for {frame['game_id'].n_unique()} games; "
            f"expected {expected} rows for {len(task.games)} games")
        return False
    if not _holds_planned_games(frame, task):
        report.problems.append(
            f"{path} holds other games than shard {task.shard_id} plans (their ids or "
            "seeds differ: a shard of another run, or of another shard, copied in)")
        return False
    said = _contents_differ(_recorded(manifest, "contents").get(task.shard_id), frame)
    if said is not None:
        report.problems.append(f"{path} does not hold what the manifest recorded of "
                               f"shard {task.shard_id}: {said}")
        return False
    report.games += len(task.games)
    report.errored += frame.filter(frame["errored"])["game_id"].n_unique()
    return True


def _stray_files(report: Verification, plan: Any) -> None:
    """Files in the run's table folders that are no shard of its plan (or leftovers of an
    interrupted write); without a plan, every file present is read back."""
    for table in TABLES:
        directory = report.run_dir / table
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            planned = plan is not None and plan.locate(path.stem) is not None and (
                table != "deals" or plan.writes_deal_rows) and (
                table != "game_sums" or plan.game_sums)
            if path.name.startswith(".") and path.name.endswith(".tmp"):
                report.problems.append(f"{path} is a leftover temporary file (an interrupted "
                                       "write); --resume removes it")
            elif path.suffix == ".parquet" and plan is not None and not planned:
                report.problems.append(f"{path} is not a shard of this run (unexpected file)")
            elif plan is None and path.suffix == ".parquet":
                try:
                    read_table_file(path, table, hint=False)
                except DatasetError as error:
                    report.problems.append(str(error))


def _files(directory: Path) -> set[str]:
    """Names of the files in ``directory`` (none where it is not a folder)."""
    return {entry.name for entry in os.scandir(directory) if entry.is_file()} \
        if directory.is_dir() else set()


def _contents_differ(recorded: Any, frame: Any) -> str | None:
    """How a games table differs from the manifest's record of its rows and game-id range (None
    when it matches, or when the manifest records none: a run written before it did)."""
    if recorded is None:
        return None
    if not isinstance(recorded, dict):
        return "the record is not a rows and game-id range"
    from .store import games_contents

    found = games_contents(frame)
    if recorded != found:
        return f"recorded {recorded}, found {found}"
    return None


def _holds_planned_games(frame: Any, task: Any) -> bool:
    """Whether a games table holds exactly the games a shard plans: their (game_id, deal_set,
    seed), from ``shard.game_id`` and the game seeds' derivation (``batch_shard.game_seeds``,
    the vectorised ``shard.game_seed``), compared as columns."""
    import numpy as np
    import polars as pl

    from .batch_shard import game_seeds
    from .task import game_id

    planned = np.asarray(task.games, dtype=np.int64).reshape(-1, 2)
    deal_sets, seatings = planned[:, 0], planned[:, 1]
    expected = pl.DataFrame({"game_id": game_id(task, deal_sets, seatings),
                             "deal_set": deal_sets,
                             "seed": game_seeds(task.root_seed, deal_sets)})
    stored = frame.select("game_id", "deal_set", "seed").unique()
    return stored.sort("game_id").equals(expected.cast(stored.schema).sort("game_id"))


#: the columns of a game's rows that a replay must give again
REPLAYED_COLUMNS = ("game_id", "seat", "strategy", "lineup_slot", "score", "place", "winner",
                    "deals_played", "lead_changes", "comeback", "decided_deals_left", "errored")


def replay_games(run_dir: str | Path, count: int, seed: int = 0) -> list[str]:
    """Play ``count`` games of the run again from their seeds (sampled from its planned games with
    ``seed``), each shard's sample in a supervised worker as the run played it, and compare them
    with the stored rows; the games that differ, named. A difference means something outside the
    seeds decided the games: a strategy with hidden state (module-level variables kept between
    games, a clock, its own unseeded random numbers), or rows edited in place."""
    import random
    from dataclasses import replace

    import polars as pl

    from .store import MANIFEST, read_manifest
    from .task import game_id
    from .workers import run_shard_supervised

    folder = Path(run_dir)
    manifest = read_manifest(folder / MANIFEST)
    plan, wrong = _planned(manifest)
    if plan is None:
        return [f"cannot replay: {wrong or 'the manifest does not describe its shards'}"]
    # a game is its place in the plan: (variant, seating group) x deal set, sampled by number
    # (nothing listed: a run of 10**8 games samples as fast as a small one)
    deal_sets = plan.config.games
    everything = len(plan.variant_options) * plan.groups * deal_sets
    problems = []
    by_task: dict[str, list[tuple[int, int]]] = {}
    tasks = {}
    for number in sorted(random.Random(seed).sample(range(everything), min(count, everything))):
        row, deal_set = divmod(number, deal_sets)
        variant, group = divmod(row, plan.groups)
        shard_id = plan.shard_id(variant, group, deal_set // plan.size)
        task = tasks.get(shard_id) or tasks.setdefault(shard_id, plan.task(shard_id))
        by_task.setdefault(shard_id, []).append(task.games[deal_set % plan.size])
    for task in tasks.values():
        picked = by_task[task.shard_id]
        # in the reverse of the run's order, alone in a fresh worker: a game that depended on
        # what its process played before (hidden state) meets another history here
        mini = replace(task, games=tuple(sorted(picked, reverse=True)))
        again = run_shard_supervised(mini).games.select(REPLAYED_COLUMNS)
        ids = [game_id(task, deal_set, seating) for deal_set, seating in mini.games]
        path = folder / "games" / f"{task.shard_id}.parquet"
        if not path.is_file():
            problems.append(f"{path} is missing: its games cannot be compared")
            continue
        stored = pl.read_parquet(path).filter(pl.col("game_id").is_in(ids)).select(
            REPLAYED_COLUMNS)
        key = ["game_id", "seat"]
        joined = again.sort(key).join(stored.sort(key), on=key, how="full", suffix="_stored",
                                      coalesce=True)
        for ident in ids:
            rows = joined.filter(pl.col("game_id") == ident)
            same = rows.height and all(
                rows[column].equals(rows[f"{column}_stored"])
                for column in REPLAYED_COLUMNS if column not in key)
            if not same:
                deal_set, seating = next((d, s) for d, s in mini.games
                                         if game_id(task, d, s) == ident)
                problems.append(
                    f"game {ident} (shard {task.shard_id}, deal set {deal_set}, seating "
                    f"{seating}) plays differently from its stored rows: something beside the "
                    "seeds decided it (a strategy with hidden state: module-level variables, a "
                    "clock, unseeded random numbers), or its rows were edited")
    return problems
