"""One run per folder, proven whole: the folder's lock, the shards' checksums in the manifest, and
``verify`` judging a manifest and its shards (the games each holds against the plan, the bytes
against the checksums) without trusting either."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from raspis.cli.main import cli
from raspis.tournament import TournamentConfig, run_tournament
from raspis.tournament.runner import MANIFEST, TournamentError, run_lock
from raspis.tournament.verify import verify_run

CONFIG = TournamentConfig(variants=("classic",), players=4, strategies=("random",) * 4, games=6,
                          seed=3, shard_size=2)


def _run(out: Path, config: TournamentConfig = CONFIG, **options) -> None:  # noqa: ANN003
    run_tournament(config, out, workers=1, warm=False, **options)


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sound") / "run"
    _run(out)
    return out


def _copy(run: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(run, to)
    return to


def _problems(run: Path) -> str:
    report = verify_run(run)
    assert not report.ok
    return "\n".join(report.problems)


def test_a_sound_run_verifies_and_records_every_shards_checksum(sound: Path) -> None:
    assert verify_run(sound).ok
    manifest = json.loads((sound / MANIFEST).read_text())
    assert sorted(manifest["checksums"]) == sorted(p.stem for p in (sound / "games").iterdir())
    assert all(set(sums) == {"games", "deal_stats", "deals", "game_sums"}
               for sums in manifest["checksums"].values())
    # and each shard's rows (2 deal sets x 4 seats) and the range of its game ids
    for shard, contents in manifest["contents"].items():
        ids = pl.read_parquet(sound / "games" / f"{shard}.parquet")["game_id"]
        assert contents == {"rows": 8, "game_ids": [ids.min(), ids.max()]}


def test_a_sound_run_without_deal_rows_verifies(tmp_path: Path) -> None:
    """A run that writes no per-deal rows: its games and deal_stats shards are the plan's, and
    verify finds it sound (no shard file taken for an unexpected one)."""
    from dataclasses import replace

    _run(tmp_path / "run", replace(CONFIG, deal_rows=False))
    assert not (tmp_path / "run" / "deals").exists() or not any(
        (tmp_path / "run" / "deals").iterdir())
    report = verify_run(tmp_path / "run")
    assert report.ok, report.problems
    assert report.shards_ok == report.shards == 3
    # without its (empty) deals folder, the tables after it are still looked through
    if (tmp_path / "run" / "deals").exists():
        (tmp_path / "run" / "deals").rmdir()
    assert verify_run(tmp_path / "run").ok
    (tmp_path / "run" / "deal_stats" / ".s000.parquet.tmp").write_bytes(b"")
    assert "is a leftover temporary file" in _problems(tmp_path / "run")


@pytest.mark.parametrize("edit", ["no config", "variants not a list", "an unknown option"])
def test_verify_says_when_a_manifest_has_no_usable_config(sound: Path, tmp_path: Path,
                                                         edit: str) -> None:
    """A manifest whose configuration cannot be read (missing, of the wrong type, with an option
    raspis does not know) is said to describe no shards; verify checks the files present and
    never raises."""
    run = _copy(sound, tmp_path / "manifest")
    manifest = json.loads((run / MANIFEST).read_text())
    if edit == "no config":
        del manifest["config"]
    elif edit == "variants not a list":
        manifest["config"]["variants"] = 5
    else:
        manifest["config"]["colour"] = "blue"
    (run / MANIFEST).write_text(json.dumps(manifest))
    assert "does not describe its shards (no usable config)" in _problems(run)
    # the files present are still read: one that is not Parquet is named
    broken = sorted((run / "games").iterdir())[0]
    broken.write_bytes(b"not parquet")
    assert str(broken) in _problems(run)


def test_a_manifest_whose_shard_record_was_edited_is_named(sound: Path, tmp_path: Path) -> None:
    run = _copy(sound, tmp_path / "contents")
    manifest = json.loads((run / MANIFEST).read_text())
    shard = sorted(manifest["contents"])[0]
    manifest["contents"][shard]["rows"] = 4
    (run / MANIFEST).write_text(json.dumps(manifest))
    assert f"does not hold what the manifest recorded of shard {shard}" in _problems(run)
    assert verify_run(run).shards_ok == 2  # that shard is not counted sound


def test_a_second_run_into_a_locked_folder_is_refused_naming_the_holder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with run_lock(out):
        with pytest.raises(TournamentError, match=r"being written by another raspis run "
                                                  r"\(process \d+, since"):
            _run(out)
        result = CliRunner().invoke(cli, ["tournament", "--variant", "classic", "--strategies",
                                          "random", "--games", "2", "--out", str(out), "--quiet"])
        assert result.exit_code != 0 and "another raspis run" in result.output
        assert "Traceback" not in result.output
    _run(out)  # the lock went with its holder
    assert verify_run(out).ok


def test_an_edited_score_fails_its_checksum_and_resume_replays_it(sound: Path,
                                                                  tmp_path: Path) -> None:
    run = _copy(sound, tmp_path / "edited")
    path = sorted((run / "games").iterdir())[0]
    frame = pl.read_parquet(path)
    frame.with_columns(pl.col("score") + (pl.col("seat") == 0)).write_parquet(path)
    assert "checksums differ" in _problems(run)
    replayed: list[str] = []
    _run(run, resume=True, replayed=replayed)
    assert any("checksums differ" in problem for problem in replayed)
    assert verify_run(run).ok
    assert pl.read_parquet(path).equals(pl.read_parquet(sound / "games" / path.name))


def test_a_shard_of_another_run_or_shard_copied_in_is_named(sound: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-seed"
    _run(other, TournamentConfig(**{**CONFIG.__dict__, "seed": 4}))
    first, second = sorted((sound / "games").iterdir())[:2]
    run = _copy(sound, tmp_path / "foreign")
    for table in ("games", "deal_stats", "deals"):  # the whole shard, from a run with another seed
        (run / table / first.name).write_bytes((other / table / first.name).read_bytes())
    assert "holds other games than shard" in _problems(run)
    # named once, as holding other games (its checksums are not judged again), and not sound
    assert "checksums differ" not in _problems(run) and verify_run(run).shards_ok == 2
    run = _copy(sound, tmp_path / "twice")
    for table in ("games", "deal_stats", "deals"):  # a shard of the same run over its neighbour
        (run / table / second.name).write_bytes((run / table / first.name).read_bytes())
    assert "holds other games than shard" in _problems(run)


@pytest.mark.parametrize(("key", "value", "said"), [
    ("shard_size", -1, "--shard-size must be a whole number"),
    ("games", 10**15, "a run plays at most 1,000,000,000"),
    ("players", "four", "--players must be a whole number"),
])
def test_verify_judges_an_edited_manifest_at_once(sound: Path, tmp_path: Path, key: str,
                                                  value: object, said: str) -> None:
    run = _copy(sound, tmp_path / "manifest")
    manifest = json.loads((run / MANIFEST).read_text())
    manifest["config"][key] = value
    (run / MANIFEST).write_text(json.dumps(manifest))
    started = time.monotonic()
    problems = _problems(run)
    assert time.monotonic() - started < 10
    assert "is not a manifest raspis wrote" in problems and said in problems


def test_a_manifest_without_checksums_is_not_proven(sound: Path, tmp_path: Path) -> None:
    run = _copy(sound, tmp_path / "bare")
    manifest = json.loads((run / MANIFEST).read_text())
    del manifest["checksums"]
    (run / MANIFEST).write_text(json.dumps(manifest))
    assert "records no checksums" in _problems(run)


def test_a_shard_that_vanishes_during_the_run_stops_it_resumable(tmp_path: Path) -> None:
    """A strategy (or anything) deleting a written shard while the run goes on: the run is not
    marked complete; resume plays the shard again and the run verifies."""
    out = tmp_path / "run"
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done == total:  # the last shard is written: take an earlier one away
            victim = sorted((out / "games").iterdir())[0]
            victim.unlink()

    with pytest.raises(TournamentError, match="changed or vanished while the run was writing"):
        _run(out, progress=progress)
    assert json.loads((out / MANIFEST).read_text())["status"] == "interrupted"
    _run(out, resume=True)
    assert verify_run(out).ok


def test_the_analyses_read_the_runs_own_shards_and_refuse_a_game_twice(sound: Path,
                                                                       tmp_path: Path) -> None:
    from raspis.analysis import open_run
    from raspis.tournament.schema import DatasetError

    games = open_run(sound).games.collect().height
    run = _copy(sound, tmp_path / "stray")
    first = sorted((run / "games").iterdir())[0]
    (run / "games" / "zz-copy.parquet").write_bytes(first.read_bytes())  # not a planned shard
    assert open_run(run).games.collect().height == games
    manifest = json.loads((run / MANIFEST).read_text())
    manifest["checksums"]["zz-copy"] = manifest["checksums"][first.stem]  # claimed as its own
    (run / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match="more than once"):
        open_run(run)
    result = CliRunner().invoke(cli, ["stats", str(run)])
    assert result.exit_code != 0 and "more than once" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("engine", ["scalar", "batch"])
def test_a_huge_error_message_is_cut_in_the_data_and_the_summary(engine: str,
                                                                  tmp_path: Path) -> None:
    """A strategy raising with a 50 MB message: a few thousand characters of it in the error
    column and on stderr, its full length said ("ValueError: " and 50,000,000 x)."""

    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-m", "raspis.cli.main", "tournament", "--variant", "odessa-short",
         "--players", "3", "--strategies",
         f"random,random,{root}/tests/hostile_bots.py:HugeMessageBot", "--games", "2",
         "--engine", engine, "--workers", "1", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 3, result.stderr[-2000:]
    assert len(result.stderr) < 20_000
    assert "50,000,012 characters in all" in result.stderr
    errors = pl.read_parquet(tmp_path / "run" / "games" / "*.parquet")["error"].drop_nulls()
    assert errors.len() > 0 and errors.str.len_chars().max() < 5_000
    assert errors.str.contains("50,000,012 characters in all").all()


def test_verify_replay_names_the_games_hidden_state_decided(sound: Path, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", str(sound), "--replay", "4"])
    assert result.exit_code == 0 and "4 games replayed alike" in result.output
    hidden = TournamentConfig(variants=("odessa-short",), players=3, games=6, seed=3,
                              shard_size=6, engine="scalar",
                              strategies=("random", "random",
                                          f"{root}/tests/hostile_bots.py:GlobalStateBot"))
    out = tmp_path / "hidden"
    _run(out, hidden)
    assert verify_run(out).ok  # the files are whole: only playing again shows it
    result = runner.invoke(cli, ["verify", str(out), "--replay", "3"])
    assert result.exit_code == 1, result.output
    assert re.search(r"game \d+ \(shard v00-s\d{3}-b\d{6}|game \d+ \(shard v00-b\d{6}",
                     result.output)
    assert "plays differently from its stored rows" in result.output


def test_verify_replay_goes_on_past_a_missing_shard_and_names_the_game(
        sound: Path, tmp_path: Path) -> None:
    """Replaying every game of a run whose first shard's games file is gone and one of whose
    games was edited in its last shard: the missing file is named, and the other shards are
    still compared, the edited game named with its own deal set and seating."""
    from raspis.tournament.verify import replay_games

    run = _copy(sound, tmp_path / "edited")
    shards = sorted((run / "games").iterdir())
    shards[0].unlink()
    games = pl.read_parquet(shards[-1])
    edited = games.sort("game_id").row(games.height - 1, named=True)
    games.with_columns(pl.when(pl.col("game_id") == edited["game_id"]).then(
        pl.col("score") + 1).otherwise(pl.col("score")).alias("score")).write_parquet(shards[-1])
    problems = replay_games(run, 6)
    assert any(f"{shards[0]} is missing" in problem for problem in problems), problems
    assert any(problem.startswith(
        f"game {edited['game_id']} (shard {shards[-1].stem}, deal set {edited['deal_set']}, "
        f"seating {edited['seating']}) plays differently") for problem in problems), problems
    assert len(problems) == 2


def test_verify_counts_the_missing_shard_files_it_does_not_name(tmp_path: Path) -> None:
    """A run of 8 one-game shards whose shard files (four tables each) are all gone: the first
    20 missing files are named, and the other 12 counted."""
    from dataclasses import replace

    _run(tmp_path / "run", replace(CONFIG, games=8, shard_size=1, deal_rows=True))
    for path in (tmp_path / "run").glob("*/*.parquet"):
        path.unlink()
    problems = verify_run(tmp_path / "run").problems
    assert sum(problem.endswith("is missing (shard not played or lost)") or
               " is missing (shard " in problem for problem in problems) == 20
    assert "... and 12 more shard files are missing" in problems


@pytest.mark.parametrize("where", ["import", "__init__"])
def test_a_strategy_that_hangs_while_loading_is_stopped_by_the_load_budget(
        where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from raspis.strategies import play

    monkeypatch.setattr(play, "LOAD_SECONDS", 1.0)
    root = Path(__file__).resolve().parents[1]
    if where == "import":
        module = tmp_path / "sleepy.py"
        module.write_text("import time\ntime.sleep(60)\n"
                          "from raspis.strategies import Strategy\n\n\n"
                          "class Sleepy(Strategy):\n    pass\n")
        spec = f"{module}:Sleepy"
    else:
        spec = f"{root}/tests/hostile_bots.py:SlowInitBot"
    config = TournamentConfig(variants=("odessa-short",), players=3, games=2, seed=1,
                              strategies=("random", "random", spec), decision_seconds=1.0)
    started = time.monotonic()
    with pytest.raises(TournamentError, match="ran past its load budget"):
        _run(tmp_path / "run", config)
    assert time.monotonic() - started < 10


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_verify_never_calls_a_damaged_run_sound(sound: Path, tmp_path_factory, data) -> None:  # noqa: ANN001
    """Any damage to a run's shard files (a byte changed, a file cut short, removed, or swapped
    with another shard's) or to the checksums its manifest records: verify says what is wrong,
    never ok."""
    run = _copy(sound, tmp_path_factory.mktemp("damaged") / "run")
    files = sorted(path for table in ("games", "deal_stats", "deals")
                   for path in (run / table).glob("*.parquet"))
    kind = data.draw(st.sampled_from(["byte", "cut", "remove", "swap", "checksum"]))
    path = data.draw(st.sampled_from(files))
    content = path.read_bytes()
    if kind == "byte":
        at = data.draw(st.integers(0, len(content) - 1))
        change = data.draw(st.integers(1, 255))
        path.write_bytes(content[:at] + bytes([content[at] ^ change]) + content[at + 1:])
    elif kind == "cut":
        path.write_bytes(content[:data.draw(st.integers(0, len(content) - 1))])
    elif kind == "remove":
        path.unlink()
    elif kind == "swap":
        other = data.draw(st.sampled_from([f for f in files if f.parent == path.parent
                                           and f != path]))
        path.write_bytes(other.read_bytes())
        other.write_bytes(content)
    else:
        manifest = json.loads((run / MANIFEST).read_text())
        shard = data.draw(st.sampled_from(sorted(manifest["checksums"])))
        table = data.draw(st.sampled_from(sorted(manifest["checksums"][shard])))
        manifest["checksums"][shard][table] = "0" * 32
        (run / MANIFEST).write_text(json.dumps(manifest))
    assert not verify_run(run).ok, kind


@pytest.mark.parametrize("limit", [2_000, 8_600])
def test_a_disk_that_refuses_the_run_is_one_clear_error_and_the_run_resumes(
        limit: int, tmp_path: Path) -> None:
    """A file size limit (``ulimit -f``: writes fail with EFBIG), small enough to stop the
    manifest or a shard: exit 1 with one clear message and no traceback; the same command with
    --resume, the limit lifted, finishes the run and it verifies."""
    import resource
    import signal
    import subprocess
    import sys

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = tmp_path / "run"
    command = [sys.executable, "-m", "raspis.cli.main", "tournament", "--variant", "classic",
               "--strategies", "random", "--games", "8", "--shard-size", "2", "--workers", "1",
               "--deal-rows", "--out", str(out), "--quiet"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False,
                            preexec_fn=limited)  # noqa: PLW1509 - a test's own child
    assert result.returncode == 1, result.stderr[-3000:]
    assert "cannot write the run into" in result.stderr and "File too large" in result.stderr
    assert "Traceback" not in result.stderr
    again = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=120,
                           check=False)
    assert again.returncode == 0, again.stderr[-3000:]
    assert verify_run(out).ok


@pytest.mark.parametrize(("options", "said"), [
    (["--games", str(2**63 - 1)], "a run plays at most 1,000,000,000"),
    (["--games", str(10**8), "--shard-size", "1"], "a run holds at most 1,000,000"),
])
def test_a_run_too_large_to_hold_is_refused_at_once(options: list[str], said: str,
                                                    tmp_path: Path) -> None:
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["tournament", "--variant", "classic", "--strategies",
                                      "random", *options, "--out", str(tmp_path / "run")])
    assert time.monotonic() - started < 10
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output
    assert not (tmp_path / "run").exists()


def test_a_run_the_disk_cannot_hold_is_refused_with_the_sizes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 10**5, 10**5))
    with pytest.raises(TournamentError, match=r"need about .* GiB of Parquet and .* has 0.0 GiB "
                                              r"free"):
        _run(tmp_path / "run", TournamentConfig(**{**CONFIG.__dict__, "games": 5000}))
    assert not (tmp_path / "run").exists()


def test_a_run_of_10_8_games_starts_at_once_and_stops_resumable(tmp_path: Path) -> None:
    """The plan is lazy (no game is listed before it is played), so a run of 10**8
    games starts within seconds, under a 4 GB address-space limit too; Ctrl-C leaves it
    resumable (exit 130), a resume keeps its shards, and verify names what is missing without
    listing every shard."""
    import shutil

    need = 10**8 * 40  # BYTES_PER_GAME: the run refuses a disk that cannot hold it
    if shutil.disk_usage(tmp_path).free < need * 1.2:
        pytest.skip("the disk under the temporary folder cannot hold a 10**8-game run's estimate")
    out = tmp_path / "run"
    command = [sys.executable, "-m", "raspis.cli.main", "tournament", "--variant", "classic",
               "--strategies", "random", "--games", str(10**8), "--workers", "1", "--quiet",
               "--out", str(out)]

    def first_shards(process: subprocess.Popen[str], count: int) -> float:
        started = time.monotonic()
        while time.monotonic() - started < 300 and process.poll() is None:
            if (out / "games").is_dir() and len(list((out / "games").glob("*.parquet"))) >= count:
                return time.monotonic() - started
            time.sleep(0.05)
        raise AssertionError(process.communicate(timeout=60)[1][-3000:])

    def four_gib() -> None:  # the case that failed: 10**8 games under a 4 GB address-space limit
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))

    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, preexec_fn=four_gib)
    waited = first_shards(process, 1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr[-3000:]
    assert "--resume" in stderr and "Traceback" not in stderr
    # the compiled core is warm in the suite (tests/conftest.py): what is left is the start
    assert waited < 60, f"the first shard of a 10**8-game run took {waited:.1f} s"
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["status"] == "interrupted" and manifest["planned_games"] == 10**8
    kept = set((out / "games").glob("*.parquet"))
    again = subprocess.Popen([*command, "--resume"], stderr=subprocess.PIPE, text=True)
    first_shards(again, len(kept) + 1)
    again.send_signal(signal.SIGINT)
    _, stderr = again.communicate(timeout=120)
    assert again.returncode == 130, stderr[-3000:]
    assert kept < set((out / "games").glob("*.parquet"))
    report = verify_run(out)
    assert report.shards == manifest["shards"] and report.shards_ok == len(
        list((out / "games").glob("*.parquet")))
    assert any("more shard files are missing" in problem for problem in report.problems)
    assert len(report.problems) < 30


def test_a_run_with_stdin_and_stdout_closed_plays_every_game(tmp_path: Path) -> None:
    """``raspis tournament ... <&- >&-``: the workers' pipes must not take descriptors 0 and 1
    (the worker protocol keeps its own), and the closing summary must not fail on a missing
    stdout."""
    import shlex

    out = tmp_path / "run"
    command = [sys.executable, "-m", "raspis.cli.main", "tournament", "--variant", "odessa-short",
               "--players", "3", "--strategies", "random,lowest,random", "--engine", "scalar",
               "--games", "8", "--shard-size", "2", "--workers", "2", "--out", str(out)]
    result = subprocess.run(["bash", "-c", f"exec {shlex.join(command)} <&- >&-"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    report = verify_run(out)
    assert report.ok and report.games == 8 and report.errored == 0, report.problems


@pytest.mark.parametrize("code", ["EROFS", "EACCES", "ENOSPC"])
def test_a_read_only_full_or_forbidden_disk_is_one_clear_error_with_exit_1(
        code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk refusing a shard (a read-only file system, no permission, no space: as root
    neither chmod nor a full disk can be staged, so the write itself raises the OS's error) is
    exit 1 with the reason and the resume command, no traceback, and the shards already written
    kept and resumable."""
    import errno
    import os

    from raspis.tournament import store

    written = []
    real = store.write_atomic

    def refusing(frame: pl.DataFrame, path: Path) -> None:
        if len(written) >= 4:  # the first shard's four tables go through
            number = getattr(errno, code)
            raise OSError(number, os.strerror(number), str(path))
        written.append(path)
        real(frame, path)

    monkeypatch.setattr(store, "write_atomic", refusing)
    out = tmp_path / "run"
    arguments = ["tournament", "--variant", "classic", "--strategies", "random", "--games", "6",
                 "--shard-size", "2", "--workers", "1", "--seed", "3", "--quiet", "--out",
                 str(out)]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 1, result.output
    reason = os.strerror(getattr(errno, code))
    assert f"cannot write the run into {out}: {reason}" in result.output
    assert "--resume" in result.output and "Traceback" not in result.output
    assert len(list((out / "games").glob("*.parquet"))) == 1
    monkeypatch.setattr(store, "write_atomic", real)
    again = CliRunner().invoke(cli, [*arguments, "--resume"])
    assert again.exit_code == 0, again.output
    assert verify_run(out).ok


FORK_BOT = '''
import os
from pathlib import Path

from raspis.strategies import Strategy


class ForkBot(Strategy):
    """Forks its process at its first decision of each game (the copy notes its pid), then plays
    the first legal action, as FirstBot does."""

    name = "forkbot"

    def start_game(self, variant, seat, players, rng):
        super().start_game(variant, seat, players, rng)
        self.forked = False

    def act(self, observation):
        if not self.forked:
            self.forked = True
            if os.fork() == 0:
                with open(os.environ["FORK_PIDS"], "a") as out:
                    out.write(f"{os.getpid()}\\n")
        return observation.legal_actions[0]


class FirstBot(Strategy):
    name = "firstbot"

    def act(self, observation):
        return observation.legal_actions[0]
'''


def test_a_strategy_that_forks_its_worker_changes_nothing(tmp_path: Path) -> None:
    """``os.fork()`` in ``act``: the forked copy of the worker ends quietly when the strategy's call
    returns (no BrokenPipeError, no copy left running, no second answer to the supervisor), and
    the run's games are those of the same strategy without the fork."""
    import os

    bots = tmp_path / "forkers.py"
    bots.write_text(FORK_BOT)
    pids = tmp_path / "pids.txt"

    def run(bot: str, out: Path) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "raspis.cli.main", "tournament", "--variant",
                   "odessa-short", "--players", "3", "--strategies",
                   f"{bots}:{bot},random,lowest", "--games", "6", "--shard-size", "2",
                   "--workers", "2", "--decision-seconds", "5", "--quiet", "--out", str(out)]
        return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False,
                              env={**os.environ, "FORK_PIDS": str(pids)})

    forked = run("ForkBot", tmp_path / "forked")
    assert forked.returncode == 0, forked.stderr[-3000:]
    assert "Traceback" not in forked.stderr and "BrokenPipe" not in forked.stderr
    copies = [int(line) for line in pids.read_text().split()]
    assert len(copies) == 6  # one fork a game
    time.sleep(0.5)
    for pid in copies:  # every copy has ended (its parent, the worker, reaped or ended too)
        alive = Path(f"/proc/{pid}").exists() and "zombie" not in Path(
            f"/proc/{pid}/status").read_text(errors="replace").lower()
        assert not alive, f"forked copy {pid} still running"
    assert verify_run(tmp_path / "forked").ok
    plain = run("FirstBot", tmp_path / "plain")
    assert plain.returncode == 0, plain.stderr[-3000:]
    columns = ["game_id", "seat", "score", "place", "errored"]
    first = pl.read_parquet(tmp_path / "forked" / "games" / "*.parquet").select(columns)
    second = pl.read_parquet(tmp_path / "plain" / "games" / "*.parquet").select(columns)
    assert first.sort("game_id", "seat").equals(second.sort("game_id", "seat"))
    assert not first["errored"].any()
