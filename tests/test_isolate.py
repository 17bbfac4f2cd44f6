"""Strategies in a process of their own (``isolated+SPEC``, ``--isolate``): same games, no peeking.

An isolated strategy gets only its seat's observations, pickled, in a fresh interpreter: it plays
exactly the games it plays in process, cannot find the game among its objects, and ending its own
process faults its game instead of the program.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from raspis.engine import load_variant
from raspis.strategies import load_strategy
from raspis.strategies.isolate import IsolatedStrategy, isolate_specs
from raspis.strategies.play import play_game

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
