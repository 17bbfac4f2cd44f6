"""Every command's output fits a 100-column terminal and cuts nothing (click's CliRunner, in
process): descriptions wrap, an option's description comes once, allowed values are listed, seat
names and intervals come whole."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import load_variant, preset_names
from raspis.engine.options import KindOptions
from raspis.strategies.batch import BATCH_BUILTINS

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 100
BOT = f"{ROOT / 'examples' / 'greedy_bot.py'}:GreedyBot"


def run(*arguments: str, columns: int = WIDTH):  # noqa: ANN201
    result = CliRunner().invoke(cli, list(arguments), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result


def assert_fits(text: str, width: int = WIDTH) -> None:
    long = [line for line in text.splitlines() if len(line) > width]
    assert not long, f"{len(long)} lines over {width} columns, e.g. {long[0]!r}"


def test_variants_list_fits_and_keeps_every_description() -> None:
    output = run("variants", "list").output
    assert_fits(output)
    flat = " ".join(output.split())
    for name in preset_names():
        variant = load_variant(name)
        assert variant.content_hash in output
        assert " ".join(variant.description.split()) in flat, name


def test_variants_list_keeps_one_line_a_preset_where_it_fits() -> None:
    output = run("variants", "list", columns=200).output
    assert len(output.splitlines()) == len(preset_names()) + 1


@pytest.mark.parametrize("name", preset_names())
def test_variants_show_fits(name: str) -> None:
    assert_fits(run("variants", "show", name).output)


def test_variants_show_names_every_option_once_and_each_description_once() -> None:
    output = run("variants", "show", "joker").output
    variant = load_variant("joker")
    for section, items in variant.model_dump(
            exclude={"name", "description", "sources", "for_players", "kinds"}).items():
        for key in items:
            assert f"\n  {section}.{key} = " in output, f"{section}.{key}"
    for key, field in KindOptions.model_fields.items():
        assert f"\n  kinds.*.{key} = " in output, key
        # one row for all deal kinds: its description is printed once, not once per kind
        first_words = " ".join(str(field.description).split()[:6])
        assert " ".join(output.split()).count(first_words) == 1, key
    assert "kinds.dark.multiplier = 2" in output  # a kind that differs is named


def test_variants_show_lists_allowed_values() -> None:
    output = run("variants", "show", "joker").output
    flat = " ".join(output.split())
    assert "values: 'none', 'fixed', 'best_deal'" in flat  # scoring.premium
    assert "values: 'full', 'own_and_last', 'last', 'none', 'own'" in flat  # play.memory
    assert "values (each): 'high', 'high_suit'," in flat  # joker.lead_calls, a list
    assert "values: true, false" in flat  # a boolean


def test_strategies_list_fits() -> None:
    output = run("strategies", "list").output
    assert_fits(output)
    assert "fastheuristic built-in" in output


def test_play_fits_and_names_a_long_seat_in_full() -> None:
    output = run("play", "--strategies", f"{BOT},heuristic,random,random").output
    assert_fits(output)
    assert f"0:{BOT}" in output
    totals = [line for line in output.splitlines() if line.startswith("total")]
    assert len(totals) == 1 and len(totals[0].split("|")) == 5  # four seats side by side


def test_play_with_six_seats_comes_in_parts_that_fit() -> None:
    output = run("play", "--players", "6", "--strategies", "random").output
    assert_fits(output)
    totals = [line for line in output.splitlines() if line.startswith("total")]
    assert len(totals) == 2 and sum(len(line.split("|")) - 1 for line in totals) == 6
    for seat in range(6):
        assert f"{seat}:random" in output


def test_play_match_fits() -> None:
    output = run("play", "--match", "--variant", "joker", "--strategies",
                 f"{BOT},random,random,random").output
    assert_fits(output)
    assert f"0:{BOT}" in output


@pytest.mark.parametrize(("jokers", "seed"), [("2", "1"), ("2", "7"), ("1", "1"), ("0", "3")])
def test_banker_simulation_fits_and_cuts_no_interval(jokers: str, seed: str) -> None:
    output = run("banker", "--simulate", "100000", "--seed", seed, "--jokers", jokers,
                 "--by-call").output
    assert_fits(output)
    intervals = [line for line in output.splitlines() if "[" in line and "│" in line]
    assert len(intervals) == 5
    for line in intervals:  # with one Joker, 1/53's interval lost its "]" at 100 columns
        assert line.count("[") == line.count("]") == 1, line
    if jokers == "2":
        assert "79377733157610457/123566628628414125" in output


def test_tournament_help_lists_every_batch_strategy() -> None:
    output = run("tournament", "--help").output
    assert_fits(output)
    flat = " ".join(output.split())
    for name in BATCH_BUILTINS:
        assert f"{name}," in flat or f"{name})" in flat, name


def test_a_scalar_seat_is_named_once_on_stderr(tmp_path: Path) -> None:
    result = run("tournament", "--strategies", "random,lowest,heuristic,random", "--games", "4",
                 "--workers", "1", "--quiet", "--out", str(tmp_path / "run"))
    assert "scalar engine" in result.stdout  # the summary line, as before
    assert result.stderr.count("no batch version") == 1
    assert "lineup seat 2 (heuristic)" in result.stderr
    assert_fits(result.stdout)
    # the win rate a percentage, as in every report (0.450 beside 45.0% before)
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("classic ")]
    assert len(rows) == 3 and all(re.fullmatch(r"\d+(\.\d+)?%", row[-2]) for row in rows), rows


def test_a_batch_lineup_and_an_all_scalar_lineup_say_nothing(tmp_path: Path) -> None:
    for number, lineup in enumerate(["random,lowest,fastheuristic,random", "heuristic"]):
        result = run("tournament", "--strategies", lineup, "--games", "4", "--workers", "1",
                     "--quiet", "--out", str(tmp_path / f"run{number}"))
        assert "no batch version" not in result.output, lineup


def _commands(group=cli, path=()):  # noqa: ANN001, ANN202
    """Every command and subcommand of raspis, as argument lists."""
    import click

    yield list(path)
    if isinstance(group, click.Group):
        for name, command in group.commands.items():
            yield from _commands(command, (*path, name))


@pytest.mark.parametrize("path", [" ".join(p) for p in _commands()])
def test_every_help_fits(path: str) -> None:
    # balance's --table listed its eleven choices on one 106-column line
    assert_fits(run(*path.split(), "--help").output)


def test_play_trace_fits_and_keeps_every_event() -> None:
    from raspis.strategies import load_strategy, play_game

    output = run("play", "--variant", "joker", "--seed", "7", "--trace").output
    assert_fits(output)  # a deal's line with four hands of nine cards was 167 columns
    strategies = [load_strategy("random") for _ in range(4)]
    game = play_game(load_variant("joker"), 4, 7, strategies, log=True).game
    for event in game.trace().splitlines():
        assert " ".join(event.split()) in " ".join(output.split()), event


def test_compare_piped_fits_100_columns_without_columns_set(tmp_path: Path) -> None:
    """Piped output (compare > compare.txt in make run) fits 100 columns like the rest: the
    answer, the findings, the tables and the notes on stderr (it was 120)."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from raspis.analysis.synthetic import write_run
    from test_compare import _two_variants

    run_ = _two_variants(60, seed=4, deal_rows=True, same_deals=False)
    study = write_run(tmp_path / "study", run_.games.collect(), run_.deal_stats.collect(),
                      run_.deals.collect())
    result = CliRunner().invoke(cli, ["compare", str(study)], env={"COLUMNS": None})
    assert result.exit_code == 0, result.output
    assert "welch" in result.output.lower()
    assert_fits(result.stdout)
    assert_fits(result.stderr)
    assert max(map(len, result.stdout.splitlines())) > 90  # the width is used, not shrunk


def test_the_compile_notice_fits() -> None:
    import io

    from numba import njit
    from raspis.engine.core import compiling

    @njit
    def fresh(value: int) -> int:
        return value * 5 + 2

    stream = io.StringIO()
    with compiling.compile_notice("the rules core and the compiled players", estimate=30,
                                  stream=stream, moving=False):
        assert fresh(2) == 12
    assert_fits(stream.getvalue())
    assert "later runs load it in about a second" in stream.getvalue()


@pytest.mark.parametrize("columns", [70, 100])
def test_compare_tables_cut_no_number(tmp_path: Path, columns: int) -> None:
    """When a table's label columns and one number are wider than the terminal, the labels wrap
    and the number stays whole: at 100 columns the study's table lost an interval's "]" and the
    "4" of classic-hook-from-4."""
    import sys

    from raspis.analysis.compare import compare, display_table
    from raspis.analysis.tables import display_frame

    sys.path.insert(0, str(ROOT / "tests"))
    from raspis.analysis.synthetic import write_run
    from test_compare import _two_variants, _with_rules

    lineup = ("strong", "strong", "fastheuristic", "lowest")
    strong = _with_rules(_two_variants(60, seed=4, deal_rows=True), ("always", "off"), lineup,
                         label="strong")
    weak = _with_rules(_two_variants(60, seed=9, deal_rows=True), ("always", "off"),
                       ("fastheuristic", "fastheuristic", "lowest", "lowest"), label="weak")
    folders = []
    for made in (strong, weak):
        folder = write_run(tmp_path / made.label, made.games.collect(), made.deal_stats.collect(),
                           made.deals.collect())
        manifest = folder / "manifest.json"  # the variants' rules and the lineup, as a run has
        data = json.loads(manifest.read_text())
        data["variants"] = made.manifest["variants"]
        data["config"] = {**data.get("config", {}), **made.manifest["config"]}
        manifest.write_text(json.dumps(data))
        folders.append(str(folder))
    output = run("compare", *folders, columns=columns).output
    assert_fits(output, columns)
    headers, rows = display_frame(display_table(compare(folders)).drop("verdict"))
    assert "lineup" in headers
    for header in ("difference [CI]", "baseline_value", "value"):
        for row in rows:
            assert row[headers.index(header)] in output, (header, row)
