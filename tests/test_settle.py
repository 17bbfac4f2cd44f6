"""``raspis settle`` on real games, at small size: a run that grows round by round is the run
played at once; the hook's question is decided in fewer deal sets than the budget; an A/A pair
(two names for the same rules) is never called different; kill -9 and ``--resume`` reach the
same decisions and dataset as a settle left alone; the folder is an ordinary dataset; a sweep
rules out the value its sequences can; and mistakes get clear messages."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from raspis.analysis.settle import SettleError, SettlePlan, race, settle, verdict_lines
from raspis.cli.main import cli

WEAK = ("fastheuristic", "fastheuristic", "lowest", "lowest")


def _variant(folder: Path, name: str, body: str) -> str:
    path = folder / f"{name}.toml"
    path.write_text(f'name = "{name}"\nextends = "classic"\n{body}', encoding="utf-8")
    return str(path)


def _games(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "games" / "*.parquet").sort("game_id", "seat")


def test_a_run_grown_round_by_round_is_the_run_played_at_once(tmp_path: Path) -> None:
    """The same plan played to 8, then 16 deal sets, and to 16 at once: the same rows (ids,
    seeds, blocks and games), the manifest of the grown run says 16, and verify passes it."""
    from raspis.tournament import TournamentConfig, run_tournament
    from raspis.tournament.verify import verify_run

    def config(games: int) -> TournamentConfig:
        return TournamentConfig(variants=("classic",), players=4, strategies=WEAK, games=games,
                                seed=5, duplicate="rotations", shard_size=4, deal_rows=True,
                                plan_deal_sets=16)

    run_tournament(config(8), tmp_path / "grown", workers=1)
    run_tournament(config(16), tmp_path / "grown", workers=1, resume=True)
    run_tournament(config(16), tmp_path / "once", workers=1)
    assert _games(tmp_path / "grown").equals(_games(tmp_path / "once"))
    stats = [pl.read_parquet(tmp_path / name / "deal_stats" / "*.parquet").sort(
        pl.all()) for name in ("grown", "once")]
    assert stats[0].equals(stats[1])
    manifest = json.loads((tmp_path / "grown" / "manifest.json").read_text())
    assert manifest["config"]["games"] == 16 and manifest["status"] == "complete"
    assert verify_run(tmp_path / "grown").ok
    with pytest.raises(Exception, match="whole shards"):
        run_tournament(TournamentConfig(variants=("classic",), players=4, strategies=WEAK,
                                        games=6, seed=5, duplicate="rotations", shard_size=4,
                                        plan_deal_sets=16), tmp_path / "odd", workers=1)


def _plan(baseline: str, variants: tuple[str, ...], **options: object) -> SettlePlan:
    settings = {"lineups": (WEAK,), "budget": 100, "seed": 3, "first": 50, "step": 25}
    settings.update(options)
    return SettlePlan(baseline, variants, **settings)  # type: ignore[arg-type]


def test_the_hook_is_settled_within_the_budget_and_the_folder_is_a_dataset(
        tmp_path: Path) -> None:
    """Without the hook the dealer gains: decided 'different', upwards, in fewer deal sets than
    the budget; its folder holds one ordinary run per variant (verify passes each, compare and
    stats read the folder) and the log of every round."""
    from raspis.analysis import compare, open_runs
    from raspis.tournament.verify import verify_run

    off = _variant(tmp_path, "no-hook", 'bidding.hook = "off"\n')
    said: list[str] = []
    result = settle(_plan("classic", (off,), budget=400), tmp_path / "out", workers=1,
                    say=said.append)
    (record,) = result.records()
    assert record["decision"] == "different" and record["estimate"] > 0 and record["low"] > 0
    assert record["statistic"] == "dealer_cost" and record["deal_sets"] < 400
    assert result.deal_sets == record["deal_sets"] and len(said) == len(result.rounds)
    assert said[0].startswith("round 1: 50 deal sets (400 games)")
    lines = verdict_lines(result)
    assert lines[0].startswith(f"Settled in {result.deal_sets} of the budget's 400 deal sets")
    assert "is higher by" in lines[1] and "different, decided after" in lines[1]
    log = json.loads((tmp_path / "out" / "settle.json").read_text())
    assert log["status"] == "complete" and len(log["rounds"]) == len(result.rounds)
    for run in ("l1-v00", "l1-v01"):
        assert verify_run(tmp_path / "out" / run).ok
    runs = open_runs([tmp_path / "out"])
    assert [run.label for run in runs] == ["l1-v00", "l1-v01"]
    table = compare([tmp_path / "out"]).table
    row = table.filter(pl.col("statistic") == "dealer_cost").row(0, named=True)
    # compare reads the blocks of the plan's 400 deal sets: the same estimate, paired by block
    assert row["design"] == "paired, blocks of deal sets"
    assert row["difference"] == pytest.approx(record["estimate"])
    stats = CliRunner().invoke(cli, ["stats", str(tmp_path / "out"), "--no-ratings"])
    assert stats.exit_code == 0, stats.output


def test_an_a_a_pair_is_never_called_different(tmp_path: Path) -> None:
    """Two names for the same rules play the same games: every difference of the profile's
    fairness and the dealer's edge is 0, never 'different' (equivalent for the shares, within
    their margin; undecided for the points, which have no margin)."""
    same = _variant(tmp_path, "classic-again", "")
    result = settle(_plan("classic", (same,), question="fair"), tmp_path / "fair", workers=1)
    decisions = {record["decision"] for record in result.records()}
    assert decisions == {"equivalent"} and len(result.records()) == 6
    edge = settle(_plan("classic", (same,), question="dealer_cost"), tmp_path / "edge",
                  workers=1)
    assert [r["decision"] for r in edge.records()] == ["undecided"]
    assert edge.deal_sets == 100


def test_kill_9_and_resume_reach_the_same_decisions_and_dataset(tmp_path: Path) -> None:
    """A settle killed with SIGKILL after its first round and resumed ends as one left alone:
    the same rounds, decisions and bounds in its log, the same games in its runs."""
    same = _variant(tmp_path, "classic-again", "")
    arguments = ["settle", "classic", same, "--lineup", ",".join(WEAK), "--budget", "150",
                 "--question", "dealer_cost",
                 "--first", "50", "--step", "25", "--seed", "4", "--workers", "1", "-q"]
    CliRunner().invoke(cli, [*arguments, "--out", str(tmp_path / "alone")])
    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "raspis.cli.main", *arguments, "--out",
                                str(killed)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    log = killed / "settle.json"
    deadline = time.time() + 300
    while time.time() < deadline:
        if log.is_file() and json.loads(log.read_text() or "{}").get("rounds"):
            break
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    first = json.loads(log.read_text())
    assert first["status"] == "running" and len(first["rounds"]) == 1
    resumed = CliRunner().invoke(cli, [*arguments, "--out", str(killed), "--resume",
                                       "--format", "json"])
    assert resumed.exit_code == 0, resumed.output
    logs = [json.loads((tmp_path / name / "settle.json").read_text())
            for name in ("alone", "killed")]
    timeless = [[{key: value for key, value in entry.items() if not key.endswith("_seconds")}
                 for entry in log["rounds"]] for log in logs]
    assert timeless[0] == timeless[1] and logs[1]["status"] == "complete"
    assert logs[0]["verdict"] == logs[1]["verdict"]
    for run in ("l1-v00", "l1-v01"):
        assert _games(tmp_path / "alone" / run).equals(_games(killed / run))


def test_a_sweep_rules_out_the_value_its_sequences_can() -> None:
    """Successive elimination, on sequences whose answers are plain: the value surely farther
    from the target than another is out; values that cannot be told apart stay."""
    from raspis.analysis.settle import _Arm

    def arm(variant: int, low: float, high: float) -> _Arm:
        return _Arm(0, variant, (low + high) / 2, low, high, 100)

    near, far, unsure = arm(0, -0.1, 0.1), arm(1, 0.5, 0.9), arm(2, -0.05, 0.6)
    assert race([near, far, unsure], "0") == [far]
    assert race([near, far], "max") == [near] and race([near, far], "min") == [far]
    # both above 0, their paired difference surely positive: the first is farther
    a, b = arm(0, 0.2, 0.6), arm(1, 0.1, 0.5)
    assert race([a, b], "0") == []
    assert race([a, b], "0", {(0, 1): (0.02, 0.2, 0.3, 1.1)}) == [a]


def test_a_sweep_plays_each_value_and_names_the_best(tmp_path: Path) -> None:
    """The hook always or off, the dealer's edge lowest: the hook, on real games (the weaker
    players: without the hook the dealer gains about 0.4 points a deal), ruled in by the two
    values' paired difference before the budget."""
    result = settle(_plan("classic", (), sweep="bidding.hook=always,off", question="dealer_cost",
                          target="min", budget=200), tmp_path / "sweep", workers=1)
    kept = [arm["variant"] for arm in result.race if arm["in_race"]]
    assert kept == ["hook-always"] and result.deal_sets < 200
    assert verdict_lines(result)[0].startswith("The lowest value: hook-always")


def test_mistakes_get_clear_messages(tmp_path: Path) -> None:
    runner = CliRunner()
    same = _variant(tmp_path, "classic-again", "")
    cases = [
        (["settle", "classic", "--out", str(tmp_path / "a")], "give the variants"),
        (["settle", "classic", same, "--question", "nope", "--budget", "50", "--lineup",
          ",".join(WEAK), "--out", str(tmp_path / "b")], "no profile group or statistic"),
        (["settle", "classic", "--sweep", "hook", "--out", str(tmp_path / "c")],
         "OPTION=VALUES"),
        (["settle", "classic", same, "--lineup", "lowest,lowest", "--out", str(tmp_path / "d")],
         "has 2 seats"),
    ]
    for arguments, message in cases:
        result = runner.invoke(cli, arguments)
        assert result.exit_code == 2 and message in result.output, (arguments, result.output)
        assert "Traceback" not in result.output
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("x")
    with pytest.raises(SettleError, match="holds no settle"):
        settle(_plan("classic", (same,)), tmp_path / "full")
