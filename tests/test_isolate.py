"""Strategies in a process of their own (``isolated+SPEC``, ``--isolate``): same games, no peeking.

An isolated strategy gets only its seat's observations, pickled, in a fresh interpreter: it plays
exactly the games it plays in process, cannot find the game among its objects, and ending its own
process faults its game instead of the program. The process that plays the game never imports it
(a module that patches the engine at import changes nothing there), reads its answers as bounded
JSON (raw bytes, a pickle, a 2 GB length: the game faults, no code runs), and outlives it by
nothing (SIGKILL and SIGTERM of the parent); the child runs with resource limits in a folder of
its own. Hostile bots for these: ``tests/isolation_bots.py``.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from raspis.cli.main import cli
from raspis.engine import Game, load_variant
from raspis.engine.actions import JOKER_CALLS, Bid, Keep, NameTrump, Play
from raspis.strategies import StrategySpecError, load_strategy
from raspis.strategies.isolate import (
    ADDRESS_SPACE,
    FILE_SIZE,
    IsolatedStrategy,
    decode_action,
    encode_action,
    index_problem,
    isolate_specs,
)
from raspis.strategies.play import play_game
from raspis.strategies.registry import display_name

ROOT = Path(__file__).resolve().parent.parent
BOTS = f"{ROOT}/tests/hostile_bots.py"


def _play(specs: list[str], seed: int = 5, **options: object):  # noqa: ANN202
    strategies = [load_strategy(spec) for spec in specs]
    try:
        return play_game(load_variant("odessa-short"), len(specs), seed, strategies, **options)
    finally:
        for strategy in strategies:
            if isinstance(strategy, IsolatedStrategy):
                strategy.close()


def test_an_isolated_strategy_plays_the_same_games() -> None:
    lineup = ["heuristic", "fastrandom", "random"]
    for seed in (1, 2):
        alone = _play(isolate_specs(lineup), seed)
        shared = _play(lineup, seed)
        assert alone.fault is None
        assert alone.game.scores == shared.game.scores
        assert [r.bids for r in alone.game.results] == [r.bids for r in shared.game.results]


def test_an_isolated_strategy_cannot_find_the_game() -> None:
    in_process = _play(["random", "random", f"{BOTS}:PeekBot"])
    assert in_process.fault is not None and "found the game" in in_process.fault.message
    isolated = _play(["random", "random", f"isolated+{BOTS}:PeekBot"])
    assert isolated.fault is None


def test_an_isolated_strategy_that_ends_its_process_faults_its_game_only() -> None:
    record = _play(["random", "random", f"isolated+{BOTS}:ExitBot"])
    assert record.fault is not None and record.fault.kind == "raised"
    assert "process ended (exit code 7)" in record.fault.message


def test_an_isolated_strategy_is_held_to_its_time_budget() -> None:
    record = _play(["random", "random", f"isolated+{BOTS}:SleepBot"], decision_seconds=0.5)
    assert record.fault is not None and record.fault.kind == "timeout"


def test_isolate_keeps_aliases_and_refuses_the_batch_engine(tmp_path: Path) -> None:
    assert isolate_specs(["mine=./bot.py:Bot", "heuristic", "isolated+random"]) == [
        "mine=isolated+./bot.py:Bot", "isolated+heuristic", "isolated+random"]
    command = [sys.executable, "-m", "raspis.cli.main", "tournament", "--variant",
               "odessa-short", "--players", "3", "--strategies", "fastheuristic,lowest,random",
               "--games", "2", "--quiet", "--isolate"]
    refused = subprocess.run([*command, "--engine", "batch", "--out", str(tmp_path / "a")],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert refused.returncode == 2 and "scalar engine" in refused.stderr
    played = subprocess.run([*command, "--out", str(tmp_path / "b")], capture_output=True,
                            text=True, timeout=120, cwd=ROOT)
    assert played.returncode == 0, played.stderr


# -- isolation that isolates --------------------------------------------------------------------

ISOLATION_BOTS = f"{ROOT}/tests/isolation_bots.py"
MARKER = "RASPIS_TEST_MARKER"  # as in isolation_bots.py, which this process never imports
PID_FILE = "RASPIS_TEST_PID_FILE"
RASPIS = [sys.executable, "-m", "raspis.cli.main"]

PATCHER = '''
from raspis.engine import Game
from raspis.strategies import RandomStrategy

Game.scores = property(lambda self: [12345] * self.players)  # every score of the run rewritten


class Patcher(RandomStrategy):
    name = "patcher"
'''


def _cli(*arguments: str) -> SimpleNamespace:
    """``raspis ARGUMENTS`` in this process (``CliRunner``): exit status, stderr, exception."""
    result = CliRunner().invoke(cli, list(arguments))
    return SimpleNamespace(returncode=result.exit_code, stderr=result.stderr,
                           exception=result.exception)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_the_parent_never_imports_an_isolated_strategy(tmp_path: Path) -> None:
    (tmp_path / "patcher.py").write_text(PATCHER)
    spec = f"isolated+{tmp_path}/patcher.py:Patcher"
    scores = Game.__dict__["scores"]
    strategy = load_strategy(spec)
    try:
        assert display_name(spec) == "patcher" and strategy.options == {}
        assert Game.__dict__["scores"] is scores
        assert not [name for name in sys.modules if name.startswith("raspis_user_")
                    and "patcher" in str(getattr(sys.modules[name], "__file__", ""))]
    finally:
        strategy.close()
    patched = _play(["random", "random", spec])
    assert patched.fault is None and Game.__dict__["scores"] is scores
    assert patched.game.scores == _play(["random", "random", "random"]).game.scores


def test_a_tournament_keeps_its_scores_from_an_isolated_patcher(tmp_path: Path) -> None:
    (tmp_path / "patcher.py").write_text(PATCHER)
    runs = {}
    for name, third, isolate in (("patched", f"{tmp_path}/patcher.py:Patcher", ["--isolate"]),
                                 ("plain", "random", ["--engine", "scalar"])):  # the same games
        out = tmp_path / name
        command = [*RASPIS, "tournament", "--variant", "odessa-short", "--players", "3",
                   "--strategies", f"random,random,{third}", "--games", "2", "--quiet",
                   *isolate, "--out", str(out)]
        played = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=ROOT)
        assert played.returncode == 0, played.stderr
        runs[name] = pl.read_parquet(out / "games" / "*.parquet").sort("game_id", "seat")
    assert runs["patched"]["score"].to_list() == runs["plain"]["score"].to_list()
    assert 12345 not in runs["patched"]["score"].to_list()
    manifest = json.loads((tmp_path / "patched" / "manifest.json").read_text())
    assert [strategy["name"] for strategy in manifest["strategies"]] == [
        "random", "random", "patcher"]


def test_an_isolated_load_error_is_a_clear_error_at_config_time(tmp_path: Path) -> None:
    (tmp_path / "raising.py").write_text("raise RuntimeError('boom at import')\n")
    (tmp_path / "exiting.py").write_text("import os\nos._exit(5)\n")
    cases = {f"{tmp_path}/raising.py:Bot": "RuntimeError: boom at import",
             f"{ISOLATION_BOTS}:NoSuchBot": "has no 'NoSuchBot'",
             f"{tmp_path}/exiting.py:Bot": "process ended (exit code 5) while loading",
             "no.such.module:Bot": "cannot import module 'no.such.module'"}
    for spec, why in cases.items():
        result = _cli("tournament", "--variant", "odessa-short", "--players", "3",
                      "--strategies", f"random,random,{spec}", "--games", "2", "--quiet",
                      "--isolate", "--out", str(tmp_path / "out"))
        assert result.returncode == 2, (spec, result.stderr, result.exception)
        assert result.stderr.startswith("error: isolated strategy") and why in result.stderr
        assert "Traceback" not in result.stderr
        with pytest.raises(StrategySpecError, match="cannot be loaded in its process"):
            display_name(f"isolated+{spec}")
    assert not (tmp_path / "out").exists()


def test_an_answer_that_would_run_code_when_unpickled_never_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "unpickled"
    monkeypatch.setenv(MARKER, str(marker))
    record = _play(["random", "random", f"isolated+{ISOLATION_BOTS}:BoobyBot"])
    assert record.fault is not None and record.fault.kind == "raised"
    assert "its answer is not an action: returned an object of type Booby" in (
        record.fault.message)
    assert not marker.exists()


@pytest.mark.parametrize(("payload", "why"), [
    ("pickle", "over the limit of 65,536"),
    ("framed-pickle", "is not UTF-8 JSON"),
    ("garbage", "is not UTF-8 JSON"),
    ("huge", "announced an answer of 2,147,483,648 bytes"),
    ("truncated", "process ended (exit code 0)"),
    ("kind", "an answer of kind 'surprise' out of place"),
    ("index", "its action index 9999 is past the last legal action"),
    ("deep", "is not UTF-8 JSON"),
])
def test_raw_bytes_in_the_answer_pipe_fault_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, payload: str, why: str) -> None:
    marker = tmp_path / "unpickled"
    monkeypatch.setenv(MARKER, str(marker))
    spec = f"isolated+{ISOLATION_BOTS}:RawBot:payload={payload}"
    strategy = load_strategy(spec)
    try:
        record = play_game(load_variant("odessa-short"), 3, 5,
                           [load_strategy("random"), load_strategy("random"), strategy])
        assert record.fault is not None and record.fault.kind == "raised"
        assert why in record.fault.message, record.fault.message
        assert strategy._process is None  # stopped
    finally:
        strategy.close()
    assert not marker.exists()


#: ``IndexBot``'s malformed index answers (``isolation_bots.INDEX_ANSWERS``, never imported
#: here) and the fault each must give: its own message, the legal actions' range where it is about
#: the range
MALFORMED_INDICES = {
    "negative": r"its action index -1 is negative; the (\d+) legal actions are numbered 0 to \d+",
    "most-negative": r"its action index -(\d+) is negative; the \1 legal actions are numbered",
    "one-past": r"its action index (\d+) is past the last legal action; the \1 legal actions",
    "far-past": r"its action index 1180591620717411303424 is past the last legal action",
    "float": r"its action index 0\.0 is not an integer",
    "true": r"its action index true is not an integer",
    "text": r'its action index "0" is not an integer',
    "null": r"its action index null is not an integer",
    "list": r"its action index \[0\] is not an integer",
    "missing": r"its action answer names no index",
}


@pytest.mark.parametrize("kind", list(MALFORMED_INDICES))
def test_an_isolated_index_outside_the_legal_actions_faults_the_game(kind: str) -> None:
    """Each malformed index in a well-formed action answer (negative ones included: ``-1`` must
    not be taken as Python's last legal action) stops the child and faults the game with a
    message of its own."""
    strategy = load_strategy(f"isolated+{ISOLATION_BOTS}:IndexBot:answer={kind}")
    try:
        record = play_game(load_variant("odessa-short"), 3, 5,
                           [load_strategy("random"), load_strategy("random"), strategy])
        assert record.fault is not None and record.fault.kind == "raised", kind
        assert record.fault.message.startswith(
            "RuntimeError: the isolated strategy's process broke the protocol: "), (
            record.fault.message)
        assert re.search(MALFORMED_INDICES[kind], record.fault.message), record.fault.message
        assert record.fault.message.endswith("; it was stopped")
        assert strategy._process is None  # stopped
    finally:
        strategy.close()


@pytest.mark.parametrize("count", [1, 2, 3, 13])
def test_only_the_indices_of_the_legal_actions_are_accepted(count: int) -> None:
    """``index_problem`` accepts exactly 0 to count - 1, and says for every other integer
    whether it is negative or past the end, for every other JSON value that it is no integer."""
    for index in range(-count - 3, count + 4):
        problem = index_problem({"kind": "action", "index": index}, count)
        if 0 <= index < count:
            assert problem is None, index
        elif index < 0:
            assert problem == (f"its action index {index} is negative; the {count} legal actions "
                               f"are numbered 0 to {count - 1}")
        else:
            assert problem == (f"its action index {index} is past the last legal action; the "
                               f"{count} legal actions are numbered 0 to {count - 1}")
    for value, shown in ((0.0, "0.0"), (1.5, "1.5"), (True, "true"), (False, "false"),
                         ("0", '"0"'), (None, "null"), ([0], "[0]"),
                         ({"index": 0}, '{"index": 0}')):
        assert index_problem({"kind": "action", "index": value}, count) == (
            f"its action index {shown} is not an integer")
    assert index_problem({"kind": "action"}, count) == "its action answer names no index"


def test_an_isolated_illegal_answer_faults_as_in_process() -> None:
    for bot in ("IllegalBot", "FloatBot"):
        alone = _play(["random", "random", f"isolated+{ISOLATION_BOTS}:{bot}"])
        shared = _play(["random", "random", f"{ISOLATION_BOTS}:{bot}"])
        assert alone.fault is not None and alone.fault.kind == "illegal"
        assert alone.fault.message == shared.fault.message  # type: ignore[union-attr]


@given(st.one_of(
    st.builds(Bid, st.integers(-(2**62), 2**62)),
    st.builds(NameTrump, st.integers(-1, 3)),
    st.builds(Keep, st.booleans()),
    st.builds(Play, st.integers(0, 60), st.none() | st.sampled_from(JOKER_CALLS),
              st.integers(-1, 3), st.integers(0, 14)),
))
def test_an_action_as_data_comes_back_the_same(action: object) -> None:
    data = json.loads(json.dumps(encode_action(action)))
    back = decode_action(data)
    assert type(back) is type(action) and back == action
    assert decode_action({**data, "fields": {**data["fields"], "extra": 1}}) is None


@pytest.mark.parametrize(("how", "via"), [(signal.SIGKILL, "python"),
                                          (signal.SIGTERM, "python"),
                                          (signal.SIGKILL, "raspis play")])
def test_a_spinning_isolated_child_dies_with_its_parent(
        tmp_path: Path, how: signal.Signals, via: str) -> None:
    pid_file = tmp_path / "pid"
    spin = f"isolated+{ISOLATION_BOTS}:SpinBot"
    program = ("import sys\n"
               "from raspis.engine import load_variant\n"
               "from raspis.strategies import load_strategy, play_game\n"
               "players = [load_strategy(spec) for spec in sys.argv[1:]]\n"
               "play_game(load_variant('odessa-short'), 3, 1, players)\n")
    command = ([sys.executable, "-c", program, "random", "random", spin] if via == "python" else
               [*RASPIS, "play", "--variant", "odessa-short", "--players", "3", "--strategies",
                f"random,random,{spin}"])  # the game in a forked process, the child under it
    parent = subprocess.Popen(command, cwd=ROOT, env={**os.environ, PID_FILE: str(pid_file)},
                              stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text()):
            assert time.monotonic() < deadline and parent.poll() is None
            time.sleep(0.1)
        child = int(pid_file.read_text())
        assert _alive(child)
        parent.send_signal(how)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 3
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the isolated child outlived its parent"
    finally:
        parent.kill()
        parent.wait()


def test_an_isolated_child_runs_limited_in_a_folder_of_its_own() -> None:
    strategy = load_strategy(f"isolated+{ISOLATION_BOTS}:LimitsBot")
    try:
        report = strategy.options
        folder = Path(report["cwd"])
        assert folder.name.startswith(f"raspis-isolated-{os.getpid()}-") and folder.is_dir()
        assert report["tmpdir"] == str(folder) and folder != ROOT
        for name, value in (("RLIMIT_AS", ADDRESS_SPACE), ("RLIMIT_FSIZE", FILE_SIZE),
                            ("RLIMIT_CORE", 0)):
            hard = resource.getrlimit(getattr(resource, name))[1]
            expected = value if hard == resource.RLIM_INFINITY else min(value, hard)
            assert report[name] == f"{expected} {expected}", name
        soft, hard = map(int, report["RLIMIT_NPROC"].split())
        assert soft == hard != resource.RLIM_INFINITY  # set, though root is not held to it
        assert report["map_5gib"] == "refused"
        assert report["write_past_64mib"] == "refused: File too large"
        assert _play(["random", "random", strategy.spec()]).fault is None
    finally:
        strategy.close()
    assert not folder.exists()


def test_numba_builtins_play_under_the_isolated_limits() -> None:
    lineup = ["strong", "fastheuristic", "lowest"]
    alone = _play(isolate_specs(lineup), 3)
    assert alone.fault is None
    assert alone.game.scores == _play(lineup, 3).game.scores


def test_a_relative_file_spec_loads_isolated_and_keeps_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "anon.py").write_text("from raspis.strategies import RandomStrategy\n\n\n"
                                      "class Anon(RandomStrategy):\n    name = None\n")
    monkeypatch.chdir(tmp_path)  # the child works elsewhere: the path is made absolute first
    spec = "isolated+./anon.py:Anon"
    assert display_name(spec) == "./anon.py:Anon"  # as in process: a class without a name
    record = _play(["random", "random", spec])
    assert record.fault is None
    assert record.game.scores == _play(["random", "random", "random"]).game.scores


def test_folders_of_dead_parents_are_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    from raspis.strategies import isolate

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    dead = Path(tempfile.mkdtemp(prefix=f"{isolate.FOLDER_PREFIX}{ended.stdout.strip()}-"))
    alive = Path(tempfile.mkdtemp(prefix=f"{isolate.FOLDER_PREFIX}{os.getpid()}-"))
    monkeypatch.setattr(isolate, "_SWEPT", False)
    isolate._sweep_folders()
    assert not dead.exists() and alive.is_dir()
    alive.rmdir()
