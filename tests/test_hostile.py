"""Hostile strategies, dying workers, damaged files and odd input.

Each fault is a strategy class in ``tests/hostile_bots.py``, run on both engines (the batch engine
seats scalar strategies through ``ScalarAdapter``) and, for a few, under Dask. Every run is a
subprocess with a timeout, so a hang fails the test instead of stalling the suite.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import load_variant
from raspis.engine.actions import Bid, Play
from raspis.strategies import Strategy, play_game
from raspis.strategies.play import check_action

ROOT = Path(__file__).resolve().parent.parent
BOTS = "./tests/hostile_bots.py"
RASPIS = [sys.executable, "-m", "raspis.cli.main"]
LIMIT = 150  # seconds: no run in this file may take longer


def _run(*arguments: str, timeout: float = LIMIT, env: dict[str, str] | None = None,
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RASPIS, *arguments], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def _usage(*arguments: str) -> SimpleNamespace:
    """``_run`` for a command that must stop at its options (exit 2) before it plays anything: the
    same ``cli`` that ``python -m raspis.cli.main`` calls (``main`` is just ``cli()``), invoked in
    this process from the same directory, without a Python start and its imports for each case.
    ``returncode`` and ``stderr`` as ``_run`` gives them; a raise that escapes ``cli`` would come
    back as exit 1 (a ``Traceback`` on a real run), which fails every test that wants 2."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(cli, list(arguments))
    finally:
        os.chdir(here)
    return SimpleNamespace(returncode=result.exit_code, stderr=result.stderr,
                           stdout=result.stdout, exception=result.exception)


def _tournament(out: Path, bot: str, *extra: str, games: int = 3) -> list[str]:
    return ["tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
            f"random,random,{BOTS}:{bot}", "--games", str(games), "--quiet", "--out", str(out),
            *extra]


def _games(out: Path) -> pl.DataFrame:
    return pl.read_parquet(out / "games" / "*.parquet")


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


#: faults that end or kill the worker process: played by the CLI, in supervised workers
DEADLY = [
    ("ExitBot", "exit code 7"),
    ("KillSelfBot", "killed by signal 9 (SIGKILL)"),
    ("WorkerInitBot", "__init__: RuntimeError: __init__ exploded"),
]

#: faults the fault handling catches: played in this process, shard by shard (fast)
CAUGHT = [
    ("SysExitBot", "SystemExit"),
    ("KeyboardBot", "KeyboardInterrupt"),
    ("BaseExceptionBot", "BaseException: not an Exception"),
    ("StartGameBot", "start_game: RuntimeError: start_game exploded"),
    ("FloatBidBot", "Bid whose tricks is float"),
    ("EqualsAllBot", "an object of type _EqualsAll, not Bid, NameTrump, Play or Keep"),
    ("BadReprBot", "an object of type _BadRepr"),
    ("MutateVariantBot", "the variant was changed during this"),
    ("SleepBot", "no decision within 0.3 s"),
    ("SlowStartBot", ") timeout in deal 1"),  # start_game held to the decision budget
]


@pytest.mark.parametrize("engine", ["scalar", "batch"])
@pytest.mark.parametrize(("bot", "message"), DEADLY, ids=[bot for bot, _ in DEADLY])
def test_a_worker_killed_by_its_strategy_errors_its_games_and_the_run_goes_on(
        tmp_path: Path, bot: str, message: str, engine: str) -> None:
    out = tmp_path / "run"
    result = _run(*_tournament(out, bot, "--engine", engine, "--workers", "1",
                               "--shard-size", "2", games=2))
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    assert message in result.stderr
    games = _games(out)
    assert games["game_id"].n_unique() == 2
    assert games["errored"].all()
    assert games["error"].str.contains(message, literal=True).all()
    if bot != "WorkerInitBot":
        assert games["error"].str.contains("retried once in a fresh worker").all()
        assert games["error"].str.contains(f"({BOTS}:{bot}) was to move", literal=True).all()
    manifest = _manifest(out)
    assert manifest["status"] == "complete" and manifest["errored_games"] == 2


@pytest.mark.parametrize("engine", ["scalar", "batch"])
@pytest.mark.parametrize(("bot", "message"), CAUGHT, ids=[bot for bot, _ in CAUGHT])
def test_a_hostile_strategy_errors_its_games_on_both_engines(
        bot: str, message: str, engine: str) -> None:
    from raspis.tournament.process import run_shard_on_engine
    from raspis.tournament.runner import TournamentConfig, plan_shards, validate_config

    config = TournamentConfig(
        variants=("odessa-short",), players=3, strategies=("random", "random",
                                                           f"{ROOT}/tests/hostile_bots.py:{bot}"),
        games=3, shard_size=3, engine=engine, decision_seconds=0.3)
    (task,) = plan_shards(config, validate_config(config))
    started = time.monotonic()
    result = run_shard_on_engine(task)
    assert time.monotonic() - started < 20
    assert result.errored == 3
    games = result.games
    assert games["errored"].all() and games["score"].dtype == pl.Int64
    assert games["error"].str.contains(message, literal=True).all(), games["error"].to_list()


def test_allow_errors_exits_0(tmp_path: Path) -> None:
    result = _run(*_tournament(tmp_path / "run", "SysExitBot", "--workers", "1",
                               "--allow-errors"))
    assert result.returncode == 0, result.stderr
    assert "3 errored games" in result.stderr
    assert "n/a" in result.stdout  # no mean over errored games: not nan


def test_a_strategy_whose_init_always_raises_is_a_usage_error(tmp_path: Path) -> None:
    result = _run(*_tournament(tmp_path / "run", "InitBot", "--workers", "1"))
    assert result.returncode == 2
    assert "cannot be created: its __init__ raised: RuntimeError: __init__ exploded" in \
        result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("bot", "engine"), [("SwallowBot", "batch"), ("DisarmBot", "scalar")])
def test_the_watchdog_kills_a_strategy_that_swallows_or_disarms_its_timer(
        tmp_path: Path, bot: str, engine: str) -> None:
    message = "killed by the watchdog"
    out = tmp_path / "run"
    started = time.monotonic()
    result = _run(*_tournament(out, bot, "--engine", engine, "--workers", "1",
                               "--shard-size", "2", "--decision-seconds", "0.3", games=2),
                  timeout=90)
    assert time.monotonic() - started < 60
    assert result.returncode == 3, result.stderr
    games = _games(out)
    assert games["errored"].all() and games["error"].str.contains(message).all()


def test_the_shard_time_limit_kills_a_worker_stuck_outside_decisions(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _run(*_tournament(out, "SwallowBot", "--workers", "1", "--games", "1",
                               "--shard-seconds", "1"), timeout=90)
    assert result.returncode == 3, result.stderr
    assert "--shard-seconds 1" in _games(out)["error"][0]


@pytest.mark.parametrize("budget", ["0", "-1", "nan", "inf"])
def test_invalid_time_budgets_are_usage_errors(tmp_path: Path, budget: str) -> None:
    result = _usage(*_tournament(tmp_path / "run", "FirstLegalBot", "--decision-seconds", budget))
    assert result.returncode == 2
    assert "--decision-seconds" in result.stderr and "finite number of seconds above 0" in \
        result.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("option", [["--shard-seconds", "0"], ["--shard-seconds", "nan"]])
def test_invalid_shard_budgets_are_usage_errors(tmp_path: Path, option: list[str]) -> None:
    result = _usage(*_tournament(tmp_path / "run", "FirstLegalBot", *option))
    assert result.returncode == 2 and "--shard-seconds" in result.stderr


def test_dask_notices_a_dying_worker_and_enforces_the_budget(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    result = _run("tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
                  f"{BOTS}:ExitBot,{BOTS}:SleepBot,random", "--seating", "fixed", "--games", "2",
                  "--quiet", "--executor", "dask", "--workers", "1", "--decision-seconds", "0.3",
                  "--out", str(out), timeout=120)
    assert result.returncode == 3, result.stderr
    errors = set(_games(out)["error"].to_list())
    assert any("exit code 7" in error for error in errors), errors  # one game: the exit
    assert any("no decision within 0.3 s" in error for error in errors), errors  # the other
    assert _manifest(out)["status"] == "complete"


def test_a_worker_killed_from_outside_is_replaced_and_its_shard_replayed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    pidfile = tmp_path / "pid"
    process = subprocess.Popen(
        [*RASPIS, *_tournament(out, "PidBot", "--workers", "2", "--shard-size", "1", games=4)],
        cwd=ROOT, env={**os.environ, "RASPIS_TEST_PIDFILE": str(pidfile)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        worker = int(pidfile.read_text())
        assert worker != process.pid
        os.kill(worker, signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=90)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    games = _games(out)
    assert games["game_id"].n_unique() == 4 and not games["errored"].any()


def test_the_next_game_after_a_variant_write_gets_an_intact_variant(tmp_path: Path) -> None:
    runs = {}
    for bot in ("MutateOnceBot", "FirstLegalBot"):
        out = tmp_path / bot
        _run(*_tournament(out, bot, "--engine", "scalar", "--workers", "1", "--shard-size", "3",
                          "--seating", "fixed", "--allow-errors"))
        runs[bot] = _games(out).sort("game_id", "seat")
    mutated, honest = runs["MutateOnceBot"], runs["FirstLegalBot"]
    first = mutated["game_id"].min()
    assert mutated.filter(pl.col("game_id") == first)["errored"].all()
    later = pl.col("game_id") != first
    assert not mutated.filter(later)["errored"].any()
    assert mutated.filter(later)["score"].to_list() == honest.filter(later)["score"].to_list()


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_sigterm_sighup_and_ctrl_c_stop_cleanly_with_the_resume_command(
        tmp_path: Path, number: int) -> None:
    out = tmp_path / "run"
    arguments = ["tournament", "--variant", "classic", "--players", "4", "--strategies",
                 "heuristic", "--engine", "scalar", "--games", "400", "--shard-size", "2",
                 "--workers", "2", "--quiet", "--out", str(out)]
    process = subprocess.Popen([*RASPIS, *arguments], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        # the first shard comes after the start-up, which on a fresh clone includes compiling
        # the rules core (minutes on a loaded machine): wait for it rather than for a clock
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline and process.poll() is None:
            if (out / "games").is_dir() and list((out / "games").glob("*.parquet")):
                break
            time.sleep(0.05)
        assert process.poll() is None, process.communicate()[1]
        process.send_signal(number)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "resume with" in stderr and "--resume" in stderr
    assert _manifest(out)["status"] == "interrupted"


def test_a_run_killed_before_its_manifest_can_be_started_again(tmp_path: Path) -> None:
    out = tmp_path / "run"
    for table in ("games", "deals", "deal_stats"):
        (out / table).mkdir(parents=True)
    (out / ".manifest.json.tmp").write_text("{")
    result = _run(*_tournament(out, "FirstLegalBot", "--workers", "1"))
    assert result.returncode == 0, result.stderr
    assert _manifest(out)["status"] == "complete"


def _small_run(out: Path) -> list[str]:
    arguments = ["tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
                 "random", "--engine", "scalar", "--games", "6", "--shard-size", "2",
                 "--workers", "2", "--quiet", "--out", str(out)]
    assert _run(*arguments).returncode == 0
    return arguments


def test_damaged_shards_are_named_verified_and_replayed_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    arguments = _small_run(out)
    assert _run("verify", str(out)).returncode == 0
    victims = sorted((out / "games").glob("*.parquet"))
    data = victims[0].read_bytes()
    victims[0].write_bytes(data[: len(data) // 2])  # truncated
    victims[1].write_bytes(b"")  # empty
    victims[2].write_bytes(b"not a parquet file at all\n" * 10)  # garbage
    for command in (["stats", str(out)],):
        result = _run(*command)
        assert result.returncode == 2, (command, result.stderr)
        assert "Traceback" not in result.stderr
        assert str(victims[0]) in result.stderr and "--resume" in result.stderr
    verified = _run("verify", str(out))
    assert verified.returncode == 1
    assert all(str(victim) in verified.stderr for victim in victims)
    assert "is empty" in verified.stderr
    resumed = _run(*arguments, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr.count("re-played a shard that did not read back") == 3
    assert _run("verify", str(out)).returncode == 0
    assert _games(out)["game_id"].n_unique() == 6


def test_verify_names_missing_and_stray_shards(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _small_run(out)
    missing = sorted((out / "games").glob("*.parquet"))[0]
    missing.unlink()
    (out / "deal_stats" / "stray.parquet").write_bytes(b"")
    result = _run("verify", str(out))
    assert result.returncode == 1
    assert f"{missing} is missing" in result.stderr
    assert "stray.parquet is not a shard of this run" in result.stderr
    assert _run("verify", str(tmp_path / "nothing")).returncode == 2


@pytest.mark.parametrize("content", [b"[]", b"\xff\xfe{\x00}\x00", b"{"])
def test_a_manifest_that_is_not_a_manifest_is_a_clear_error(tmp_path: Path,
                                                           content: bytes) -> None:
    out = tmp_path / "run"
    (out / "games").mkdir(parents=True)
    (out / "manifest.json").write_bytes(content)
    for command in ([*_tournament(out, "FirstLegalBot"), "--resume"], ["verify", str(out)]):
        result = _usage(*command)
        assert result.returncode == 2, result.stderr
        assert "manifest.json" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("option", "value"), [
    ("--shard-size", "0"), ("--shard-size", "-5"), ("--workers", "-1"), ("--workers", "0"),
    ("--seed", "-1"), ("--seed", str(2**64)),
])
def test_out_of_range_options_are_usage_errors(tmp_path: Path, option: str, value: str) -> None:
    result = _usage(*_tournament(tmp_path / "run", "FirstLegalBot", option, value))
    assert result.returncode == 2
    assert option in result.stderr and "Traceback" not in result.stderr


def test_the_largest_seed_is_accepted(tmp_path: Path) -> None:
    result = _run(*_tournament(tmp_path / "run", "FirstLegalBot", "--seed", str(2**64 - 1),
                               "--workers", "1"))
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("bot", "message"), [
    ("ExitBot", "exit code 7"), ("KillSelfBot", "signal 9"), ("SysExitBot", "SystemExit"),
    ("KeyboardBot", "KeyboardInterrupt"), ("InitBot", "__init__ exploded"),
    ("FloatBidBot", "float"),
])
def test_play_reports_a_crashing_strategy_and_exits_1(bot: str, message: str) -> None:
    result = _run("play", "--variant", "odessa-short", "--players", "3", "--strategies",
                  f"random,random,{BOTS}:{bot}", timeout=60)
    assert result.returncode == 1, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_progress_goes_to_stderr_labelled_and_only_after_the_options_are_checked(
        tmp_path: Path) -> None:
    bad = _run("tournament", "--strategies", "random", "--games", "2", "--decision-seconds",
               "-1", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2
    assert "elapsed" not in bad.stderr and "elapsed" not in bad.stdout
    good = _run("tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
                "random", "--games", "4", "--workers", "1", "--out", str(tmp_path / "good"))
    assert good.returncode == 0, good.stderr
    assert "elapsed" in good.stderr and "left" in good.stderr
    assert "elapsed" not in good.stdout and "games/s" not in good.stdout


def test_the_manifest_records_the_library_versions(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _small_run(out)
    libraries = _manifest(out)["libraries"]
    for name in ("numpy", "polars", "numba"):
        assert libraries[name] and libraries[name][0].isdigit()


@pytest.mark.parametrize(("command", "heavy"), [
    (["--version"], ("polars", "scipy", "matplotlib", "numpy")),
    (["--help"], ("polars", "scipy", "matplotlib", "numpy")),
    # reading variants needs neither the compiled core (numba, which loads scipy) nor analysis
    (["variants", "list"], ("polars", "matplotlib", "numba", "scipy")),
    (["play", "--seed", "3"], ("polars", "matplotlib")),
])
def test_light_commands_do_not_import_the_analysis_stack(command: list[str],
                                                         heavy: tuple[str, ...]) -> None:
    code = ("import sys\nfrom raspis.cli.main import cli\n"
            f"try:\n    cli({command!r})\nexcept SystemExit:\n    pass\n"
            f"print('HEAVY', sorted(m for m in {heavy!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr


# -- in-process checks of the pieces -------------------------------------------------------------


class _Answer(Strategy):
    name = "answer"

    def __init__(self, answer: object) -> None:
        super().__init__()
        self.answer = answer

    def act(self, observation):  # noqa: ANN001, ANN201
        return self.answer


def test_actions_are_checked_by_exact_type_and_value() -> None:
    legal = (Bid(0), Bid(1), Bid(2))
    chosen, why = check_action(Bid(1), legal)
    assert chosen is legal[1] and why is None
    for bad in (Bid(1.0), Bid(True), Bid(2**70), Play(1), "bid 1", None, 1):
        chosen, why = check_action(bad, legal)
        assert chosen is None and why, bad

    class Sub(Bid):
        pass

    assert check_action(Sub(1), legal)[0] is None
    plays = (Play(52, "high"), Play(52, "low"))
    assert check_action(Play(52, "high"), plays)[0] is plays[0]
    assert check_action(Play(52, "high", suit=True), plays)[0] is None


@pytest.mark.parametrize("raised", [KeyboardInterrupt(), SystemExit(4), GeneratorExit(),
                                    BaseException("x")])
def test_play_game_turns_any_raise_of_a_strategy_into_a_fault(raised: BaseException) -> None:
    class Raiser(Strategy):
        name = "raiser"

        def act(self, observation):  # noqa: ANN001, ANN201
            raise raised

    variant = load_variant("odessa-short")
    record = play_game(variant, 3, 1, [Raiser(), Raiser(), Raiser()])
    assert record.fault is not None and record.fault.kind == "raised"
    assert type(raised).__name__ in record.fault.message


def test_a_timeout_is_not_an_exception() -> None:
    from raspis.strategies.play import DecisionTimeout

    assert not issubclass(DecisionTimeout, Exception)
    assert issubclass(DecisionTimeout, BaseException)
