"""The analysis commands through click's CliRunner: stats, balance, report and banker in every
output format, and clear errors (no traceback, non-zero exit) on bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from raspis.analysis.synthetic import DealEffects, synthetic_deal_stats, synthetic_games, write_run
from raspis.cli.main import cli

EFFECTS = {"a": 30.0, "b": 10.0, "c": -10.0, "d": -30.0}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("cli")
    stats, deals = synthetic_deal_stats(200, effects=DealEffects(joker_values=(20.0, 5.0)), seed=1)
    first = write_run(
        folder / "first",
        synthetic_games(60, strategy_effect=EFFECTS, duplicate=True, seed=1),
        stats,
        deals,
    )
    second = write_run(
        folder / "second",
        synthetic_games(
            100, position_effect=[-20, 10, 5, 5], variant=("other", "0" * 16), seed=2
        ),
        stats,
    )
    return first, second


def _invoke(*arguments: str) -> object:
    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


def test_stats_table_names_every_strategy(runs: tuple[Path, Path]) -> None:
    result = _invoke("stats", str(runs[0]))
    assert result.exit_code == 0, result.output
    for text in ("Strategy ranking", "Paired differences", "Plackett-Luce", "mean_score [CI]"):
        assert text in result.output
    assert all(name in result.output for name in EFFECTS)


def test_stats_csv_json_markdown(runs: tuple[Path, Path], tmp_path: Path) -> None:
    csv = _invoke("stats", str(runs[0]), "--table", "ranking", "--format", "csv")
    assert csv.exit_code == 0
    path = tmp_path / "ranking.csv"
    path.write_text(csv.output)
    frame = pl.read_csv(path)
    assert frame["strategy"].to_list() == ["a", "b", "c", "d"]
    assert {"mean_score_low", "mean_score_high", "win_rate_low"} <= set(frame.columns)
    document = json.loads(_invoke("stats", str(runs[0]), "--format", "json").output)
    assert set(document) == {"ranking", "pairs", "ratings", "profile"}
    assert {row["group"] for row in document["profile"]} >= {"fair", "skill", "drama"}
    assert (
        document["pairs"][0]["strategy_a"] == "a" and document["pairs"][0]["design"] == "duplicate"
    )
    markdown = _invoke("stats", str(runs[0]), "--format", "markdown", "--no-ratings").output
    assert "| strategy |" in markdown.replace(
        "| variant | variant_hash | strategy |", "| strategy |"
    )
    assert "Plackett-Luce" not in markdown


def test_balance_of_two_runs_side_by_side(runs: tuple[Path, Path]) -> None:
    result = _invoke("balance", str(runs[0]), str(runs[1]), "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.output)
    assert {"seats", "seat_test", "joker", "hook", "bidding", "outcomes", "variance"} <= set(
        document
    )
    assert {row["run"] for row in document["seats"]} == {"first", "second"}
    unequal = {
        row["run"]: row["unequal"] for row in document["seat_test"] if row["measure"] == "score"
    }
    assert unequal["second"] is True
    section = _invoke("balance", str(runs[1]), "--section", "seats")
    assert (
        section.exit_code == 0 and "Hotelling" in section.output and "Joker" not in section.output
    )
    table = _invoke("balance", str(runs[0]), "--table", "joker", "--format", "csv")
    assert table.output.startswith("run,variant,variant_hash,kind,hand_size,joker")


def test_report_command(runs: tuple[Path, Path], tmp_path: Path) -> None:
    result = _invoke("report", str(runs[0]), str(runs[1]), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "report.html").is_file() and (
        tmp_path / "out" / "report.md"
    ).is_file()
    assert len(list((tmp_path / "out" / "figures").glob("*.svg"))) == 8  # the profile's too
    # progress goes to stderr, stage by stage, with the time elapsed; stdout keeps the result
    stages = [line for line in result.stderr.splitlines() if line.startswith("report: ")]
    assert [line.split("...")[0] for line in stages] == [
        "report: reading the runs", "report: rankings and ratings", "report: balance statistics",
        "report: figures", "report: writing the report"]
    assert all("elapsed" in line for line in stages) and "report:" not in result.stdout


def test_banker_command() -> None:
    result = _invoke(
        "banker", "--simulate", "20000", "--seed", "1", "--by-call", "--format", "json"
    )
    assert result.exit_code == 0
    document = json.loads(result.output)
    no_hit = next(row for row in document["banker"] if row["quantity"] == "P(no hit)")
    assert no_hit["exact_fraction"] == "44188895470803668/123566628628414125"
    assert no_hit["simulated_low"] <= no_hit["exact"] <= no_hit["simulated_high"]
    assert len(document["by_call"]) == 15
    plain = _invoke("banker")
    assert plain.exit_code == 0 and "0.357612" in plain.output and "simulated" not in plain.output


@pytest.mark.parametrize("command", ["stats", "balance", "report"])
def test_errors_are_clear_and_exit_nonzero(
    command: str, tmp_path: Path, runs: tuple[Path, Path]
) -> None:
    extra = ["-o", str(tmp_path / "report")] if command == "report" else []
    missing = CliRunner().invoke(cli, [command, str(tmp_path / "nowhere"), *extra])
    assert missing.exit_code == 2 and "no such directory" in missing.output
    assert "Traceback" not in missing.output
    (tmp_path / "empty").mkdir()
    not_a_run = CliRunner().invoke(cli, [command, str(tmp_path / "empty"), *extra])
    assert not_a_run.exit_code == 2 and "is not a raspis run" in not_a_run.output
    broken = tmp_path / "broken"
    games = pl.read_parquet(next((runs[0] / "games").glob("*.parquet")))
    write_run(
        broken,
        games.drop("lead_changes"),
        pl.read_parquet(next((runs[0] / "deal_stats").glob("*.parquet"))),
    )
    mismatch = CliRunner().invoke(cli, [command, str(broken), *extra])
    assert mismatch.exit_code == 2 and "does not match the games schema" in mismatch.output
    assert "lead_changes" in mismatch.output and "Traceback" not in mismatch.output


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_terminal_tables_fit_the_width_in_columns(runs: tuple[Path, Path], columns: int) -> None:
    for arguments in (["stats", str(runs[0]), "--no-ratings"], ["balance", str(runs[0])]):
        result = CliRunner().invoke(cli, arguments, env={"COLUMNS": str(columns)})
        assert result.exit_code == 0, result.output
        longest = max(len(line) for line in result.output.splitlines())
        assert longest <= columns, (arguments, longest)
    # the ranking's intervals stay on one line each (no cell wrapped onto several lines)
    ranking = CliRunner().invoke(
        cli, ["stats", str(runs[0]), "--table", "ranking"], env={"COLUMNS": "100"}
    )
    rows = [line for line in ranking.output.splitlines() if line.startswith("│ synthetic")]
    assert len(rows) >= 4 and all("[" in row and "]" in row for row in rows)


def test_piped_tables_use_a_sensible_width(runs: tuple[Path, Path]) -> None:
    result = CliRunner().invoke(cli, ["balance", str(runs[0])], env={"COLUMNS": ""})
    assert result.exit_code == 0
    assert max(len(line) for line in result.output.splitlines()) <= 120


def test_csv_of_several_tables_asks_for_one(runs: tuple[Path, Path]) -> None:
    result = CliRunner().invoke(cli, ["stats", str(runs[0]), "--format", "csv"])
    assert result.exit_code == 2 and "--table" in result.output
    assert "ranking" in result.output and "Traceback" not in result.output


def test_json_is_an_object_keyed_by_table_even_for_one(runs: tuple[Path, Path]) -> None:
    document = json.loads(
        _invoke("stats", str(runs[0]), "--table", "ranking", "--format", "json").output
    )
    assert list(document) == ["ranking"] and document["ranking"][0]["strategy"] == "a"


def test_p_values_and_degenerate_intervals_print_sensibly() -> None:
    from raspis.analysis.formats import format_number
    from raspis.analysis.tables import display_frame

    assert format_number(0.0, "p_value") == "<1e-16"
    assert format_number(3e-20, "anova_p") == "<1e-16"
    assert format_number(0.0123, "p_value") == "0.0123"
    frame = pl.DataFrame({"x": [1.5, 2.0], "x_low": [1.5, 1.0], "x_high": [1.5, 3.0]})
    _, rows = display_frame(frame)
    assert rows == [["1.50 (no spread)"], ["2.00 [1.00, 3.00]"]]


@pytest.mark.parametrize("seed", ["-1", str(2**64)])
def test_banker_refuses_a_seed_outside_64_bits(seed: str) -> None:
    result = _invoke("banker", "--simulate", "100", "--seed", seed)
    assert result.exit_code == 2
    assert "--seed" in result.output and "18446744073709551615" in result.output


def test_banker_csv_picks_one_table() -> None:
    both = CliRunner().invoke(cli, ["banker", "--by-call", "--format", "csv"])
    assert both.exit_code == 2 and "--table" in both.output
    one = _invoke("banker", "--table", "by_call", "--format", "csv")
    assert one.exit_code == 0 and one.output.splitlines()[0].startswith("call,called,")
    assert len(one.output.splitlines()) == 16  # a header and 15 calls


@pytest.mark.parametrize("command", ["report", "compare"])
def test_an_output_folder_that_cannot_be_made_is_a_usage_error(
        runs: tuple[Path, Path], command: str, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    arguments = [command, str(runs[0]), str(runs[1]), "-o", str(blocker / "inside")]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 2, result.output
    assert "cannot write" in result.output and "Traceback" not in result.output


def test_every_share_prints_as_a_percentage_and_every_count_as_a_count() -> None:
    """One format per kind: the report's match-length table printed the chance the
    better strategy is ahead as 0.986 and the games a match needs as 15.00 [15.00, 17.00]; the
    variance table the luck-free share as 0.730 beside 51.7%."""
    from raspis.analysis.tables import display_frame

    frame = pl.DataFrame({"p_ahead": [0.98575], "strategy_share": [0.517],
                          "strategy_share_luck_free": [0.7298],
                          "games_model": [15.0], "games_model_low": [15.0],
                          "games_model_high": [17.0], "duplicate_deal_sets": [1234.0],
                          "mu": [222.49]})
    headers, rows = display_frame(frame)
    shown = dict(zip(headers, rows[0], strict=True))
    assert shown == {"p_ahead": "98.6%", "strategy_share": "51.7%",
                     "strategy_share_luck_free": "73.0%", "games_model [CI]": "15 [15, 17]",
                     "duplicate_deal_sets": "1,234", "mu": "222.5"}


def test_a_column_of_points_prints_with_one_number_of_decimals() -> None:
    """Points with the same digits: a column printed 324.4, 7.00 and 0.567 side by
    side (decimals by each value's size); every row of a column now has the decimals its
    smallest value needs, in every output (``display_frame`` feeds the terminal, Markdown and
    HTML), and an estimate shares its decimals with its interval."""
    from raspis.analysis.formats import interval_text
    from raspis.analysis.tables import display_frame, to_markdown

    frame = pl.DataFrame({"strategy": ["a", "b", "c"], "mean_score": [324.4, 7.0, 0.567],
                          "advantage": [12.5, -0.25, 3.0],
                          "advantage_low": [10.0, -1.5, 0.0312],
                          "advantage_high": [15.0, 1.0, 5.97]})
    headers, rows = display_frame(frame)
    assert headers == ["strategy", "mean_score", "advantage [CI]"]
    assert [row[1] for row in rows] == ["324.400", "7.000", "0.567"]
    assert [row[2] for row in rows] == ["12.500 [10.000, 15.000]", "-0.250 [-1.500, 1.000]",
                                        "3.000 [0.031, 5.970]"]
    for row in rows:
        for cell in row[1:]:
            assert {len(n.split(".")[1]) for n in re.findall(r"-?[\d,]+\.\d+", cell)} == {3}
    assert "| 324.400 |" in to_markdown(frame) and "| 0.567 |" in to_markdown(frame)
    # thousands separators, and one number of decimals for an estimate and its bounds
    assert display_frame(pl.DataFrame({"x": [12345.6, 2.5]}))[1] == [["12,345.60"], ["2.50"]]
    assert interval_text(0.567, -3.66, 7.0, "") == "0.567 [-3.660, 7.000]"
    assert interval_text(-3.66, -6.66, -0.656, "") == "-3.660 [-6.660, -0.656]"
    # shares keep their percentages
    assert display_frame(pl.DataFrame({"win_rate": [0.5, 0.0123]}))[1] == [["50.0%"], ["1.23%"]]
