"""Checking a run's dataset: ``verify_run(run_dir)`` (the ``raspis verify`` command).

Reads the manifest, plans the shards the run should hold (from the manifest's configuration), and
reads every shard file back in full: each must exist, read, match its table's schema, and hold one
games row per seat per game of the shard. Files the plan does not know, leftover temporary files
and a run that is not complete are reported too. Nothing is changed; the repair of damaged or
missing shards is ``raspis tournament ... --resume``, which re-plays them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from raspis.engine.errors import RaspisError

from .schema import TABLES, DatasetError, read_table_file, repair_hint


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


def _planned(manifest: dict[str, Any]) -> list[Any] | None:
    """The run's shard tasks from its manifest, or None where the manifest cannot say."""
    from .runner import TournamentConfig, plan_shards

    try:
        config_data = dict(manifest["config"])
        for key in ("variants", "strategies"):
            config_data[key] = tuple(config_data[key])
        config = TournamentConfig(**config_data)
        options = [entry["options"] for entry in manifest["variants"]]
        return plan_shards(config, options)
    except (KeyError, TypeError, ValueError, RaspisError):
        return None


def verify_run(run_dir: str | Path) -> Verification:
    """Check every file of a run (see the module docstring). Raises ``DatasetError`` only when
    ``run_dir`` is not a run at all (no such folder, no readable manifest)."""
    from .runner import MANIFEST, TournamentError, read_manifest

    folder = Path(run_dir)
    if not folder.is_dir():
        raise DatasetError(f"{folder} is not a folder; give the --out folder of a raspis run")
    try:
        manifest = read_manifest(folder / MANIFEST)
    except TournamentError as error:
        raise DatasetError(str(error).replace("choose another --out or remove the folder",
                                              "this is not a raspis run")) from None
    report = Verification(folder, status=str(manifest.get("status")))
    if report.status != "complete":
        report.problems.append(f"the run is {report.status}, not complete: finish it with the "
                               "same command and --resume")
    tasks = _planned(manifest)
    known: dict[str, set[str]] = {table: set() for table in TABLES}
    if tasks is None:
        report.problems.append(f"{folder / MANIFEST} does not describe its shards (no usable "
                               "config); only the files present were checked")
        tasks = []
    report.shards = len(tasks)
    for task in tasks:
        tables = ["games", "deal_stats"] + (["deals"] if task.deal_rows else [])
        sound = True
        for table in tables:
            path = folder / table / f"{task.shard_id}.parquet"
            known[table].add(path.name)
            if not path.is_file():
                report.problems.append(f"{path} is missing (shard {task.shard_id} not played "
                                       "or lost)")
                sound = False
                continue
            try:
                frame = read_table_file(path, table, hint=False)
            except DatasetError as error:
                report.problems.append(str(error))
                sound = False
                continue
            if table == "games":
                expected = len(task.games) * task.players
                if frame.height != expected or frame["game_id"].n_unique() != len(task.games):
                    report.problems.append(
                        f"{path} has {frame.height} rows for {frame['game_id'].n_unique()} games; "
                        f"expected {expected} rows for {len(task.games)} games")
                    sound = False
                else:
                    report.games += len(task.games)
                    errored = frame.filter(frame["errored"])["game_id"].n_unique()
                    report.errored += errored
        report.shards_ok += sound
    for table in TABLES:
        directory = folder / table
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if path.name.startswith(".") and path.name.endswith(".tmp"):
                report.problems.append(f"{path} is a leftover temporary file (an interrupted "
                                       "write); --resume removes it")
            elif path.suffix == ".parquet" and tasks and path.name not in known[table]:
                report.problems.append(f"{path} is not a shard of this run (unexpected file)")
            elif not tasks and path.suffix == ".parquet":
                try:
                    read_table_file(path, table, hint=False)
                except DatasetError as error:
                    report.problems.append(str(error))
    recorded = manifest.get("games")
    if report.status == "complete" and isinstance(recorded, int) and tasks \
            and report.shards_ok == report.shards and recorded != report.games:
        report.problems.append(f"the manifest records {recorded} games, the files hold "
                               f"{report.games}")
    if report.problems:
        report.problems.append(repair_hint(folder))
    return report
