"""Tournaments: determinism across workers and executors, resume after kill -9, schema, errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.tournament import DatasetError, TournamentConfig, run_tournament, scan_table
from raspis.tournament.runner import TournamentError

RASPIS = [sys.executable, "-m", "raspis.cli.main"]

SMALL = TournamentConfig(
    variants=("odessa-short",), players=3, strategies=("random", "random", "random"), games=12,
    seed=5, duplicate="rotations", shard_size=4,
)


def _tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    keys = {"games": ["game_id", "seat"], "deals": ["game_id", "deal_index", "seat"],
            "deal_stats": ["deal_block", "strategy", "dealer_offset", "deal_index", "held_joker1",
                           "held_joker2"], "game_sums": ["game_id"]}
    frames = {}
    for table, key in keys.items():
        frame = scan_table(run_dir, table).collect()
        if table == "deal_stats":  # per-shard sums: merge them before comparing
            value_columns = [c for c in frame.columns
                             if c not in key and frame[c].dtype == pl.Int64]
            frame = frame.group_by(key).agg(pl.col(value_columns).sum())
        frames[table] = frame.sort(key)
    return frames


def _assert_same(left: Path, right: Path) -> None:
    a, b = _tables(left), _tables(right)
    for table in a:
        assert a[table].height > 0, table
        assert a[table].equals(b[table]), f"{table} differs between {left} and {right}"


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``SMALL`` played by one worker: the reference dataset the tests below compare with or read
    (none of them writes to it), played once for the module instead of once per test."""
    out = tmp_path_factory.mktemp("small") / "one"
    run_tournament(SMALL, out, workers=1)
    return out


def test_same_dataset_for_one_and_two_workers(small_run: Path, tmp_path: Path) -> None:
    run_tournament(SMALL, tmp_path / "two", workers=2)
    _assert_same(small_run, tmp_path / "two")
    games = scan_table(small_run, "games").collect()
    # 12 deal sets x 3 rotations, 3 seats each
    assert games.height == 12 * 3 * 3
    assert games["game_id"].n_unique() == 36


def test_duplicate_rotations_replay_the_same_cards(small_run: Path) -> None:
    games = scan_table(small_run, "games").collect()
    per_set = games.group_by("deal_set").agg(pl.col("seed").n_unique(),
                                             pl.col("seating").n_unique())
    assert (per_set["seed"] == 1).all()  # every seating of a deal set plays the same seed
    assert (per_set["seating"] == 3).all()
    # each lineup slot sits in each seat exactly once per deal set
    slots = games.group_by("deal_set", "lineup_slot").agg(pl.col("seat").n_unique())
    assert (slots["seat"] == 3).all()


def test_dask_local_cluster_gives_the_same_dataset(small_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    run_tournament(SMALL, tmp_path / "dask", workers=2, executor="dask")
    _assert_same(small_run, tmp_path / "dask")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_dask_scheduler_and_worker_processes_on_loopback(small_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    bin_dir = Path(sys.executable).parent
    scheduler = subprocess.Popen(
        [str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
         "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen(
        [str(bin_dir / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
         "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        run_tournament(SMALL, tmp_path / "cluster", executor="dask", scheduler=address)
        _assert_same(small_run, tmp_path / "cluster")
        manifest = json.loads((tmp_path / "cluster" / "manifest.json").read_text())
        assert manifest["executor"] == "dask" and manifest["status"] == "complete"
    finally:
        for process in (worker, scheduler):
            process.terminate()
        for process in (worker, scheduler):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def test_resume_after_kill_gives_the_uninterrupted_dataset(tmp_path: Path) -> None:
    arguments = ["tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
                 "random", "--games", "60", "--seed", "11", "--shard-size", "2", "--workers", "1",
                 "--quiet"]
    killed = tmp_path / "killed"
    process = subprocess.Popen([*RASPIS, *arguments, "--out", str(killed)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = list((killed / "games").glob("*.parquet")) if (killed / "games").is_dir() else []
        if len(done) >= 3:
            break
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    partial = len(list((killed / "games").glob("*.parquet")))
    assert 3 <= partial < 30, "the run should have been killed part-way"
    runner = CliRunner()
    refused = runner.invoke(cli, [*arguments, "--out", str(killed)])
    assert refused.exit_code == 2 and "--resume" in refused.output
    resumed = runner.invoke(cli, [*arguments, "--out", str(killed), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert "already done" in resumed.output
    fresh = runner.invoke(cli, [*arguments, "--out", str(tmp_path / "fresh")])
    assert fresh.exit_code == 0, fresh.output
    _assert_same(killed, tmp_path / "fresh")
    assert not list(killed.glob("*/.*.tmp"))


def test_schema_round_trip_and_check_on_read(tmp_path: Path) -> None:
    run_tournament(SMALL, tmp_path / "run", workers=1)
    games = scan_table(tmp_path / "run", "games").collect()
    assert games.schema["score"] == pl.Int64 and games.schema["errored"] == pl.Boolean
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["variants"][0]["name"] == "odessa-short"
    assert manifest["planned_games"] == manifest["games"] == 36
    bad = games.with_columns(pl.lit(1).alias("unexpected"))
    files = sorted((tmp_path / "run" / "games").glob("*.parquet"))
    bad.write_parquet(files[0])
    with pytest.raises(DatasetError, match="unexpected"):
        scan_table(tmp_path / "run", "games")


def test_deal_rows_match_the_games(small_run: Path) -> None:
    games = scan_table(small_run, "games").collect()
    deals = scan_table(small_run, "deals").collect()
    totals = deals.group_by("game_id", "seat").agg((pl.col("points") + pl.col("premium")).sum())
    joined = games.join(totals, on=["game_id", "seat"])
    assert (joined["score"] == joined["points"]).all()
    stats = scan_table(small_run, "deal_stats").collect()
    assert stats["count"].sum() == deals.height
    assert stats["points_sum"].sum() == deals["points"].sum()


def test_deal_stats_are_kept_per_block_of_deal_sets(tmp_path: Path) -> None:
    """deal_stats sums its deals per deal_block = deal_set * 64 // deal sets: summing the per-deal
    rows by that rule gives the same counts and points, block by block."""
    config = TournamentConfig(
        variants=("odessa-short",), players=3, strategies=("random", "random", "random"),
        games=100, seed=6, shard_size=30,
    )
    run_tournament(config, tmp_path / "run", workers=1)
    deals = scan_table(tmp_path / "run", "deals").collect()
    stats = scan_table(tmp_path / "run", "deal_stats").collect()
    assert stats.schema["deal_block"] == pl.Int32
    expected = (deals.group_by((pl.col("deal_set") * 64 // 100).cast(pl.Int32).alias("deal_block"))
                .agg(pl.len().alias("count"), pl.col("points").sum().alias("points_sum"))
                .sort("deal_block"))
    assert expected.height == 64  # blocks of one or two deal sets
    actual = (stats.group_by("deal_block")
              .agg(pl.col("count").sum(), pl.col("points_sum").sum()).sort("deal_block"))
    assert actual.cast(expected.schema).equals(expected)


def test_deal_stats_of_an_older_run_without_blocks_still_read(tmp_path: Path) -> None:
    """Files written before deal_block read back with it null, alone or mixed with newer files
    (a run resumed after an upgrade); any other missing column is still an error."""
    run_tournament(SMALL, tmp_path / "run", workers=1)
    files = sorted((tmp_path / "run" / "deal_stats").glob("*.parquet"))
    assert len(files) > 1
    before = scan_table(tmp_path / "run", "deal_stats").collect()
    pl.read_parquet(files[0]).drop("deal_block").write_parquet(files[0])
    mixed = scan_table(tmp_path / "run", "deal_stats").collect()
    assert mixed.columns == before.columns and mixed.schema == before.schema
    assert 0 < mixed["deal_block"].null_count() < mixed.height
    assert mixed["count"].sum() == before["count"].sum()
    for path in files:
        pl.read_parquet(path).drop("deal_block", strict=False).write_parquet(path)
    old = scan_table(tmp_path / "run", "deal_stats").collect()
    assert old["deal_block"].is_null().all() and old.schema == before.schema
    import shutil

    from raspis.analysis import dealer_offset_effects, open_run

    shutil.rmtree(tmp_path / "run" / "deals")
    assert set(dealer_offset_effects(open_run(tmp_path / "run"))["intervals"]) == {"seat-deals"}
    pl.read_parquet(files[0]).drop("count").write_parquet(files[0])
    with pytest.raises(DatasetError, match="missing columns \\['count'\\]"):
        scan_table(tmp_path / "run", "deal_stats")


def test_errored_games_are_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    bot = tmp_path / "crashy.py"
    bot.write_text(
        "from raspis.strategies import Strategy\n"
        "class Crashy(Strategy):\n"
        "    name = 'crashy'\n"
        "    def act(self, observation):\n"
        "        if observation.deal_number == 2:\n"
        "            raise RuntimeError('boom')\n"
        "        return observation.legal_actions[0]\n"
    )
    result = CliRunner().invoke(cli, [
        "tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
        f"random,random,{bot}:Crashy", "--games", "4", "--workers", "1", "--quiet",
        "--out", str(tmp_path / "run")])
    assert result.exit_code == 3, result.output
    assert "4 errored games" in result.output and "boom" in result.output
    games = scan_table(tmp_path / "run", "games").collect()
    assert games["errored"].all() and games["error"].str.contains("RuntimeError: boom").all()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--variant", "nosuch"], "unknown variant 'nosuch'"),
        (["--strategies", "random,nosuch,random,random"], "unknown strategy 'nosuch'"),
        (["--variant", "georgian", "--players", "5"], "for 4, 6 players, not 5"),
        (["--players", "3"], "3 players need 3 strategies"),
        (["--games", "0"], "at least 1"),
    ],
)
def test_bad_options_give_clear_errors(tmp_path: Path, arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["tournament", "--strategies", "random,random,random,random",
                                      "--games", "2", "--quiet", "--out", str(tmp_path / "r"),
                                      *arguments])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_directory_of_another_run_is_refused(tmp_path: Path) -> None:
    run_tournament(SMALL, tmp_path / "run", workers=1)
    other = TournamentConfig(**{**SMALL.__dict__, "seed": 6})
    with pytest.raises(TournamentError, match="different run"):
        run_tournament(other, tmp_path / "run", workers=1, resume=True)
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "notes.txt").write_text("mine")
    with pytest.raises(TournamentError, match="holds no raspis run"):
        run_tournament(SMALL, tmp_path / "junk", workers=1)
    assert (tmp_path / "junk" / "notes.txt").read_text() == "mine"


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # far more games than are played before the signal (it comes after two shards), so that a
    # slow start on a loaded machine cannot let the run finish first
    process = subprocess.Popen(
        [*RASPIS, "tournament", "--variant", "classic", "--strategies", "random",
         "--games", "20000", "--shard-size", "2", "--workers", "2", "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # the first shards come after the start-up, which on a fresh clone includes compiling the
    # rules core (a minute or more on a loaded machine): wait for them rather than for a clock
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline and process.poll() is None:
        if (out / "games").is_dir() and len(list((out / "games").glob("*.parquet"))) >= 2:
            break
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()[1]
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr and "--resume" in stderr and "Traceback" not in stderr
    manifest = json.loads((out / "manifest.json").read_text())
    # one Ctrl-C can raise KeyboardInterrupt twice (polars writing a shard); the second used to
    # land while the end of the run was written, leaving "running" here in about a run in three
    shards = sorted(path.name for path in (out / "games").iterdir())
    assert manifest["status"] == "interrupted", (stderr, len(shards), shards[:3])


def test_a_run_stopped_before_its_first_shard_is_marked_interrupted(tmp_path: Path) -> None:
    """A Ctrl-C that lands while the run starts (here: at its first progress report, before any
    worker runs) leaves a manifest that says the run was interrupted, not one still running."""

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(SMALL, out, workers=1, progress=stop)
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"


def test_batch_engine_writes_the_scalar_engines_dataset(tmp_path: Path) -> None:
    """fastheuristic, fastrandom and lowest play the same games in either engine, so a run on the
    batch engine must equal the same run on the scalar engine, row for row."""
    config = TournamentConfig(
        variants=("joker",), players=3, strategies=("fastheuristic", "fastrandom", "lowest"),
        games=10, seed=3, duplicate="rotations", shard_size=5)
    assert config.resolved_engine() == "batch"
    scalar = TournamentConfig(**{**config.__dict__, "engine": "scalar"})
    run_tournament(config, tmp_path / "batch", workers=1)
    run_tournament(scalar, tmp_path / "scalar", workers=1)
    _assert_same(tmp_path / "batch", tmp_path / "scalar")
    manifest = json.loads((tmp_path / "batch" / "manifest.json").read_text())
    assert manifest["engine"] == "batch"


@pytest.mark.parametrize("option", ['[joker]\nlead_choice = true', '[joker]\nas_card = true',
                                    '[play]\ndraw_after_trick = true'])
def test_auto_engine_seats_numpy_batch_strategies_only_where_they_can_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str) -> None:
    """A numpy batch strategy (one without a compiled policy) is not shown a named Joker, a keep
    decision or the draw's stock: with such an option the auto engine is the scalar one, and an
    explicit ``--engine batch`` is refused before any game, naming the option; a variant without
    them stays on the batch engine."""
    import raspis.tournament.batch_shard as batch_shard
    from raspis.tournament.runner import validate_config

    monkeypatch.setattr(batch_shard, "can_run_compiled", lambda strategies: False)
    path = tmp_path / "mine.toml"
    path.write_text(f'extends = "joker-52"\nname = "mine"\n\n{option}\n', encoding="utf-8")
    name = option.split("\n")[1].split(" =")[0]
    config = TournamentConfig(variants=(str(path),), players=3,
                              strategies=("lowest", "random", "lowest"), games=1)
    assert config.resolved_engine() == "scalar"
    plain = TournamentConfig(**{**config.__dict__, "variants": ("joker-52",)})
    assert plain.resolved_engine() == "batch"
    forced = TournamentConfig(**{**config.__dict__, "engine": "batch"})
    with pytest.raises(TournamentError, match=name):
        validate_config(forced)


def test_auto_engine_falls_back_to_scalar_for_scalar_only_strategies() -> None:
    config = TournamentConfig(variants=("classic",), players=4,
                              strategies=("heuristic", "random", "random", "random"), games=1)
    assert config.resolved_engine() == "scalar"
