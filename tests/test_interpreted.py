"""The rules core run by Python (``engine.warmth.interpret_core``): the same games as compiled,
and ``raspis play`` uses it on a machine whose compile cache is cold, for light players only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import raspis.engine.core  # noqa: F401 - imported first: this process plays compiled
from click.testing import CliRunner
from raspis.cli import play
from raspis.cli.main import cli
from raspis.engine import warmth

ROOT = Path(__file__).resolve().parent.parent

#: replays every ``STEP``-th golden record with the core interpreted and prints the ones that differ
_REPLAY = """
import json, sys
sys.path.insert(0, {tests!r})
from numba.core import config
assert config.DISABLE_JIT
from raspis.engine.core import machine
assert not hasattr(machine.step, "signatures"), "the core is compiled"
import golden_corpus as golden
records = golden.load()[::{step}]
differ = []
for record in records:
    case = {{key: record[key] for key in ("variant", "mix", "players", "seed", "lineup")
             if key in record}}
    again = golden.play(case)
    if any(again[key] != record[key] for key in ("actions", "scores", "digest")):
        differ.append(case)
print(json.dumps({{"replayed": len(records), "differ": differ[:5], "count": len(differ)}}))
"""


def test_golden_games_replay_with_the_core_interpreted() -> None:
    """A sample of the golden corpus (every preset's games and option mixes, the compiled players
    among the lineups) plays exactly as recorded from the compiled core: every action, every
    observation's digest, the log and the scores."""
    script = _REPLAY.format(tests=str(ROOT / "tests"), step=40)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["replayed"] >= 30
    assert result["count"] == 0, result


def _play(cache: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RASPIS_CACHE_DIR": cache, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "raspis.cli.main", "play", *arguments],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def test_play_on_a_cold_cache_plays_light_players_interpreted_and_the_same_game(
        tmp_path: Path) -> None:
    """``raspis play`` on an empty cache with light built-in players: nothing compiled or marked
    warm, nothing said of a compile, and the very game (trace and sheet) the compiled core plays
    (in this process, whose core is compiled: ``interpret_core`` cannot take effect here)."""
    arguments = ("--variant", "joker", "--seed", "5", "--trace",
                 "--strategies", "heuristic,strong,fastheuristic,random")
    cold = _play(str(tmp_path), *arguments)
    assert cold.returncode == 0, cold.stderr
    assert "compiling" not in cold.stderr
    written = [path.name for path in tmp_path.rglob("*") if path.is_file()]
    assert not [name for name in written if name.endswith((".nbi", ".nbc"))], written
    assert not [name for name in written if name.startswith("warm-")], written
    compiled = CliRunner().invoke(cli, ["play", *arguments], env={"COLUMNS": "80"})
    assert compiled.exit_code == 0, compiled.output
    assert not warmth.is_interpreted()
    assert cold.stdout == compiled.output
    assert cold.stdout.count("\n") > 500  # the trace of a whole game


@pytest.mark.parametrize(("specs", "warm", "interpreted"), [
    (["random", "heuristic:premium=false", "strong", "mine=lowest"], False, True),
    (["random", "heuristic"], True, False),  # compiled already: the compiled core loads
    (["random", "mc:samples=10"], False, False),  # a search player needs compiled playouts
    (["random", "isolated+random"], False, False),  # a seat in a process of its own
    (["random", "tests/hostile_bots.py:ExitBot"], False, False),  # the user's own code
])
def test_play_interprets_only_light_players_on_a_cold_cache(
        monkeypatch: pytest.MonkeyPatch, specs: list[str], warm: bool, interpreted: bool) -> None:
    asked = []
    monkeypatch.setattr(warmth, "is_warm_in", lambda folder, key: warm)
    monkeypatch.setattr(warmth, "interpret_core", lambda: asked.append(True) or True)
    assert play._interpret_if_cold(specs) is interpreted
    assert bool(asked) is interpreted


def test_interpret_core_refuses_once_the_core_is_imported() -> None:
    """The compiled functions are made when ``engine.core`` is imported: too late to switch."""
    assert warmth.interpret_core() is False
    assert not warmth.is_interpreted()


def test_play_help_names_the_players_that_play_interpreted() -> None:
    text = " ".join(CliRunner().invoke(cli, ["play", "--help"]).output.split())
    listed = text.partition("need no search (")[2].partition(")")[0]
    assert sorted(listed.split(", ")) == sorted(play.LIGHT_PLAYERS)
