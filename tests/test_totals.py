"""A run's totals (``tournament.totals``): summed by the runner for large shard groups, in
batches of small groups at the first analysis, and always the same sums as the rows give."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from raspis.analysis import open_run
from raspis.tournament import TournamentConfig, run_tournament, scan_table
from raspis.tournament import totals as totals_module
from raspis.tournament.totals import Basis, Unit, _units, compute, groups

#: 3 players, rotations: a shard group is 3 shards of 4 deal sets (36 seat rows), the last 2
CONFIG = TournamentConfig(
    variants=("odessa-short",), players=3, strategies=("random", "random", "lowest"), games=18,
    seed=11, duplicate="rotations", shard_size=4,
)
GROUP_ROWS = 3 * 4 * 3


def _frames(totals: totals_module.Totals) -> dict[str, pl.DataFrame]:
    keys = {"games": ["variant_hash", "deal_block"], "deals": ["variant_hash", "deal_block"],
            "orders": ["variant_hash", "deal_block", "order", "places"],
            "values": ["variant_hash", "kind", "value"]}
    frames = {}
    for name, key in keys.items():
        frame = getattr(totals, name)
        assert frame is not None, name
        frames[name] = frame.sort(key).select(sorted(frame.columns))
    return frames


def _same(frames: dict[str, pl.DataFrame], expected: dict[str, pl.DataFrame]) -> None:
    """The same totals, up to the rounding of float sums added in another order."""
    assert frames.keys() == expected.keys()
    for name, frame in frames.items():
        assert_frame_equal(frame, expected[name], check_exact=False,
                           check_dtypes=False)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run, played with groups of its full size summed by the runner (the last, shorter,
    group left to the analysis)."""
    out = tmp_path_factory.mktemp("totals") / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(totals_module, "SOLO_ROWS", GROUP_ROWS)
        run_tournament(CONFIG, out, workers=1)
    return out


def test_the_runner_sums_each_large_group_as_its_last_shard_is_written(played: Path) -> None:
    kept = sorted(path.name.rsplit("-", 1)[0] for path in (played / ".totals/groups").iterdir())
    assert kept == [f"v00-b{block:06d}" for block in range(4)]  # not the short fifth


def test_the_analysis_reads_the_runners_sums_and_sums_only_the_rest(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summed: list[int] = []

    def counting(games: pl.LazyFrame, *arguments: object) -> totals_module.Totals:
        summed.append(games.select(pl.len()).collect().item())
        return compute(games, *arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(totals_module, "SOLO_ROWS", GROUP_ROWS)
    monkeypatch.setattr(totals_module, "compute", counting)
    run = open_run(played)
    assert Basis.of(dict(run.manifest)) == run.basis()  # the runner's keys are the analysis's
    run.totals()
    assert summed == [2 * 3 * 3]  # the short group's rows alone


def test_kept_and_batched_sums_are_the_sums_of_the_rows(played: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """However the groups were summed (by the runner, in batches, or all at once), the totals
    are those of every row summed in one go: they are sums."""
    run = open_run(played)
    basis = run.basis()
    rows = compute(basis.renamed(scan_table(played, "games")), scan_table(played, "game_sums"),
                   basis.strategies, basis.players, basis.deal_sets)
    expected = _frames(rows)
    _same(_frames(run.totals()), expected)
    for solo in (1, 10**9):  # every group alone; every group in one batch
        monkeypatch.setattr(totals_module, "SOLO_ROWS", solo)
        fresh = open_run(played)
        for kept in (played / ".totals").glob("run-*"):  # the whole run's sums, made again
            for file in kept.iterdir():
                file.unlink()
            kept.rmdir()
        _same(_frames(fresh.totals()), expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["00", "01", "x"]), st.integers(0, 60)),
                min_size=1, max_size=30))
def test_units_cover_every_group_once_in_order_and_batch_only_small_ones(
        drawn: list[tuple[str, int]]) -> None:
    shards, rows = [], {}
    for index, (variant, size) in enumerate(drawn):
        shard = f"strange{index}" if variant == "x" else f"v{variant}-b{index:06d}"
        shards.append(shard)
        rows[shard] = size
    solo, batch = 20, 50
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(totals_module, "SOLO_ROWS", solo)
        patch.setattr(totals_module, "BATCH_ROWS", batch)
        units: list[Unit] = _units(groups(shards), rows)
    assert [shard for unit in units for shard in unit.shards] == sorted(shards)
    for unit in units:
        if len(unit.shards) == 1:
            continue
        sizes = [rows[shard] for shard in unit.shards]
        assert max(sizes) < solo and sum(sizes) <= batch
        assert unit.variant is not None
        assert {shard[1:3] for shard in unit.shards} == {unit.variant}
        assert unit.label == f"{unit.shards[0]}+{len(unit.shards)}"
    for unit in units:
        if rows[unit.shards[0]] >= solo or unit.variant is None:
            assert len(unit.shards) == 1


def test_summing_rows_tells_its_progress_in_games(played: Path, tmp_path: Path) -> None:
    import shutil

    from raspis.analysis.dataset import summing

    copy = tmp_path / "run"
    shutil.copytree(played, copy)
    shutil.rmtree(copy / ".totals")
    told: list[tuple[int, int]] = []
    with summing(lambda done, total: told.append((done, total))):
        open_run(copy).totals()
    games = CONFIG.games * CONFIG.seating_groups()
    assert told[-1] == (games, games)
    assert [done for done, _ in told] == sorted(done for done, _ in told)
    told.clear()
    open_run(copy).totals()  # kept: nothing summed, nothing told (and outside ``summing``)
    with summing(lambda done, total: told.append((done, total))):
        open_run(copy).totals()
    assert told == []


def test_the_command_line_shows_a_bar_while_it_sums_a_runs_rows(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from click.testing import CliRunner
    from raspis.cli import terminal
    from raspis.cli.main import cli

    copy = tmp_path / "run"
    shutil.copytree(played, copy)
    shutil.rmtree(copy / ".totals")
    monkeypatch.setattr(terminal, "SUMMING_BAR_GAMES", 10)
    first = CliRunner().invoke(cli, ["stats", str(copy), "--table", "ranking"])
    assert first.exit_code == 0, first.output
    assert "summing the run's games once" in first.stderr
    again = CliRunner().invoke(cli, ["stats", str(copy), "--table", "ranking"])
    assert "summing" not in again.stderr
    assert again.stdout == first.stdout


def test_after_the_tournament_command_the_first_analysis_sums_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The closing table of a large run adds the run's sums up (and keeps them), so an analysis
    reads them (large: here every run)."""
    from click.testing import CliRunner
    from raspis.cli.main import cli

    monkeypatch.setattr(totals_module, "SUMMARY_ROWS", 0)

    out = tmp_path / "run"
    played = CliRunner().invoke(cli, [
        "tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
        "random,random,lowest", "--games", "12", "--duplicate", "rotations", "--seed", "4",
        "--out", str(out), "--quiet"])
    assert played.exit_code == 0, played.output
    summed: list[int] = []

    def counting(*arguments: object) -> totals_module.Totals:
        summed.append(1)
        return compute(*arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(totals_module, "compute", counting)
    assert open_run(out).totals().games.height > 0
    assert summed == []


def test_the_closing_table_is_the_same_from_the_rows_and_from_the_sums(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from raspis.tournament import strategy_summary

    from_rows = strategy_summary(played)
    monkeypatch.setattr(totals_module, "SUMMARY_ROWS", 0)
    from_sums = strategy_summary(played)
    assert from_rows.height == 2 and from_rows["seat_games"].sum() == CONFIG.games * 3 * 3
    assert_frame_equal(from_sums, from_rows)
