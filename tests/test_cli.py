"""The command line, through click's CliRunner (kept apart from the library tests)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import load_variant, preset_names

PRESETS = ["classic", "odessa", "odessa-short", "georgian", "joker", "joker-52", "joker-pagat",
           "circular-trumps", "oh-hell", "classic-lobovaya", "odessa-long"]


def run(*arguments: str):  # noqa: ANN201
    return CliRunner().invoke(cli, list(arguments))


def test_every_preset_of_the_issue_exists() -> None:
    assert sorted(PRESETS) == preset_names()


def test_variants_list_shows_every_preset() -> None:
    result = run("variants", "list")
    assert result.exit_code == 0
    for name in PRESETS:
        assert re.search(rf"^{re.escape(name)}\s", result.output, re.MULTILINE), name


def schedule_line(output: str, players: int) -> str:
    """The schedule of ``variants show`` at ``players``, its wrapped lines joined."""
    lines = output.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(f"schedule for {players}"))
    rest = []
    for line in lines[first + 1:]:
        if not line.startswith(" "):
            break
        rest.append(line.strip())
    return " ".join([lines[first], *rest])


def test_variants_show_the_presets_as_the_seeds_play_them() -> None:
    # odessa at four: 1..6, six once per player, 5..1, the blind sixes (003 l.17);
    # odessa-long at two: up to 12, not the deck's 18 (003 l.64); classic: dark and no-trump x2
    # (000 l.101, l.155, 002 l.56, 003 l.57), its demands on a deal's first trick (000 l.183).
    odessa = run("variants", "show", "odessa", "--players", "4")
    assert odessa.exit_code == 0, odessa.output
    assert schedule_line(odessa.output, 4).split(": ", 1)[1] == (
        "1 2 3 4 5 6 6 6 6 5 4 3 2 1 6D 6D 6D 6D")
    long = run("variants", "show", "odessa-long", "--players", "2")
    assert max(int(size.rstrip("D")) for size in
               schedule_line(long.output, 2).split(": ", 1)[1].split()) == 12
    classic = run("variants", "show", "classic", "--players", "4").output
    assert "kinds.dark.multiplier = 2" in classic and "kinds.no_trump.multiplier = 2" in classic
    assert "joker.demands_first_trick_only = True" in classic
    # the new options, each with the seed line it comes from
    text = " ".join(" ".join(line.strip().removeprefix("#").split())
                    for line in classic.splitlines())  # comment lines joined, their "#" off
    for words in ("one_trump ('Запросить, чтоб игроки скинули по одному козырю', 000 l.84",
                  "kinds.*.multiplier_scope = 'all'", "(000 l.325:",
                  "scoring.pass_broken_all_mode = 'flat'", "(003 l.55 «по 10 очков"):
        assert words in text, words


def test_variants_show_expands_the_schedule() -> None:
    result = run("variants", "show", "classic", "--players", "4")
    assert result.exit_code == 0, result.output
    assert "bidding.hook = 'always'" in result.output
    # 000: 1..8, the 9-card hand once per player, 8..1, then four special rounds of four
    lines = result.output.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("schedule for 4"))
    # the schedule wraps to fit the terminal, its further lines indented
    rest = [line.strip() for line in lines[first + 1:] if line.startswith(" ")]
    line = " ".join([lines[first], *rest])
    assert "(36 deals" in line
    assert line.split(": ", 1)[1].startswith(
        "1 2 3 4 5 6 7 8 9 9 9 9 8 7 6 5 4 3 2 1 9D 9D 9D 9D 9G")


def test_variants_validate_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nextends = "classic"\nbidding.hook = "off"\n')
    result = run("variants", "validate", str(path))
    assert result.exit_code == 0, result.output
    assert "ok" in result.output


def test_variants_validate_names_file_key_value_and_allowed(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('extends = "classic"\nbidding.hook = "sometimes"\n')
    result = run("variants", "validate", str(path))
    assert result.exit_code == 2
    assert str(path) in result.output and "bidding.hook" in result.output
    assert "'sometimes'" in result.output and "'always'" in result.output
    assert "Traceback" not in result.output


def test_variants_validate_rejects_an_undealable_variant(tmp_path: Path) -> None:
    path = tmp_path / "crowded.toml"
    path.write_text('extends = "georgian"\nplayers = { min = 4, max = 10, only = [4, 10] }\n')
    result = run("variants", "validate", str(path))
    assert result.exit_code == 2
    # 1..8 at ten players: the fourth deal needs 4 x 10 = 40 cards of 36
    assert "10 players" in result.output and "deal 4 needs 4 cards each" in result.output


def test_unknown_preset_lists_the_known_ones() -> None:
    result = run("play", "--variant", "poker")
    assert result.exit_code == 2
    assert "unknown variant 'poker'" in result.output
    for name in PRESETS:
        assert name in result.output


@pytest.mark.parametrize("name", PRESETS)
def test_play_every_preset_at_every_player_count(name: str) -> None:
    for players in load_variant(name).player_counts():
        result = run("play", "--variant", name, "--players", str(players), "--seed", "3")
        assert result.exit_code == 0, (name, players, result.output)
        # a sheet too wide for the terminal comes in parts of a few seats each
        totals = [line for line in result.output.splitlines() if line.startswith("total")]
        assert sum(len(line.split("|")) - 1 for line in totals) == players


def test_play_prints_a_score_sheet_whose_totals_add_up() -> None:
    result = run("play", "--variant", "odessa-short", "--players", "3", "--seed", "9")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    rows = [line for line in lines if re.match(r"^\s*\d+\s+\d+\s", line)]
    assert len(rows) == 14  # 004 at three players: 1..5, 6 x3, 5..1, one blind six-card deal
    running = [0, 0, 0]
    for row in rows:
        cells = row.split("|")[1:]
        for seat, cell in enumerate(cells):
            points, total = (int(value) for value in cell.split()[-2:])
            running[seat] += points
            assert running[seat] == total


def test_play_rejects_an_impossible_player_count() -> None:
    result = run("play", "--variant", "joker", "--players", "6")
    assert result.exit_code == 2
    assert "for 2, 3, 4 players, not 6" in result.output


def test_play_trace_shows_bids_and_cards() -> None:
    result = run("play", "--variant", "joker-52", "--players", "3", "--trace")
    assert result.exit_code == 0
    assert "deal 1: 2 cards" in result.output and " plays " in result.output


def test_strategies_list_names_the_built_ins() -> None:
    result = run("strategies", "list")
    assert result.exit_code == 0
    assert "random" in result.output


def test_the_documented_example_strategy_runs_through_the_cli(
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parent.parent
    source = (root / "examples" / "greedy_bot.py").read_text().rstrip()
    assert source in (root / "docs" / "strategies.md").read_text()
    monkeypatch.chdir(root)
    result = run("play", "--variant", "classic", "--players", "4", "--strategies",
                 "./examples/greedy_bot.py:GreedyBot,heuristic,random,random")
    assert result.exit_code == 0, result.output
    assert "0:./examples/gre" in result.output and "place" in result.output


def test_tournament_with_the_example_strategy_file(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    result = run("tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
                 "./examples/greedy_bot.py:GreedyBot,random,random", "--games", "3",
                 "--workers", "1", "--quiet", "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert "scalar engine" in result.output


def test_strategies_go_by_their_class_name_or_an_alias(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    result = run("tournament", "--variant", "odessa-short", "--players", "3", "--strategies",
                 "mine=./examples/greedy_bot.py:GreedyBot,./examples/greedy_bot.py:GreedyBot,"
                 "rnd=random", "--games", "3", "--workers", "1", "--quiet",
                 "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    stats = run("stats", str(tmp_path / "run"), "--table", "ranking", "--format", "json")
    names = {row["strategy"] for row in json.loads(stats.output)["ranking"]}
    # the alias, the class's own name (GreedyBot.name = "greedy"), the alias of a built-in
    assert names == {"mine", "greedy", "rnd"}
    assert "greedy_bot.py" not in run("stats", str(tmp_path / "run"), "--no-ratings").output


def test_two_strategies_may_not_share_a_name(tmp_path: Path) -> None:
    result = run("tournament", "--players", "3", "--strategies", "a=random,a=heuristic,random",
                 "--games", "2", "--quiet", "--out", str(tmp_path / "run"))
    assert result.exit_code == 2 and "both be named 'a'" in result.output
    assert "Traceback" not in result.output
